package checkdocs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSlug(t *testing.T) {
	tests := []struct {
		heading string
		want    string
		reason  string
	}{
		{heading: "2.1 Configuration table", want: "21-configuration-table"},
		{heading: "4.1 `exec`", want: "41-exec", reason: "code spans keep their text"},
		{heading: "Appendix A. Divergences from OpenClaw", want: "appendix-a-divergences-from-openclaw"},
		{heading: "Why `tools.codeMode` is *opt-in*?", want: "why-toolscodemode-is-opt-in"},
		{heading: "snake_case and kebab-case", want: "snake_case-and-kebab-case", reason: "_ and - are kept"},
		{heading: "See [SPEC.md](../SPEC.md) first", want: "see-specmd-first", reason: "a link becomes its text"},
		{heading: "Two  spaces", want: "two--spaces", reason: "spaces are not collapsed"},
		{heading: "Über Ünïcödé 2", want: "über-ünïcödé-2"},
		{heading: "<a id=\"x\"></a>Tagged", want: "tagged"},
	}
	for _, tt := range tests {
		if got := Slug(tt.heading); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q\nreason: %s", tt.heading, got, tt.want, tt.reason)
		}
	}
}

func TestDocAnchors(t *testing.T) {
	d := parseDoc("x.md", "# Title\n\n## Usage\n\n## Usage\n\nSetext\n======\n\n"+
		"```sh\n# not a heading\n```\n\n<a name=\"custom\"></a>\n#hashtag\n")
	want := map[string]bool{"title": true, "usage": true, "usage-1": true, "setext": true, "custom": true}
	if diff := cmp.Diff(want, d.Anchors()); diff != "" {
		t.Errorf("Anchors() mismatch (-want +got):\n%s", diff)
	}
}

func TestParseDoc_blocks(t *testing.T) {
	tests := []struct {
		name         string
		text         string
		want         []codeBlock
		wantUnclosed int
	}{
		{
			name: "backticks and info string",
			text: "a\n```JS title=x\nreturn 1\n```\n",
			want: []codeBlock{{Lang: "js", Fence: 2, Text: "return 1\n"}},
		},
		{
			name: "tildes with a longer close",
			text: "~~~json\n{}\n```\n~~~~\n",
			want: []codeBlock{{Lang: "json", Fence: 1, Text: "{}\n```\n"}},
		},
		{
			name: "indented fence in a list item",
			text: "- item\n\n  ```go\n  x := 1\n    y := 2\n  ```\n",
			want: []codeBlock{{Lang: "go", Fence: 3, Text: "x := 1\n  y := 2\n"}},
		},
		{
			name: "no language",
			text: "```\nplain\n```\n",
			want: []codeBlock{{Fence: 1, Text: "plain\n"}},
		},
		{
			name:         "unclosed",
			text:         "text\n```ts\nlet x\n",
			want:         []codeBlock{{Lang: "ts", Fence: 2, Text: "let x\n"}},
			wantUnclosed: 2,
		},
		{
			name: "inline triple backticks are not a fence",
			text: "```js `x` ```\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := parseDoc("x.md", tt.text)
			if diff := cmp.Diff(tt.want, d.Blocks); diff != "" {
				t.Errorf("parseDoc(%q).Blocks mismatch (-want +got):\n%s", tt.text, diff)
			}
			if d.Unclosed != tt.wantUnclosed {
				t.Errorf("parseDoc(%q).Unclosed = %d, want %d", tt.text, d.Unclosed, tt.wantUnclosed)
			}
		})
	}
}

func TestMaskCodeSpans(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{in: "a `[x](y)` b", want: "a          b"},
		{in: "``a ` b`` [x](y)", want: "          [x](y)"},
		{in: "unclosed ` [x](y)", want: "unclosed ` [x](y)"},
	}
	for _, tt := range tests {
		if got := maskCodeSpans(tt.in); got != tt.want {
			t.Errorf("maskCodeSpans(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitRow(t *testing.T) {
	got := splitRow("| `a` | b \\| c | `x`-`y` |")
	want := []string{"`a`", "b | c", "`x`-`y`"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("splitRow mismatch (-want +got):\n%s", diff)
	}
}

func TestClauseKeywords(t *testing.T) {
	tests := []struct {
		text   string
		want   []string
		reason string
	}{
		{text: "A target MUST do x and MUST NOT do y.", want: []string{"MUST", "MUST NOT"}},
		{text: "It MAY do x; it SHOULD do y.", want: []string{"SHOULD", "MAY"}, reason: "in the order of BCP 14"},
		{text: "No key words, must in lower case.", want: nil},
		{text: "NOT RECOMMENDED, OPTIONAL", want: []string{"NOT RECOMMENDED", "OPTIONAL"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, clauseKeywords(tt.text)); diff != "" {
			t.Errorf("clauseKeywords(%q) mismatch (-want +got):\n%s\nreason: %s", tt.text, diff, tt.reason)
		}
	}
}
