package codemode

import (
	"context"
	"encoding/json"
	"testing"

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
		{"true is code, run as tools", `{"tools":{"toolSearch":true}}`, append([]string{"computer", "read"}, controls...)},
		{"directory keeps client tools", `{"tools":{"toolSearch":{"mode":"directory"}}}`, append([]string{"computer", "read", "select_file"}, controls...)},
		{"empty object is off", `{"tools":{"toolSearch":{}}}`, []string{"weather", "computer", "read", "tool_call", "select_file"}},
		{"enabled false", `{"tools":{"toolSearch":{"enabled":false,"mode":"tools"}}}`, []string{"weather", "computer", "read", "tool_call", "select_file"}},
		{"code mode on with no tools after policy", `{"tools":{"codeMode":true,"toolSearch":true,"allow":["nothing-matches"]}}`, controls},
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
	unknown := callRaw(t, turn, "call_u", "tool_describe", `{"id":"weather_now"}`)
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
