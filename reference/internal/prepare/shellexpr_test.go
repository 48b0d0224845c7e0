package prepare

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A regexpSample is an input and the match of an ECMAScript expression at its
// start, as Node.js reports it: the matched text (match[0]), or no match.
type regexpSample struct {
	in    string
	match string
	ok    bool
}

func yes(in, match string) regexpSample { return regexpSample{in: in, match: match, ok: true} }
func no(in string) regexpSample         { return regexpSample{in: in} }

// expressionTests hold positive and negative samples for each expression of
// specExpressions. The expected answers were produced by Node.js running the
// ECMAScript originals (see the package's reply to its brief); the samples
// aim at what the translation changes: \s and '.', lookaheads and
// backtracking, and /i.
var expressionTests = []struct {
	name    string
	re      *regexp.Regexp
	onlyHit bool // only whether it matches is used (and translated exactly)
	samples []regexpSample
}{
	{name: "JAVASCRIPT_EXPORT", re: javascriptExport, samples: []regexpSample{
		yes("export const x = 1", "export const"),
		yes("export {a}", "export {"),
		yes("export\u00a0default 1", "export\u00a0default"),
		yes("export\v*", "export\v*"),
		yes("export\u2028=x", "export\u2028="),
		yes("export  interface X", "export  interface"),
		no("export constant"),
		no("exports = 1"),
		no("export PATH=/x"),
		no("export"),
		no(" export const x"),
		no("export\u200bconst"),
	}},
	{name: "JAVASCRIPT_KEYWORD", re: javascriptKeyword, samples: []regexpSample{
		yes("await", "await"),
		yes("satisfies", "satisfies"),
		yes("undefined", "undefined"),
		no("awaits"),
		no("Await"),
		no("await\n"),
		no("ls"),
	}},
	{name: "JAVASCRIPT_GLOBAL", re: javascriptGlobal, samples: []regexpSample{
		yes("tools", "tools"),
		yes("ALL_TOOLS", "ALL_TOOLS"),
		yes("Uint8ClampedArray", "Uint8ClampedArray"),
		no("Uint8Clamped"),
		no("tools\n"),
		no("process"),
	}},
	{name: "SHELL_COMMAND", re: shellCommand, samples: []regexpSample{
		yes("ls -la", "ls"),
		yes("ls", "ls"),
		yes("/bin/ls /tmp", "/bin/ls"),
		yes("/usr/bin/env node", "/usr/bin/env"),
		yes("/usr/local/bin/node x.js", "/usr/local/bin/node"),
		yes("pip3 install x", "pip3"),
		yes("pip install x", "pip"),
		yes("python3 -m x", "python3"),
		yes("mvn test", "mvn"),
		yes("mv a b", "mv"),
		yes("javac X.java", "javac"),
		yes("readonly X", "readonly"),
		yes("shift;", "shift"),
		yes("uvx ruff", "uvx"),
		yes("git|wc", "git"),
		yes("cat<x", "cat"),
		yes("cat>x", "cat"),
		yes("echo&", "echo"),
		yes("ls\u00a0-la", "ls"),
		yes("ls\u2028", "ls"),
		yes("ls\ufeff", "ls"),
		yes("ls\v-l", "ls"),
		no("ls.x"),
		no("ls("),
		no("lsof"),
		no("pip4 x"),
		no("python2 x"),
		no("/sbin/ls"),
		no("/usr/ls"),
		no("LS -la"),
		no(" ls"),
		no("ls\u200b"),
	}},
	{name: "SHELL_IDENTIFIER", re: shellIdentifier, samples: []regexpSample{
		yes("deploy --force", "deploy"),
		yes("Get-ChildItem -Path .", "Get-ChildItem"),
		yes("foo", "foo"),
		yes("_x;", "_x"),
		yes("a-b-|c", "a-b-"),
		yes("x\u3000y", "x"),
		yes("x\u205f", "x"),
		no("foo(1)"),
		no("foo.bar"),
		no("1x"),
		no("-x"),
		no("$x"),
		no("é"),
		no("xé"),
		no("x\u200by"),
	}},
	{name: "SHELL_EXECUTABLE_PATH", re: shellExecutablePath, samples: []regexpSample{
		yes("./gradlew build", "./gradlew"),
		yes("../x/run.sh", "../x/run.sh"),
		yes("~/bin/t;", "~/bin/t"),
		yes("/opt/tool --flag", "/opt/tool"),
		yes(`C:\x\y.exe /all`, `C:\x\y.exe`),
		yes("d:/x|y", "d:/x"),
		yes(`.\x`, `.\x`),
		yes("/x/g", "/x/g"),
		no("./x(1)"),
		no("/x/.test(s)"),
		no("./"),
		no("/ x"),
		no("x/y"),
		no(".../x"),
		no("./x\u00a0y"),
		no("./x\vy"),
		no("./x\u2028"),
		no("CD:/x"),
	}},
	{name: "SHELL_ARGUMENT", re: shellArgument, samples: []regexpSample{
		yes("-la", "-la"),
		yes("-la /tmp", "-la "),
		yes("--flag=x", "--flag="),
		yes("-Path .", "-Path "),
		yes("-1;", "-1;"),
		yes("-x|y", "-x|"),
		yes("/tmp x", "/tmp"),
		yes("./src", "./src"),
		yes("~/x", "~/x"),
		yes(`c:\x`, `c:\x`),
		yes("-\u212a", "-\u212a"),
		yes("-\u017f", "-\u017f"),
		yes("-a\u212a", "-a\u212a"),
		yes("/x\u200by z", "/x\u200by"),
		no("-la\n"),
		no("-la\u00a0x"),
		no("-la.x"),
		no("---x"),
		no("-_x"),
		no("-"),
		no("/"),
		no("/\u00a0x"),
		no("x"),
		no("=1"),
		no("-é"),
	}},
	{name: "SHELL_ENV_ASSIGNMENT", re: shellEnvAssignment, samples: []regexpSample{
		yes("A=1 make", "A=1 "),
		yes("A= make", "A= "),
		yes("NODE_ENV=production npm run", "NODE_ENV=production "),
		yes(`A="x y" z`, `A="x y" `),
		yes(`A="x \" y" z`, `A="x \" y" `),
		yes("A=\"x\ny\" z", "A=\"x\ny\" "),
		yes("A='x y' z", "A='x y' "),
		yes(`A=x\ y z`, `A=x\ y `),
		yes("A=1\nls", "A=1\n"),
		yes("A=1 \r\n  ls", "A=1 \r\n  "),
		yes("A=1\tB=2 x", "A=1\t"),
		yes("A=\"a\" \"b\" x", "A=\"a\" "),
		no("A=1"),
		no("A=1 "),
		no("A=1\n\nls"),
		no("A=1\u00a0ls"),
		no("A=1 \u00a0ls"),
		no("A=1 \u2028"),
		no("A=x\\\u2028 y"),
		yes("A=\"x y z", "A=\"x "),
		no("A=1;ls"),
		no("A = 1"),
		no("1A=1 x"),
		no("A=1\r ls"),
	}},
	{name: "SHELL_CONTROL", re: shellControl, onlyHit: true, samples: []regexpSample{
		yes("if [ -f x ]", ""),
		yes("if [[ x ]]", ""),
		yes("if [", ""),
		yes("elif test -f x", ""),
		yes("while read line; do", ""),
		yes("until false;", ""),
		yes("if x-y ;", ""),
		yes("for f in *.txt", ""),
		yes("for ((i=0; i<3; i++)); do", ""),
		yes("case $x in", ""),
		yes("function f {", ""),
		yes("function f{", ""),
		no("if (x) {}"),
		no("if [[[ x"),
		no("if [x"),
		no("if\u00a0[ x ]"),
		no("if x"),
		no("if testing"),
		no("for (const x of y)"),
		no("for x of y"),
		no("for x inside"),
		no("case x of"),
		no("case\u00a0x in"),
		no("function f() {"),
		no("function* f {"),
		no(" if [ x ]"),
	}},
	{name: "SHELL_REDIRECTION", re: shellRedirection, samples: []regexpSample{
		yes("> x", ">"),
		yes(">> x", ">>"),
		yes("2>&1", "2>"),
		yes("<<EOF", "<<"),
		yes("&> x", "&>"),
		yes("&>>x", "&>>"),
		yes(">= 1", ">"),
		yes("12<x", "12<"),
		no("& x"),
		no("x > y"),
		no("=> x"),
		no("1 > x"),
	}},
	{name: "LEADING_SOURCE_COMMENTS", re: leadingSourceComments, samples: []regexpSample{
		yes("// a\nls", "// a\n"),
		yes("// a", "// a"),
		yes("# a\r\n\t b", "# a\r\n\t "),
		yes("/* a\n b */ ls", "/* a\n b */ "),
		yes("/* a */ /* b */x", "/* a */ /* b */"),
		yes("// a\n\n// b\n  c", "// a\n\n// b\n  "),
		yes("/**/", "/**/"),
		yes("// a\u2028b\nc", "// a\u2028b\n"),
		no("ls // a"),
		no(" // a"),
		no("/* a"),
		no("// a\rb"),
		no("/ a"),
	}},
	{name: "shellSeparator", re: shellSeparator, samples: []regexpSample{
		yes("; pwd", ";"),
		yes("  && x", "  &&"),
		yes("& x", "&"),
		yes("\t|| x", "\t||"),
		yes("|x", "|"),
		yes("\r\nx", "\r"),
		yes("\nx", "\n"),
		no(" \u00a0;"),
		no("\v;"),
		no(" x; y"),
		no(""),
	}},
}

func TestShellExpressions(t *testing.T) {
	tested := map[string]bool{}
	for _, tt := range expressionTests {
		tested[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			hits, misses := 0, 0
			for _, s := range tt.samples {
				n := prefixMatch(tt.re, s.in)
				if ok := n >= 0; ok != s.ok {
					t.Errorf("%s on %q: matched = %v, want %v", tt.name, s.in, ok, s.ok)
					continue
				}
				if s.ok {
					hits++
					if got := s.in[:n]; !tt.onlyHit && got != s.match {
						t.Errorf("%s on %q: match = %q, want %q", tt.name, s.in, got, s.match)
					}
				} else {
					misses++
				}
			}
			if hits == 0 || misses == 0 {
				t.Errorf("%s has %d positive and %d negative samples, want some of each", tt.name, hits, misses)
			}
		})
	}
	for name := range specExpressions {
		if !tested[name] {
			t.Errorf("expression %s has no samples", name)
		}
	}
}

// TestSpecExpressions_matchSPEC checks that specExpressions hold Appendix
// B.3 of SPEC.md, character for character, and step 11's expression.
func TestSpecExpressions_matchSPEC(t *testing.T) {
	spec, err := os.ReadFile("../../../SPEC.md")
	if err != nil {
		t.Fatalf("read SPEC.md: %v", err)
	}
	text := string(spec)
	start := strings.Index(text, "### B.3 Shell rule expressions")
	if start < 0 {
		t.Fatal("SPEC.md has no section B.3")
	}
	block := text[start:]
	block = block[strings.Index(block, "```text\n")+len("```text\n"):]
	block = block[:strings.Index(block, "```")]
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		name, expr, _ := strings.Cut(line, " ")
		got[name] = strings.TrimSpace(expr)
	}
	const separator = "`/^[\\t ]*(?:[;\\r\\n]|&&?|\\|{1,2})/u`"
	if !strings.Contains(text, "If `tail` matches "+separator) {
		t.Errorf("SPEC.md step 11 does not use %s", separator)
	}
	got["shellSeparator"] = strings.Trim(separator, "`")
	if diff := cmp.Diff(specExpressions, got); diff != "" {
		t.Errorf("specExpressions mismatch with SPEC.md (-code +SPEC.md):\n%s", diff)
	}
}

func TestTranslateECMAScript(t *testing.T) {
	tests := []struct {
		name    string
		literal string
		want    string
		wantErr bool
	}{
		{name: "white space", literal: `/^a\sb/u`, want: `^a[` + jsSpaceChars + `]b`},
		{name: "white space in a class", literal: `/^[^\s;]/u`, want: `^[^` + jsSpaceChars + `;]`},
		{name: "non-space", literal: `/^\S+/u`, want: `^[^` + jsSpaceChars + `]+`},
		{name: "every character", literal: `/^[\s\S]*?x/u`, want: `^[\s\S]*?x`},
		{name: "dot", literal: `/^\\./u`, want: `^\\` + jsDot},
		{name: "escaped dot", literal: `/^\.[.]/u`, want: `^\.[.]`},
		{name: "final lookahead", literal: `/^(a|ab)(?=$|[;])/u`, want: `^(?P<match>(?P<name>a|ab))(?:$|[;])`},
		{name: "nested lookahead ending the match", literal: `/^(?:a(?=b)|c)/u`, want: `^(?:a(?:b)|c)`},
		{name: "case folding", literal: `/^[a-z]/iu`, want: `(?i)^[a-z]`},
		{name: "lookahead followed by more", literal: `/^a(?=b)c/u`, wantErr: true},
		{name: "lookahead in a repeated group", literal: `/^(?:a(?=b))+/u`, wantErr: true},
		{name: "no u flag", literal: `/^a/`, wantErr: true},
		{name: "other flags", literal: `/^a/gu`, wantErr: true},
		{name: "not a literal", literal: `^a`, wantErr: true},
		{name: "non-space in a class", literal: `/^[\S]/u`, wantErr: true},
		{name: "unbalanced", literal: `/^(a/u`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := translateECMAScript(tt.literal)
			if (err != nil) != tt.wantErr {
				t.Fatalf("translateECMAScript(%q) error = %v, want error %v", tt.literal, err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("translateECMAScript(%q) = %q, want %q", tt.literal, got, tt.want)
			}
		})
	}
}

func TestIsJSSpace(t *testing.T) {
	re := regexp.MustCompile(`^[` + jsSpaceChars + `]$`)
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		if got, want := isJSSpace(r), re.MatchString(string(r)); got != want {
			t.Errorf("isJSSpace(%U) = %v, want %v", r, got, want)
		}
	}
}
