package conformance

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cucumber/godog"
)

// registerReplicas binds the steps of targets made of several replicas
// (SPEC.md section 8.5; STEPS.md, "Replicas").
func (w *world) registerReplicas(sc *godog.ScenarioContext) {
	sc.Step(`^the replica serving the turn is killed$`, w.killReplica)
	sc.Step(`^a turn starts within the same agent run and session$`, w.sameRunAndSessionTurn)
	sc.Step(`^the model calls wait in the latest (\d+) turns at the same time$`, w.waitInTurns)
	sc.Step(`^every other result is refused with "([^"]*)" or "([^"]*)"$`, w.groupOthersRefused)
}

// replicated returns the target as a Replicated one, or a not-applicable
// error.
func (w *world) replicated() (Replicated, error) {
	if err := w.start(); err != nil {
		return nil, err
	}
	r, ok := w.target.(Replicated)
	if !ok {
		return nil, w.notApplicable(NotApplicable("the target is one process, not replicas"))
	}
	return r, nil
}

// killReplica kills the replica serving the current turn. The turn's
// client request dies with it: the turn is settled.
func (w *world) killReplica() error {
	r, err := w.replicated()
	if err != nil {
		return err
	}
	ts, err := w.turn()
	if err != nil {
		return err
	}
	name, err := r.ReplicaOf(ts.turn)
	if err != nil {
		return err
	}
	ctx, cancel := w.ctx()
	defer cancel()
	if err := r.KillReplica(ctx, name); err != nil {
		return fmt.Errorf("kill replica %s: %w", name, err)
	}
	ts.settled = true
	return nil
}

// sameRunAndSessionTurn starts a turn of the current turn's agent run,
// session and agent: a turn that may wait for the runs of the current one
// (CM-8.19). On a Replicated target it is served by the next replica.
func (w *world) sameRunAndSessionTurn() error {
	if w.cur == nil {
		return errors.New("no earlier turn to share the agent run and session with")
	}
	return w.startTurn(w.cur.spec)
}

// waitInTurns sends a wait for the latest waiting run in each of the
// latest n turns at once, and records the results as a group in turn
// order. On a Replicated target the turns must be served by n different
// replicas: the step races replicas, not one replica's turns.
func (w *world) waitInTurns(n int) error {
	if n < 2 || n > len(w.turns) {
		return fmt.Errorf("want between 2 and %d turns, the turns started so far", len(w.turns))
	}
	turns := w.turns[len(w.turns)-n:]
	if r, ok := w.target.(Replicated); ok {
		var names []string
		for _, ts := range turns {
			name, err := r.ReplicaOf(ts.turn)
			if err != nil {
				return err
			}
			if slices.Contains(names, name) {
				return fmt.Errorf("two of the latest %d turns are served by replica %s: the step races different replicas", n, name)
			}
			names = append(names, name)
		}
	}
	args, err := w.waitLatestArgs()
	if err != nil {
		return err
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = w.nextCallID()
	}
	return w.callGroup(turns, ids, "wait", args)
}

// groupOthersRefused checks that every result of the group that did not
// complete is a refusal of the run (code invalid_input) with one of two
// messages.
func (w *world) groupOthersRefused(msg1, msg2 string) error {
	got, err := w.groupPayloads()
	if err != nil {
		return err
	}
	for i, g := range got {
		m, _ := g.(map[string]any)
		if m["status"] == "completed" {
			continue
		}
		if m["status"] != "failed" || m["code"] != "invalid_input" || (m["error"] != msg1 && m["error"] != msg2) {
			return fmt.Errorf("result %d is %s: want completed, or failed with code invalid_input and %q or %q", i+1, show(g), msg1, msg2)
		}
	}
	return nil
}
