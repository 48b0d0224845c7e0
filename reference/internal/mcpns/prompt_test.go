package mcpns

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestModel_Prompt(t *testing.T) {
	section := func(servers string) string {
		return "MCP namespace globals are available in code mode:\n" +
			"- MCP: MCP server tools grouped by server.\n" +
			"Read API files such as mcp/index.d.ts and mcp/<server>.d.ts for TypeScript-style MCP headers; visible servers: " + servers + ". Node-backed name collisions use a sanitized node-id fragment prefix.\n" +
			"Call MCP tools as MCP.<server>.<tool>({ ...input }) with one object argument matching the header."
	}
	tests := []struct {
		name    string
		servers []Server
		want    string
	}{
		{"no server", nil, ""},
		{"one", githubServers(), section("github")},
		{"identifiers in server order", docsServers(), section("chromeDevtools, constructor2, docs")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Build(tt.servers).Prompt()); diff != "" {
				t.Errorf("Prompt() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestModel_Prompt_matchesSpec compares the prompt with the MCP section of
// SPEC.md section 4.3, where only <servers> varies.
func TestModel_Prompt_matchesSpec(t *testing.T) {
	spec := mustReadSpec(t)
	block := specBlock(t, spec, "### 4.3 Namespace prompt block", "MCP section, where", "text")
	want := strings.Replace(block, "<servers>", "github, docs", 1)
	got := Build([]Server{
		{Name: "github", Owner: "github", Tools: []Tool{{Name: "x"}}},
		{Name: "docs", Owner: "docs", Resources: true},
	}).Prompt()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Prompt() mismatch with SPEC.md section 4.3 (-want +got):\n%s", diff)
	}
}
