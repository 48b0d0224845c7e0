package codemode

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// echoTool returns its input as details and counts its calls.
func echoTool(calls *atomic.Int32) Tool {
	return Tool{
		Name: "mirror", Description: "Echo the input.", Source: SourceCore,
		Execute: func(ctx context.Context, c ToolCall) (ToolResult, error) {
			calls.Add(1)
			r := TextResult(string(c.Input))
			r.Details = c.Input
			return r, nil
		},
	}
}

// TestController_HostileProgramRegressions pins the controller fixes found by
// the hostile-program corpus (fixtures/hostile, stack-01, stack-02 and
// realm-11).
func TestController_HostileProgramRegressions(t *testing.T) {
	tests := []struct {
		name, cfg, code string
		want            any
		wantCalls       int32
		reason          string
	}{
		{
			name: "prepareStackTrace never sees bridge functions",
			cfg:  `{"tools":{"codeMode":{"enabled":true,"maxPendingToolCalls":1}}}`,
			code: `let host;
const leaked = [];
Error.prepareStackTrace = (e, sites) => {
  for (const s of sites) {
    const fn = s.getFunction?.();
    if (typeof fn === "function") leaked.push(fn.name);
    if (s.getFunctionName?.() === "__openclawHostRequest") host = fn;
  }
  return "x";
};
const first = tools.callValue("openclaw:core:mirror", { n: 1 });
await tools.callValue("openclaw:core:mirror", { n: 2 }).catch(() => 0);
await tools.callValue("openclaw:core:nope").catch(() => 0);
await first;
let forged = "unreachable";
if (typeof host === "function") {
  host("callValue", JSON.stringify({ id: "openclaw:core:mirror", input: { forged: true } }), "bridge:callValue:99");
  forged = "dispatched";
}
return { leaked, forged, hook: typeof Error.prepareStackTrace };`,
			want:      map[string]any{"leaked": []any{}, "forged": "unreachable", "hook": "undefined"},
			wantCalls: 1,
			reason:    "CallSite.getFunction() handed out settle, request and __openclawHostRequest (CM-10.7)",
		},
		{
			name: "a hostile input keeps the tool id",
			cfg:  `{"tools":{"codeMode":true}}`,
			code: `const cyclic = {};
cyclic.self = cyclic;
return [
  await tools.callValue("openclaw:core:mirror", { get x() { throw new Error("getter"); } }),
  await tools.callValue("openclaw:core:mirror", cyclic),
  await tools.callValue("openclaw:core:mirror", { ok: [1, -0] }),
];`,
			want:      []any{"[object Object]", "[object Object]", map[string]any{"ok": []any{1.0, 0.0}}},
			wantCalls: 3,
			reason:    "safe() over the whole request turned it into \"[object Object]\" and the id was lost (CM-7.17, CM-10.15)",
		},
	}
	rt := newTestRuntime(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			turn := execTurn(t, rt, tt.cfg, echoTool(&calls))
			got := call(t, turn, "exec", map[string]any{"code": tt.code})
			if got["status"] != "completed" {
				t.Fatalf("exec = %v, want completed\nreason: %s", got, tt.reason)
			}
			var want any
			b, _ := json.Marshal(tt.want)
			_ = json.Unmarshal(b, &want)
			if diff := cmp.Diff(want, got["value"]); diff != "" {
				t.Errorf("value mismatch (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
			if n := calls.Load(); n != tt.wantCalls {
				t.Errorf("mirror ran %d times, want %d\nreason: %s", n, tt.wantCalls, tt.reason)
			}
		})
	}
}
