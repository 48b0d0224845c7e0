package conformance

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
)

// TestWaitRefused: without the refusal-form clauses a refusal is any
// outcome that carries the message and resumed nothing; with them, only a
// failed invalid_input payload in the input phase.
func TestWaitRefused(t *testing.T) {
	const msg = "code mode run is unavailable or expired."
	form := `{"status":"failed","code":"invalid_input","failurePhase":"input","error":"` + msg + `","bridgeDispatchStarted":false,"output":[],"replaySafe":false,"telemetry":{}}`
	tests := []struct {
		name       string
		outcome    Outcome
		tags       []string
		wantRefuse bool
	}{
		{name: "form", outcome: Outcome{Details: json.RawMessage(form)}, wantRefuse: true},
		{name: "form, form clause", outcome: Outcome{Details: json.RawMessage(form)}, tags: []string{"@CM-8.20"}, wantRefuse: true},
		{name: "error object", outcome: Outcome{Text: `{"status":"error","tool":"wait","error":"` + msg + `"}`}, wantRefuse: true},
		{name: "error object, form clause", outcome: Outcome{Text: `{"status":"error","tool":"wait","error":"` + msg + `"}`}, tags: []string{"@CM-8.20"}},
		{name: "quoted in a wrapper", outcome: Outcome{Details: json.RawMessage(`{"status":"failed","code":"internal_error","error":"{\"status\":\"error\",\"error\":\"` + msg + `\"}"}`)}, wantRefuse: true},
		{name: "rejected call text", outcome: Outcome{Text: "Error: " + msg, IsError: true}, wantRefuse: true},
		{name: "another message", outcome: Outcome{Text: `{"status":"error","error":"code mode run belongs to a different agent run."}`}},
		{name: "resumed", outcome: Outcome{Details: json.RawMessage(`{"status":"completed","value":1,"error":"` + msg + `"}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := faketools.NewHost()
			w := &world{host: host, setup: Setup{Host: host}}
			w.setTags(tt.tags)
			w.record(callRecord{name: "wait", outcome: tt.outcome, payload: decodePayload(tt.outcome)})
			err := w.waitRefused(msg)
			if (err == nil) != tt.wantRefuse {
				t.Errorf("waitRefused = %v, want refused %v", err, tt.wantRefuse)
			}
		})
	}
}

// TestVisibleToolsView: the exact set is CM-4.1's and the order CM-4.2's;
// without them, tools the setup never defined are ignored, but never exec
// and wait, and never a tool the setup defined.
func TestVisibleToolsView(t *testing.T) {
	tests := []struct {
		name string
		got  []string
		want string
		tags []string
		ok   bool
	}{
		{name: "exact", got: []string{"exec", "wait"}, want: "exec, wait", ok: true},
		{name: "target's own tool", got: []string{"exec", "sessions_yield", "wait"}, want: "exec, wait", ok: true},
		{name: "target's own tool, CM-4.1", got: []string{"exec", "sessions_yield", "wait"}, want: "exec, wait", tags: []string{"@CM-4.1"}},
		{name: "order", got: []string{"wait", "exec"}, want: "exec, wait", ok: true},
		{name: "order, CM-4.2", got: []string{"wait", "exec"}, want: "exec, wait", tags: []string{"@CM-4.2"}},
		{name: "defined tool leaks", got: []string{"exec", "wait", "weather"}, want: "exec, wait"},
		{name: "exec leaks", got: []string{"exec", "read"}, want: "read"},
		{name: "missing", got: []string{"exec"}, want: "exec, wait"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := faketools.NewHost()
			w := &world{host: host, setup: Setup{Host: host, Tools: []wire.Spec{{Name: "weather"}, {Name: "read"}}}}
			w.setTags(tt.tags)
			defs := make([]ToolDefinition, len(tt.got))
			for i, n := range tt.got {
				defs[i] = ToolDefinition{Name: n}
			}
			w.cur = &turnState{turn: staticTurn(defs)}
			if err := w.visibleToolsAre(tt.want); (err == nil) != tt.ok {
				t.Errorf("visibleToolsAre(%q) with %q = %v, want ok %v", tt.want, tt.got, err, tt.ok)
			}
		})
	}
}

// staticTurn is a Turn that only has tools.
type staticTurn []ToolDefinition

func (s staticTurn) Tools() []ToolDefinition { return s }
func (staticTurn) Call(context.Context, string, string, json.RawMessage) (Outcome, error) {
	return Outcome{}, nil
}
func (staticTurn) Abort(context.Context) error                           { return nil }
func (staticTurn) End(context.Context) error                             { return nil }
func (staticTurn) Trajectory(context.Context) ([]json.RawMessage, error) { return nil, nil }
