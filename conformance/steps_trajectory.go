package conformance

import (
	"errors"
	"fmt"

	"github.com/cucumber/godog"
)

// registerTrajectory binds the checks of the turn's trajectory events
// (STEPS.md, "Observations").
func (w *world) registerTrajectory(sc *godog.ScenarioContext) {
	sc.Step(`^the trajectory includes:$`, w.trajectoryIncludes)
	sc.Step(`^the trajectory shows "([^"]+)" under the exec call$`, w.trajectoryUnderExec)
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
