package checkdocs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckBlockFuncs(t *testing.T) {
	type result struct {
		Line int
		Msg  string
	}
	tests := []struct {
		name   string
		check  func(string) (int, string)
		text   string
		want   result
		reason string
	}{
		{name: "js cell", check: checkJS, text: "const a = await f();\nreturn a;\n"},
		{name: "js cell with try", check: checkJS, text: "try {\n  await g();\n} catch (error) {\n  return 1;\n}\n"},
		{name: "js syntax error", check: checkJS, text: "const a = 1;\nconst = 2;\n",
			want: result{2, `does not parse: Expected identifier but found "="`}},
		{name: "js import", check: checkJS, text: "import x from 'y';\n",
			want: result{1, `does not parse: Unexpected "x"`}, reason: "an import declaration is not allowed in a function body"},
		{name: "js break-out", check: checkJS, text: "})\n",
			want: result{3, `does not parse: Unexpected "}"`}, reason: "the wrapper's tail (line 3) then has nothing to close"},

		{name: "ts declarations", check: checkTS, text: "declare const ALL_TOOLS: readonly T[];\ndeclare function text(v: unknown): void;\ntype T = { id: string };\n"},
		{name: "ts dotted namespace", check: checkTS, text: "/// <reference path=\"./a.d.ts\" />\ndeclare namespace MCP.github {\n  function $api(): Promise<unknown>;\n}\n"},
		{name: "ts exec cell", check: checkTS, text: "const n: number = await f();\nreturn n;\n"},
		{name: "ts type error is no parse error", check: checkTS, text: "const n: number = \"x\";\n", reason: "esbuild parses, it does not type-check"},
		{name: "ts syntax error", check: checkTS, text: "type A = {\n  a: ;\n};\n",
			want: result{2, `does not parse: Unexpected ";"`}},
		{name: "ts cell with a syntax error", check: checkTS, text: "const n = await f();\nreturn n;\nconst x: = 2;\n",
			want:   result{3, `does not parse: Unexpected "="`},
			reason: "esbuild reports the syntax error before the module's misplaced return"},

		{name: "ts module", check: checkTS, text: "export type A = string;\nexport const a: A = \"x\";\n"},

		{name: "go statements", check: checkGo, text: "x := 1\nif x > 0 {\n\tx++\n}\n"},
		{name: "go declarations", check: checkGo, text: "func F(t *testing.T) {\n\tt.Helper()\n}\n"},
		{name: "go file", check: checkGo, text: "package p\n\nimport \"fmt\"\n\nfunc F() { fmt.Println() }\n"},
		{name: "go comment alignment", check: checkGo, text: "a := 1    // one\nb := 2\n",
			want: result{1, `not gofmt-clean: gofmt writes this line as "a := 1 // one"`}},
		{name: "go spaces for indentation", check: checkGo, text: "if x {\n    y()\n}\n",
			want: result{2, `not gofmt-clean: gofmt writes this line as "\ty()"`}},
		{name: "go syntax error", check: checkGo, text: "package p\n\nfunc {\n",
			want: result{3, `does not parse: expected 'IDENT', found '{'`}},

		{name: "json object", check: checkJSON, text: "{\n  \"a\": [1, 2]\n}\n"},
		{name: "json trailing comma", check: checkJSON, text: "{\n  \"a\": 1,\n}\n",
			want: result{3, "invalid JSON: invalid character '}' looking for beginning of object key string"}},
		{name: "json two values", check: checkJSON, text: "{}\n{}\n",
			want: result{2, "invalid JSON: invalid character '{' after top-level value"}},
		{name: "json comment", check: checkJSON, text: "// c\n{}\n",
			want: result{1, "invalid JSON: invalid character '/' looking for beginning of value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, msg := tt.check(tt.text)
			if diff := cmp.Diff(tt.want, result{line, msg}); diff != "" {
				t.Errorf("check(%q) mismatch (-want +got):\n%s\nreason: %s", tt.text, diff, tt.reason)
			}
		})
	}
}

func TestParseConfigSource(t *testing.T) {
	src := `package config

const Runtime = "quick" + "js-" + "wasi"
const Mode = ("only")
var Languages = []string{"javascript"}

type Range struct{ Min, Max int }
type Field struct {
	Name    string
	Default int
	Range   Range
}

const kib = 1 << 10

var (
	A = Field{Name: "a", Default: 64 * kib, Range: Range{Min: kib, Max: 10 * kib * kib}}
	B = Field{Range: Range{-1 + 2, 100 / 3}, Default: 0x10, Name: "b"}
)
`
	var ps problems
	cfg := parseConfigSource(src, &ps)
	if len(ps.list) > 0 || cfg == nil {
		t.Fatalf("parseConfigSource problems: %v", ps.list)
	}
	want := []Setting{
		{Name: "a", Default: 65536, Min: 1024, Max: 10485760, Line: 17},
		{Name: "b", Default: 16, Min: 1, Max: 33, Line: 18},
	}
	if diff := cmp.Diff(want, cfg.fields); diff != "" {
		t.Errorf("fields mismatch (-want +got):\n%s", diff)
	}
	wantNamed := map[string]any{"Runtime": "quickjs-wasi", "Mode": "only", "Languages": []string{"javascript"}}
	if diff := cmp.Diff(wantNamed, cfg.named); diff != "" {
		t.Errorf("named mismatch (-want +got):\n%s", diff)
	}
}
