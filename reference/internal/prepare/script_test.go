package prepare

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/google/go-cmp/cmp"
)

// countTransforms replaces transform with a wrapper that counts calls, for
// the duration of the test, and returns the counter. Tests that use it must
// not run in parallel.
func countTransforms(t *testing.T) *int {
	t.Helper()
	calls := 0
	real := transform
	transform = func(input string, opts api.TransformOptions) api.TransformResult {
		calls++
		return real(input, opts)
	}
	t.Cleanup(func() { transform = real })
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
	}
	calls := countTransforms(t)
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
	if *calls != 0 {
		t.Errorf("esbuild called %d times for JavaScript, want 0", *calls)
	}
}

func TestScript_failures(t *testing.T) {
	tests := []struct {
		name       string
		code       string
		lang       Language
		want       string
		transforms int // esbuild calls expected
		reason     string
	}{
		{name: "javascript import", code: `import fs from "node:fs"`, lang: JavaScript, want: ModuleAccessMessage},
		{name: "javascript require", code: `return require("fs")`, lang: JavaScript, want: ModuleAccessMessage},
		{name: "javascript shell", code: "ls -la", lang: JavaScript, want: ShellMessage},
		{name: "module rule first", code: "cat x; require('fs')", lang: JavaScript, want: ModuleAccessMessage,
			reason: "the module rule runs before the shell rule"},
		{name: "typescript import type", code: "import type { X } from \"y\"\nreturn 1", lang: TypeScript,
			want: ModuleAccessMessage, reason: "the module rule catches it before esbuild"},
		{name: "typescript import equals", code: `import x = require("y")`, lang: TypeScript,
			want: ModuleAccessMessage},
		{name: "typescript dynamic import", code: `return await import("node:fs")`, lang: TypeScript,
			want: ModuleAccessMessage},
		{name: "typescript shell", code: "git status", lang: TypeScript, want: ShellMessage},
		{name: "typescript export", code: "export const x = 1", lang: TypeScript,
			want: TypeScriptFailedPrefix + `1:1: Unexpected "export"`, transforms: 1,
			reason: "export is not shell and not module access; esbuild rejects it inside the function"},
		{name: "typescript export interface", code: "const a = 1\nexport interface X {}", lang: TypeScript,
			want: TypeScriptFailedPrefix + `2:1: Unexpected "export"`, transforms: 1},
		{name: "typescript syntax error", code: "const a = 1\nlet x: = 3", lang: TypeScript,
			want: TypeScriptFailedPrefix + `2:8: Unexpected "="`, transforms: 1},
		{name: "typescript unfinished expression", code: "return 1 +", lang: TypeScript,
			want: TypeScriptFailedPrefix + `2:1: Unexpected "}"`, transforms: 1,
			reason: "the error is on the wrapper's last line, one past the code"},
		{name: "typescript module access in the output", code: "const a = 1\na! / 2; import(\"fs\"); /x/", lang: TypeScript,
			want: ModuleAccessMessage, transforms: 1,
			reason: "the input lexer reads a regexp after '!', hiding the import; the output has no '!'"},
		{name: "unknown language", code: "return 1", lang: "python", want: "language must be javascript or typescript."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := countTransforms(t)
			got, f := Script(tt.code, tt.lang)
			if f == nil {
				t.Fatalf("Script(%q, %q) = %q, want failure %q", tt.code, tt.lang, got, tt.want)
			}
			if diff := cmp.Diff(tt.want, f.Message); diff != "" {
				t.Errorf("Script(%q, %q) failure mismatch (-want +got):\n%s\nreason: %s", tt.code, tt.lang, diff, tt.reason)
			}
			if f.Error() != f.Message {
				t.Errorf("Failure.Error() = %q, want %q", f.Error(), f.Message)
			}
			if *calls != tt.transforms {
				t.Errorf("Script(%q, %q) called esbuild %d times, want %d", tt.code, tt.lang, *calls, tt.transforms)
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
		want string
	}{
		{
			name: "errors joined, lines relative to the code",
			res: api.TransformResult{Errors: []api.Message{
				{Text: "first", Location: &api.Location{Line: 3, Column: 4}},
				{Text: "second", Location: &api.Location{Line: 1, Column: 0}},
				{Text: "third"},
			}},
			want: TypeScriptFailedPrefix + "2:5: first\n1:1: second\nthird",
		},
		{
			name: "output that is not the function",
			res:  api.TransformResult{Code: []byte("module.exports = 1;\n")},
			want: TypeScriptFailedPrefix + "output is not the wrapped async function",
		},
		{
			name: "output that is wrapped further",
			res:  api.TransformResult{Code: []byte("(async () => {\n  return 1;\n})();\n")},
			want: TypeScriptFailedPrefix + "output is not the wrapped async function",
		},
		{
			name: "module access in the output",
			res:  api.TransformResult{Code: []byte("(async () => {\n  return require(\"fs\");\n});\n")},
			want: ModuleAccessMessage,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeTransform(t, tt.res)
			got, f := Script("return 1", TypeScript)
			if f == nil {
				t.Fatalf("Script = %q, want failure %q", got, tt.want)
			}
			if diff := cmp.Diff(tt.want, f.Message); diff != "" {
				t.Errorf("Script failure mismatch (-want +got):\n%s", diff)
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
	f.Fuzz(func(t *testing.T, code string, ts bool) {
		lang := JavaScript
		if ts {
			lang = TypeScript
		}
		got, fail := Script(code, lang)
		switch {
		case fail != nil && got != "":
			t.Errorf("Script(%q, %q) = %q and a failure %q", code, lang, got, fail.Message)
		case fail != nil && !ts && fail.Message != ModuleAccessMessage && fail.Message != ShellMessage:
			t.Errorf("Script(%q, JavaScript) failed with %q", code, fail.Message)
		case fail != nil && ts && fail.Message != ModuleAccessMessage && fail.Message != ShellMessage &&
			!strings.HasPrefix(fail.Message, TypeScriptFailedPrefix):
			t.Errorf("Script(%q, TypeScript) failed with %q", code, fail.Message)
		case fail == nil && !ts && got != wrap(code):
			t.Errorf("Script(%q, JavaScript) = %q, want %q", code, got, wrap(code))
		case fail == nil && ts && !completesWithFunction(got):
			t.Errorf("Script(%q, TypeScript) = %q, want the async function last", code, got)
		}
	})
}
