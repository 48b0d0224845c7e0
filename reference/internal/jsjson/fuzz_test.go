package jsjson

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks the parser, which reads untrusted tool schemas and guest
// arguments, against encoding/json: both accept the same texts (up to the
// depth limit), and the compact text is valid UTF-8 JSON that parses back
// to itself.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":[1,2.5,"x"]}`, `[]`, `"\u00e9"`, `1e21`, `1e400`, `-0`, `{"a":{"a":{}}}`, `[null,true,false]`,
		`"\ud800"`, `"\ud800\udc0"`, `"\u0000"`, `{"a":1,"a":2}`, `{"__proto__":1}`, "\"\xed\xa0\x80\xff\"",
		strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := Parse([]byte(in))
		valid := json.Valid([]byte(in))
		// Parse allows one level more than encoding/json: MaxDepth levels
		// inside the outermost value.
		shallow := strings.Count(in, "[")+strings.Count(in, "{") <= MaxDepth
		if err == nil && !valid && shallow {
			t.Fatalf("Parse accepted invalid JSON %q", in)
		}
		if err != nil {
			if valid && shallow {
				t.Fatalf("Parse rejected valid JSON %q: %v", in, err)
			}
			return
		}
		out := v.String()
		if !utf8.ValidString(out) || !json.Valid([]byte(out)) {
			t.Fatalf("String() of %q is not JSON: %q", in, out)
		}
		again, err := Parse([]byte(out))
		if err != nil || again.String() != out {
			t.Fatalf("String() is not stable for %q: %q", in, out)
		}
	})
}

// FuzzQuote checks that any Go string quotes to a valid UTF-8 JSON string
// literal that parses back to a string of the same length in UTF-16 code
// units (an invalid byte counts one, as the U+FFFD it is written as).
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "a\"\\\x00\x1f", "é😀\u2028", "\xed\xa0\x80", "\xed\xa0\x80\xed\xb0\x80", "\xff", "\xed\x41\x42"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if !utf8.ValidString(q) || !json.Valid([]byte(q)) {
			t.Fatalf("Quote(%q) = %q is not JSON", s, q)
		}
		v, err := Parse([]byte(q))
		if err != nil || v.Kind != String {
			t.Fatalf("Parse(Quote(%q)) = %v, %v", s, v, err)
		}
		if got, want := UTF16Len(v.Str), UTF16Len(s); got != want {
			t.Fatalf("UTF16Len after a round trip of %q = %d, want %d", s, got, want)
		}
		// One round trip may join a WTF-8 high and low surrogate into one
		// code point, as JSON.parse does; after it the text is stable.
		q2 := Quote(v.Str)
		if v2, err := Parse([]byte(q2)); err != nil || Quote(v2.Str) != q2 {
			t.Fatalf("Quote is not stable for %q: %q then %q", s, q, q2)
		}
	})
}
