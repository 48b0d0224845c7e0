package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func newTestRuntime(t *testing.T) *Runtime {
	t.Helper()
	rt := New(context.Background(), Options{})
	if err := rt.Available(); err != nil {
		t.Fatalf("runtime unavailable: %v", err)
	}
	t.Cleanup(rt.Close)
	return rt
}

func weatherTool() Tool {
	return Tool{
		Name: "weather", Description: "Current weather for a city.", Source: SourceCore,
		Parameters: json.RawMessage(`{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}`),
		Execute: func(ctx context.Context, c ToolCall) (ToolResult, error) {
			var in struct{ City string }
			_ = json.Unmarshal(c.Input, &in)
			r := TextResult("sunny in " + in.City)
			r.Details = json.RawMessage(`{"city":"` + in.City + `","temp":21}`)
			return r, nil
		},
	}
}

func execTurn(t *testing.T, rt *Runtime, cfg string, tools ...Tool) *Turn {
	t.Helper()
	turn, err := rt.StartTurn(context.Background(), TurnOptions{Config: json.RawMessage(cfg), AgentID: "main", SessionID: "s1", SessionKey: "agent:main:main", RunID: "r1", Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(turn.End)
	return turn
}

func call(t *testing.T, turn *Turn, name string, args any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(args)
	res, err := turn.Call(context.Background(), "call_1", name, b)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(res.Details, &out); err != nil {
		t.Fatalf("details %s: %v", res.Details, err)
	}
	return out
}

func TestTurn_Surface(t *testing.T) {
	rt := newTestRuntime(t)
	turn := execTurn(t, rt, `{"tools":{"codeMode":true}}`, weatherTool())
	var names []string
	for _, d := range turn.Tools() {
		names = append(names, d.Name)
	}
	if diff := cmp.Diff([]string{"exec", "wait"}, names); diff != "" {
		t.Errorf("visible tools mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(turn.Tools()[0].Description, `- "openclaw:core:weather" { city: string } -> ?`) {
		t.Errorf("quick index missing from description:\n%s", turn.Tools()[0].Description)
	}
}

func TestTurn_Exec(t *testing.T) {
	rt := newTestRuntime(t)
	turn := execTurn(t, rt, `{"tools":{"codeMode":true}}`, weatherTool())
	tests := []struct {
		name string
		code string
		want map[string]any
	}{
		{name: "value", code: "return 1+2", want: map[string]any{"status": "completed", "value": 3.0}},
		{name: "callValue", code: `return await tools.callValue("openclaw:core:weather", {city: "Oslo"})`,
			want: map[string]any{"status": "completed", "value": map[string]any{"city": "Oslo", "temp": 21.0}}},
		{name: "convenience", code: `return (await tools.weather({city: "Rome"})).city`, want: map[string]any{"status": "completed", "value": "Rome"}},
		{name: "search", code: `return (await tools.search("weather")).map(e => e.id)`,
			want: map[string]any{"status": "completed", "value": []any{"openclaw:core:weather"}}},
		{name: "throw", code: `throw new TypeError("bad")`, want: map[string]any{"status": "failed", "code": "internal_error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := call(t, turn, "exec", map[string]any{"code": tt.code})
			for k, want := range tt.want {
				if diff := cmp.Diff(want, got[k]); diff != "" {
					t.Errorf("%s mismatch (-want +got):\n%s\nresult: %v", k, diff, got)
				}
			}
		})
	}
}

func TestTurn_YieldAndWait(t *testing.T) {
	rt := newTestRuntime(t)
	turn := execTurn(t, rt, `{"tools":{"codeMode":true}}`, weatherTool())
	got := call(t, turn, "exec", map[string]any{"code": `text("before"); const r = await yield_control("pause"); text("after"); return r`})
	if got["status"] != "waiting" || got["reason"] != "yield" {
		t.Fatalf("exec = %v, want waiting/yield", got)
	}
	got2 := call(t, turn, "wait", map[string]any{"runId": got["runId"]})
	if got2["status"] != "completed" {
		t.Fatalf("wait = %v, want completed", got2)
	}
	if diff := cmp.Diff(map[string]any{"status": "yielded", "reason": "pause"}, got2["value"]); diff != "" {
		t.Errorf("value mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{map[string]any{"type": "text", "text": "after"}}, got2["output"]); diff != "" {
		t.Errorf("output mismatch (-want +got):\n%s", diff)
	}
	if n := rt.Stats().Suspended; n != 0 {
		t.Errorf("suspended runs after completion = %d, want 0", n)
	}
}

// TestRuntime_EndSession: ending a session disposes its suspended runs and
// no other session's (CM-8.40).
func TestRuntime_EndSession(t *testing.T) {
	rt := newTestRuntime(t)
	cfg := json.RawMessage(`{"tools":{"codeMode":true}}`)
	suspend := func(session string) {
		t.Helper()
		turn, err := rt.StartTurn(context.Background(), TurnOptions{Config: cfg, AgentID: "main", SessionID: session,
			SessionKey: "agent:main:" + session, RunID: "run-" + session, Tools: []Tool{weatherTool()}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(turn.End)
		for range 2 {
			if got := call(t, turn, "exec", map[string]any{"code": `return await yield_control("hold")`}); got["status"] != "waiting" {
				t.Fatalf("exec in %s = %v, want waiting", session, got)
			}
		}
	}
	suspend("a")
	suspend("b")
	if got := rt.EndSession("agent:main:nobody"); got != 0 {
		t.Errorf("EndSession of a session without runs disposed %d runs", got)
	}
	if got := rt.EndSession("agent:main:a"); got != 2 {
		t.Errorf("EndSession(a) disposed %d runs, want 2", got)
	}
	if got := rt.Stats().Suspended; got != 2 {
		t.Errorf("%d runs suspended after session a ended, want session b's 2", got)
	}
}

// failingTranscripts refuses to append records of one type.
type failingTranscripts struct {
	TranscriptStore
	failType string
}

func (f failingTranscripts) Append(sessionKey string, rec TranscriptRecord) error {
	if rec.Type == f.failType {
		return errors.New("disk full")
	}
	return f.TranscriptStore.Append(sessionKey, rec)
}

// TestTurn_CallReportsTranscriptFailures: a transcript store that fails is
// the host's failure, reported through Call's error; a call that could not
// be recorded does not run.
func TestTurn_CallReportsTranscriptFailures(t *testing.T) {
	tests := []struct {
		failType   string
		wantRuns   int32
		wantResult string
		reason     string
	}{
		{failType: "tool_call", wantRuns: 0, wantResult: "", reason: "an unrecorded call never runs"},
		{failType: "tool_result", wantRuns: 1, wantResult: `{"n":1}`, reason: "the call ran: its result comes with the error"},
	}
	for _, tt := range tests {
		t.Run(tt.failType, func(t *testing.T) {
			rt := New(context.Background(), Options{Transcripts: failingTranscripts{NewMemoryTranscripts(), tt.failType}})
			t.Cleanup(rt.Close)
			var runs atomic.Int32
			mirror := echoTool(&runs)
			turn := execTurn(t, rt, `{}`, mirror)
			res, err := turn.Call(context.Background(), "call_1", "mirror", json.RawMessage(`{"n":1}`))
			if err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Errorf("Call error = %v, want the store's failure\nreason: %s", err, tt.reason)
			}
			if n := runs.Load(); n != tt.wantRuns {
				t.Errorf("the tool ran %d times, want %d\nreason: %s", n, tt.wantRuns, tt.reason)
			}
			if got := string(res.Details); got != tt.wantResult {
				t.Errorf("result details = %q, want %q\nreason: %s", got, tt.wantResult, tt.reason)
			}
		})
	}
}
