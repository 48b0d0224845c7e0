package cell

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file reads exec's arguments and writes the payload by hand, with
// encoding/json's semantics: the same accepted inputs, the same decoded
// strings, the same bytes out. Every exec call does both once, with cold
// CPU caches, and encoding/json's reflection costs tens of microseconds
// there (reference/BENCHMARKS.md). The checks that must match encoding/json
// exactly (validity, compaction, indentation) still use its scanner, which
// is small: json.Valid, json.Compact and json.Indent. The tests compare
// every function here with encoding/json on tables and under the fuzzer.
// (jsjson reads JSON as JavaScript does, keeping a lone surrogate escape;
// exec's arguments have always been read as encoding/json reads them, and
// this file keeps that.)

// members returns the raw values of the named members of the JSON object
// args, in the order of keys: nil for an absent member, the last value for
// a repeated one, as encoding/json reads args into a
// map[string]json.RawMessage. ok is false unless args is valid JSON
// (json.Valid) and an object.
func members(args []byte, keys ...string) (vals [][]byte, ok bool) {
	vals = make([][]byte, len(keys))
	if !json.Valid(args) {
		return vals, false
	}
	i := skipSpace(args, 0)
	if args[i] != '{' {
		return vals, false
	}
	i = skipSpace(args, i+1)
	for i < len(args) && args[i] == '"' {
		end := stringEnd(args, i)
		key, _ := unquote(args[i:end])
		i = skipSpace(args, end)
		i = skipSpace(args, i+1) // ':'
		vEnd := valueEnd(args, i)
		for k, want := range keys {
			if key == want {
				vals[k] = args[i:vEnd]
			}
		}
		i = skipSpace(args, vEnd)
		if i < len(args) && args[i] == ',' {
			i = skipSpace(args, i+1)
		}
	}
	return vals, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isJSONSpace(b[i]) {
		i++
	}
	return i
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// stringEnd returns the end of the valid JSON string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// valueEnd returns the end of the valid JSON value that starts at b[i].
func valueEnd(b []byte, i int) int {
	if b[i] == '"' {
		return stringEnd(b, i)
	}
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// unquote decodes the JSON string literal s as encoding/json does: a
// lone or broken surrogate escape and an invalid UTF-8 byte become U+FFFD.
// s should be a valid JSON string (the callers check the document with
// json.Valid first); ok is false if it is not a string or, as far as this
// reading sees, not valid.
func unquote(s []byte) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	s = s[1 : len(s)-1]
	r := 0
	for r < len(s) {
		c := s[r]
		if c == '\\' || c < ' ' {
			break
		}
		if c < utf8.RuneSelf {
			r++
			continue
		}
		rr, size := utf8.DecodeRune(s[r:])
		if rr == utf8.RuneError && size == 1 {
			break
		}
		r += size
	}
	if r == len(s) {
		return string(s), true
	}
	b := make([]byte, 0, len(s)+utf8.UTFMax)
	b = append(b, s[:r]...)
	for r < len(s) {
		switch c := s[r]; {
		case c == '\\':
			r++
			if r == len(s) {
				return "", false
			}
			switch s[r] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := hex4(s[r+1:])
				if rr < 0 {
					return "", false
				}
				r += 5
				if utf16.IsSurrogate(rr) {
					if r+6 <= len(s) && s[r] == '\\' && s[r+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != unicode.ReplacementChar {
							b = utf8.AppendRune(b, dec)
							r += 6
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			default: // '"', '\\', '/'
				b = append(b, s[r])
			}
			r++
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			b = utf8.AppendRune(b, rr)
			r += size
		}
	}
	return string(b), true
}

// hex4 decodes the four hex digits at the start of s, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, as encoding/json writes it with
// HTML escaping off: \", \\, \b, \f, \n, \r, \t, other control characters
// as \u00XX, U+2028 and U+2029 escaped, an invalid UTF-8 byte as \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// wireWriter writes one JSON value with objects of members in order.
type wireWriter struct {
	buf   bytes.Buffer
	err   error // the first invalid raw value
	first bool  // no member written yet in the open object
}

func (w *wireWriter) key(k string) {
	if !w.first {
		w.buf.WriteByte(',')
	}
	w.first = false
	w.buf.WriteByte('"')
	w.buf.WriteString(k)
	w.buf.WriteString(`":`)
}

func (w *wireWriter) string(v string) { w.buf.Write(appendString(w.buf.AvailableBuffer(), v)) }

func (w *wireWriter) str(k, v string) {
	w.key(k)
	w.string(v)
}

func (w *wireWriter) int(k string, v int) {
	w.key(k)
	w.buf.Write(strconv.AppendInt(w.buf.AvailableBuffer(), int64(v), 10))
}

func (w *wireWriter) bool(k string, v bool) {
	w.key(k)
	w.buf.Write(strconv.AppendBool(w.buf.AvailableBuffer(), v))
}

// raw writes v compacted, as encoding/json writes a json.RawMessage: null
// for a nil one, an error for an empty one.
func (w *wireWriter) raw(v []byte) {
	if v == nil {
		w.buf.WriteString("null")
		return
	}
	if err := json.Compact(&w.buf, v); err != nil && w.err == nil {
		w.err = err
	}
}

func (w *wireWriter) open() {
	w.buf.WriteByte('{')
	w.first = true
}

func (w *wireWriter) close() {
	w.buf.WriteByte('}')
	w.first = false
}

func (w *wireWriter) openArray() { w.buf.WriteByte('[') }

func (w *wireWriter) closeArray() {
	w.buf.WriteByte(']')
	w.first = false
}

// comma separates array elements after the first.
func (w *wireWriter) comma(i int) {
	if i > 0 {
		w.buf.WriteByte(',')
	}
}
