package conformance

import (
	"fmt"
	"strings"

	"github.com/cucumber/godog"
)

// registerLog binds the checks of the target's debug log (STEPS.md,
// "Observations").
func (w *world) registerLog(sc *godog.ScenarioContext) {
	sc.Step(`^the target log contains "([^"]*)"$`, func(s string) error { return w.logContains(s, true) })
	sc.Step(`^the target log does not contain "([^"]*)"$`, func(s string) error { return w.logContains(s, false) })
	sc.Step(`^the target log contains the run id of the latest waiting result$`, w.logContainsRunID)
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

func (w *world) logContains(text string, want bool) error {
	if err := w.start(); err != nil {
		return err
	}
	lr, ok := w.target.(LogReader)
	if !ok {
		return w.notApplicable(NotApplicable("the target exposes no debug log"))
	}
	if strings.Contains(lr.Log(), text) != want {
		return fmt.Errorf("target log contains %q = %v, want %v", text, !want, want)
	}
	return nil
}
