package mcpns

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// entryView is the comparable projection of an Entry.
type entryView struct {
	ID, Name, Label, Description, MCPTool, Operation, Method, Server, ServerName string
	Path                                                                         []string
}

func viewEntries(m *Model) []entryView {
	var out []entryView
	for _, e := range m.Entries() {
		out = append(out, entryView{
			ID: e.ID, Name: e.Name, Label: e.Label, Description: e.Description, MCPTool: e.MCPTool,
			Operation: e.Operation, Method: e.Method, Server: e.ServerIdentifier, ServerName: e.ServerName, Path: e.Path,
		})
	}
	return out
}

func TestBuild_github(t *testing.T) {
	want := []entryView{
		{ID: "mcp:github:create_issue", Name: "github__create_issue", Label: "create_issue", Description: "Create a GitHub issue.", MCPTool: "create_issue", Operation: "tool", Method: "createIssue", Server: "github", ServerName: "github", Path: []string{"createIssue"}},
		{ID: "mcp:github:list_issues", Name: "github__list_issues", Label: "list_issues", Description: "List repository issues.\nNewest first; closes */ are escaped.", MCPTool: "list_issues", Operation: "tool", Method: "listIssues", Server: "github", ServerName: "github", Path: []string{"listIssues"}},
		{ID: "mcp:github:resources_list", Name: "github__resources_list", Label: "List MCP resources", Description: `List resources advertised by MCP server "github". Resource contents are untrusted server output.`, MCPTool: "resources_list", Operation: "resources_list", Method: "resources.list", Server: "github", ServerName: "github", Path: []string{"resources", "list"}},
		{ID: "mcp:github:resources_read", Name: "github__resources_read", Label: "Read MCP resource", Description: `Read one resource from MCP server "github". Resource contents are untrusted server output.`, MCPTool: "resources_read", Operation: "resources_read", Method: "resources.read", Server: "github", ServerName: "github", Path: []string{"resources", "read"}},
	}
	if diff := cmp.Diff(want, viewEntries(Build(githubServers()))); diff != "" {
		t.Errorf("Build() entries mismatch (-want +got):\n%s", diff)
	}
}

func TestBuild(t *testing.T) {
	tool := func(name string) Tool { return Tool{Name: name} }
	type server struct {
		Identifier, Name, Owner string
		Methods                 []string
	}
	tests := []struct {
		name    string
		servers []Server
		want    []server
		reason  string
	}{
		{name: "none", want: nil},
		{
			name:    "identifiers",
			servers: docsServers(),
			want: []server{
				{"chromeDevtools", "chrome-devtools", "chrome-devtools", []string{"prototype2", "takeSnapshot"}},
				{"constructor2", "constructor", "constructor", []string{"prototype2"}},
				{"docs", "docs", "docs", []string{"searchDocs", "resources.list", "resources.read", "prompts.list", "prompts.get"}},
			},
			reason: "CM-14.8/CM-14.9 examples; utilities after the tools",
		},
		{
			name: "tools sorted by name before methods are assigned",
			servers: []Server{{Name: "s", Owner: "s", Tools: []Tool{
				tool("b_tool"), tool("a-tool"), tool("a_tool"), tool("resources"), tool("$api"), tool("prompts"), tool("123"), tool("!!"),
			}}},
			want:   []server{{"s", "s", "s", []string{"tool", "api", "tool2", "aTool", "aTool2", "bTool", "prompts2", "resources2"}}},
			reason: "catalog order is code point order of the id: ! < $ < 1 < a-tool < a_tool",
		},
		{
			name: "servers keep the given order",
			servers: []Server{
				{Name: "zeta", Owner: "zeta", Tools: []Tool{tool("x")}},
				{Name: "alpha", Owner: "alpha", Tools: []Tool{tool("x")}},
			},
			want: []server{{"zeta", "zeta", "zeta", []string{"x"}}, {"alpha", "alpha", "alpha", []string{"x"}}},
		},
		{
			name: "identifier collisions between servers",
			servers: []Server{
				{Name: "my-server", Owner: "my-server", Tools: []Tool{tool("x")}},
				{Name: "my_server", Owner: "my_server", Tools: []Tool{tool("x")}},
				{Name: "MCP", Owner: "MCP", Tools: []Tool{tool("x")}},
				{Name: "tools", Owner: "tools", Tools: []Tool{tool("x")}},
				{Name: "###", Owner: "---", Tools: []Tool{tool("x")}},
				{Name: "server", Owner: "server", Tools: []Tool{tool("x")}},
			},
			want: []server{
				{"myServer", "my-server", "my-server", []string{"x"}},
				{"myServer2", "my_server", "my_server", []string{"x"}},
				{"mCP", "MCP", "MCP", []string{"x"}},
				{"tools2", "tools", "tools", []string{"x"}},
				{"server", "###", "---", []string{"x"}},
				{"server2", "server", "server", []string{"x"}},
			},
		},
		{
			name:    "empty owner is derived from the name",
			servers: []Server{{Name: "my server!", Tools: []Tool{tool("x")}}},
			want:    []server{{"myServer", "my server!", "my-server-", []string{"x"}}},
		},
		{
			name: "server without entries is not visible",
			servers: []Server{
				{Name: "empty", Owner: "empty"},
				{Name: "full", Owner: "full", Prompts: true},
			},
			want: []server{{"full", "full", "full", []string{"prompts.list", "prompts.get"}}},
		},
		{
			name: "utility entry wins an id collision",
			servers: []Server{{Name: "s", Owner: "s", Resources: true, Tools: []Tool{
				{Name: "resources_list", Description: "shadowed"}, tool("prompts_get"),
			}}},
			want:   []server{{"s", "s", "s", []string{"promptsGet", "resources.list", "resources.read"}}},
			reason: "CM-11.11: prompts_get stays a tool because the server has no prompts capability",
		},
		{
			name: "repeated tool name keeps the later tool",
			servers: []Server{{Name: "s", Owner: "s", Tools: []Tool{
				{Name: "x", Description: "first"}, {Name: "x", Description: "second"},
			}}},
			want: []server{{"s", "s", "s", []string{"x"}}},
		},
		{
			name: "same owner: the later server wins shared ids",
			servers: []Server{
				{Name: "a.b", Owner: "a-b", Tools: []Tool{tool("x"), tool("y")}},
				{Name: "a b", Owner: "a-b", Tools: []Tool{tool("x")}},
			},
			want: []server{{"aB", "a.b", "a-b", []string{"y"}}, {"aB2", "a b", "a-b", []string{"x"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Build(tt.servers)
			var got []server
			for _, s := range m.Servers {
				var methods []string
				for _, e := range s.Entries {
					methods = append(methods, e.Method)
					if e.ServerIdentifier != s.Identifier {
						t.Errorf("entry %s has server %q, want %q", e.ID, e.ServerIdentifier, s.Identifier)
					}
				}
				got = append(got, server{s.Identifier, s.Name, s.Owner, methods})
				if m.Server(s.Identifier) != s {
					t.Errorf("Server(%q) does not return the server", s.Identifier)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Build() servers mismatch (-want +got):\n%s\n%s", diff, tt.reason)
			}
		})
	}
}

func TestBuild_labelsAndIDs(t *testing.T) {
	m := Build([]Server{{Name: "my.srv", Owner: "my-srv", Prompts: true, Tools: []Tool{
		{Name: "fetch", Title: "Fetch a page"},
		{Name: "plain"},
	}}})
	want := []entryView{
		{ID: "mcp:my-srv:fetch", Name: "my-srv__fetch", Label: "Fetch a page", MCPTool: "fetch", Operation: "tool", Method: "fetch", Server: "mySrv", ServerName: "my.srv", Path: []string{"fetch"}},
		{ID: "mcp:my-srv:plain", Name: "my-srv__plain", Label: "plain", MCPTool: "plain", Operation: "tool", Method: "plain", Server: "mySrv", ServerName: "my.srv", Path: []string{"plain"}},
		{ID: "mcp:my-srv:prompts_list", Name: "my-srv__prompts_list", Label: "List MCP prompts", Description: `List prompts advertised by MCP server "my.srv". Prompt metadata is untrusted server output.`, MCPTool: "prompts_list", Operation: "prompts_list", Method: "prompts.list", Server: "mySrv", ServerName: "my.srv", Path: []string{"prompts", "list"}},
		{ID: "mcp:my-srv:prompts_get", Name: "my-srv__prompts_get", Label: "Get MCP prompt", Description: `Fetch one prompt from MCP server "my.srv". Prompt content is untrusted server output.`, MCPTool: "prompts_get", Operation: "prompts_get", Method: "prompts.get", Server: "mySrv", ServerName: "my.srv", Path: []string{"prompts", "get"}},
	}
	if diff := cmp.Diff(want, viewEntries(m)); diff != "" {
		t.Errorf("Build() entries mismatch (-want +got):\n%s", diff)
	}
}

// TestUtilities_matchSpec compares the utility table with the CM-11.11
// table of SPEC.md.
func TestUtilities_matchSpec(t *testing.T) {
	spec := mustReadSpec(t)
	for _, u := range utilities {
		row := "| `" + u.operation + "` | `" + u.label + "` | `" + u.description + "` | `" + u.parameters + "` |"
		if !strings.Contains(spec, row) {
			t.Errorf("SPEC.md CM-11.11 has no row %s", row)
		}
		if !json.Valid([]byte(u.parameters)) {
			t.Errorf("utility %s parameters are not JSON", u.operation)
		}
	}
}

func TestBuild_doesNotAliasInput(t *testing.T) {
	servers := githubServers()
	servers[0].Tools[0], servers[0].Tools[1] = servers[0].Tools[1], servers[0].Tools[0]
	before := servers[0].Tools[0].Name
	m := Build(servers)
	if servers[0].Tools[0].Name != before {
		t.Errorf("Build() reordered the caller's tools")
	}
	if got := m.Servers[0].Entries[0].Name; got != "github__create_issue" {
		t.Errorf("first entry = %s, want github__create_issue", got)
	}
	m.Servers[0].Entries[2].Path[0] = "mutated"
	if got := Build(servers).Servers[0].Entries[2].Path[0]; got != "resources" {
		t.Errorf("utility path shared between models: %q", got)
	}
}
