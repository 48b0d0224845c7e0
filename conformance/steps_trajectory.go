package conformance

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/cucumber/godog"
)

// registerTrajectory binds the checks of the turn's trajectory events
// (STEPS.md, "Observations").
func (w *world) registerTrajectory(sc *godog.ScenarioContext) {
	sc.Step(`^the trajectory includes:$`, w.trajectoryIncludes)
	sc.Step(`^the trajectory shows "([^"]+)" under the exec call$`, w.trajectoryUnderExec)
	sc.Step(`^the trajectory has a "(phase|log)" note "([^"]*)"$`, func(kind, text string) error {
		return w.trajectoryNote(kind, func(got string) bool { return got == text }, fmt.Sprintf("%q", text))
	})
	sc.Step(`^the trajectory has a "(phase|log)" note of (\d+) characters starting with "([^"]*)"$`, func(kind string, n int, prefix string) error {
		return w.trajectoryNote(kind, func(got string) bool {
			return utf16Len(got) == n && strings.HasPrefix(got, prefix)
		}, fmt.Sprintf("of %d characters starting with %q", n, prefix))
	})
}

func (w *world) trajectory() ([]any, error) {
	ts, err := w.turn()
	if err != nil {
		return nil, err
	}
	ctx, cancel := w.ctx()
	defer cancel()
	raw, err := ts.turn.Trajectory(ctx)
	if err != nil {
		if errors.Is(err, ErrNotApplicable) {
			return nil, w.notApplicable(err)
		}
		return nil, err
	}
	out := make([]any, 0, len(raw))
	for _, r := range raw {
		v, err := decodeJSON(r)
		if err != nil {
			return nil, fmt.Errorf("trajectory event is not JSON: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

func (w *world) trajectoryIncludes(d *godog.DocString) error {
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	wa, ok := want.([]any)
	if !ok {
		return errors.New("the trajectory includes: want a JSON array")
	}
	got, err := w.trajectory()
	if err != nil {
		return err
	}
	return matchSequence(wa, got)
}

func (w *world) trajectoryUnderExec(tool string) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	if ts.firstExecID == "" {
		return errors.New("the turn has no exec call")
	}
	got, err := w.trajectory()
	if err != nil {
		return err
	}
	for _, e := range got {
		m, _ := e.(map[string]any)
		if m["name"] == tool && m["parentToolCallId"] == ts.firstExecID {
			return nil
		}
	}
	return fmt.Errorf("no trajectory event for %q under exec call %q; trajectory: %s", tool, ts.firstExecID, show(got))
}

// trajectoryNote checks the turn's trajectory for a swarm_note event of the
// kind whose text passes ok (CM-23.11).
func (w *world) trajectoryNote(kind string, ok func(string) bool, what string) error {
	events, err := w.trajectory()
	if err != nil {
		return err
	}
	var notes []string
	for _, e := range events {
		m, isObject := e.(map[string]any)
		if !isObject || m["type"] != "swarm_note" || m["name"] != kind {
			continue
		}
		text, _ := m["text"].(string)
		if ok(text) {
			return nil
		}
		notes = append(notes, fmt.Sprintf("%q (%d characters)", shorten(text), utf16Len(text)))
	}
	if len(notes) == 0 {
		return fmt.Errorf("the trajectory has no %q note", kind)
	}
	return fmt.Errorf("no %q note is %s; the %q notes are %s", kind, what, kind, strings.Join(notes, ", "))
}

// utf16Len is the length of s in UTF-16 code units, JavaScript's length.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// shorten cuts a long text for a message.
func shorten(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "..."
	}
	return s
}
