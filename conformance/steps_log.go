package conformance

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cucumber/godog"
)

// registerLog binds the checks of the target's debug log (STEPS.md,
// "Observations").
func (w *world) registerLog(sc *godog.ScenarioContext) {
	sc.Step(`^the target log contains "([^"]*)"$`, func(s string) error { return w.logContains(s, true) })
	sc.Step(`^the target log does not contain "([^"]*)"$`, func(s string) error { return w.logContains(s, false) })
	sc.Step(`^the target log contains the run id of the latest waiting result$`, w.logContainsRunID)
	sc.Step(`^the target log has a "([^"]*)" lifecycle line$`, func(event string) error { return w.logHasLifecycle(event, nil) })
	sc.Step(`^the target log has a "([^"]*)" lifecycle line with:$`, w.logHasLifecycle)
}

// lifecycleEvents are the events of a CM-21.10 lifecycle line.
var lifecycleEvents = map[string]bool{
	"activated": true, "exec start": true, "exec end": true, "suspended": true, "wait start": true,
	"wait end": true, "resumed": true, "expired": true, "disposed": true,
}

var (
	durationField = regexp.MustCompile(`^[0-9]+ms$`)
	countField    = regexp.MustCompile(`^[0-9]+$`)
)

// logHasLifecycle checks the log for a lifecycle line of CM-21.10: one
// that contains "code mode <event> " and carries every field of the table
// with its value. The value {runId} stands for the run id of the latest
// waiting result, {ms} for a duration and {n} for a count; any other value
// is compared literally, and an empty one asks for an empty field.
func (w *world) logHasLifecycle(event string, fields *godog.Table) error {
	if !lifecycleEvents[event] {
		return fmt.Errorf("%q is not a lifecycle event of CM-21.10", event)
	}
	log, err := w.targetLog()
	if err != nil {
		return err
	}
	want := map[string]func(string) bool{}
	var order []string
	if fields != nil {
		for _, row := range fields.Rows {
			if len(row.Cells) != 2 {
				return fmt.Errorf("a lifecycle field row has a name and a value, got %d cells", len(row.Cells))
			}
			name, value := row.Cells[0].Value, row.Cells[1].Value
			switch value {
			case "{runId}":
				id, err := w.latestRunID()
				if err != nil {
					return err
				}
				want[name] = func(v string) bool { return v == id }
			case "{ms}":
				want[name] = durationField.MatchString
			case "{n}":
				want[name] = countField.MatchString
			default:
				want[name] = func(v string) bool { return v == value }
			}
			order = append(order, name)
		}
	}
	marker := "code mode " + event
	var seen []string
	for _, line := range strings.Split(log, "\n") {
		i := strings.Index(line, marker)
		if i < 0 {
			continue
		}
		rest := line[i+len(marker):]
		if rest != "" && rest[0] != ' ' {
			continue // another event with this prefix
		}
		seen = append(seen, strings.TrimSpace(line))
		got := lifecycleFields(rest)
		matched := true
		for _, name := range order {
			v, ok := got[name]
			if !ok || !want[name](v) {
				matched = false
				break
			}
		}
		if matched {
			return nil
		}
	}
	if len(seen) == 0 {
		return fmt.Errorf("the target log has no %q lifecycle line", event)
	}
	return fmt.Errorf("no %q lifecycle line has the fields %s; the %q lines are:\n%s", event, strings.Join(order, ", "), event, strings.Join(seen, "\n"))
}

// lifecycleFields reads the space-separated name=value fields of a
// lifecycle line after its event.
func lifecycleFields(rest string) map[string]string {
	got := map[string]string{}
	for _, f := range strings.Fields(rest) {
		if name, value, ok := strings.Cut(f, "="); ok {
			got[name] = value
		}
	}
	return got
}

// logContainsRunID checks the log for the run id of the latest waiting
// exec or wait result: run ids are the target's own, so no literal can.
func (w *world) logContainsRunID() error {
	id, err := w.latestRunID()
	if err != nil {
		return err
	}
	return w.logContains(id, true)
}

// targetLog returns the target's debug log so far; a target without one
// makes the scenario not applicable.
func (w *world) targetLog() (string, error) {
	if err := w.start(); err != nil {
		return "", err
	}
	lr, ok := w.target.(LogReader)
	if !ok {
		return "", w.notApplicable(NotApplicable("the target exposes no debug log"))
	}
	return lr.Log(), nil
}

func (w *world) logContains(text string, want bool) error {
	log, err := w.targetLog()
	if err != nil {
		return err
	}
	if strings.Contains(log, text) != want {
		return fmt.Errorf("target log contains %q = %v, want %v", text, !want, want)
	}
	return nil
}
