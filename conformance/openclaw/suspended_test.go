package openclaw

import (
	"encoding/json"
	"testing"

	"github.com/codemodekit/kit/conformance"
)

// TestSuspendedRuns follows the runs of a gateway through the answers of
// exec and wait calls.
func TestSuspendedRuns(t *testing.T) {
	out := func(payload string) conformance.Outcome {
		return conformance.Outcome{Details: json.RawMessage(payload)}
	}
	var s suspendedRuns
	for _, step := range []struct {
		name, args, payload string
		want                int
	}{
		{"exec", `{"code":"1"}`, `{"status":"completed","value":1}`, 0},
		{"exec", `{"code":"a"}`, `{"status":"waiting","runId":"r1"}`, 1},
		{"exec", `{"code":"b"}`, `{"status":"waiting","runId":"r2"}`, 2},
		{"wait", `{"runId":"r1"}`, `{"status":"waiting","runId":"r1"}`, 2},
		{"wait", `{"runId":"r1"}`, `{"status":"completed","value":2}`, 1},
		{"wait", `{"runId":"r2"}`, `{"status":"failed","code":"timeout"}`, 0},
		{"read", `{}`, `{"status":"waiting","runId":"r3"}`, 0},
		{"exec", `{}`, `not json`, 0},
	} {
		s.record(step.name, json.RawMessage(step.args), out(step.payload))
		if got := s.count(); got != step.want {
			t.Fatalf("after %s %s -> %s: %d runs suspended, want %d", step.name, step.args, step.payload, got, step.want)
		}
	}
}
