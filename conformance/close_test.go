package conformance

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// turnLog records which turns a recording target started and ended.
type turnLog struct {
	mu    sync.Mutex
	ended []string
}

type recordingTarget struct{ log *turnLog }

func (recordingTarget) Start(context.Context, *Setup) error { return nil }
func (recordingTarget) Close() error                        { return nil }
func (r recordingTarget) StartTurn(_ context.Context, spec TurnSpec) (Turn, error) {
	return recordingTurn{log: r.log, key: spec.SessionKey}, nil
}

type recordingTurn struct {
	log *turnLog
	key string
}

func (recordingTurn) Tools() []ToolDefinition { return nil }
func (recordingTurn) Call(context.Context, string, string, json.RawMessage) (Outcome, error) {
	return Outcome{}, nil
}
func (recordingTurn) Abort(context.Context) error { return nil }
func (t recordingTurn) End(context.Context) error {
	t.log.mu.Lock()
	defer t.log.mu.Unlock()
	t.log.ended = append(t.log.ended, t.key)
	return nil
}
func (recordingTurn) Trajectory(context.Context) ([]json.RawMessage, error) { return nil, nil }

// TestRun_EndsEveryOpenTurn: when a scenario ends, every turn it started
// and left open is ended, latest first, not only the current one; a turn a
// step ended is not ended again, the current one always is. An earlier
// turn left open kept OpenClaw's agent run, and a slot of its gateway's
// command lane, after the scenario.
func TestRun_EndsEveryOpenTurn(t *testing.T) {
	fsys := fstest.MapFS{"a.feature": {Data: []byte(`Feature: a

  @core
  Scenario: sessions
    When a turn starts in session "one"
    And a turn starts in session "two"
    And the turn ends
    And a turn starts in session "three"
    And a turn starts in session "four"
    And the turn ends
`)}}
	log := &turnLog{}
	mk := func() (Target, error) { return recordingTarget{log: log}, nil }
	rep, err := Run(context.Background(), Options{Target: "x", Make: mk, FS: fsys, Baseline: &Baseline{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Counts()["passed"]; got != 1 {
		t.Fatalf("results = %+v, want the scenario passed", rep.Results)
	}
	// "two" and "four" by their steps; at close "four" (current) again,
	// then "three" and "one".
	want := []string{sessionTurn("two").SessionKey, sessionTurn("four").SessionKey,
		sessionTurn("four").SessionKey, sessionTurn("three").SessionKey, sessionTurn("one").SessionKey}
	if diff := cmp.Diff(want, log.ended); diff != "" {
		t.Errorf("ended turns (-want +got):\n%s", diff)
	}
}
