package mcpns

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// maxDescriptionLines is the number of description lines a declaration
// keeps (CM-14.31).
const maxDescriptionLines = 12

// isJSSpace reports whether r is ECMAScript WhiteSpace or LineTerminator,
// the set String.prototype.trim removes. It differs from unicode.IsSpace:
// U+FEFF is included and U+0085 is not.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', ' ', 0xA0, 0xFEFF, '\n', '\r', 0x2028, 0x2029:
		return true
	}
	return r > 0xFF && unicode.Is(unicode.Zs, r)
}

// trimJS trims s as String.prototype.trim does.
func trimJS(s string) string { return strings.TrimFunc(s, isJSSpace) }

// isLineTerminator reports whether r ends a line (ECMAScript
// LineTerminator).
func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

// descriptionLines returns the comment lines of a description: the text
// trimmed, split into lines at every line terminator ("\r\n" counts once),
// every line trimmed, empty lines dropped and at most 12 lines kept
// (SPEC.md section 14.6, CM-14.31). Text that is not well-formed UTF-8 is
// repaired first.
func descriptionLines(s string) []string {
	var lines []string
	for _, l := range strings.FieldsFunc(wellFormed(trimJS(s)), isLineTerminator) {
		if l = trimJS(l); l == "" {
			continue
		}
		lines = append(lines, l)
		if len(lines) == maxDescriptionLines {
			break
		}
	}
	return lines
}

// collapse returns a description collapsed to one line: its description
// lines joined by one space.
func collapse(s string) string { return strings.Join(descriptionLines(s), " ") }

// escapeComment makes text safe inside a block comment: every "*/" is
// written "* /" (CM-14.31).
func escapeComment(s string) string { return strings.ReplaceAll(s, "*/", "* /") }

// wellFormed returns s with every lone surrogate (WTF-8) and every byte
// that is not UTF-8 replaced by U+FFFD, as String.prototype.toWellFormed
// does, so rendered files are valid UTF-8.
func wellFormed(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if _, ok := jsjson.LoneSurrogate(s[i:]); ok {
			b.WriteRune(utf8.RuneError)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += size
	}
	return b.String()
}
