package prepare

import (
	"fmt"
	"regexp"
	"strings"
)

// This file holds the regular expressions of the shell rule, SPEC.md
// Appendix B.3. Each is kept in its ECMAScript form, character for character
// as the SPEC prints it, and compiled by translateECMAScript, which changes
// only what Go's RE2 syntax reads differently:
//
//   - \s and \S: ECMAScript's \s is WhiteSpace plus LineTerminator, a Unicode
//     set that includes \v, NBSP, U+FEFF and the line and paragraph
//     separators; RE2's \s is ASCII and lacks \v. Both become explicit
//     classes of jsSpaceChars. [\s\S], every character in both, is kept.
//   - '.': ECMAScript's '.' excludes the four line terminators; RE2's excludes
//     only \n. It becomes the class jsDot.
//   - (?=…): RE2 has no lookahead. In B.3 every lookahead tests one
//     character or the end of input, and nothing is matched after it on any
//     path (translateECMAScript checks this), so it becomes a group that
//     matches that character (or the end): whether there is a match does not
//     change. When the lookahead ends the whole expression, the part before
//     it is captured as group "match", which is the ECMAScript match: the
//     character after it is checked but not taken. The nested lookaheads of
//     SHELL_CONTROL take their character, which only lengthens a match that
//     is never used. Checking the character by hand after a match made
//     without the lookahead would not be the same: ECMAScript backtracks when
//     a lookahead fails, so /^(pip|pip3)(?=\s)/u matches "pip3 install",
//     while matching "pip" first and then finding '3' would wrongly give up.
//   - The first capturing group is named "name".
//   - The i flag becomes (?i). Like ECMAScript's /iu, RE2 folds case with
//     Unicode simple case folding, so [a-z] also matches U+017F and U+212A.
//
// ECMAScript's ^ and $ without the m flag, \b, \d and \w are ASCII or
// input-anchored in both syntaxes, and Go's leftmost-first matching picks the
// match a backtracking engine would, so the rest is copied verbatim. Tests
// compare the ECMAScript text with SPEC.md and check each expression on
// positive and negative samples whose answers were taken from Node.js.

// jsSpaceChars are the characters of ECMAScript's \s, in RE2 class syntax:
// WhiteSpace (TAB, VT, FF, ZWNBSP and the Zs category) and LineTerminator
// (LF, CR, LS, PS).
const jsSpaceChars = `\t\n\v\f\r \x{00A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

// jsDot is ECMAScript's '.' without the s flag, in RE2 syntax.
const jsDot = `[^\n\r\x{2028}\x{2029}]`

// specExpressions are the expressions of SPEC.md Appendix B.3, verbatim, by
// name; shellSeparator is the expression of step 11 of section 5.4.
var specExpressions = map[string]string{
	"JAVASCRIPT_EXPORT":       `/^export\s+(?:(?:abstract|as|async|class|const|declare|default|enum|function|import|interface|let|namespace|type|var)\b|[={*])/u`,
	"JAVASCRIPT_KEYWORD":      `/^(?:abstract|as|async|await|break|case|catch|class|const|continue|debugger|declare|default|delete|do|else|enum|export|extends|false|finally|for|function|if|implements|import|in|instanceof|interface|let|namespace|new|null|of|private|protected|public|return|satisfies|static|super|switch|this|throw|true|try|typeof|undefined|var|void|while|with|yield)$/u`,
	"JAVASCRIPT_GLOBAL":       `/^(?:ALL_TOOLS|AggregateError|Array|ArrayBuffer|BigInt|BigInt64Array|BigUint64Array|Boolean|DataView|Date|Error|EvalError|Float32Array|Float64Array|Function|Infinity|Int16Array|Int32Array|Int8Array|Intl|JSON|Map|Math|NaN|Number|Object|Promise|Proxy|RangeError|ReferenceError|Reflect|RegExp|Set|String|Symbol|SyntaxError|TypeError|URIError|Uint16Array|Uint32Array|Uint8Array|Uint8ClampedArray|WeakMap|WeakSet|console|decodeURI|decodeURIComponent|encodeURI|encodeURIComponent|eval|globalThis|isFinite|isNaN|parseFloat|parseInt|tools)$/u`,
	"SHELL_COMMAND":           `/^(?:\/(?:usr\/(?:local\/)?)?bin\/)?(alias|apt|awk|bash|bg|brew|builtin|bun|cargo|cat|cd|chmod|cmd|command|cp|curl|cut|date|declare|df|dir|docker|dotnet|du|echo|env|exec|exit|export|fg|file|find|getopts|git|go|gradle|grep|hash|head|help|hostname|id|java|javac|jobs|jq|kill|kubectl|ln|local|logout|ls|make|mkdir|mvn|mv|node|npm|npx|perl|php|pip|pip3|pnpm|poetry|popd|powershell|printf|ps|pushd|pwd|pwsh|pytest|python|python3|read|readonly|rg|rm|ruby|rustc|rustup|sed|set|sh|shift|sleep|sort|source|stat|sudo|swift|systemctl|tail|tar|tee|test|touch|trap|tree|type|ulimit|umask|uname|uniq|unset|unzip|uv|uvx|vitest|wait|wc|wget|which|whoami|xargs|yarn|zip|zsh)(?=$|[\s;&|<>])/u`,
	"SHELL_IDENTIFIER":        `/^([A-Za-z_][\w-]*)(?=$|[\s;&|<>])/u`,
	"SHELL_EXECUTABLE_PATH":   `/^(?:(?:\.{1,2}|~)[\\/]|\/|[A-Za-z]:[\\/])[^\s;|&()]+(?=$|[\t \r\n;&|])/u`,
	"SHELL_ARGUMENT":          `/^(?:-{1,2}[a-z\d][\w-]*(?:[\t =;&|]|$)|(?:(?:\.{1,2}|~)[\\/]|\/|[A-Za-z]:[\\/])[^\s]+)/iu`,
	"SHELL_ENV_ASSIGNMENT":    `/^[A-Za-z_]\w*=(?:"(?:\\.|[^"])*"|'[^']*'|\\.|[^\s;&|])*(?:[\t ]+|[\t ]*\r?\n[\t ]*)(?=\S)/u`,
	"SHELL_CONTROL":           `/^(?:(?:if|elif|while|until)[\t ]+(?:\[{1,2}(?=[\t ]|$)|test\b|[A-Za-z_][\w-]*(?=[\t ;]))|for[\t ]+(?:[A-Za-z_]\w*[\t ]+in\b|\(\([^\r\n]*\)\)[\t ]*;[\t ]*do\b)|case[\t ]+\S+[\t ]+in\b|function[\t ]+[A-Za-z_][\w-]*[\t ]*\{)/u`,
	"SHELL_REDIRECTION":       `/^(?:\d*(?:>>?|<<?)|&>>?)/u`,
	"LEADING_SOURCE_COMMENTS": `/^(?:(?:\/\/[^\r\n]*(?:\r?\n|$)|\/\*[\s\S]*?\*\/|#[^\r\n]*(?:\r?\n|$))[\t \r\n]*)+/u`,
	"shellSeparator":          `/^[\t ]*(?:[;\r\n]|&&?|\|{1,2})/u`,
}

// The compiled expressions that the shell rule runs: shellEnvAssignment
// after the hand matcher of its start (shellmatch.go), and those of steps
// 11 and 12, of which only whether they match is used. The other
// expressions of Appendix B.3 are matched by hand; their compiled forms are
// the tests' oracle (shellmatch_test.go).
var (
	shellArgument      = compileSpec("SHELL_ARGUMENT")
	shellEnvAssignment = compileSpec("SHELL_ENV_ASSIGNMENT")
	shellRedirection   = compileSpec("SHELL_REDIRECTION")
	shellSeparator     = compileSpec("shellSeparator")
)

// compileSpec compiles the named expression of specExpressions. It panics if
// the expression cannot be translated, which a test rules out.
func compileSpec(name string) *regexp.Regexp {
	expr, err := translateECMAScript(specExpressions[name])
	if err != nil {
		panic(fmt.Sprintf("prepare: %s: %v", name, err))
	}
	return regexp.MustCompile(expr)
}

// translateECMAScript translates an ECMAScript regular expression literal
// with the u flag, written /source/flags, into RE2 syntax as described at the
// top of this file. It handles the syntax that Appendix B.3 uses and fails on
// a lookahead it cannot translate exactly.
func translateECMAScript(literal string) (string, error) {
	end := strings.LastIndexByte(literal, '/')
	if !strings.HasPrefix(literal, "/") || end < 1 {
		return "", fmt.Errorf("%q is not a regular expression literal", literal)
	}
	src, flags := literal[1:end], literal[end+1:]
	if strings.Trim(flags, "iu") != "" || !strings.Contains(flags, "u") {
		return "", fmt.Errorf("unsupported flags %q", flags)
	}
	var b strings.Builder
	class := false  // inside [...]
	depth := 0      // open groups
	captures := 0   // plain capturing groups seen
	topLook := -1   // offset in b of a lookahead at depth 0
	var looks []int // depth of each open group that is a lookahead, or -1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			i++
			switch e := src[i]; {
			case e == 's' && class:
				b.WriteString(jsSpaceChars)
			case e == 's':
				b.WriteString("[" + jsSpaceChars + "]")
			case e == 'S' && class:
				return "", fmt.Errorf(`\S inside a class at %d`, i)
			case e == 'S':
				b.WriteString("[^" + jsSpaceChars + "]")
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		case class:
			if c == ']' {
				class = false
			}
			b.WriteByte(c)
		case c == '[':
			if strings.HasPrefix(src[i:], `[\s\S]`) {
				b.WriteString(`[\s\S]`)
				i += len(`[\s\S]`) - 1
				continue
			}
			class = true
			b.WriteByte(c)
		case c == '.':
			b.WriteString(jsDot)
		case c == '(' && strings.HasPrefix(src[i:], "(?="):
			if depth == 0 {
				topLook = b.Len()
			}
			looks = append(looks, depth)
			depth++
			b.WriteString("(?:")
			i += 2
		case c == '(':
			looks = append(looks, -1)
			depth++
			if !strings.HasPrefix(src[i:], "(?") {
				captures++
				if captures == 1 {
					b.WriteString("(?P<name>")
					continue
				}
			}
			b.WriteByte(c)
		case c == ')':
			if depth == 0 {
				return "", fmt.Errorf("unbalanced ')' at %d", i)
			}
			depth--
			open := looks[len(looks)-1]
			looks = looks[:len(looks)-1]
			b.WriteByte(c)
			if open >= 0 && !endsMatch(src, i+1) {
				return "", fmt.Errorf("lookahead at %d is followed by more to match", i)
			}
		default:
			b.WriteByte(c)
		}
	}
	if class || depth != 0 {
		return "", fmt.Errorf("unterminated class or group")
	}
	out := b.String()
	if topLook >= 0 {
		if !strings.HasPrefix(out, "^") {
			return "", fmt.Errorf("lookahead in an unanchored expression")
		}
		out = "^(?P<match>" + out[1:topLook] + ")" + out[topLook:]
	}
	if strings.Contains(flags, "i") {
		out = "(?i)" + out
	}
	return out, nil
}

// endsMatch reports whether a match of the ECMAScript source src ends at
// offset i, just after a group closes, whatever path it takes: only group
// ends (with no quantifier) and other alternatives of enclosing groups
// follow.
func endsMatch(src string, i int) bool {
	for i < len(src) {
		switch src[i] {
		case ')':
			i++
		case '|':
			i = groupEnd(src, i)
		default:
			return false
		}
	}
	return true
}

// groupEnd returns the offset of the ')' that closes the group containing
// offset i of the ECMAScript source src, or len(src) at the top level.
func groupEnd(src string, i int) int {
	depth, class := 0, false
	for ; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return len(src)
}

// prefixMatch returns the length of the ECMAScript match of re at the start
// of s: the end of group "match" when re has one, the end of the whole match
// otherwise. It returns -1 if re does not match.
func prefixMatch(re *regexp.Regexp, s string) int {
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return -1
	}
	if i := re.SubexpIndex("match"); i > 0 {
		return m[2*i+1]
	}
	return m[1]
}

// isJSSpace reports whether r is in ECMAScript's \s, the set that
// String.prototype.trim removes.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029',
		'\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return '\u2000' <= r && r <= '\u200a'
}
