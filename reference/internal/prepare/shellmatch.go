package prepare

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file matches the expressions of SPEC.md Appendix B.3 that steps 1 to
// 8 of the shell rule apply to every cell, by hand. The compiled regular
// expressions (shellexpr.go) give the same answers and stay the reference:
// the tests run both on the SPEC's samples and fuzz one against the other.
// The hand matchers exist for speed: an exec call runs them once, with
// cold CPU caches, and the regexp engine's code and the programs' data cost
// about 30 us there (reference/BENCHMARKS.md); these touch a few hundred
// bytes of code. SHELL_ENV_ASSIGNMENT is matched by hand only as far as its
// fixed start (a name and '='); the rest, and the expressions of steps 11
// and 12, which only sources that start like a command reach, stay regexps.
//
// Each matcher reads its input as the regexp package does: rune by rune,
// an invalid UTF-8 byte as one U+FFFD. The word lists come from the SPEC
// text in specExpressions, so there is one copy of each.

// The word lists of the alternations of Appendix B.3.
var (
	exportWords  = alternationSet("JAVASCRIPT_EXPORT", `\s+(?:(?:`, `)\b`)
	keywordWords = alternationSet("JAVASCRIPT_KEYWORD", `^(?:`, `)$`)
	globalWords  = alternationSet("JAVASCRIPT_GLOBAL", `^(?:`, `)$`)
	commandWords = alternationSet("SHELL_COMMAND", `bin\/)?(`, `)(?=`)
)

// alternationSet returns the words of the alternation between before and
// after in the named expression of specExpressions. It panics if the
// expression has no such alternation, which a test rules out.
func alternationSet(name, before, after string) map[string]bool {
	expr := specExpressions[name]
	i := strings.Index(expr, before)
	j := strings.Index(expr, after)
	if i < 0 || j < i+len(before) {
		panic(fmt.Sprintf("prepare: %s has no alternation between %q and %q", name, before, after))
	}
	set := map[string]bool{}
	for _, w := range strings.Split(expr[i+len(before):j], "|") {
		set[w] = true
	}
	return set
}

// runeAt decodes the rune at s[i:] as the regexp package reads it.
func runeAt(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }

// wordEnd returns the end of the run of ASCII word bytes (\w) at s[i:].
func wordEnd(s string, i int) int {
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	return i
}

// dashedWordEnd returns the end of the run of [\w-] at s[i:].
func dashedWordEnd(s string, i int) int {
	for i < len(s) && (isWordByte(s[i]) || s[i] == '-') {
		i++
	}
	return i
}

// blankEnd returns the end of the run of [\t ] at s[i:].
func blankEnd(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// boundaryAt reports whether \b holds at s[i:] after a word byte: the end
// of s or a byte that is not \w.
func boundaryAt(s string, i int) bool { return i == len(s) || !isWordByte(s[i]) }

// nameStart reports whether s[i:] starts with [A-Za-z_].
func nameStart(s string, i int) bool { return i < len(s) && (isLetter(s[i]) || s[i] == '_') }

// commandEndAt reports whether the lookahead (?=$|[\s;&|<>]) holds at s[i:].
func commandEndAt(s string, i int) bool {
	if i == len(s) {
		return true
	}
	switch s[i] {
	case ';', '&', '|', '<', '>':
		return true
	}
	r, _ := runeAt(s, i)
	return isJSSpace(r)
}

// leadingCommentsLen is prefixMatch(leadingSourceComments, s): the length
// of the comments (//, /* */ and # comments, each with the tabs, spaces
// and line breaks after it) at the start of s, or -1 if s starts with none.
func leadingCommentsLen(s string) int {
	n, i := -1, 0
	for i < len(s) {
		switch {
		case strings.HasPrefix(s[i:], "//"), s[i] == '#':
			j := i + strings.IndexAny(s[i:], "\r\n")
			if j < i {
				j = len(s)
			}
			switch {
			case j == len(s):
			case s[j] == '\n':
				j++
			case strings.HasPrefix(s[j:], "\r\n"):
				j += 2
			default:
				return n // a lone \r ends neither the line nor the match
			}
			i = j
		case strings.HasPrefix(s[i:], "/*"):
			k := strings.Index(s[i+2:], "*/")
			if k < 0 {
				return n
			}
			i += 2 + k + 2
		default:
			return n
		}
		for i < len(s) && (s[i] == '\t' || s[i] == ' ' || s[i] == '\r' || s[i] == '\n') {
			i++
		}
		n = i
	}
	return n
}

// isJSExport is javascriptExport.MatchString(s): "export", white space,
// then a declaration keyword or one of = { *.
func isJSExport(s string) bool {
	if !strings.HasPrefix(s, "export") {
		return false
	}
	i := len("export")
	spaced := false
	for i < len(s) {
		r, w := runeAt(s, i)
		if !isJSSpace(r) {
			break
		}
		i, spaced = i+w, true
	}
	if !spaced || i == len(s) {
		return false
	}
	if c := s[i]; c == '=' || c == '{' || c == '*' {
		return true
	}
	return exportWords[s[i:wordEnd(s, i)]]
}

// isShellControl is shellControl.MatchString(s): the start of an if, elif,
// while, until, for or case statement or a function definition of a shell.
func isShellControl(s string) bool {
	w := wordEnd(s, 0)
	i := blankEnd(s, w)
	if i == w {
		return false // every branch needs [\t ]+ after its word
	}
	switch s[:w] {
	case "if", "elif", "while", "until":
		// \[{1,2}(?=[\t ]|$) | test\b | [A-Za-z_][\w-]*(?=[\t ;])
		if strings.HasPrefix(s[i:], "[") {
			return blankOrEnd(s, i+1) || strings.HasPrefix(s[i:], "[[") && blankOrEnd(s, i+2)
		}
		if strings.HasPrefix(s[i:], "test") && boundaryAt(s, i+4) {
			return true
		}
		if !nameStart(s, i) {
			return false
		}
		e := dashedWordEnd(s, i)
		return e < len(s) && (s[e] == '\t' || s[e] == ' ' || s[e] == ';')
	case "for":
		// [A-Za-z_]\w*[\t ]+in\b | \(\([^\r\n]*\)\)[\t ]*;[\t ]*do\b
		if nameStart(s, i) {
			e := wordEnd(s, i)
			b := blankEnd(s, e)
			return b > e && strings.HasPrefix(s[b:], "in") && boundaryAt(s, b+2)
		}
		if !strings.HasPrefix(s[i:], "((") {
			return false
		}
		line := s[i+2:]
		if k := strings.IndexAny(line, "\r\n"); k >= 0 {
			line = line[:k]
		}
		// Any "))" on the line may close the head: [^\r\n]* backtracks.
		for k := strings.LastIndex(line, "))"); k >= 0; k = strings.LastIndex(line[:k+1], "))") {
			rest := s[i+2+k+2:]
			j := blankEnd(rest, 0)
			if j < len(rest) && rest[j] == ';' {
				j = blankEnd(rest, j+1)
				if strings.HasPrefix(rest[j:], "do") && boundaryAt(rest, j+2) {
					return true
				}
			}
		}
		return false
	case "case":
		// \S+[\t ]+in\b
		e := i
		for e < len(s) {
			r, w := runeAt(s, e)
			if isJSSpace(r) {
				break
			}
			e += w
		}
		b := blankEnd(s, e)
		return e > i && b > e && strings.HasPrefix(s[b:], "in") && boundaryAt(s, b+2)
	case "function":
		// [A-Za-z_][\w-]*[\t ]*\{
		if !nameStart(s, i) {
			return false
		}
		b := blankEnd(s, dashedWordEnd(s, i))
		return b < len(s) && s[b] == '{'
	}
	return false
}

// blankOrEnd is the lookahead (?=[\t ]|$) at s[i:].
func blankOrEnd(s string, i int) bool { return i == len(s) || s[i] == '\t' || s[i] == ' ' }

// envAssignmentLen is prefixMatch(shellEnvAssignment, s). Most sources do
// not start with a name and '=', which the expression needs first; for
// those that do, the expression itself runs.
func envAssignmentLen(s string) int {
	if !nameStart(s, 0) {
		return -1
	}
	if e := wordEnd(s, 0); e == len(s) || s[e] != '=' {
		return -1
	}
	return prefixMatch(shellEnvAssignment, s)
}

// shellCommandAt is commandMatch(shellCommand, s): a known command, after
// an optional /bin/, /usr/bin/ or /usr/local/bin/, followed by the end or
// a white space, ';', '&', '|', '<' or '>'. Since no command is another
// followed by such a character, the command is the text up to the first
// of them.
func shellCommandAt(s string) (end int, name string, ok bool) {
	start := 0
	for _, p := range []string{"/usr/local/bin/", "/usr/bin/", "/bin/"} {
		if strings.HasPrefix(s, p) {
			start = len(p)
			break
		}
	}
	e := start
	for e < len(s) && (s[e] >= 'a' && s[e] <= 'z' || isDigit(s[e])) {
		e++
	}
	if !commandEndAt(s, e) || !commandWords[s[start:e]] {
		return 0, "", false
	}
	return e, s[start:e], true
}

// shellIdentifierAt is commandMatch(shellIdentifier, s): a name of
// [A-Za-z_][\w-]* followed by the end or a white space, ';', '&', '|',
// '<' or '>'.
func shellIdentifierAt(s string) (end int, name string, ok bool) {
	if !nameStart(s, 0) {
		return 0, "", false
	}
	e := dashedWordEnd(s, 0)
	if !commandEndAt(s, e) {
		return 0, "", false
	}
	return e, s[:e], true
}

// isExecutablePath is shellExecutablePath.MatchString(s): ./, ../, ~/, /
// or a drive letter and colon (with / or \), then characters other than
// white space and ; | & ( ), up to the end or a tab, space, line break,
// ';', '&' or '|'.
func isExecutablePath(s string) bool {
	i := 0
	switch {
	case strings.HasPrefix(s, "../"), strings.HasPrefix(s, `..\`):
		i = 3
	case strings.HasPrefix(s, "./"), strings.HasPrefix(s, `.\`), strings.HasPrefix(s, "~/"), strings.HasPrefix(s, `~\`):
		i = 2
	case strings.HasPrefix(s, "/"):
		i = 1
	case len(s) >= 3 && isLetter(s[0]) && s[1] == ':' && (s[2] == '/' || s[2] == '\\'):
		i = 3
	default:
		return false
	}
	e := i
	for e < len(s) {
		switch s[e] {
		case ';', '|', '&', '(', ')':
		default:
			r, w := runeAt(s, e)
			if !isJSSpace(r) {
				e += w
				continue
			}
		}
		break
	}
	if e == i {
		return false
	}
	if e == len(s) {
		return true
	}
	switch s[e] {
	case '\t', ' ', '\r', '\n', ';', '&', '|':
		return true
	}
	return false
}
