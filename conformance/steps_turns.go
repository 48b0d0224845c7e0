package conformance

import (
	"errors"
	"fmt"

	"github.com/cucumber/godog"
)

// registerTurns binds the steps that start, abort and end agent runs,
// end sessions and restart the target (STEPS.md, "Turns"), and the check
// of a turn that failed to start.
func (w *world) registerTurns(sc *godog.ScenarioContext) {
	sc.Step(`^a turn starts$`, func() error { return w.startTurn(defaultTurn()) })
	sc.Step(`^a turn starts for agent "([^"]+)"$`, func(agent string) error {
		t := defaultTurn()
		t.AgentID, t.SessionKey = agent, "agent:"+agent+":main"
		return w.startTurn(t)
	})
	sc.Step(`^a turn starts in session "([^"]+)"$`, func(s string) error { return w.startTurn(sessionTurn(s)) })
	sc.Step(`^a turn starts from sender "([^"]+)" on channel "([^"]+)"$`, func(sender, channel string) error {
		t := defaultTurn()
		t.SenderID, t.ChannelID = sender, channel
		return w.startTurn(t)
	})
	sc.Step(`^a turn starts in session "([^"]+)" without the client tool "([^"]+)"$`, func(s, tool string) error {
		t := sessionTurn(s)
		t.WithoutClientTools = []string{tool}
		return w.startTurn(t)
	})
	sc.Step(`^a turn starts in session "([^"]+)" within the same agent run$`, w.sameRunTurn)
	sc.Step(`^a turn starts for agent "([^"]+)" within the same agent run and session$`, w.sameSessionTurn)
	sc.Step(`^a turn starts with tools disabled$`, func() error { t := defaultTurn(); t.DisableTools = true; return w.startTurn(t) })
	sc.Step(`^a raw model call starts$`, func() error { t := defaultTurn(); t.NoTools = true; return w.startTurn(t) })
	sc.Step(`^the turn is aborted$`, w.abortTurn)
	sc.Step(`^the turn ends$`, w.endTurn)
	sc.Step(`^the gateway restarts$`, w.restart)
	sc.Step(`^the session is (reset|deleted)$`, func(how string) error { return w.endSession("", sessionEnd(how)) })
	sc.Step(`^the session "([^"]+)" is (reset|deleted)$`, func(s, how string) error {
		return w.endSession(sessionTurn(s).SessionKey, sessionEnd(how))
	})
	sc.Step(`^the turn will be aborted once a call of the tool "([^"]+)" is held$`, w.abortOnceHeld)
	sc.Step(`^the turn fails with "([^"]*)"$`, w.turnFails)
}

func defaultTurn() TurnSpec {
	return TurnSpec{AgentID: "main", SessionID: "session-1", SessionKey: "agent:main:main"}
}

func sessionTurn(s string) TurnSpec {
	return TurnSpec{AgentID: "main", SessionID: s, SessionKey: "agent:main:" + s}
}

func (w *world) sameRunTurn(session string) error {
	if w.cur == nil {
		return errors.New("no earlier turn to share the agent run with")
	}
	t := sessionTurn(session)
	t.RunID = w.cur.spec.RunID
	return w.startTurn(t)
}

// sameSessionTurn starts a turn that differs from the current one only in
// its agent id.
func (w *world) sameSessionTurn(agent string) error {
	if w.cur == nil {
		return errors.New("no earlier turn to share the agent run and session with")
	}
	t := w.cur.spec
	t.AgentID = agent
	return w.startTurn(t)
}

func (w *world) abortTurn() error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	ts.settled = true
	ctx, cancel := w.ctx()
	defer cancel()
	return ts.turn.Abort(ctx)
}

func (w *world) endTurn() error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	ts.settled = true
	ctx, cancel := w.ctx()
	defer cancel()
	return ts.turn.End(ctx)
}

// sessionEnd maps the words of the session steps to a SessionEnd.
func sessionEnd(how string) SessionEnd {
	if how == "reset" {
		return SessionReset
	}
	return SessionDeleted
}

// endSession ends a session as its host does when it is reset or deleted;
// "" is the session of the latest turn.
func (w *world) endSession(key string, how SessionEnd) error {
	if key == "" {
		ts, err := w.turn()
		if err != nil {
			return err
		}
		key = ts.spec.SessionKey
	}
	ender, ok := w.target.(SessionEnder)
	if !ok {
		return w.notApplicable(NotApplicable("the target cannot end a session"))
	}
	ctx, cancel := w.ctx()
	defer cancel()
	if err := ender.EndSession(ctx, key, how); err != nil {
		if errors.Is(err, ErrNotApplicable) {
			return w.notApplicable(err)
		}
		return fmt.Errorf("end session %s: %w", key, err)
	}
	return nil
}

func (w *world) restart() error {
	if err := w.start(); err != nil {
		return err
	}
	r, ok := w.target.(Restarter)
	if !ok {
		return w.notApplicable(NotApplicable("the target cannot restart"))
	}
	if err := w.syncConfig(); err != nil {
		return err
	}
	ctx, cancel := w.ctx()
	defer cancel()
	return r.Restart(ctx)
}

// abortOnceHeld aborts the current agent run as soon as a call of tool name
// waits at its gate, so that the abort meets the run inside that call
// however long the target takes to reach it; a run that never calls the
// tool is not aborted. The watch ends with the scenario.
func (w *world) abortOnceHeld(name string) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	go func() {
		if !w.awaitHeld(name, w.ended, someHeld) {
			return
		}
		ctx, cancel := w.ctx()
		defer cancel()
		_ = ts.turn.Abort(ctx)
	}()
	return nil
}

func (w *world) turnFails(text string) error {
	if w.turnErr == nil {
		return errors.New("the latest turn started without failing")
	}
	got := w.turnErr.Error()
	w.turnErr = nil
	if got != text {
		return fmt.Errorf("turn failed with %q, want %q", got, text)
	}
	return nil
}
