package mcpns

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestToIdentifier(t *testing.T) {
	tests := []struct {
		in, fallback, want string
		reason             string
	}{
		{"github", "server", "github", ""},
		{"chrome-devtools", "server", "chromeDevtools", "CM-14.8 example"},
		{"my_server", "server", "myServer", "CM-14.8 example: _ separates words"},
		{"create_issue", "tool", "createIssue", "CM-14.9 example"},
		{"GitHub", "server", "gitHub", "only the first character of the first word is lower-cased"},
		{"list-ALL_items", "tool", "listALLItems", "other characters are unchanged"},
		{"  spaced out  ", "tool", "spacedOut", ""},
		{"123abc", "tool", "abc", "leading digits are removed"},
		{"1-abc", "tool", "Abc", "upper-cased later word stays upper-case after the digit is removed"},
		{"42", "tool", "tool", "nothing left"},
		{"", "server", "server", "no word"},
		{"---", "server", "server", "no word"},
		{"日本語", "tool", "tool", "non-ASCII letters are separators"},
		{"naïve-tool", "tool", "naVeTool", "non-ASCII letters split words"},
		{"$api", "tool", "api", "$ is a separator in the split"},
		{"a.b/c d", "tool", "aBCD", ""},
		{"constructor", "server", "constructor", "uniqueIdentifier, not toIdentifier, avoids reserved names"},
	}
	for _, tt := range tests {
		if got := toIdentifier(tt.in, tt.fallback); got != tt.want {
			t.Errorf("toIdentifier(%q, %q) = %q, want %q (%s)", tt.in, tt.fallback, got, tt.want, tt.reason)
		}
	}
}

func TestUniqueIdentifier(t *testing.T) {
	tests := []struct {
		name  string
		used  []string
		bases []string
		want  []string
	}{
		{"plain", nil, []string{"github", "docs"}, []string{"github", "docs"}},
		{"repeat", nil, []string{"a", "a", "a"}, []string{"a", "a2", "a3"}},
		{"used already", []string{"a2"}, []string{"a", "a"}, []string{"a", "a3"}},
		{"forbidden", nil, []string{"constructor", "prototype", "__proto__"}, []string{"constructor2", "prototype2", "__proto__2"}},
		{"reserved globals", nil, []string{"MCP", "tools", "Array", "log", "yield_control", "mcp"}, []string{"MCP2", "tools2", "Array2", "log2", "yield_control2", "mcp"}},
		{"reserved words", nil, []string{"default", "class", "delete", "null"}, []string{"default2", "class2", "delete2", "null2"}},
		{"tools start used", []string{"$api", "resources", "prompts"}, []string{"resources", "prompts", "resources"}, []string{"resources2", "prompts2", "resources3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			used := map[string]bool{}
			for _, u := range tt.used {
				used[u] = true
			}
			var got []string
			for _, b := range tt.bases {
				got = append(got, uniqueIdentifier(b, used))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("uniqueIdentifier mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReservedIdentifiers_matchSpec compares the reserved lists with SPEC.md
// Appendix B.5 word for word.
func TestReservedIdentifiers_matchSpec(t *testing.T) {
	spec := mustReadSpec(t)
	tests := []struct {
		marker string
		got    []string
	}{
		{"Reserved globals (", ReservedGlobals},
		{"Reserved words (", ReservedWords},
	}
	for _, tt := range tests {
		want := strings.Fields(specBlock(t, spec, "### B.5 Reserved identifiers", tt.marker, "text"))
		if diff := cmp.Diff(want, tt.got); diff != "" {
			t.Errorf("%s mismatch with SPEC.md Appendix B.5 (-want +got):\n%s", tt.marker, diff)
		}
	}
	if !strings.Contains(spec, "Forbidden path segments: `__proto__`, `constructor`, `prototype`.") {
		t.Errorf("SPEC.md Appendix B.5 forbidden segments changed; update ForbiddenSegments")
	}
}

func TestSafeOwner(t *testing.T) {
	tests := []struct{ in, want string }{
		{"github", "github"},
		{"my server.v2", "my-server-v2"},
		{"a_b-c", "a_b-c"},
		{"é", "-"},
		{"x😀y", "x--y"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := SafeOwner(tt.in); got != tt.want {
			t.Errorf("SafeOwner(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
