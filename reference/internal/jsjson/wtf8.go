package jsjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

// appendWTF8 appends r in UTF-8, encoding a surrogate code point with the
// three-byte generalized UTF-8 form that utf8.AppendRune refuses.
func appendWTF8(b []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return utf8.AppendRune(b, r)
}

// LoneSurrogate returns the surrogate code point whose WTF-8 encoding (ED
// A0..BF 80..BF, three bytes) starts s; ok is false when s does not start
// with one.
func LoneSurrogate(s string) (r rune, ok bool) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
	}
	return 0, false
}

// UTF16Len returns the length of s in UTF-16 code units, the ECMAScript
// string length (SPEC.md section 1.2). A WTF-8 lone surrogate counts as one
// unit, and so does an invalid byte (it stands for U+FFFD).
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		if _, ok := LoneSurrogate(s[i:]); ok {
			n++
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}
