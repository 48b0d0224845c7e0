package mcpns

import (
	"slices"
	"strconv"
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// ReservedGlobals are the reserved globals of SPEC.md Appendix B.5: MCP
// server identifiers never take these.
var ReservedGlobals = []string{
	"ALL_TOOLS", "agents", "API", "Array", "Boolean", "Date", "Error", "globalThis",
	"log", "json", "JSON", "Map", "Math", "MCP", "namespaces", "Number", "Object",
	"Promise", "phase", "Set", "String", "text", "tools", "yield_control",
}

// ReservedWords are the reserved words of SPEC.md Appendix B.5, never used
// as MCP identifiers.
var ReservedWords = []string{
	"break", "case", "catch", "class", "const", "continue", "debugger", "default",
	"delete", "do", "else", "enum", "export", "extends", "false", "finally", "for",
	"function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
	"switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
}

// ForbiddenSegments are the forbidden path segments of SPEC.md Appendix
// B.5: never an identifier and never accepted in a call path.
var ForbiddenSegments = []string{"__proto__", "constructor", "prototype"}

// toIdentifier turns a server owner or tool name into a JavaScript
// identifier (SPEC.md section 14.2): the value is split into its runs of
// ASCII letters and digits, camel-cased, stripped of leading characters
// that cannot start an identifier, and replaced by fallback when nothing
// usable is left.
func toIdentifier(s, fallback string) string {
	words := strings.FieldsFunc(trimJS(s), func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	candidate := fallback
	if len(words) > 0 {
		var b strings.Builder
		for i, w := range words {
			first := w[:1]
			if i == 0 {
				first = strings.ToLower(first)
			} else {
				first = strings.ToUpper(first)
			}
			b.WriteString(first)
			b.WriteString(w[1:])
		}
		candidate = b.String()
	}
	candidate = strings.TrimLeftFunc(candidate, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '_' || r == '$')
	})
	candidate = strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '$' {
			return r
		}
		return -1
	}, candidate)
	if jsjson.IsIdentifier(candidate) {
		return candidate
	}
	return fallback
}

// isReserved reports whether name is a reserved global, a reserved word or
// a forbidden segment (SPEC.md Appendix B.5).
func isReserved(name string) bool {
	return slices.Contains(ReservedGlobals, name) || slices.Contains(ReservedWords, name) ||
		slices.Contains(ForbiddenSegments, name)
}

// uniqueIdentifier returns the first of base, base2, base3, ... that is not
// in used and not reserved, and adds it to used (SPEC.md section 14.2).
func uniqueIdentifier(base string, used map[string]bool) string {
	name := base
	for n := 2; used[name] || isReserved(name); n++ {
		name = base + strconv.Itoa(n)
	}
	used[name] = true
	return name
}

// SafeOwner returns the catalog owner of a configured MCP server name:
// every character outside [A-Za-z0-9_-] replaced by "-" (CM-11.10). A
// character is a UTF-16 code unit, as in an ECMAScript regular expression
// without the u flag, so a character outside the Basic Multilingual Plane
// becomes "--".
func SafeOwner(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--") // a surrogate pair
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}
