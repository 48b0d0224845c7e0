package jsjson

import (
	"strings"
	"unicode/utf8"
)

const lowerHex = "0123456789abcdef"

// shortEscaped are the characters JSON.stringify escapes with a backslash
// and the letter at the same index of shortEscapes.
const (
	shortEscaped = "\"\\\b\f\n\r\t"
	shortEscapes = "\"\\bfnrt"
)

// Quote returns the JSON string literal of s, the JSON.stringify text of
// the string (SPEC.md section 1.2): only '"', '\\' and code units below
// U+0020 are escaped, with \b, \f, \n, \r, \t or lower-case \u00xx; a
// WTF-8 lone surrogate is written as its lower-case \uxxxx escape. A byte
// that is neither UTF-8 nor part of a WTF-8 surrogate has no JavaScript
// counterpart: it is written as U+FFFD, so the text is always valid UTF-8.
func Quote(s string) string { return string(appendQuote(make([]byte, 0, len(s)+2), s)) }

func appendQuote(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			if r, ok := LoneSurrogate(s[i:]); ok {
				b = append(b, '\\', 'u', lowerHex[r>>12&0xF], lowerHex[r>>8&0xF], lowerHex[r>>4&0xF], lowerHex[r&0xF])
				i += 3
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r) // U+FFFD for an invalid byte
			i += size
			continue
		}
		i++
		if c >= 0x20 && c != '"' && c != '\\' {
			b = append(b, c)
		} else if e := strings.IndexByte(shortEscaped, c); e >= 0 {
			b = append(b, '\\', shortEscapes[e])
		} else {
			b = append(b, '\\', 'u', '0', '0', lowerHex[c>>4], lowerHex[c&0xF])
		}
	}
	return append(b, '"')
}
