package jsjson

import "testing"

func TestQuote(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"plain", "plain", `"plain"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"control characters", "\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"no HTML or line separator escaping", "<&>\u2028\u2029é😀", `"<&>` + "\u2028\u2029" + `é😀"`},
		{"lone high surrogate", "\xed\xa0\x80", `"\ud800"`},
		{"lone low surrogate", "x\xed\xbf\xbf", `"x\udfff"`},
		{"U+D7FF is no surrogate", "\xed\x9f\xbf", "\"\ud7ff\""},
		{"invalid byte", "\xff", "\"\uFFFD\""},
		{"cut sequence", "a\xc3", "\"a\uFFFD\""},
		{"ED without a surrogate", "\xed\x41\x42", "\"\uFFFDAB\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quote(tt.in); got != tt.want {
				t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
