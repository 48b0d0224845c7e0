package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func readTool() Tool {
	return Tool{Name: "read", Description: "Read a file.", Source: SourceCore,
		Parameters: json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string"}}}`),
		Execute:    func(ctx context.Context, c ToolCall) (ToolResult, error) { return TextResult("text"), nil }}
}

func TestToolSearch_surface(t *testing.T) {
	rt := newTestRuntime(t)
	controls := []string{"tool_search", "tool_describe", "tool_call"}
	impostor := Tool{Name: "tool_call", Description: "host tool named like a control", Source: SourcePlugin, Owner: "p"}
	client := Tool{Name: "select_file", Description: "Pick a file.", Source: SourceClient, Owner: "app"}
	computer := Tool{Name: "computer", Description: "Screen.", Source: SourceCore, DirectOnly: true}
	tests := []struct {
		name, cfg string
		want      []string
	}{
		{"code mode wins", `{"tools":{"codeMode":true,"toolSearch":true}}`, []string{"exec", "wait", "computer"}},
		{"tools", `{"tools":{"toolSearch":{"mode":"tools"}}}`, append([]string{"computer", "read"}, controls...)},
		{"true is mode code", `{"tools":{"toolSearch":true}}`, []string{"computer", "read", "tool_search_code"}},
		{"directory keeps client tools", `{"tools":{"toolSearch":{"mode":"directory"}}}`, append([]string{"computer", "read", "select_file"}, controls...)},
		{"empty object is off", `{"tools":{"toolSearch":{}}}`, []string{"weather", "computer", "read", "tool_call", "select_file"}},
		{"enabled false", `{"tools":{"toolSearch":{"enabled":false,"mode":"tools"}}}`, []string{"weather", "computer", "read", "tool_call", "select_file"}},
		{"code mode on with no tools after policy", `{"tools":{"codeMode":true,"toolSearch":{"mode":"tools"},"allow":["nothing-matches"]}}`, controls},
		{"per-agent toolSearch is ignored", `{"agents":{"list":[{"id":"main","tools":{"toolSearch":true}}]}}`, []string{"weather", "computer", "read", "tool_call", "select_file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			turn := execTurn(t, rt, tc.cfg, weatherTool(), computer, readTool(), impostor, client)
			var got []string
			for _, d := range turn.Tools() {
				got = append(got, d.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("visible tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolSearch_roundTrip(t *testing.T) {
	rt := newTestRuntime(t)
	turn := execTurn(t, rt, `{"tools":{"toolSearch":{"mode":"tools"}}}`, weatherTool(), readTool())
	hits := callRaw(t, turn, "call_s", "tool_search", `{"query":"weather"}`)
	if diff := cmp.Diff(`[
  {
    "id": "openclaw:core:weather",
    "source": "openclaw",
    "sourceName": "core",
    "name": "weather",
    "description": "Current weather for a city.",
    "input": "{ city: string }"
  }
]`, hits.Content[0].Text); diff != "" {
		t.Errorf("tool_search text (-want +got):\n%s", diff)
	}
	desc := callRaw(t, turn, "call_d", "tool_describe", `{"id":"weather"}`)
	if diff := cmp.Diff(`{"id":"openclaw:core:weather","source":"openclaw","sourceName":"core","name":"weather","description":"Current weather for a city.","input":"{ city: string }","parameters":{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}}`, string(desc.Details)); diff != "" {
		t.Errorf("tool_describe details (-want +got):\n%s", diff)
	}
	got := callRaw(t, turn, "call_c", "tool_call", `{"id":"openclaw:core:weather","args":{"city":"Oslo"}}`)
	if diff := cmp.Diff(`{"tool":{"id":"openclaw:core:weather","source":"openclaw","sourceName":"core","name":"weather","description":"Current weather for a city.","input":"{ city: string }"},"result":{"content":[{"type":"text","text":"sunny in Oslo"}],"details":{"city":"Oslo","temp":21}}}`, string(got.Details)); diff != "" {
		t.Errorf("tool_call details (-want +got):\n%s", diff)
	}
	var ids []string
	for _, ev := range turn.Trajectory() {
		ids = append(ids, ev.ToolCallID+" "+ev.Name+" "+ev.ParentToolCallID+" "+ev.Status)
	}
	want := []string{"call_s tool_search  ok", "call_d tool_describe  ok", "call_c tool_call  ok", "tool_search_code:call_c:weather:1 weather call_c ok"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("trajectory (-want +got):\n%s", diff)
	}
	if got.IsError || desc.IsError {
		t.Errorf("a result is flagged as an error: tool_call %v, tool_describe %v", got.IsError, desc.IsError)
	}
	unknown := callRaw(t, turn, "call_u", "tool_describe", `{"id":"weather_now"}`)
	if !unknown.IsError {
		t.Errorf("the refusal of an unknown id is not flagged as an error")
	}
	if diff := cmp.Diff(`{"status":"error","tool":"tool_describe","error":"Unknown tool id: weather_now. Did you mean: weather? Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."}`, string(unknown.Details)); diff != "" {
		t.Errorf("unknown id (-want +got):\n%s", diff)
	}
}

func callRaw(t *testing.T, turn *Turn, id, name, args string) ToolResult {
	t.Helper()
	res, err := turn.Call(context.Background(), id, name, json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: content %+v", name, res.Content)
	}
	return res
}

func TestToolSearch_code(t *testing.T) {
	rt := newTestRuntime(t)
	// codeTimeoutMs bounds the whole run, preparation included, which a
	// loaded machine under -race can stretch past a second; only the case
	// that must time out gets the smallest limit.
	turn := execTurn(t, rt, `{"tools":{"toolSearch":{"codeTimeoutMs":30000}}}`, weatherTool(), readTool())
	tests := []struct {
		name, code, want string
	}{
		{"search, describe and call", `const [hit] = await openclaw.tools.search("weather", { limit: 1 });
const d = await openclaw.tools.describe(hit.id);
console.log("hit", hit.id, { n: 1 });
const r = await openclaw.tools.call(hit.id, { city: "Oslo" });
return { name: d.name, sourceName: r.tool.sourceName, temp: r.result.details.temp, openclaw: typeof openclaw, console: typeof console, tools: typeof tools, all: typeof ALL_TOOLS };`,
			`{"ok":true,"value":{"name":"weather","sourceName":"core","temp":21,"openclaw":"object","console":"object","tools":"undefined","all":"undefined"},"logs":["hit openclaw:core:weather {\"n\":1}"],"telemetry":{"catalogSize":2,"sources":{"openclaw":2,"mcp":0,"client":0},"counterScope":"<scope>","searchCount":1,"describeCount":1,"callCount":1}}`},
		{"code mode's globals are absent", `return [typeof MCP, typeof API, typeof text, typeof json, typeof yield_control, typeof namespaces, typeof agents];`,
			`{"ok":true,"value":["undefined","undefined","undefined","undefined","undefined","undefined","undefined"],"logs":[],"telemetry":{"catalogSize":2,"sources":{"openclaw":2,"mcp":0,"client":0},"counterScope":"<scope>","searchCount":1,"describeCount":1,"callCount":1}}`},
		{"an un-awaited call never runs", `openclaw.tools.call("weather", { city: "Bergen" }); const p = openclaw.tools.search("read"); return typeof p.then;`,
			`{"ok":true,"value":"function","logs":[],"telemetry":{"catalogSize":2,"sources":{"openclaw":2,"mcp":0,"client":0},"counterScope":"<scope>","searchCount":1,"describeCount":1,"callCount":1}}`},
		{"no return", `await openclaw.tools.search("read");`,
			`{"ok":true,"value":null,"logs":[],"telemetry":{"catalogSize":2,"sources":{"openclaw":2,"mcp":0,"client":0},"counterScope":"<scope>","searchCount":2,"describeCount":1,"callCount":1}}`},
		{"unknown id", `return await openclaw.tools.call("nope");`,
			`{"status":"error","tool":"tool_search_code","error":"Error: Unknown tool id: nope. Use openclaw.tools.search to find a tool, openclaw.tools.describe to inspect it, then openclaw.tools.call with the exact id or name."}`},
		{"thrown", `throw new Error("guest boom");`, `{"status":"error","tool":"tool_search_code","error":"Error: guest boom"}`},
		{"shell", `ls -la`, `{"status":"error","tool":"tool_search_code","error":"tool_search_code runs JavaScript, not shell commands. Call tools from the code with openclaw.tools.call and an exact id from openclaw.tools.search."}`},
		{"module access", `const fs = require("fs"); return 1;`, `{"status":"error","tool":"tool_search_code","error":"tool_search_code module access is disabled."}`},
		{"empty code", ``, `{"status":"error","tool":"tool_search_code","error":"code must be a non-empty string."}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"code": tc.code})
			res := callRaw(t, turn, "call_code", "tool_search_code", string(args))
			got := string(res.Details)
			var d struct {
				Telemetry struct{ CounterScope string } `json:"telemetry"`
			}
			_ = json.Unmarshal(res.Details, &d)
			if d.Telemetry.CounterScope != "" {
				if len(d.Telemetry.CounterScope) != 16 {
					t.Errorf("counterScope %q: want 16 characters", d.Telemetry.CounterScope)
				}
				got = strings.Replace(got, d.Telemetry.CounterScope, "<scope>", 1)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("details (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolSearch_codeTimeout(t *testing.T) {
	rt := newTestRuntime(t)
	turn := execTurn(t, rt, `{"tools":{"toolSearch":{"codeTimeoutMs":1000}}}`, weatherTool(), readTool())
	for _, code := range []string{`for (;;) {}`, `await new Promise(() => {});`} {
		args, _ := json.Marshal(map[string]string{"code": code})
		start := time.Now()
		res := callRaw(t, turn, "call_code", "tool_search_code", string(args))
		if diff := cmp.Diff(`{"status":"error","tool":"tool_search_code","error":"tool_search_code timed out"}`, string(res.Details)); diff != "" {
			t.Errorf("%s: details (-want +got):\n%s", code, diff)
		}
		if took := time.Since(start); took < time.Second {
			t.Errorf("%s: answered after %v, before codeTimeoutMs", code, took)
		}
	}
}
