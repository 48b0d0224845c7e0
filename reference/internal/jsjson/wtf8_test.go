package jsjson

import "testing"

func TestUTF16Len(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"é", 1},
		{"東京", 2},
		{"😀", 2},
		{"a😀b", 4},
		{"\xed\xa0\x80", 1},
		{"\xff", 1},
		{"\xed\xa0", 2},
	}
	for _, tt := range tests {
		if got := UTF16Len(tt.in); got != tt.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestLoneSurrogate(t *testing.T) {
	tests := []struct {
		in     string
		want   rune
		wantOK bool
	}{
		{"\xed\xa0\x80", 0xD800, true},
		{"\xed\xbf\xbfx", 0xDFFF, true},
		{"\xed\xaf\xbf", 0xDBFF, true},
		{"\xed\x9f\xbf", 0, false}, // U+D7FF
		{"\xed\xa0", 0, false},
		{"a\xed\xa0\x80", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		r, ok := LoneSurrogate(tt.in)
		if r != tt.want || ok != tt.wantOK {
			t.Errorf("LoneSurrogate(%q) = %U, %t; want %U, %t", tt.in, r, ok, tt.want, tt.wantOK)
		}
	}
}
