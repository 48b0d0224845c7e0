package prepare

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/google/go-cmp/cmp"
)

// countCalls replaces *fn, an esbuild entry point (transform or parse), with
// a wrapper that counts calls, for the duration of the test, and returns the
// counter. Tests that use it must not run in parallel.
func countCalls(t *testing.T, fn *func(string, api.TransformOptions) api.TransformResult) *int {
	t.Helper()
	calls := 0
	real := *fn
	*fn = func(input string, opts api.TransformOptions) api.TransformResult {
		calls++
		return real(input, opts)
	}
	t.Cleanup(func() { *fn = real })
	return &calls
}

// fakeTransform replaces transform with one that returns res.
func fakeTransform(t *testing.T, res api.TransformResult) {
	t.Helper()
	real := transform
	transform = func(string, api.TransformOptions) api.TransformResult { return res }
	t.Cleanup(func() { transform = real })
}

func TestScript_javaScript(t *testing.T) {
	tests := []struct {
		name string
		code string
		lang Language
		want string
	}{
		{name: "return", code: "return 1", lang: JavaScript, want: "(async () => {\nreturn 1\n})"},
		{name: "empty language", code: "return 1", lang: "", want: "(async () => {\nreturn 1\n})"},
		{name: "top-level await", code: "const r = await tools.callValue(\"x\", {})\nreturn r", lang: JavaScript,
			want: "(async () => {\nconst r = await tools.callValue(\"x\", {})\nreturn r\n})"},
		{name: "verbatim", code: "  // c\r\n\treturn `a${b}` \u2028", lang: JavaScript,
			want: "(async () => {\n  // c\r\n\treturn `a${b}` \u2028\n})"},
		{name: "trailing line comment", code: "return 1 // done", lang: JavaScript,
			want: "(async () => {\nreturn 1 // done\n})"},
		{name: "type syntax is not stripped", code: "let x: number = 1", lang: JavaScript,
			want: "(async () => {\nlet x: number = 1\n})"},
		{name: "export is left to the guest", code: "export const x = 1", lang: JavaScript,
			want: "(async () => {\nexport const x = 1\n})"},
		{name: "export from is left to the guest", code: `export * from "x"`, lang: JavaScript,
			want: "(async () => {\nexport * from \"x\"\n})"},
	}
	transforms := countCalls(t, &transform)
	parses := countCalls(t, &parse)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, f := Script(tt.code, tt.lang)
			if f != nil {
				t.Fatalf("Script(%q, %q) failed: %v", tt.code, tt.lang, f)
			}
			if got != tt.want {
				t.Errorf("Script(%q, %q) = %q, want %q", tt.code, tt.lang, got, tt.want)
			}
		})
	}
	if *transforms != 0 || *parses != 0 {
		t.Errorf("esbuild called for JavaScript: %d transforms and %d parses, want none", *transforms, *parses)
	}
}

// TestScript_parseCalls shows that a JavaScript cell never reaches esbuild's
// transform, and reaches its parser only when the shell rule gets to step 9:
// once for step 9, and once or twice more for step 10 when there is a
// command.
func TestScript_parseCalls(t *testing.T) {
	tests := []struct {
		name   string
		code   string
		step   int // the step of the shell rule that answers
		parses int
		reason string
	}{
		{name: "program", code: "const a = 1\nreturn a", step: 6},
		{name: "shebang", code: "#!/bin/sh\nls", step: 1},
		{name: "export", code: "export const a = 1", step: 2},
		{name: "shell control", code: "if [ -f x ]; then ls; fi", step: 3},
		{name: "command alone", code: "ls", step: 8},
		{name: "name alone", code: "result", step: 8},
		{name: "command that does not parse", code: "git status", step: 9, parses: 1},
		{name: "path that does not parse", code: "./run.sh x", step: 9, parses: 1},
		{name: "path that parses", code: "/x/g", step: 12, parses: 1,
			reason: "no command, so step 10 does not parse"},
		{name: "command that parses", code: "ls -la", step: 12, parses: 2,
			reason: "let ls; then parses, so var ls; is not tried"},
		{name: "declared command name", code: "date\nfunction date() { return 1 }", step: 10, parses: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, step := classifyShell(tt.code, tt.code); step != tt.step {
				t.Fatalf("classifyShell(%q) answered at step %d, want %d", tt.code, step, tt.step)
			}
			transforms := countCalls(t, &transform)
			parses := countCalls(t, &parse)
			Script(tt.code, JavaScript)
			if *transforms != 0 {
				t.Errorf("Script(%q, JavaScript) called the transform %d times, want 0", tt.code, *transforms)
			}
			if *parses != tt.parses {
				t.Errorf("Script(%q, JavaScript) called the parser %d times, want %d\nreason: %s", tt.code, *parses, tt.parses, tt.reason)
			}
		})
	}
}

func TestScript_failures(t *testing.T) {
	tests := []struct {
		name       string
		code       string
		lang       Language
		want       Failure
		transforms int // esbuild transforms expected
		parses     int // esbuild parse checks expected
		reason     string
	}{
		{name: "javascript import", code: `import fs from "node:fs"`, lang: JavaScript, want: Failure{Message: ModuleAccessMessage}},
		{name: "javascript require", code: `return require("fs")`, lang: JavaScript, want: Failure{Message: ModuleAccessMessage}},
		{name: "javascript shell", code: "ls -la", lang: JavaScript, want: Failure{Message: ShellMessage}, parses: 2},
		{name: "javascript shell that does not parse", code: "git status", lang: JavaScript, want: Failure{Message: ShellMessage}, parses: 1},
		{name: "module rule first", code: "cat x; require('fs')", lang: JavaScript, want: Failure{Message: ModuleAccessMessage},
			reason: "the module rule runs before the shell rule"},
		{name: "typescript import type", code: "import type { X } from \"y\"\nreturn 1", lang: TypeScript,
			want: Failure{Message: ModuleAccessMessage}, reason: "the module rule catches it before esbuild"},
		{name: "typescript import equals", code: `import x = require("y")`, lang: TypeScript,
			want: Failure{Message: ModuleAccessMessage}},
		{name: "typescript export from", code: "export { a } from \"./a\"\nreturn 1", lang: TypeScript,
			want: Failure{Message: ModuleAccessMessage}},
		{name: "typescript dynamic import", code: `return await import("node:fs")`, lang: TypeScript,
			want: Failure{Message: ModuleAccessMessage}},
		{name: "typescript shell", code: "ls -la", lang: TypeScript, want: Failure{Message: ShellMessage}, transforms: 1, parses: 2,
			reason: "the shell rule runs after the transform, on the transformed body"},
		{name: "typescript shell that does not parse", code: "git status", lang: TypeScript,
			want: Failure{Message: TypeScriptFailedPrefix + `1:5: Expected ";" but found "status"`}, transforms: 1,
			reason: "flipped: the transform runs before the shell rule (CM-5.10) and fails first"},
		{name: "typescript export", code: "export const x = 1", lang: TypeScript,
			want: Failure{Message: TypeScriptFailedPrefix + `1:1: Unexpected "export"`}, transforms: 1,
			reason: "export is not shell and not module access; esbuild rejects it inside the function"},
		{name: "typescript export interface", code: "const a = 1\nexport interface X {}", lang: TypeScript,
			want: Failure{Message: TypeScriptFailedPrefix + `2:1: Unexpected "export"`}, transforms: 1},
		{name: "typescript syntax error", code: "const a = 1\nlet x: = 3", lang: TypeScript,
			want: Failure{Message: TypeScriptFailedPrefix + `2:8: Unexpected "="`}, transforms: 1},
		{name: "typescript unfinished expression", code: "return 1 +", lang: TypeScript,
			want: Failure{Message: TypeScriptFailedPrefix + `2:1: Unexpected "}"`}, transforms: 1,
			reason: "the error is on the wrapper's last line, one past the code"},
		{name: "typescript module access in the output", code: "const g = f<string> / 2; import(\"fs\"); /x/", lang: TypeScript,
			want: Failure{Message: ModuleAccessMessage}, transforms: 1,
			reason: "the lexer reads a regexp after the '>' of an instantiation expression, hiding the import; the output has no type arguments"},

		// Break-outs (SPEC.md CM-5.24): a guest SyntaxError, before the transform.
		{name: "javascript break-out", code: "})(); evil(); (async () => {", lang: JavaScript,
			want: Failure{Message: "SyntaxError: unexpected token '}'", Syntax: true}},
		{name: "javascript break-out by assignment", code: "}); x = 1; ({", lang: JavaScript,
			want: Failure{Message: "SyntaxError: unexpected token '}'", Syntax: true}},
		{name: "javascript parenthesis", code: "return 1)", lang: JavaScript,
			want: Failure{Message: "SyntaxError: unexpected token ')'", Syntax: true}},
		{name: "typescript break-out", code: "}); x = 1; ({", lang: TypeScript,
			want:   Failure{Message: "SyntaxError: unexpected token '}'", Syntax: true},
			reason: "caught before the transform"},
		{name: "break-out that looks like shell", code: "ls })(); evil(); (async () => {", lang: JavaScript,
			want: Failure{Message: "SyntaxError: unexpected token '}'", Syntax: true}, parses: 2,
			reason: "the shell rule's parse check accepts the break-out, so the shell rule answers not shell"},
		{name: "case statement", code: "case \"$1\" in\n  start) echo go;;\nesac", lang: JavaScript,
			want:   Failure{Message: ShellMessage},
			reason: "its pattern closes a bracket it never opened; the shell rule (CM-5.21) rejects it before the guest sees the break-out"},
		{name: "module access wins over a break-out", code: "}); require('fs'); ({", lang: JavaScript,
			want:   Failure{Message: ModuleAccessMessage},
			reason: "the module rule is step 2 of CM-5.10; the wrapper check follows it"},
		{name: "typescript break-out the lexer misreads", code: "f<T> / 1; })(); evil(); (async () => { 1 / 1", lang: TypeScript,
			want: Failure{Message: "SyntaxError: unexpected token '}'", Syntax: true}, transforms: 1,
			reason: "the slashes hide it in the source; the check on the transformed body finds it before the guest runs"},

		{name: "unknown language", code: "return 1", lang: "python", want: Failure{Message: "language must be javascript or typescript."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			transforms := countCalls(t, &transform)
			parses := countCalls(t, &parse)
			got, f := Script(tt.code, tt.lang)
			if f == nil {
				t.Fatalf("Script(%q, %q) = %q, want failure %q", tt.code, tt.lang, got, tt.want.Message)
			}
			if diff := cmp.Diff(tt.want, *f); diff != "" {
				t.Errorf("Script(%q, %q) failure mismatch (-want +got):\n%s\nreason: %s", tt.code, tt.lang, diff, tt.reason)
			}
			if f.Error() != f.Message {
				t.Errorf("Failure.Error() = %q, want %q", f.Error(), f.Message)
			}
			if *transforms != tt.transforms || *parses != tt.parses {
				t.Errorf("Script(%q, %q) called esbuild for %d transforms and %d parses, want %d and %d",
					tt.code, tt.lang, *transforms, *parses, tt.transforms, tt.parses)
			}
		})
	}
}

func TestScript_typeScript(t *testing.T) {
	tests := []struct {
		name    string
		code    string
		present []string // substrings the output must contain
		absent  []string // substrings (type syntax) it must not contain
	}{
		{
			name:    "interface and annotations",
			code:    "interface User { name: string }\nconst u: User = { name: \"a\" }\nreturn u.name",
			present: []string{`const u = { name: "a" };`, "return u.name;"},
			absent:  []string{"interface", ": User", "string"},
		},
		{
			name:    "type alias",
			code:    "type Id = string | number\nconst id: Id = 1\nreturn id",
			present: []string{"const id = 1;"},
			absent:  []string{"type Id", ": Id"},
		},
		{
			name:    "as and satisfies",
			code:    "const a = (1 as unknown) as number\nconst b = { x: 1 } satisfies Record<string, number>\nreturn a + b.x",
			present: []string{"const a = 1;", "const b = { x: 1 };"},
			absent:  []string{" as ", "satisfies", "Record"},
		},
		{
			name:    "generics",
			code:    "function id<T>(x: T): T { return x }\nconst f = <T,>(x: T): T => x\nreturn id<number>(f(1))",
			present: []string{"function id(x) {", "const f = (x) => x;", "return id(f(1));"},
			absent:  []string{"<T", "<number>", ": T"},
		},
		{
			name:    "enum",
			code:    "enum Color { Red, Green }\nreturn Color.Green",
			present: []string{`Color2[Color2["Green"] = 1] = "Green"`, "return 1 /* Green */;"},
			absent:  []string{"enum"},
		},
		{
			name:    "non-null and optional chaining",
			code:    "const m = new Map<string, { v?: number }>()\nreturn m.get(\"a\")!?.v",
			present: []string{"new Map()", `return m.get("a")?.v;`},
			absent:  []string{"!", "<string"},
		},
		{
			name:    "class with parameter properties",
			code:    "class P {\n  constructor(private x: number, public readonly y = 2) {}\n  sum(): number { return this.x + this.y }\n}\nreturn new P(1).sum()",
			present: []string{"constructor(x, y = 2) {", "this.x = x;", "this.y = y;", "return new P(1).sum();"},
			absent:  []string{"private", "public", "readonly", ": number"},
		},
		{
			name:    "top-level await and return",
			code:    "const r: unknown = await tools.callValue(\"openclaw:core:read\", { path: \"a\" })\nreturn r",
			present: []string{"const r = await tools.callValue(", "return r;"},
			absent:  []string{"unknown"},
		},
		{
			name:    "declare and type-only statements vanish",
			code:    "declare const g: number\nabstract class A { abstract m(): void }\nreturn 1",
			present: []string{"class A {", "return 1;"},
			absent:  []string{"declare", "abstract", "void"},
		},
		{
			name:    "lowered syntax adds helpers before the function",
			code:    "using r = { [Symbol.dispose]() {} }\nreturn 1",
			present: []string{"var __using = ", "\n(async () => {\n"},
		},
		{
			name:    "command-like name declared with var",
			code:    "sort;\nvar sort: number = 1",
			present: []string{"sort;", "var sort = 1;"},
			absent:  []string{"number"},
		},
		{
			name: "empty code",
			code: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, f := Script(tt.code, TypeScript)
			if f != nil {
				t.Fatalf("Script(%q, TypeScript) failed: %v", tt.code, f)
			}
			if !completesWithFunction(got) {
				t.Errorf("Script(%q, TypeScript) = %q, want the async function as the last statement", tt.code, got)
			}
			if !strings.HasSuffix(got, "});\n") {
				t.Errorf("Script(%q, TypeScript) = %q, want it to end with the function statement", tt.code, got)
			}
			body := got[strings.LastIndex(got, wrapperHead):]
			for _, s := range tt.present {
				if !strings.Contains(got, s) {
					t.Errorf("Script(%q, TypeScript) = %q, want it to contain %q", tt.code, got, s)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(body, s) {
					t.Errorf("Script(%q, TypeScript) = %q, want no %q", tt.code, got, s)
				}
			}
		})
	}
}

func TestScript_typeScriptOutput(t *testing.T) {
	tests := []struct {
		name string
		res  api.TransformResult
		want Failure
	}{
		{
			name: "errors joined, lines relative to the code",
			res: api.TransformResult{Errors: []api.Message{
				{Text: "first", Location: &api.Location{Line: 3, Column: 4}},
				{Text: "second", Location: &api.Location{Line: 1, Column: 0}},
				{Text: "third"},
			}},
			want: Failure{Message: TypeScriptFailedPrefix + "2:5: first\n1:1: second\nthird"},
		},
		{
			name: "output that is not the function",
			res:  api.TransformResult{Code: []byte("module.exports = 1;\n")},
			want: Failure{Message: TypeScriptFailedPrefix + "output is not the wrapped async function"},
		},
		{
			name: "output that is wrapped further",
			res:  api.TransformResult{Code: []byte("(async () => {\n  return 1;\n})();\n")},
			want: Failure{Message: TypeScriptFailedPrefix + "output is not the wrapped async function"},
		},
		{
			name: "module access in the output",
			res:  api.TransformResult{Code: []byte("(async () => {\n  return require(\"fs\");\n});\n")},
			want: Failure{Message: ModuleAccessMessage},
		},
		{
			name: "output that breaks out",
			res:  api.TransformResult{Code: []byte("(async () => {\n  a;\n})();\nevil();\n(async () => {\n});\n")},
			want: Failure{Message: "SyntaxError: unexpected token '}'", Syntax: true},
		},
		{
			name: "shell rule on the output's body",
			res:  api.TransformResult{Code: []byte("var __h = 1;\n(async () => {\n  ls x\n});\n")},
			want: Failure{Message: ShellMessage},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeTransform(t, tt.res)
			got, f := Script("ls", TypeScript)
			if f == nil {
				t.Fatalf("Script = %q, want failure %q", got, tt.want.Message)
			}
			if diff := cmp.Diff(tt.want, *f); diff != "" {
				t.Errorf("Script failure mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFunctionBody(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want string
	}{
		{name: "plain", out: "(async () => {\n  return 1;\n});\n", want: "  return 1;\n"},
		{name: "empty", out: "(async () => {\n});\n", want: ""},
		{name: "after helpers", out: "var __using = (x) => {\n};\n(async () => {\n  a;\n});\n", want: "  a;\n"},
		{name: "head text in the body", out: "(async () => {\n  const s = `\n(async () => {\n`;\n});\n", want: "  const s = `\n(async () => {\n`;\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := functionBody(tt.out); got != tt.want {
				t.Errorf("functionBody(%q) = %q, want %q", tt.out, got, tt.want)
			}
		})
	}
}

func TestScript_transformOptions(t *testing.T) {
	want := api.TransformOptions{Loader: api.LoaderTS, Target: api.ES2022}
	var got api.TransformOptions
	real := transform
	transform = func(input string, opts api.TransformOptions) api.TransformResult {
		got = opts
		return real(input, opts)
	}
	t.Cleanup(func() { transform = real })
	if _, f := Script("return 1", TypeScript); f != nil {
		t.Fatalf("Script failed: %v", f)
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b api.TransformOptions) bool {
		return a.Loader == b.Loader && a.Target == b.Target && a.Format == b.Format &&
			a.Sourcemap == b.Sourcemap && !b.MinifySyntax && !b.MinifyWhitespace && !b.MinifyIdentifiers
	})); diff != "" {
		t.Errorf("transform options mismatch (-want +got):\n%s", diff)
	}
}

// parsesAsDeclaration reports whether code parses as the body of an async
// function declaration. With the wrapper, code that closes the body early
// must continue with ')' or ','; with a declaration, with a statement. No code
// can do both, so a source for which wrap parses and this does not breaks out
// of the wrapper. This is the fuzz targets' oracle: it does not use the lexer.
func parsesAsDeclaration(code string) bool {
	return len(api.Transform("async function f() {\n"+code+"\n}", parseOptions).Errors) == 0
}

func FuzzScript(f *testing.F) {
	for _, tt := range moduleTests {
		f.Add(tt.src, false)
		f.Add(tt.src, true)
	}
	for _, tt := range shellTests {
		f.Add(tt.src, false)
		f.Add(tt.src, true)
	}
	f.Add("interface A { x: number }\nreturn 1 as number", true)
	f.Add("})(); evil(); (async () => {", false)
	f.Add("x <!-- `\n})(); evil(); (async () => {\nx <!-- `", false)
	f.Add("x = function () {} / 1; })(); evil(); (async () => { 1 / 1", false)
	f.Add("f<T> / 1; })(); evil(); (async () => { 1 / 1", true)
	f.Fuzz(func(t *testing.T, code string, ts bool) {
		lang := JavaScript
		if ts {
			lang = TypeScript
		}
		got, fail := Script(code, lang)
		if fail != nil {
			switch {
			case got != "":
				t.Errorf("Script(%q, %q) = %q and a failure %q", code, lang, got, fail.Message)
			case fail.Syntax != strings.HasPrefix(fail.Message, "SyntaxError: unexpected token '"):
				t.Errorf("Script(%q, %q) failed with %+v", code, lang, *fail)
			case fail.Syntax, fail.Message == ModuleAccessMessage, fail.Message == ShellMessage,
				ts && strings.HasPrefix(fail.Message, TypeScriptFailedPrefix):
			default:
				t.Errorf("Script(%q, %q) failed with %q", code, lang, fail.Message)
			}
			return
		}
		body := code
		if ts {
			if !completesWithFunction(got) {
				t.Fatalf("Script(%q, TypeScript) = %q, want the async function last", code, got)
			}
			body = functionBody(got)
		} else if got != wrap(code) {
			t.Fatalf("Script(%q, JavaScript) = %q, want %q", code, got, wrap(code))
		}
		// What the guest runs does not break out of the wrapper.
		if parsesAsGuest(body) && !parsesAsDeclaration(body) {
			t.Errorf("Script(%q, %q) accepted a break-out: %q", code, lang, got)
		}
	})
}
