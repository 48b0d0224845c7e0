package prepare

import (
	"regexp"
	"strings"
	"testing"
)

// The compiled expressions of Appendix B.3 that shellmatch.go matches by
// hand: the oracle of its tests.
var (
	javascriptExport      = compileSpec("JAVASCRIPT_EXPORT")
	javascriptKeyword     = compileSpec("JAVASCRIPT_KEYWORD")
	javascriptGlobal      = compileSpec("JAVASCRIPT_GLOBAL")
	shellCommand          = compileSpec("SHELL_COMMAND")
	shellIdentifier       = compileSpec("SHELL_IDENTIFIER")
	shellExecutablePath   = compileSpec("SHELL_EXECUTABLE_PATH")
	shellControl          = compileSpec("SHELL_CONTROL")
	leadingSourceComments = compileSpec("LEADING_SOURCE_COMMENTS")
)

// commandMatch matches re, shellCommand or shellIdentifier, at the start of
// s. It returns the length of the ECMAScript match and the captured name.
func commandMatch(re *regexp.Regexp, s string) (end int, name string, ok bool) {
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return 0, "", false
	}
	mi, ni := 2*re.SubexpIndex("match"), 2*re.SubexpIndex("name")
	return m[mi+1], s[m[ni]:m[ni+1]], true
}

// handMatchers pairs each hand matcher with its expression, both as
// "length of the ECMAScript match at the start, or -1" (the name too, for
// the command expressions).
var handMatchers = []struct {
	name   string
	hand   func(string) (int, string)
	oracle func(string) (int, string)
}{
	{"LEADING_SOURCE_COMMENTS",
		func(s string) (int, string) { return leadingCommentsLen(s), "" },
		func(s string) (int, string) { return prefixMatch(leadingSourceComments, s), "" }},
	{"JAVASCRIPT_EXPORT", hit(isJSExport), hit(javascriptExport.MatchString)},
	{"SHELL_CONTROL", hit(isShellControl), hit(shellControl.MatchString)},
	{"SHELL_ENV_ASSIGNMENT",
		func(s string) (int, string) { return envAssignmentLen(s), "" },
		func(s string) (int, string) { return prefixMatch(shellEnvAssignment, s), "" }},
	{"SHELL_COMMAND", command(shellCommandAt), command(func(s string) (int, string, bool) { return commandMatch(shellCommand, s) })},
	{"SHELL_IDENTIFIER", command(shellIdentifierAt), command(func(s string) (int, string, bool) { return commandMatch(shellIdentifier, s) })},
	{"JAVASCRIPT_KEYWORD", hit(func(s string) bool { return keywordWords[s] }), hit(javascriptKeyword.MatchString)},
	{"JAVASCRIPT_GLOBAL", hit(func(s string) bool { return globalWords[s] }), hit(javascriptGlobal.MatchString)},
	{"SHELL_EXECUTABLE_PATH", hit(isExecutablePath), hit(shellExecutablePath.MatchString)},
}

// hit turns a yes/no matcher into the common form: 0 for a match.
func hit(f func(string) bool) func(string) (int, string) {
	return func(s string) (int, string) {
		if f(s) {
			return 0, ""
		}
		return -1, ""
	}
}

func command(f func(string) (int, string, bool)) func(string) (int, string) {
	return func(s string) (int, string) {
		end, name, ok := f(s)
		if !ok {
			return -1, ""
		}
		return end, name
	}
}

// shellMatchPrefixes lead the fuzzer's input into each matcher's deeper
// branches.
var shellMatchPrefixes = []string{"", "// c\n", "/* c */", "# c\r\n", "export ", "export\u00a0", "if ", "elif\t", "while [[ ",
	"until ", "for ", "for ((", "for x in", "case ", "function ", "A_1=", "x=\"", "/usr/local/bin/", "/bin/", "./", "../", "~\\",
	"C:/", "/", "git", "pip3", "ls", "return", "tools"}

// checkHandMatchers compares every hand matcher with its expression on s
// and on s after each of shellMatchPrefixes.
func checkHandMatchers(t *testing.T, s string) {
	t.Helper()
	for _, p := range shellMatchPrefixes {
		in := p + s
		for _, m := range handMatchers {
			gotN, gotName := m.hand(in)
			wantN, wantName := m.oracle(in)
			if gotN != wantN || gotName != wantName {
				t.Errorf("%s on %q: hand matcher = (%d, %q), expression = (%d, %q)", m.name, in, gotN, gotName, wantN, wantName)
			}
		}
	}
}

// TestHandMatchers_samples runs the hand matchers on the samples of the
// expressions, whose answers come from Node.js, and on inputs aimed at
// backtracking, Unicode white space and invalid UTF-8.
func TestHandMatchers_samples(t *testing.T) {
	matched := map[string]bool{}
	for _, m := range handMatchers {
		matched[m.name] = true
	}
	for _, tt := range expressionTests {
		if !matched[tt.name] {
			continue
		}
		for _, s := range tt.samples {
			checkHandMatchers(t, s.in)
		}
	}
	for _, s := range []string{
		"", " ", "\r", "\r\n", "\n", "\v", "\u00a0", "\u2028", "\ufeff", "\xff", "\xe2\x80", "a\xffb c",
		"((a)) ; do", "((a))) ; do x", "(()));do", "((a)) ;\tdone", "((a)\n)) ; do", "(())) ;; do", "((x)) ; do\u00a0",
		"x in", "x  in\u00a0", "x\u00a0in", "in", "ain in", "\xff in", "é in",
		"[ x", "[[", "[", "[x", "[[x", "test", "test-", "testing;", "a-b", "a-b\u00a0", "_;",
		"// a\r", "// a\rb", "/*/", "/**/", "/* a */ // b\n# c\n\t x", "#!\n", "//\n\n//", "/* */\u00a0",
		"asé", "as", "async function", "=1", "{a}", "*", "default:", "class_",
		"foo", "foo{", "foo -{", "f\u00a0{",
		"ls", "ls|x", "ls\u3000", "ls\u200b", "lsX", "pip3 install", "pip3", "pip", "/usr/bin/", "/usr/local/bin/ls>x",
		"/usr/lib/ls", "//bin/ls", "a\\b", "x;", "x(", "x\v", "x\u00a0", "\u00e9", "a:b", "Z:\\x y", "1:/x",
		"FOO=bar baz", "FOO= x", "FOO=\"a b\" c", "FOO='x'\n y", "FOO=\\\n x", "_=1;", "A=1 B=2 cmd", "A=\u00a0 x",
		"ALL_TOOLS", "tools", "undefined", "satisfies", "yield", "Array ", "console",
	} {
		checkHandMatchers(t, s)
	}
}

// TestAlternationSets checks the word lists taken from the SPEC text
// against the compiled expressions.
func TestAlternationSets(t *testing.T) {
	for _, tt := range []struct {
		name  string
		set   map[string]bool
		match func(w string) bool
	}{
		{"JAVASCRIPT_EXPORT", exportWords, func(w string) bool { return javascriptExport.MatchString("export " + w) }},
		{"JAVASCRIPT_KEYWORD", keywordWords, javascriptKeyword.MatchString},
		{"JAVASCRIPT_GLOBAL", globalWords, javascriptGlobal.MatchString},
		{"SHELL_COMMAND", commandWords, func(w string) bool { e, n, ok := commandMatch(shellCommand, w); return ok && e == len(w) && n == w }},
	} {
		if len(tt.set) < 10 {
			t.Errorf("%s: %d words, want the whole alternation", tt.name, len(tt.set))
		}
		for w := range tt.set {
			if w == "" || strings.ContainsAny(w, `()|\?`) || !tt.match(w) {
				t.Errorf("%s: word %q is not one of the expression's", tt.name, w)
			}
		}
	}
}

func FuzzHandMatchers(f *testing.F) {
	for _, tt := range expressionTests {
		for _, s := range tt.samples {
			f.Add(s.in)
		}
	}
	for _, tt := range shellTests {
		f.Add(tt.src)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkHandMatchers(t, s)
	})
}
