package openclaw

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/codemodekit/kit/conformance"
)

// maxLeftRuns is how many suspended runs earlier scenarios may have left
// on a gateway that a scenario's first turn reuses. OpenClaw holds at most
// 64 per process (CM-8.31) until they expire (15 minutes by default), and
// a long-lived gateway would gather them from scenario to scenario until
// an exec is refused with "too many suspended code mode runs."; a gateway
// past the bound is stopped. A scenario that asserts the limit itself
// (Setup.WholeProcess) takes a gateway that holds none.
const maxLeftRuns = 8

// suspendedRuns are the ids of the code-mode runs a gateway holds
// suspended, as the answers of exec and wait show them: a waiting result
// adds its run, a wait that ends its run removes it. Runs that expire are
// not seen, so the count errs high.
type suspendedRuns struct {
	mu  sync.Mutex
	ids map[string]bool
}

// record notes what one exec or wait call's outcome says of the runs.
func (s *suspendedRuns) record(name string, args json.RawMessage, out conformance.Outcome) {
	if name != "exec" && name != "wait" {
		return
	}
	var payload struct {
		Status string `json:"status"`
		RunID  string `json:"runId"`
	}
	if json.Unmarshal(out.Details, &payload) != nil {
		return
	}
	var in struct {
		RunID string `json:"runId"`
	}
	_ = json.Unmarshal(args, &in)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]bool{}
	}
	if name == "wait" && in.RunID != "" && payload.Status != "waiting" {
		delete(s.ids, in.RunID)
	}
	if payload.Status == "waiting" && payload.RunID != "" {
		s.ids[payload.RunID] = true
	}
}

// count returns how many runs the gateway holds suspended.
func (s *suspendedRuns) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ids)
}

// Call records the runs the call suspends or ends on the turn's gateway.
func (tu *turn) Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (conformance.Outcome, error) {
	out, err := tu.Turn.Call(ctx, toolCallID, name, args)
	if err == nil {
		tu.g.runs.record(name, args, out)
	}
	return out, err
}

// CallBatch records the runs each call suspends or ends.
func (tu *turn) CallBatch(ctx context.Context, calls []conformance.ToolCall) ([]conformance.Outcome, error) {
	outs, err := tu.Turn.CallBatch(ctx, calls)
	if err == nil {
		for i, out := range outs {
			if i < len(calls) {
				tu.g.runs.record(calls[i].Name, calls[i].Arguments, out)
			}
		}
	}
	return outs, err
}
