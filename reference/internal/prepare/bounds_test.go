package prepare

import (
	"strings"
	"testing"
)

func TestScript_bounds(t *testing.T) {
	nest := func(open, close string, n int) string {
		return "return " + strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	tests := []struct {
		name string
		src  string
		lang Language
		want string // the failure's message, "" for none
	}{
		{"parentheses at the bound", nest("(", ")", MaxSourceDepth), JavaScript, ""},
		{"parentheses past the bound", nest("(", ")", MaxSourceDepth+1), JavaScript, DepthMessage},
		{"brackets past the bound", nest("[", "]", MaxSourceDepth+1), JavaScript, DepthMessage},
		{"braces past the bound", "return " + strings.Repeat("{a:", MaxSourceDepth+1) + "1" + strings.Repeat("}", MaxSourceDepth+1), JavaScript, DepthMessage},
		{"template substitutions past the bound", "return " + strings.Repeat("`${", MaxSourceDepth+1) + "1" + strings.Repeat("}`", MaxSourceDepth+1), JavaScript, DepthMessage},
		{"a few hundred thousand levels", nest("(", ")", 300_000), JavaScript, DepthMessage},
		{"a few hundred thousand levels of TypeScript", nest("[", "]", 300_000), TypeScript, DepthMessage},
		{"unclosed brackets count", "return " + strings.Repeat("(", 5000), JavaScript, DepthMessage},
		{"brackets in strings do not count", `return "` + strings.Repeat("(", 5000) + `".length`, JavaScript, ""},
		{"brackets in comments do not count", "/* " + strings.Repeat("[", 5000) + " */ return 1", JavaScript, ""},
		{"tokens at the bound", "return 0" + strings.Repeat("+1", (MaxSourceTokens-2)/2), JavaScript, ""},
		{"tokens past the bound", "return 0" + strings.Repeat("+1", MaxSourceTokens/2), JavaScript, TokensMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, f := Script(tt.src, tt.lang)
			got := ""
			if f != nil {
				got = f.Message
			}
			if got != tt.want {
				t.Errorf("Script = %q, want %q", got, tt.want)
			}
		})
	}
}
