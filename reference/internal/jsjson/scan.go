package jsjson

import (
	"errors"
	"unicode/utf8"
)

// MaxGuestDepth is the deepest nesting of arrays and objects that a JSON value
// may have where it crosses between the guest and the host: a final value,
// an output item's value, a bridge request's arguments and a bridge result
// (SPEC.md CM-7.29, CM-18.7). JSON.stringify in the guest writes any depth
// its stack allows, while the readers of a payload do not: Go's
// encoding/json stops at 10000 levels, and a payload that fails to encode
// is a payload lost.
const MaxGuestDepth = 1000

// ErrTooDeep reports a JSON value nested deeper than the caller's bound.
var ErrTooDeep = errors.New("jsjson: value nested too deeply")

// Scan checks that b[i:] starts, after optional white space, with one JSON
// value (RFC 8259, in UTF-8) whose arrays and objects nest at most maxDepth
// deep, and returns the index just past the value. It works in one pass
// without recursion, so a hostile text cannot exhaust the stack. The error
// is ErrTooDeep or a *SyntaxError.
func Scan(b []byte, i, maxDepth int) (int, error) {
	var stack []byte // the open containers: '{' or '['
	for {
		// A value starts at i (after white space).
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, &SyntaxError{Offset: i}
		}
		switch c := b[i]; c {
		case '{', '[':
			if len(stack) >= maxDepth {
				return 0, ErrTooDeep
			}
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == closer {
				i++
				break
			}
			stack = append(stack, c)
			if c == '{' {
				var err error
				if i, err = scanMember(b, i); err != nil {
					return 0, err
				}
			}
			continue
		case '"':
			var err error
			if i, err = scanString(b, i); err != nil {
				return 0, err
			}
		case 't':
			if !hasWord(b, i, "true") {
				return 0, &SyntaxError{Offset: i}
			}
			i += len("true")
		case 'f':
			if !hasWord(b, i, "false") {
				return 0, &SyntaxError{Offset: i}
			}
			i += len("false")
		case 'n':
			if !hasWord(b, i, "null") {
				return 0, &SyntaxError{Offset: i}
			}
			i += len("null")
		default:
			var err error
			if i, err = scanNumber(b, i); err != nil {
				return 0, err
			}
		}
		// A value ended at i: close what it completes, or find the next one.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, &SyntaxError{Offset: i}
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				i++
				if top == '{' {
					var err error
					if i, err = scanMember(b, skipSpace(b, i)); err != nil {
						return 0, err
					}
				}
				break
			}
			if (top == '{' && b[i] == '}') || (top == '[' && b[i] == ']') {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return 0, &SyntaxError{Offset: i}
		}
	}
}

// Valid reports whether b is exactly one JSON value, with optional white
// space around it, nested at most maxDepth deep.
func Valid(b []byte, maxDepth int) bool {
	end, err := Scan(b, 0, maxDepth)
	return err == nil && skipSpace(b, end) == len(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanMember reads an object member's name and colon at i.
func scanMember(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, &SyntaxError{Offset: i}
	}
	i, err := scanString(b, i)
	if err != nil {
		return 0, err
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return 0, &SyntaxError{Offset: i}
	}
	return i + 1, nil
}

// hasWord reports whether the literal w is at i.
func hasWord(b []byte, i int, w string) bool {
	return len(b)-i >= len(w) && string(b[i:i+len(w)]) == w
}

// scanString reads the string that starts with the quote at i.
func scanString(b []byte, i int) (int, error) {
	i++
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			if i+1 >= len(b) {
				return 0, &SyntaxError{Offset: i}
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return 0, &SyntaxError{Offset: i}
				}
				i += 6
			default:
				return 0, &SyntaxError{Offset: i}
			}
		case c < 0x20:
			return 0, &SyntaxError{Offset: i}
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				return 0, &SyntaxError{Offset: i}
			}
			i += n
		}
	}
	return 0, &SyntaxError{Offset: i}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scanNumber reads a number at i: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) (int, error) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, &SyntaxError{Offset: start}
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, &SyntaxError{Offset: i}
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, &SyntaxError{Offset: i}
		}
		i = j
	}
	return i, nil
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
