package mcpns

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDescriptionLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"blank", " \n\t\r\n\u00a0\ufeff ", nil},
		{"trimmed lines", "  a  \n\n  b\t", []string{"a", "b"}},
		{"line terminators", "a\r\nb\rc\u2028d\u2029e\nf", []string{"a", "b", "c", "d", "e", "f"}},
		{"NEL is not whitespace in JS", "\u0085a\u0085", []string{"\u0085a\u0085"}},
		{"cap", strings.Repeat("x\n", 20), strings.Split(strings.Repeat("x\n", 12)[:23], "\n")},
		{"invalid UTF-8 repaired", "a\xffb", []string{"a\uFFFDb"}},
		{"lone surrogate repaired", "a\xed\xa0\x80b", []string{"a\uFFFDb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, descriptionLines(tt.in)); diff != "" {
				t.Errorf("descriptionLines(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestCollapse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Issue title\nShown in tracker", "Issue title Shown in tracker"},
		{"  a   b  ", "a   b"},
		{"\n\n", ""},
	}
	for _, tt := range tests {
		if got := collapse(tt.in); got != tt.want {
			t.Errorf("collapse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEscapeComment(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a */ b", "a * / b"},
		{"**/", "** /"},
		{"*/*/", "* /* /"},
		{"/* ok", "/* ok"},
	}
	for _, tt := range tests {
		if got := escapeComment(tt.in); got != tt.want {
			t.Errorf("escapeComment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
