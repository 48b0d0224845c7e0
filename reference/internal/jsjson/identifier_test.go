package jsjson

import "testing"

func TestPropertyName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a", "a"},
		{"$_a1", "$_a1"},
		{"A9", "A9"},
		{"1a", `"1a"`},
		{"a-b", `"a-b"`},
		{"", `""`},
		{"é", `"é"`},
		{"a\nb", `"a\nb"`},
		{"\xed\xa0\x80", `"\ud800"`},
		{"__proto__", "__proto__"},
	}
	for _, tt := range tests {
		if got := PropertyName(tt.in); got != tt.want {
			t.Errorf("PropertyName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got, want := IsIdentifier(tt.in), tt.want == tt.in; got != want {
			t.Errorf("IsIdentifier(%q) = %t, want %t", tt.in, got, want)
		}
	}
}
