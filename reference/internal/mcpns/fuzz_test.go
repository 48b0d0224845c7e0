package mcpns

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// FuzzServerFile renders untrusted descriptions and schemas: rendering
// never panics, every comment closes at the end of its line, the file is
// valid UTF-8, and no rendered type exceeds the 2000-character cap.
func FuzzServerFile(f *testing.F) {
	f.Add("Create an issue.\nSecond */ line", `{"type":"object","properties":{"a":{"type":"string","description":"x */","default":"*/"}},"required":["a"]}`)
	f.Add("", `{"properties":{"*/":{"enum":["*/","/*"]},"k":{"oneOf":[{"type":"array","items":{"type":["string","null"]}}]}}}`)
	f.Add("/*", nested(12))
	f.Add("\xff\u2028", `{"properties":{"\ud800":{"type":"object","properties":{"\n":{}}}}}`)
	f.Fuzz(func(t *testing.T, description, schema string) {
		m := Build([]Server{{Name: "s", Owner: "s", Resources: true, Tools: []Tool{{Name: "t", Description: description, InputSchema: json.RawMessage(schema)}}}})
		got := m.ServerFile("s")
		if err := checkComments(got); err != nil {
			t.Fatalf("ServerFile(%q, %q) unsafe: %v\n%s", description, schema, err, got)
		}
		for _, line := range strings.Split(got, "\n") {
			if i := strings.Index(line, ": "); i >= 0 && strings.HasSuffix(line, ";") && !strings.Contains(line, "/**") {
				if n := jsjson.UTF16Len(line[i+2 : len(line)-1]); n > maxTypeChars+2 {
					t.Fatalf("rendered type of %d characters: %.80s", n, line)
				}
			}
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
