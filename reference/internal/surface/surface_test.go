package surface

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/reference/internal/catalog"
)

// specBlocks returns the fenced blocks of SPEC.md that follow each marker.
func specText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "SPEC.md"))
	if err != nil {
		t.Fatalf("read SPEC.md: %v", err)
	}
	return string(b)
}

// blockAfter returns the first fenced block after marker.
func blockAfter(t *testing.T, spec, marker string) string {
	t.Helper()
	i := strings.Index(spec, marker)
	if i < 0 {
		t.Fatalf("SPEC.md has no %q", marker)
	}
	re := regexp.MustCompile("(?s)```[a-z]*\n(.*?)\n```")
	m := re.FindStringSubmatch(spec[i:])
	if m == nil {
		t.Fatalf("no fenced block after %q", marker)
	}
	return m[1]
}

// TestTextsMatchSpec keeps the model-visible texts in step with SPEC.md.
func TestTextsMatchSpec(t *testing.T) {
	spec := specText(t)
	tests := []struct {
		marker string
		got    string
	}{
		{"Base block (one line):", BaseDescription},
		{"API sentence:", APISentence},
		{"MCP sentence:", MCPSentence},
		{"Swarm sentence:", SwarmSentence},
		{"Language sentence:", LanguageSentence},
		{"Heading (four lines):", IndexHeading},
		{"Footer when every eligible line is included:", IndexFooterAll},
		{"Footer when `<omitted>` eligible lines", strings.Replace(IndexFooterOmitted, "%d", "<omitted>", 1)},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(blockAfter(t, spec, tt.marker), tt.got); diff != "" {
			t.Errorf("%s mismatch (-spec +code):\n%s", tt.marker, diff)
		}
	}
	for marker, schema := range map[string]json.RawMessage{"**CM-4.6**": ExecSchema, "**CM-4.17**": WaitSchema} {
		var want, got any
		if err := json.Unmarshal([]byte(blockAfter(t, spec, marker)), &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(schema, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("schema after %s mismatch (-spec +code):\n%s", marker, diff)
		}
	}
}

func entries(n, lineLen int) *catalog.Catalog {
	var tools []catalog.Tool
	for i := range n {
		name := fmt.Sprintf("tool_%04d_%s", i, strings.Repeat("x", max(0, lineLen)))
		tools = append(tools, catalog.Tool{Name: name, Kind: catalog.Core,
			Parameters: json.RawMessage(`{"type":"object","properties":{}}`)})
	}
	return catalog.Build(tools)
}

func TestQuickIndex(t *testing.T) {
	if got := QuickIndex(catalog.Build(nil)); got != "" {
		t.Errorf("empty catalog index = %q, want empty", got)
	}
	small := QuickIndex(entries(2, 0))
	want := IndexHeading + "\n" + `- "openclaw:core:tool_0000_" {} -> ?` + "\n" + `- "openclaw:core:tool_0001_" {} -> ?` + "\n\n" + IndexFooterAll
	if small != want {
		t.Errorf("small index mismatch (-want +got):\n%s", cmp.Diff(want, small))
	}
	big := QuickIndex(entries(400, 40))
	if Length(big) > IndexBudget {
		t.Errorf("index is %d characters, over the %d budget", Length(big), IndexBudget)
	}
	if !strings.Contains(big, "additional OpenClaw/plugin tools omitted from this prompt index.") {
		t.Error("an index over budget has no omitted footer")
	}
	lines := strings.Count(big, "\n- ")
	if lines == 0 || lines == 400 {
		t.Errorf("index over budget kept %d of 400 lines", lines)
	}
	if want := fmt.Sprintf(IndexFooterOmitted, 400-lines); !strings.HasSuffix(big, want) {
		t.Errorf("footer does not count the %d omitted lines", 400-lines)
	}
}

func TestDescriptionPieces(t *testing.T) {
	c := entries(1, 0)
	tests := []struct {
		name string
		o    Options
		has  []string
		lack []string
	}{
		{"plain", Options{}, []string{LanguageSentence}, []string{APISentence, MCPSentence, SwarmSentence}},
		{"mcp", Options{MCP: true}, []string{APISentence + MCPSentence + LanguageSentence}, []string{SwarmSentence}},
		{"swarm", Options{Swarm: true}, []string{APISentence + SwarmSentence + LanguageSentence}, []string{MCPSentence}},
		{"prompt", Options{NamespacePrompt: "NS"}, []string{LanguageSentence + "\n\nNS\n\n" + IndexHeading}, nil},
	}
	for _, tt := range tests {
		d := Description(c, tt.o)
		if !strings.HasPrefix(d, BaseDescription) {
			t.Errorf("%s: description does not start with the base block", tt.name)
		}
		for _, s := range tt.has {
			if !strings.Contains(d, s) {
				t.Errorf("%s: description lacks %q", tt.name, s)
			}
		}
		for _, s := range tt.lack {
			if strings.Contains(d, s) {
				t.Errorf("%s: description has %q", tt.name, s)
			}
		}
	}
}
