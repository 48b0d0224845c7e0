package prepare

import (
	"strings"
	"testing"
)

// moduleTests are the module-rule cases; FuzzRejectsModuleAccess and
// FuzzScript use their sources as seeds. lang is JavaScript unless set.
var moduleTests = []struct {
	name   string
	src    string
	lang   Language
	want   bool
	reason string
}{
	// SPEC.md CM-5.14: rejected.
	{name: "CM-5.14 static import", src: `import fs from "node:fs"`, want: true},
	{name: "CM-5.14 dynamic import", src: `const m = await import("node:fs")`, want: true},
	{name: "CM-5.14 import.meta", src: "return import.meta.url", want: true},
	{name: "CM-5.14 require call", src: `const fs = require("node:fs")`, want: true},
	{name: "CM-5.14 parenthesised callee", src: `(require)("node:fs")`, want: true},
	{name: "CM-5.14 optional call", src: `require?.("node:fs")`, want: true},
	{name: "CM-5.14 comma sequence", src: `(0, require)("node:fs")`, want: true},
	{name: "CM-5.14 all unwrapped at once", src: `((0, (require)))?.("node:fs")`, want: true},
	// SPEC.md CM-5.15: rejected.
	{name: "CM-5.15 import in a substitution", src: "`${import('node:fs')}`", want: true},
	{name: "CM-5.15 require in a substitution", src: "`${require('node:fs')}`", want: true},
	// SPEC.md CM-5.16: allowed.
	{name: "CM-5.16 important", src: "const important = 1", want: false},
	{name: "CM-5.16 required", src: "const required = true", want: false},
	{name: "CM-5.16 string literals", src: `const a = "import x from 'y'", b = 'require("fs")'`, want: false},
	{name: "CM-5.16 regular expression", src: `return /import\(|require\(/.test(s)`, want: false},
	{name: "CM-5.16 comments", src: "// import fs from 'fs'\n/* require('fs') */ return 1", want: false},
	{name: "CM-5.16 obj.import", src: "obj.import(1)", want: false},
	{name: "CM-5.16 obj.require", src: "obj.require('x')", want: false},
	// SPEC.md section 5.3 and CM-6.9: TypeScript forms, rejected.
	{name: "5.3 import type", src: `import type { X } from "y"`, lang: TypeScript, want: true},
	{name: "5.3 import equals require", src: `import x = require("y")`, lang: TypeScript, want: true},
	{name: "5.3 export from", src: `export { a } from "b"`, lang: TypeScript, want: true},
	{name: "5.3 export star from", src: `export * from "b"`, lang: TypeScript, want: true},
	{name: "5.3 export star as from", src: `export * as ns from "b"`, lang: TypeScript, want: true},
	{name: "5.3 export type from", src: `export type { T } from "b"`, lang: TypeScript, want: true},
	{name: "5.3 export type star from", src: `export type * from "b"`, lang: TypeScript, want: true},
	{name: "5.3 export from deep inside", src: "if (x) {\n  export { a, b as c } from './m'\n}", lang: TypeScript, want: true,
		reason: "wherever it occurs"},
	{name: "5.3 export from in javascript", src: `export { a } from "b"`, want: false,
		reason: "only TypeScript rejects export … from; in JavaScript it is a guest SyntaxError"},
	{name: "5.3 export without from", src: "export { a }", lang: TypeScript, want: false},
	{name: "5.3 export of a name from", src: "export const from = 'x'", lang: TypeScript, want: false},
	{name: "5.3 member named export", src: `o.export * from "x"`, lang: TypeScript, want: false},

	// Allowed.
	{name: "identifier containing import", src: "const important = 1", want: false},
	{name: "string mentioning import", src: `"import docs later"`, want: false},
	{name: "line comment", src: `// import x from "y"`, want: false},
	{name: "block comment", src: `/* require("fs") */`, want: false},
	{name: "string holding a require call", src: `'require("x")'`, want: false},
	{name: "regexp", src: `/import\(/.test(s)`, want: false},
	{name: "regexp after return", src: `return /require\(/.test(s)`, want: false},
	{name: "member named import", src: "obj.import(1)", want: false},
	{name: "optional member named require", src: "x?.require()", want: false},
	{name: "private name", src: "class A { #require() {} m() { return this.#require() } }", want: false},
	{name: "object keys", src: "const o = { import: 1, require: 2 }", want: false},
	{name: "identifiers starting with import", src: "let imported = importance + 1", want: false},
	{name: "template text", src: "`import ${a}`", want: false},
	{name: "template text with require call", src: "`require('fs') ${x} import('y')`", want: false},
	{name: "required and requireAuth", src: "const required = requireAuth(x)", want: false},
	{name: "bare require reference", src: `const r = require; r("fs")`, want: false,
		reason: "not a call; the guest has no require, so the runtime reports module access"},
	{name: "require in an array", src: "[require]", want: false},
	{name: "require as a label", src: "require: for (;;) break require", want: false},
	{name: "import followed by equals", src: "x.y = import_ = 1", want: false},
	{name: "import at the end", src: "a.b\nimport", want: false},
	{name: "method named import", src: "const o = { import() { return 1 } }", want: false,
		reason: "a method definition, not an import expression"},
	{name: "method named require", src: "class A { static require(x) { return x } }", want: false},
	{name: "method after a comma", src: "({ a() {}, require(x) {} })", want: false},
	{name: "import in a string inside a substitution", src: "`${'import(\"x\")'}`", want: false},
	{name: "division then string", src: "const half = total(a) / 2; const s = 'import(x)'", want: false},
	{name: "regexp after an if head", src: "if (ok) /require\\(/.test(s)", want: false},
	{name: "typescript generic method named import", src: "({ import<T>(x: T) { return x } })", want: false},
	{name: "empty", src: "", want: false},
	{name: "HTML-like comment", src: "x <!-- require('fs')", want: false,
		reason: "<!-- starts a comment in a script (Annex B)"},
	{name: "HTML-like close comment", src: "x\n--> require('fs')", want: false},
	{name: "decrement then greater", src: "x --> require('fs')", want: true,
		reason: "--> after code on its line is x-- > …"},
	{name: "non-null assertion before a division", src: "const half = n! / 2; require('fs'); /x/", lang: TypeScript, want: true,
		reason: "after an operand, '!' is postfix, so the slash divides"},

	// Rejected.
	{name: "default import", src: `import fs from "node:fs"`, want: true},
	{name: "named import", src: `import { a } from "b"`, want: true},
	{name: "namespace import", src: `import * as x from "y"`, want: true},
	{name: "side-effect import", src: `import "side-effect"`, want: true},
	{name: "type import", src: `import type { X } from "y"`, want: true,
		reason: "in JavaScript too: import followed by a name"},
	{name: "import equals require", src: `import x = require("y")`, want: true},
	{name: "dynamic import", src: `await import("node:fs")`, want: true},
	{name: "import.meta", src: "import.meta.url", want: true},
	{name: "import in a template substitution", src: "`${import('node:fs')}`", want: true},
	{name: "import in a nested substitution", src: "`a${`b${import('x')}`}`", want: true},
	{name: "require call", src: `require("node:fs")`, want: true},
	{name: "require call with a space", src: `require ("fs")`, want: true},
	{name: "require call across a line", src: "require\n(\"fs\")", want: true},
	{name: "parenthesised require", src: `(require)("fs")`, want: true},
	{name: "doubly parenthesised require", src: `((require))("fs")`, want: true},
	{name: "sequence callee", src: `(0, require)("fs")`, want: true},
	{name: "optional call", src: `require?.("fs")`, want: true},
	{name: "require member", src: `require.resolve("fs")`, want: false,
		reason: "flipped: the callee is require.resolve, not require; the guest reports the ReferenceError as module access"},
	{name: "optional require member", src: `require?.resolve("fs")`, want: false},
	{name: "require in a call's arguments", src: `f(0, require)("x")`, want: false,
		reason: "the callee is f(0, require), not require"},
	{name: "require as the first of a sequence", src: `(require, f)("x")`, want: false},
	{name: "new require", src: `new require("events")`, want: true,
		reason: "its callee is require"},
	{name: "grouped after a block", src: "if (x) {}\n(require)(\"fs\")", want: true},
	{name: "grouped after await", src: `await (require)("fs")`, want: true},
	{name: "grouped after typeof", src: `typeof (0, require)("fs")`, want: true},
	{name: "grouped in a substitution", src: "`${(require)('fs')}`", want: true},
	{name: "if head then a parenthesised string", src: "if (require) (\"x\")", want: false,
		reason: "the parentheses hold the if head; (\"x\") is the statement"},
	{name: "tagged template require", src: "require`fs`", want: true},
	{name: "comments around require", src: `/* c */ require/* c */("fs")`, want: true},
	{name: "escaped import", src: `\u0069mport("x")`, want: true,
		reason: "an identifier with escapes that spells import is treated as import"},
	{name: "escaped require", src: `\u{72}equire("fs")`, want: true},
	{name: "require passed as an argument", src: `f(require)`, want: false,
		reason: "flipped: not a call of require; the guest reports the ReferenceError as module access"},
	{name: "spread import", src: `[...import("x")]`, want: true},
	{name: "class extends require", src: `class A extends require("events") {}`, want: true,
		reason: "after extends, require(…) { is a call, not a method"},
	{name: "method-like call across a line", src: "x;\nrequire(\"fs\")\n{}", want: true},
	{name: "require after a division that hides nothing", src: "const x = a / b; require('x')", want: true},
	{name: "typeof import type", src: `let a: typeof import("./x")`, want: true,
		reason: "a TypeScript import type is rejected too (conservative)"},

	// Readings of ambiguous slashes: each hides the import under one reading only.
	{name: "regexp after a block hides nothing", src: "{} /'/; import(\"fs\") //'", want: true,
		reason: "read as division, the quote would open a string hiding the import"},
	{name: "regexp after a class hides nothing", src: "class A {} /'/; import(\"fs\") //'", want: true,
		reason: "class declaration or expression: both readings are checked"},
	{name: "regexp after optional catch hides nothing", src: "try {} catch {} /'/; import(\"fs\") //'", want: true},
	{name: "division after of hides nothing", src: "of / 2; import(\"fs\"); /x/", want: true,
		reason: "read as a regexp, the slashes would hide the import"},
	{name: "division after await hides nothing", src: "function f() { await / 2; require('fs'); /x/ }", want: true},
	{name: "prefix increment of a regexp", src: "++/'/.lastIndex; import(\"fs\") //'", want: true},
	{name: "regexp after a control head", src: "if (1) /'/; import(\"fs\"); //'", want: true},
	{name: "blocks then regexps", src: strings.Repeat("if (a) { b() }\n/x/.test(s) && c()\n", 10), want: false,
		reason: "a block's '}' is followed by a regexp: no ambiguity"},
	{name: "too many readings", src: strings.Repeat("class A {} /x/;\n", 10), want: true,
		reason: "more than maxReadings readings: rejected without looking further"},
}

func TestRejectsModuleAccess(t *testing.T) {
	for _, tt := range moduleTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RejectsModuleAccess(tt.src, tt.lang); got != tt.want {
				t.Errorf("RejectsModuleAccess(%q, %q) = %v, want %v\nreason: %s", tt.src, tt.lang, got, tt.want, tt.reason)
			}
		})
	}
}

func FuzzRejectsModuleAccess(f *testing.F) {
	for _, tt := range moduleTests {
		f.Add(tt.src, tt.lang == TypeScript)
	}
	f.Fuzz(func(t *testing.T, src string, ts bool) {
		lang := JavaScript
		if ts {
			lang = TypeScript
		}
		got := RejectsModuleAccess(src, lang)
		// Commenting the source out never finds module access, and a statement
		// before it changes nothing. TypeScript rejects all that JavaScript
		// does.
		if RejectsModuleAccess("/*"+strings.ReplaceAll(src, "*/", "")+"*/", lang) {
			t.Errorf("RejectsModuleAccess of %q commented out = true, want false", src)
		}
		if after := RejectsModuleAccess("0;\n"+src, lang); after != got {
			t.Errorf("RejectsModuleAccess(%q, %q) = %v, but %v after a statement", src, lang, got, after)
		}
		if ts && !got && RejectsModuleAccess(src, JavaScript) {
			t.Errorf("RejectsModuleAccess(%q) rejects JavaScript but not TypeScript", src)
		}
	})
}

// TestRejectsModuleAccess_largeInputs guards against work that grows faster
// than the input: each source is large and hostile to one part of the lexer
// or the rule. It asserts only the answers; a regression shows as a timeout.
func TestRejectsModuleAccess_largeInputs(t *testing.T) {
	const n = 50_000
	tests := []struct {
		name string
		src  string
		want bool
	}{
		{name: "ambiguous braces", src: strings.Repeat("} /x/;", n/6), want: true},
		{name: "blocks then regexps", src: strings.Repeat("a;}\n/x/.test(s)\n", 5) + strings.Repeat("a = b / c\n", n/10)},
		{name: "postfix increments", src: strings.Repeat("i++ / n / 2\n", n/12)},
		{name: "unclosed methods", src: strings.Repeat("{require(", n/9), want: true},
		{name: "unclosed templates", src: strings.Repeat("`${", n/3)},
		{name: "unclosed regexp classes", src: strings.Repeat("} /[", n/4), want: true},
		{name: "bad escapes", src: strings.Repeat(`\u{7`, n/4)},
		{name: "one long line", src: "x = " + strings.Repeat("a / ", n/4) + "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RejectsModuleAccess(tt.src, TypeScript); got != tt.want {
				t.Errorf("RejectsModuleAccess(%d bytes) = %v, want %v", len(tt.src), got, tt.want)
			}
			breakOut(tt.src)
			IsShellLike(tt.src, tt.src)
		})
	}
}
