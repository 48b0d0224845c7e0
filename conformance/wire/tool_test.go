package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
)

func str(s string) *string { return &s }

func TestBehaviorAnswer(t *testing.T) {
	tests := []struct {
		name    string
		b       wire.Behavior
		input   string
		want    wire.Result
		wantErr string
	}{
		{name: "default names the tool and the input", input: `{"q": 1}`,
			want: wire.Result{Content: []wire.Block{{Type: "text", Text: `{"input":{"q":1},"tool":"t"}`}}, Details: json.RawMessage(`{"input":{"q":1},"tool":"t"}`)}},
		{name: "empty input is an empty object", input: ` `,
			want: wire.Result{Content: []wire.Block{{Type: "text", Text: `{"input":{},"tool":"t"}`}}, Details: json.RawMessage(`{"input":{},"tool":"t"}`)}},
		{name: "returns is compacted", b: wire.Behavior{Returns: json.RawMessage("{ \"a\" : [1, 2] }")},
			want: wire.Result{Content: []wire.Block{{Type: "text", Text: `{"a":[1,2]}`}}, Details: json.RawMessage(`{"a":[1,2]}`)}},
		{name: "text has no details", b: wire.Behavior{Text: str("hello")},
			want: wire.Result{Content: []wire.Block{{Type: "text", Text: "hello"}}}},
		{name: "echo", b: wire.Behavior{Echo: true}, input: `{"x":"y"}`,
			want: wire.Result{Content: []wire.Block{{Type: "text", Text: `{"x":"y"}`}}, Details: json.RawMessage(`{"x":"y"}`)}},
		{name: "fails wins over the rest", b: wire.Behavior{Fails: str("disk full"), Text: str("no")}, wantErr: "disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.b.Answer("t", json.RawMessage(tt.input))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Fatalf("Answer() error = %q, want %q", gotErr, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Answer() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseCatalog(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
		want              []string
	}{
		{name: "tools in order", in: `{"tools":[{"name":"a"},{"name":"b","source":"mcp"}]}`, want: []string{"a", "b"}},
		{name: "not JSON", in: `{`, wantErr: "wire: catalog: unexpected end of JSON input"},
		{name: "unnamed tool", in: `{"tools":[{"name":"a"},{}]}`, wantErr: "wire: catalog: tool 1 has no name"},
		{name: "unknown source", in: `{"tools":[{"name":"a","source":"cloud"}]}`, wantErr: `wire: catalog: tool "a" has unknown source "cloud"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := wire.ParseCatalog([]byte(tt.in))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Fatalf("ParseCatalog() error = %q, want %q", gotErr, tt.wantErr)
			}
			var names []string
			for _, s := range c.Tools {
				names = append(names, s.Name)
			}
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("ParseCatalog() tools mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSpecSchema(t *testing.T) {
	tests := []struct {
		spec wire.Spec
		want string
	}{
		{wire.Spec{Parameters: json.RawMessage(`{"type":"object","required":["a"]}`), InputSchema: json.RawMessage(`{}`)}, `{"type":"object","required":["a"]}`},
		{wire.Spec{InputSchema: json.RawMessage(`{"type":"object","title":"mcp"}`)}, `{"type":"object","title":"mcp"}`},
		{wire.Spec{}, `{"type":"object","properties":{}}`},
	}
	for _, tt := range tests {
		if got := string(tt.spec.Schema()); got != tt.want {
			t.Errorf("%+v.Schema() = %s, want %s", tt.spec, got, tt.want)
		}
	}
}

func TestProfiles(t *testing.T) {
	want := []string{"core", "typescript", "mcp", "namespaces", "snapshots", "restart-safe", "security", "e2e", "real-mcp", "tool-search", "cluster"}
	got := wire.Profiles()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Profiles() mismatch (-want +got):\n%s", diff)
	}
	got[0] = "changed"
	if wire.Profiles()[0] != "core" {
		t.Error("Profiles() shares its slice with callers")
	}
	if diff := cmp.Diff(want[:len(want)-1], wire.ProcessProfiles()); diff != "" {
		t.Errorf("ProcessProfiles() mismatch (-want +got):\n%s", diff)
	}
}
