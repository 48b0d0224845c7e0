package prepare

import (
	"strings"
	"testing"
)

func TestBreakOut(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   string // the closing character, or "" for none
		reason string
	}{
		// Break-outs.
		{name: "close and call", src: "})(); evil(); (async () => {", want: "}"},
		{name: "close and assign", src: "}); x = 1; ({", want: "}"},
		{name: "comma sequence", src: "}, evil(), async () => {", want: "}",
			reason: "after the arrow body the parenthesised expression goes on with ','"},
		{name: "after a program", src: "return 1\n}\n)(); evil(); (() => {", want: "}"},
		{name: "parenthesis", src: "x)", want: ")"},
		{name: "bracket", src: "x]", want: "]"},
		{name: "after a template", src: "`a`}", want: "}"},
		{name: "after a closed substitution", src: "`${a}` })", want: "}"},
		{name: "hidden from a lexer without HTML-like comments", src: "x <!-- `\n})(); globalThis.evil = 1; (async () => {\nx <!-- `", want: "}",
			reason: "QuickJS runs evil here: <!-- starts a comment, so the backquotes open no template"},
		{name: "hidden behind HTML-like close comments", src: "--> `\n})(); evil(); (async () => {\n--> `", want: "}"},
		{name: "hidden by a division after a function", src: "x = function () {} / 1; })(); evil(); (async () => { 1 / 1", want: "}",
			reason: "read as a regexp the slashes would hide it; the division reading is checked too"},
		{name: "hidden by a division after a class", src: "x = class extends f() {} / 1; })(); evil(); (async () => { 1 / 1", want: "}"},
		{name: "hidden by a non-null assertion", src: "a! / 1; })(); evil(); (async () => { 1 / 1", want: "}"},
		{name: "too many readings with a closer", src: strings.Repeat("class A {} /x/;\n", 10) + "'}'", want: "}",
			reason: "beyond maxReadings any closing bracket counts"},

		// Not break-outs.
		{name: "program", src: "const a = [1, (2)]\nif (a) { return { a } }", want: ""},
		{name: "empty", src: "", want: ""},
		{name: "brackets in strings", src: `return ")" + '}' + "]"`, want: ""},
		{name: "brackets in comments", src: "// })\n/* }) */ <!-- })\n--> })\nreturn 1", want: ""},
		{name: "brackets in a regexp", src: `return /[)}\]]/.test(s)`, want: ""},
		{name: "brackets in template text", src: "return `})${ {a: 1}.a }]`", want: ""},
		{name: "unclosed brackets", src: "f(\n[{", want: "",
			reason: "the wrapper's }) then closes brackets of the source, and the script does not parse"},
		{name: "unterminated string", src: `"})`, want: ""},
		{name: "regexp after a block", src: "if (a) { b() }\n/[)]/.test(s)", want: ""},
		{name: "too many readings without a closer", src: strings.Repeat("await /x/;\n", 10), want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, found := breakOut(tt.src)
			got := ""
			if found {
				got = string(c)
			}
			if got != tt.want {
				t.Errorf("breakOut(%q) = %q, %v, want %q\nreason: %s", tt.src, got, found, tt.want, tt.reason)
			}
		})
	}
}
