package catalog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// specPath is SPEC.md at the root of the repository.
var specPath = filepath.Join("..", "..", "..", "SPEC.md")

// specSection returns the text of the SPEC.md section that starts with the
// heading line, up to the next heading.
func specSection(t *testing.T, spec, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(spec, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("SPEC.md has no heading %q", heading)
	}
	if i := strings.Index(rest, "\n#"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// codeBlockWords returns the whitespace-separated words of the first code
// block of section.
func codeBlockWords(t *testing.T, section string) []string {
	t.Helper()
	_, block, ok := strings.Cut(section, "```text\n")
	if !ok {
		t.Fatalf("no code block in %q", section)
	}
	block, _, _ = strings.Cut(block, "```")
	return strings.Fields(block)
}

var backticked = regexp.MustCompile("`([^`]*)`")

func TestLexicon_matchesSpec(t *testing.T) {
	b, err := os.ReadFile(specPath)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s not found: the test runs inside the repository", specPath)
	}
	if err != nil {
		t.Fatal(err)
	}
	spec := string(b)
	if diff := cmp.Diff(codeBlockWords(t, specSection(t, spec, "### B.1 Stopwords")), Stopwords); diff != "" {
		t.Errorf("Stopwords mismatch (-SPEC.md +lexicon.go):\n%s", diff)
	}
	if diff := cmp.Diff(codeBlockWords(t, specSection(t, spec, "### B.2 S-words")), SWords); diff != "" {
		t.Errorf("SWords mismatch (-SPEC.md +lexicon.go):\n%s", diff)
	}
	var groups []Expansion
	for _, line := range strings.Split(specSection(t, spec, "### B.4 Query expansion groups"), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !regexp.MustCompile(`^\s*\d+\s*$`).MatchString(cells[1]) {
			continue
		}
		var g Expansion
		for _, m := range backticked.FindAllStringSubmatch(cells[2], -1) {
			g.Triggers = append(g.Triggers, m[1])
		}
		for _, m := range backticked.FindAllStringSubmatch(cells[3], -1) {
			g.Terms = append(g.Terms, m[1])
		}
		groups = append(groups, g)
	}
	if diff := cmp.Diff(groups, Expansions); diff != "" {
		t.Errorf("Expansions mismatch (-SPEC.md +lexicon.go):\n%s", diff)
	}
	if !strings.Contains(spec, "join the query at weight 0.35") || ExpansionWeight != 0.35 {
		t.Errorf("ExpansionWeight = %v; SPEC.md Appendix B.4 says 0.35", ExpansionWeight)
	}
}

func TestLexicon(t *testing.T) {
	tests := []struct {
		name string
		got  int
		want int
	}{
		{"stopwords", len(Stopwords), 59},
		{"stopword set", len(stopwordSet), 59},
		{"s-words", len(SWords), 15},
		{"expansion groups", len(Expansions), 10},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %d words, want %d", tt.name, tt.got, tt.want)
		}
	}
	// The normalised expansion groups: trigger applied to triggers, Stem to
	// added words.
	want := []Expansion{
		{Triggers: []string{"look", "lookup", "google", "research"}, Terms: []string{"search", "web", "find"}},
		{Triggers: []string{"current", "today", "latest", "now", "recent", "news", "price", "weather"}, Terms: []string{"search", "web"}},
		{Triggers: []string{"url", "link", "page", "article", "site", "website"}, Terms: []string{"fetch", "web", "brow"}},
		{Triggers: []string{"remember", "recall", "memory", "earlier", "previously", "discussed", "decided"}, Terms: []string{"memory", "recall", "history"}},
		{Triggers: []string{"remind", "reminder", "later", "tomorrow", "daily", "weekly", "recurring"}, Terms: []string{"schedul", "automation", "cron", "remind"}},
		{Triggers: []string{"say", "tell", "reply", "respond", "answer"}, Terms: []string{"messag", "send"}},
		{Triggers: []string{"picture", "photo", "meme", "screenshot"}, Terms: []string{"imag"}},
		{Triggers: []string{"speak", "say", "voice"}, Terms: []string{"audio", "speech"}},
		{Triggers: []string{"run", "execute", "command", "shell", "terminal"}, Terms: []string{"exec", "process"}},
		{Triggers: []string{"directory", "folder", "path"}, Terms: []string{"fil", "list"}},
	}
	if diff := cmp.Diff(want, expansionGroups); diff != "" {
		t.Errorf("expansionGroups mismatch (-want +got):\n%s", diff)
	}
}
