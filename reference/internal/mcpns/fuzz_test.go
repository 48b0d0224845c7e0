package mcpns

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/evanw/esbuild/pkg/api"
)

// FuzzServerFile renders untrusted tool names, descriptions and schemas
// (CM-14.29 to CM-14.31): rendering never panics; every comment closes at
// the end of its line; the file is valid UTF-8; no rendered type exceeds the
// 2000-character cap; the file stays within a fixed multiple of its input;
// and it is a pure declaration file: TypeScript parses it and it compiles
// to no code at all, so nothing a server sends can inject a statement.
func FuzzServerFile(f *testing.F) {
	f.Add("t", "Create an issue.\nSecond */ line", `{"type":"object","properties":{"a":{"type":"string","description":"x */","default":"*/"}},"required":["a"]}`)
	f.Add("t", "", `{"properties":{"*/":{"enum":["*/","/*"]},"k":{"oneOf":[{"type":"array","items":{"type":["string","null"]}}]}}}`)
	f.Add("t", "/*", nested(12))
	f.Add("t", "\xff\u2028", `{"properties":{"\ud800":{"type":"object","properties":{"\n":{}}}}}`)
	f.Add("}); globalThis.x = 1; (function(){", "*/ declare const x: 1; /*", `{"properties":{"a\"};x();//":{"const":"\u0000"}}}`)
	f.Add("constructor", "</script>", `{"$ref":"#","properties":{"__proto__":{"$ref":"#"}}}`)
	f.Add("a b-c.d", "`${x}`", `{"type":"object","additionalProperties":{"type":"object","additionalProperties":{}}}`)
	f.Fuzz(func(t *testing.T, name, description, schema string) {
		if name == "" {
			return
		}
		m := Build([]Server{{Name: "s", Owner: "s", Resources: true, Tools: []Tool{{Name: name, Description: description, InputSchema: json.RawMessage(schema)}}}})
		got := m.ServerFile("s")
		if err := checkComments(got); err != nil {
			t.Fatalf("ServerFile(%q, %q, %q) unsafe: %v\n%s", name, description, schema, err, got)
		}
		for _, line := range strings.Split(got, "\n") {
			if i := strings.Index(line, ": "); i >= 0 && strings.HasSuffix(line, ";") && !strings.Contains(line, "/**") {
				if n := jsjson.UTF16Len(line[i+2 : len(line)-1]); n > maxTypeChars+2 {
					t.Fatalf("rendered type of %d characters: %.80s", n, line)
				}
			}
		}
		if in := len(name) + len(description) + len(schema); len(got) > 8192+16*in {
			t.Fatalf("ServerFile of %d input bytes is %d bytes", in, len(got))
		}
		r := api.Transform(got, api.TransformOptions{Loader: api.LoaderTS})
		if len(r.Errors) > 0 {
			t.Fatalf("ServerFile(%q, %q, %q) does not parse as TypeScript: %s\n%s", name, description, schema, r.Errors[0].Text, got)
		}
		if code := strings.TrimSpace(string(r.Code)); code != "" {
			t.Fatalf("ServerFile(%q, %q, %q) compiles to code %q\n%s", name, description, schema, code, got)
		}
	})
}

// FuzzPrepareInput checks guest arguments: PrepareInput never panics and
// its result is always a JSON object.
func FuzzPrepareInput(f *testing.F) {
	f.Add(`{"a":1}`, 1)
	f.Add(`null`, 1)
	f.Add(`[]`, 0)
	f.Add(`{"__proto__":1,"b":"\ud800"}`, 1)
	m := Build([]Server{{Name: "s", Owner: "s", Tools: []Tool{{Name: "t", InputSchema: json.RawMessage(`{"properties":{"a":{"default":1},"b":{}},"required":["b"]}`)}}}})
	e, _ := m.Resolve("s.t")
	f.Fuzz(func(t *testing.T, arg string, argc int) {
		out, err := PrepareInput(e, []json.RawMessage{json.RawMessage(arg)}, argc)
		if err != nil {
			return
		}
		v, perr := jsjson.Parse(out)
		if perr != nil || !v.IsObject() || v.Get("a") == nil || v.Get("b") == nil {
			t.Fatalf("PrepareInput(%q, %d) = %s", arg, argc, out)
		}
	})
}
