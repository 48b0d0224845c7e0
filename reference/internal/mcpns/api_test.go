package mcpns

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/google/go-cmp/cmp"
)

// TestModel_RootAPI_specExample compares MCP.$api() with the example of
// SPEC.md section 14.4 after JSON parsing, and checks the member order of
// the compact text.
func TestModel_RootAPI_specExample(t *testing.T) {
	spec := mustReadSpec(t)
	want := specBlock(t, spec, "Root `$api()` result for one server named `github`", "four entries:", "json")
	got := Build(githubServers()).RootAPI()
	if diff := cmp.Diff(mustUnmarshal(t, []byte(want)), mustUnmarshal(t, got)); diff != "" {
		t.Errorf("RootAPI() mismatch with SPEC.md section 14.4 (-want +got):\n%s", diff)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(want)); err != nil {
		t.Fatal(err)
	}
	if compact.String() != string(got) {
		t.Errorf("RootAPI() = %s, want the SPEC bytes %s", got, compact.String())
	}
}

func TestModel_RootAPI(t *testing.T) {
	tests := []struct {
		name    string
		servers []Server
		want    string
	}{
		{
			name: "no server",
			want: `{"kind":"mcp_api","scope":"root","header":"\ntype McpApiHeader = { header: string; servers?: unknown[] };\n\ndeclare const MCP: {\n  /** List visible MCP servers and request server-specific headers. */\n  $api(): Promise<McpApiHeader>;\n};","servers":[],"note":"Call MCP.<server>.$api() for a TypeScript-style header, then call tools with one object argument matching the shown input type."}`,
		},
		{
			name:    "tool counts include utility entries",
			servers: docsServers(),
			want:    `[{"identifier":"chromeDevtools","serverName":"chrome-devtools","toolCount":2},{"identifier":"constructor2","serverName":"constructor","toolCount":1},{"identifier":"docs","serverName":"docs","toolCount":5}]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Build(tt.servers).RootAPI())
			if strings.HasPrefix(tt.want, "[") {
				var v struct{ Servers json.RawMessage }
				if err := json.Unmarshal([]byte(got), &v); err != nil {
					t.Fatal(err)
				}
				got = string(v.Servers)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RootAPI() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// serverAPIView is the part of a server $api result a table test checks;
// the header is checked separately.
type serverAPIView struct {
	Kind    string `json:"kind"`
	Scope   string `json:"scope"`
	Server  map[string]string
	Tools   []map[string]any
	Schemas map[string]any
	Note    string `json:"note"`
	Keys    []string
}

func TestModel_ServerAPI(t *testing.T) {
	m := Build(docsServers())
	tool := func(method string, path []any, mcpTool, op, desc string) map[string]any {
		return map[string]any{"method": method, "path": path, "mcpTool": mcpTool, "operation": op, "description": desc}
	}
	searchDocs := tool("searchDocs", []any{"searchDocs"}, "search_docs", "tool", "Search the documentation.")
	promptsGet := tool("prompts.get", []any{"prompts", "get"}, "prompts_get", "prompts_get", `Fetch one prompt from MCP server "docs". Prompt content is untrusted server output.`)
	promptsList := tool("prompts.list", []any{"prompts", "list"}, "prompts_list", "prompts_list", `List prompts advertised by MCP server "docs". Prompt metadata is untrusted server output.`)
	resourcesList := tool("resources.list", []any{"resources", "list"}, "resources_list", "resources_list", `List resources advertised by MCP server "docs". Resource contents are untrusted server output.`)
	resourcesRead := tool("resources.read", []any{"resources", "read"}, "resources_read", "resources_read", `Read one resource from MCP server "docs". Resource contents are untrusted server output.`)
	docs := map[string]string{"identifier": "docs", "serverName": "docs"}
	const note = "Call MCP tools with one object argument, for example MCP.server.tool({ requiredField: value })."
	keys := []string{"kind", "scope", "server", "header", "tools", "note"}
	keysSchema := []string{"kind", "scope", "server", "header", "tools", "schemas", "note"}
	tests := []struct {
		name     string
		selector string
		schema   bool
		want     serverAPIView
	}{
		{"all", "", false, serverAPIView{"mcp_api", "server", docs, []map[string]any{searchDocs, promptsGet, promptsList, resourcesList, resourcesRead}, nil, note, keys}},
		{"blank selector", " \t\n", false, serverAPIView{"mcp_api", "server", docs, []map[string]any{searchDocs, promptsGet, promptsList, resourcesList, resourcesRead}, nil, note, keys}},
		{"by method", "searchDocs", false, serverAPIView{"mcp_api", "tool", docs, []map[string]any{searchDocs}, nil, note, keys}},
		{"by MCP tool name", " search_docs ", false, serverAPIView{"mcp_api", "tool", docs, []map[string]any{searchDocs}, nil, note, keys}},
		{"by dotted path", "resources.read", false, serverAPIView{"mcp_api", "tool", docs, []map[string]any{resourcesRead}, nil, note, keys}},
		{"utility by MCP name", "prompts_get", false, serverAPIView{"mcp_api", "tool", docs, []map[string]any{promptsGet}, nil, note, keys}},
		{"group name selects nothing", "resources", false, serverAPIView{"mcp_api", "server", docs, []map[string]any{}, nil, note, keys}},
		{"unknown selects nothing", "nope", true, serverAPIView{"mcp_api", "server", docs, []map[string]any{}, map[string]any{}, note, keysSchema}},
		{
			"schemas", "searchDocs", true,
			serverAPIView{"mcp_api", "tool", docs, []map[string]any{searchDocs}, map[string]any{"searchDocs": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []any{"q"}}}, note, keysSchema},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := m.ServerAPI("docs", tt.selector, tt.schema)
			if err != nil {
				t.Fatal(err)
			}
			var got serverAPIView
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			got.Keys = topKeys(t, raw)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ServerAPI(docs, %q, %t) mismatch (-want +got):\n%s", tt.selector, tt.schema, diff)
			}
		})
	}
}

func TestModel_ServerAPI_header(t *testing.T) {
	m := Build(githubServers())
	tests := []struct {
		name     string
		selector string
	}{
		{"all", ""},
		{"one", "listIssues"},
		{"group entry", "resources_read"},
		{"none", "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := m.ServerAPI("github", tt.selector, false)
			if err != nil {
				t.Fatal(err)
			}
			var v struct{ Header string }
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			expectGolden(t, "api/github-"+strings.ReplaceAll(tt.name, " ", "-")+".d.ts", v.Header)
		})
	}
	raw, _ := m.ServerAPI("github", "", false)
	var v struct{ Header string }
	_ = json.Unmarshal(raw, &v)
	if v.Header != m.ServerFile("github") {
		t.Errorf("ServerAPI header with every tool differs from ServerFile")
	}
}

func TestModel_ServerAPI_schemaDefaults(t *testing.T) {
	m := Build([]Server{{Name: "s", Owner: "s", Tools: []Tool{
		{Name: "none"},
		{Name: "broken", InputSchema: json.RawMessage(`{"type":`)},
		{Name: "null", InputSchema: json.RawMessage(`null`)},
		{Name: "ordered", InputSchema: json.RawMessage(`{"z":1,"a":{"y":2,"b":3}, "n": 1.50}`)},
	}}})
	raw, err := m.ServerAPI("s", "", true)
	if err != nil {
		t.Fatal(err)
	}
	want := `"schemas":{"broken":{},"none":{},"null2":{},"ordered":{"z":1,"a":{"y":2,"b":3},"n":1.5}}`
	if !strings.Contains(string(raw), want) {
		t.Errorf("ServerAPI() = %s, want it to contain %s", raw, want)
	}
}

func TestModel_ServerAPI_unknownServer(t *testing.T) {
	_, err := Build(githubServers()).ServerAPI("gitlab", "", false)
	if got, want := errText(err), "Code mode namespace path is not callable: gitlab.$api"; got != want {
		t.Errorf("ServerAPI(gitlab) error = %q, want %q", got, want)
	}
}

func TestModel_API(t *testing.T) {
	m := Build(docsServers())
	tests := []struct {
		name      string
		path      string
		args      []string
		wantScope string
		wantTools int
		wantSchem bool
	}{
		{"root", "$api", nil, "root", 0, false},
		{"root ignores arguments", "$api", []string{`"x"`}, "root", 0, false},
		{"server", "docs.$api", nil, "server", 5, false},
		{"selector", "docs.$api", []string{`"searchDocs"`}, "tool", 1, false},
		{"selector null", "docs.$api", []string{`null`}, "server", 5, false},
		{"selector number", "docs.$api", []string{`5`}, "server", 5, false},
		{"schema true", "docs.$api", []string{`"searchDocs"`, `{"schema":true}`}, "tool", 1, true},
		{"schema truthy", "docs.$api", []string{`"searchDocs"`, `{"schema":1}`}, "tool", 1, false},
		{"schema false", "docs.$api", []string{`null`, `{"schema":false}`}, "server", 5, false},
		{"schema with no selector", "docs.$api", []string{`null`, `{"schema":true}`}, "server", 5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := m.Resolve(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			var args []json.RawMessage
			for _, a := range tt.args {
				args = append(args, json.RawMessage(a))
			}
			raw, err := m.API(e, args)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Scope   string
				Tools   []any
				Schemas map[string]any
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got.Scope != tt.wantScope || len(got.Tools) != tt.wantTools || (got.Schemas != nil) != tt.wantSchem {
				t.Errorf("API(%s, %v) = scope %q, %d tools, schemas %t; want %q, %d, %t", tt.path, tt.args, got.Scope, len(got.Tools), got.Schemas != nil, tt.wantScope, tt.wantTools, tt.wantSchem)
			}
		})
	}
	if _, err := m.API(m.Servers[2].Entries[0], nil); err == nil {
		t.Errorf("API(tool entry) = nil error, want an error")
	}
}

// topKeys returns the member names of a JSON object in order.
func topKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	v, err := jsjson.Parse(raw)
	if err != nil || !v.IsObject() {
		t.Fatalf("not a JSON object: %s", raw)
	}
	var keys []string
	for _, m := range v.Obj {
		keys = append(keys, m.Key)
	}
	return keys
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
