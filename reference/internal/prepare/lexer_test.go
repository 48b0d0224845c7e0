package prepare

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// render describes tokens as "kind text" strings, with the decoded value
// added for identifiers written with escapes.
func render(toks []token) []string {
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		s := t.kind.String() + " " + t.text
		if t.value != t.text {
			s += " =" + t.value
		}
		out = append(out, s)
	}
	return out
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   []string
		reason string
	}{
		{
			name: "empty",
			src:  "",
			want: []string{},
		},
		{
			name: "identifiers and punctuators",
			src:  "const important = a?.b ?? c.d >>>= 1;",
			want: []string{"ident const", "ident important", "punct =", "ident a", "punct ?.", "ident b",
				"punct ??", "ident c", "punct .", "ident d", "punct >>>=", "number 1", "punct ;"},
		},
		{
			name:   "conditional before a number is not optional chaining",
			src:    "a?.5:1",
			want:   []string{"ident a", "punct ?", "number .5", "punct :", "number 1"},
			reason: "?. followed by a digit is ? and a number",
		},
		{
			name: "numbers",
			src:  "1 1.5 .5 1e-5 0x1F 1_000n 1..toString",
			want: []string{"number 1", "number 1.5", "number .5", "number 1e-5", "number 0x1F",
				"number 1_000n", "number 1.", "punct .", "ident toString"},
		},
		{
			name: "strings with escapes",
			src:  `'it\'s' "a \"b\"" 'x'`,
			want: []string{`string 'it\'s'`, `string "a \"b\""`, `string 'x'`},
		},
		{
			name:   "unterminated string ends at the line",
			src:    "'abc\nimport",
			want:   []string{"string 'abc", "ident import"},
			reason: "a string literal cannot span lines",
		},
		{
			name:   "string line continuation",
			src:    "'a\\\nb' c",
			want:   []string{"string 'a\\\nb'", "ident c"},
			reason: "a backslash before a line terminator continues the string",
		},
		{
			name: "comments",
			src:  "a // line\n/* block\n */ b",
			want: []string{"ident a", "comment // line", "comment /* block\n */", "ident b"},
		},
		{
			name: "unterminated block comment runs to the end",
			src:  "a /* b\nc",
			want: []string{"ident a", "comment /* b\nc"},
		},
		{
			name: "unicode identifiers",
			src:  "importé ünïcode $_x a\u200db",
			want: []string{"ident importé", "ident ünïcode", "ident $_x", "ident a\u200db"},
		},
		{
			name: "unicode escapes in identifiers",
			src:  `\u0069mport req\u{75}ire`,
			want: []string{`ident \u0069mport =import`, `ident req\u{75}ire =require`},
		},
		{
			name:   "a bad escape is not an identifier",
			src:    `\x41`,
			want:   []string{`punct \`, "ident x41"},
			reason: "only \\u escapes may appear in identifiers",
		},
		{
			name:   "unicode whitespace separates tokens",
			src:    "a\u00a0b\u3000c\ufeffd",
			want:   []string{"ident a", "ident b", "ident c", "ident d"},
			reason: "NBSP, ideographic space and BOM are whitespace",
		},
		{
			name: "template without substitutions",
			src:  "`import ${'{'}` x",
			want: []string{"template `import ${", "string '{'", "template }`", "ident x"},
		},
		{
			name: "template with nested substitutions",
			src:  "`a${ {b: `c${d}e`} }f` / 2",
			want: []string{"template `a${", "punct {", "ident b", "punct :", "template `c${", "ident d",
				"template }e`", "punct }", "template }f`", "punct /", "number 2"},
			reason: "braces inside a substitution do not end it; a template is a value, so / divides",
		},
		{
			name: "escaped substitution stays text",
			src:  "`\\${x}` `\\\\${y}`",
			want: []string{"template `\\${x}`", "template `\\\\${", "ident y", "template }`"},
		},
		{
			name: "unterminated template runs to the end",
			src:  "`abc\nimport('x')",
			want: []string{"template `abc\nimport('x')"},
		},
		{
			name: "regexp at the start",
			src:  `/import\(/.test(s)`,
			want: []string{`regexp /import\(/`, "punct .", "ident test", "punct (", "ident s", "punct )"},
		},
		{
			name:   "regexp with a class and flags",
			src:    `x = /[/]\/a/gu`,
			want:   []string{"ident x", "punct =", `regexp /[/]\/a/gu`},
			reason: "a slash inside a class or escaped does not end the regexp",
		},
		{
			name:   "division after an identifier",
			src:    "a / b / c",
			want:   []string{"ident a", "punct /", "ident b", "punct /", "ident c"},
			reason: "after an identifier a slash divides",
		},
		{
			name: "division after values",
			src:  "(a) / 2, x[0] /= 3, 4 / 5, 'a' / 1, this / 2",
			want: []string{"punct (", "ident a", "punct )", "punct /", "number 2", "punct ,", "ident x",
				"punct [", "number 0", "punct ]", "punct /=", "number 3", "punct ,", "number 4", "punct /",
				"number 5", "punct ,", "string 'a'", "punct /", "number 1", "punct ,", "ident this",
				"punct /", "number 2"},
		},
		{
			name: "regexp after keywords",
			src:  "return /a/; typeof /b/; case /c/",
			want: []string{"ident return", "regexp /a/", "punct ;", "ident typeof", "regexp /b/", "punct ;",
				"ident case", "regexp /c/"},
		},
		{
			name:   "keyword as a member name divides",
			src:    "a.return / 2",
			want:   []string{"ident a", "punct .", "ident return", "punct /", "number 2"},
			reason: "after '.', return is a property name",
		},
		{
			name:   "regexp after the head of an if statement",
			src:    "if (x) /a/.test(y)",
			want:   []string{"ident if", "punct (", "ident x", "punct )", "regexp /a/", "punct .", "ident test", "punct (", "ident y", "punct )"},
			reason: "a ')' that closes an if head ends no expression",
		},
		{
			name:   "unterminated regexp ends at the line",
			src:    "x = /abc\nd",
			want:   []string{"ident x", "punct =", "regexp /abc", "ident d"},
			reason: "a regexp cannot span lines",
		},
		{
			name:   "regexp after a block",
			src:    "if (x) {} else {}\n/a/g.test(s)",
			want:   []string{"ident if", "punct (", "ident x", "punct )", "punct {", "punct }", "ident else", "punct {", "punct }", "regexp /a/g", "punct .", "ident test", "punct (", "ident s", "punct )"},
			reason: "a block statement ends no expression",
		},
		{
			name:   "regexp after an arrow body",
			src:    "f = () => {}\n/a/",
			want:   []string{"ident f", "punct =", "punct (", "punct )", "punct =>", "punct {", "punct }", "regexp /a/"},
			reason: "an arrow function cannot be divided, so a semicolon is inserted",
		},
		{
			name: "division after an object literal",
			src:  "x = {} /a/g",
			want: []string{"ident x", "punct =", "punct {", "punct }", "punct /", "ident a", "punct /", "ident g"},
		},
		{
			name:   "division after return and an object",
			src:    "return {} /a/g",
			want:   []string{"ident return", "punct {", "punct }", "punct /", "ident a", "punct /", "ident g"},
			reason: "on the same line, return takes the object literal",
		},
		{
			name:   "regexp after return, a line break and a block",
			src:    "return\n{} /a/g",
			want:   []string{"ident return", "punct {", "punct }", "regexp /a/g"},
			reason: "a semicolon is inserted after return, so the braces are a block",
		},
		{
			name:   "ambiguous slash after a class body is read as division",
			src:    "class A {} /a/g",
			want:   []string{"ident class", "ident A", "punct {", "punct }", "punct /", "ident a", "punct /", "ident g"},
			reason: "a class declaration or expression; only a parser could tell",
		},
		{
			name: "ambiguous slash after await is read as a regexp",
			src:  "await /a/g",
			want: []string{"ident await", "regexp /a/g"},
		},
		{
			name:   "invalid UTF-8 and stray characters are punctuators",
			src:    "a\xff@#b",
			want:   []string{"ident a", "punct \xff", "punct @", "punct #", "ident b"},
			reason: "the lexer never fails",
		},
		{
			name:   "HTML-like open comment",
			src:    "a <!-- `\nb",
			want:   []string{"ident a", "comment <!-- `", "ident b"},
			reason: "<!-- starts a comment to the end of the line anywhere in a script (Annex B.1.1)",
		},
		{
			name:   "HTML-like close comment at the start",
			src:    "--> `\nb",
			want:   []string{"comment --> `", "ident b"},
			reason: "the wrapper ends a line just before the source",
		},
		{
			name:   "HTML-like close comment after a line break and comments",
			src:    "a\n /* c */ --> `\nb /*\n*/ --> x",
			want:   []string{"ident a", "comment /* c */", "comment --> `", "ident b", "comment /*\n*/", "comment --> x"},
			reason: "only white space and comments may precede --> on its line",
		},
		{
			name:   "decrement and greater after code",
			src:    "a --> b",
			want:   []string{"ident a", "punct --", "punct >", "ident b"},
			reason: "after code on its line, --> is not a comment",
		},
		{
			name:   "non-null assertion before a division",
			src:    "a! / b / c",
			want:   []string{"ident a", "punct !", "punct /", "ident b", "punct /", "ident c"},
			reason: "after an operand on the same line, '!' is TypeScript's postfix non-null assertion",
		},
		{
			name:   "negation on a new line before a regexp",
			src:    "a\n!/b/.test(c)",
			want:   []string{"ident a", "punct !", "regexp /b/", "punct .", "ident test", "punct (", "ident c", "punct )"},
			reason: "after a line break, '!' starts a statement (and TypeScript needs the assertion on the same line)",
		},
		{
			name:   "regexp after a switch body",
			src:    "switch (a) {}\n/b/",
			want:   []string{"ident switch", "punct (", "ident a", "punct )", "punct {", "punct }", "regexp /b/"},
			reason: "the braces after a control head are a block",
		},
		{
			name:   "ambiguous slash after a function body is read as division",
			src:    "x = function () {} /b/g",
			want:   []string{"ident x", "punct =", "ident function", "punct (", "punct )", "punct {", "punct }", "punct /", "ident b", "punct /", "ident g"},
			reason: "a function expression can be divided; a declaration ends a statement",
		},
		{
			name:   "ambiguous slash after a class with a called heritage",
			src:    "class A extends f() {} /b/g",
			want:   []string{"ident class", "ident A", "ident extends", "ident f", "punct (", "punct )", "punct {", "punct }", "punct /", "ident b", "punct /", "ident g"},
			reason: "a class expression can be divided",
		},
		{
			name: "typescript",
			src:  "let x: Array<number> = [] as any!",
			want: []string{"ident let", "ident x", "punct :", "ident Array", "punct <", "ident number",
				"punct >", "punct =", "punct [", "punct ]", "ident as", "ident any", "punct !"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := render(tokenize(tt.src))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tokenize(%q) mismatch (-want +got):\n%s\nreason: %s", tt.src, diff, tt.reason)
			}
		})
	}
}

func TestTokenize_positionsCoverSource(t *testing.T) {
	src := "const a = `x${ /re/.test(b) }y` // c\n/* d */ 'e'"
	var b strings.Builder
	last := 0
	for _, tok := range tokenize(src) {
		if tok.pos < last {
			t.Fatalf("token %q at %d overlaps the previous one ending at %d", tok.text, tok.pos, last)
		}
		b.WriteString(src[last:tok.pos])
		b.WriteString(tok.text)
		last = tok.end()
	}
	b.WriteString(src[last:])
	if got := b.String(); got != src {
		t.Errorf("tokens and gaps = %q, want %q", got, src)
	}
}

func TestTokenize_newlines(t *testing.T) {
	var got []bool
	for _, tok := range tokenize("a b\nc /*\n*/ d // e\nf") {
		if tok.kind != commentToken {
			got = append(got, tok.nl)
		}
	}
	want := []bool{false, false, true, true, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nl flags mismatch (-want +got):\n%s", diff)
	}
}

func TestReadings(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   [][]string
		reason string
	}{
		{
			name: "one reading",
			src:  "a / b",
			want: [][]string{{"ident a", "punct /", "ident b"}},
		},
		{
			name:   "no regexp reading when it would not close",
			src:    "i++ / 2",
			want:   [][]string{{"ident i", "punct ++", "punct /", "number 2"}},
			reason: "read as a regexp, '/ 2' would not close on its line",
		},
		{
			name:   "regexp reading followed by an operand is not a reading",
			src:    "i++ / n / 2",
			want:   [][]string{{"ident i", "punct ++", "punct /", "ident n", "punct /", "number 2"}},
			reason: "read as a regexp, '/ n /' would be followed by 2 on its line",
		},
		{
			name: "regexp reading followed by in",
			src:  "i++ /a/ in o",
			want: [][]string{
				{"ident i", "punct ++", "punct /", "ident a", "punct /", "ident in", "ident o"},
				{"ident i", "punct ++", "regexp /a/", "ident in", "ident o"},
			},
		},
		{
			name: "both readings of a slash after a class body",
			src:  "class A {} /'/",
			want: [][]string{
				{"ident class", "ident A", "punct {", "punct }", "punct /", "string '/"},
				{"ident class", "ident A", "punct {", "punct }", "regexp /'/"},
			},
		},
		{
			name: "both readings of a slash after an unmatched brace",
			src:  "} /'/",
			want: [][]string{
				{"punct }", "punct /", "string '/"},
				{"punct }", "regexp /'/"},
			},
		},
		{
			name: "both readings of a slash after of",
			src:  "of / 2; /x/",
			want: [][]string{
				{"ident of", "regexp / 2; /x", "punct /"},
				{"ident of", "punct /", "number 2", "punct ;", "regexp /x/"},
			},
		},
		{
			name: "both readings after a function body",
			src:  "x = function () {} /')/",
			want: [][]string{
				{"ident x", "punct =", "ident function", "punct (", "punct )", "punct {", "punct }", "punct /", "string ')/"},
				{"ident x", "punct =", "ident function", "punct (", "punct )", "punct {", "punct }", "regexp /')/"},
			},
		},
		{
			name: "both readings after a class with an indexed heritage",
			src:  "class A extends b[0] {} /')/",
			want: [][]string{
				{"ident class", "ident A", "ident extends", "ident b", "punct [", "number 0", "punct ]", "punct {", "punct }", "punct /", "string ')/"},
				{"ident class", "ident A", "ident extends", "ident b", "punct [", "number 0", "punct ]", "punct {", "punct }", "regexp /')/"},
			},
		},
		{
			name: "comments are left out",
			src:  "a // b",
			want: [][]string{{"ident a"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [][]string
			complete := readings(tt.src, maxReadings, func(toks []token) bool {
				got = append(got, render(toks))
				return false
			})
			if !complete {
				t.Errorf("readings(%q) = incomplete, want complete", tt.src)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("readings(%q) mismatch (-want +got):\n%s\nreason: %s", tt.src, diff, tt.reason)
			}
		})
	}
}

func TestReadings_limit(t *testing.T) {
	src := strings.Repeat("class A {} /x/;\n", 10) // 2^10 readings
	runs := 0
	complete := readings(src, maxReadings, func([]token) bool {
		runs++
		return false
	})
	if complete {
		t.Errorf("readings(%q) = complete, want incomplete", src)
	}
	if runs > maxReadings {
		t.Errorf("readings visited %d readings, want at most %d", runs, maxReadings)
	}
}
