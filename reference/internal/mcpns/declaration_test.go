package mcpns

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/google/go-cmp/cmp"
)

// specBlock returns the fenced block of the given language that follows
// marker, searching from after anchor.
func specBlock(t *testing.T, spec, anchor, marker, lang string) string {
	t.Helper()
	i := strings.Index(spec, anchor)
	if i < 0 {
		t.Fatalf("SPEC.md has no %q", anchor)
	}
	rest := spec[i:]
	j := strings.Index(rest, marker)
	if j < 0 {
		t.Fatalf("SPEC.md has no %q after %q", marker, anchor)
	}
	rest = rest[j+len(marker):]
	open := "```" + lang + "\n"
	k := strings.Index(rest, open)
	if k < 0 {
		t.Fatalf("SPEC.md has no %q block after %q", lang, marker)
	}
	rest = rest[k+len(open):]
	end := strings.Index(rest, "\n```")
	if end < 0 {
		t.Fatalf("SPEC.md block after %q is not closed", marker)
	}
	return rest[:end]
}

func TestModel_Files_specExample(t *testing.T) {
	m := Build(githubServers())
	expectGolden(t, "spec/index.d.ts", m.IndexFile())
	expectGolden(t, "spec/github.d.ts", m.ServerFile("github"))
}

// TestSpecExample_byteForByte checks the complete example of SPEC.md
// section 14.6 byte for byte against the SPEC text itself, so the golden
// files cannot drift from the SPEC.
func TestSpecExample_byteForByte(t *testing.T) {
	spec := mustReadSpec(t)
	m := Build(githubServers())
	tests := []struct {
		name   string
		marker string
		got    string
	}{
		{"index", "`mcp/index.d.ts`:", m.IndexFile()},
		{"server", "`mcp/github.d.ts`:", m.ServerFile("github")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := specBlock(t, spec, "Complete example. The server `github`", tt.marker, "ts")
			if diff := cmp.Diff(want, tt.got); diff != "" {
				t.Errorf("%s mismatch with SPEC.md section 14.6 (-want +got):\n%s", tt.marker, diff)
			}
		})
	}
}

func TestModel_IndexFile(t *testing.T) {
	tests := []struct {
		name    string
		servers []Server
		want    string
	}{
		{
			name: "no server",
			want: "\ntype McpApiHeader = { header: string; servers?: unknown[] };\n\ndeclare const MCP: {\n" +
				"  /** List visible MCP servers and request server-specific headers. */\n  $api(): Promise<McpApiHeader>;\n};",
		},
		{
			name:    "servers in server order",
			servers: docsServers(),
			want: "/// <reference path=\"./chromeDevtools.d.ts\" />\n/// <reference path=\"./constructor2.d.ts\" />\n/// <reference path=\"./docs.d.ts\" />\n" +
				"\ntype McpApiHeader = { header: string; servers?: unknown[] };\n\ndeclare const MCP: {\n" +
				"  /** List visible MCP servers and request server-specific headers. */\n  $api(): Promise<McpApiHeader>;\n" +
				"  readonly chromeDevtools: typeof MCP.chromeDevtools;\n  readonly constructor2: typeof MCP.constructor2;\n  readonly docs: typeof MCP.docs;\n};",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Build(tt.servers).IndexFile()); diff != "" {
				t.Errorf("IndexFile() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModel_ServerFile_unknown(t *testing.T) {
	if got := Build(githubServers()).ServerFile("gitlab"); got != "" {
		t.Errorf("ServerFile(%q) = %q, want \"\"", "gitlab", got)
	}
}

func TestModel_ServerFile_docs(t *testing.T) {
	m := Build(docsServers())
	for _, id := range m.Identifiers() {
		expectGolden(t, "docs/"+id+".d.ts", m.ServerFile(id))
	}
}

// hostileTool returns one tool with the given schema and description.
func hostileServer(description string, schema string) []Server {
	return []Server{{Name: "evil", Owner: "evil", Tools: []Tool{{
		Name: "probe", Description: description, InputSchema: json.RawMessage(schema),
	}}}}
}

// nested returns an object schema nested depth levels deep.
func nested(depth int) string {
	s := `{"type":"string"}`
	for range depth {
		s = `{"type":"object","properties":{"a":` + s + `},"required":["a"]}`
	}
	return s
}

func manyProperties(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%04d":{"type":"integer","description":"Property %d."}`, i, i)
	}
	b.WriteString(`},"required":["p0999","p0000"]}`)
	return b.String()
}

func hugeEnum() string {
	var vals []string
	for i := range 16 {
		vals = append(vals, `"`+strings.Repeat(string(rune('a'+i)), 130)+`"`)
	}
	return `{"type":"object","properties":{"big":{"enum":[` + strings.Join(vals, ",") + `]},"fits":{"enum":[` + strings.Join(vals[:2], ",") + `]}}}`
}

// typeArrayBomb nests type arrays that would render each subschema 40^8
// times without memoization.
func typeArrayBomb() string {
	types := `["object"` + strings.Repeat(`,"object"`, 39) + `]`
	s := `{"type":"string"}`
	for range 8 {
		s = `{"type":` + types + `,"properties":{"x":` + s + `}}`
	}
	return `{"type":"object","properties":{"bomb":` + s + `}}`
}

func TestModel_ServerFile_hostile(t *testing.T) {
	tests := []struct {
		name        string
		description string
		schema      string
		reason      string
	}{
		{
			name:   "depth20",
			schema: `{"type":"object","properties":{"deep":` + nested(20) + `,"seven":` + nested(7) + `,"eight":` + nested(8) + `}}`,
			reason: "a schema nested deeper than 8 levels renders unknown",
		},
		{
			name:   "ref",
			schema: `{"type":"object","$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}},"properties":{"self":{"$ref":"#"},"node":{"$ref":"#/$defs/node"},"mixed":{"$ref":"#/$defs/node","type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"list":{"type":"array","items":{"$ref":"#/properties/list"}}}}`,
			reason: "$ref is never resolved: a schema with only $ref renders unknown, other keywords still render",
		},
		{
			name:   "weird-keys",
			schema: `{"type":"object","properties":{"":{"type":"string"},"a-b":{"type":"string","description":"dash"},"with space":{"type":"number"},"quote\"d":{"type":"boolean"},"line\nbreak":{"type":"null"},"*/":{"type":"string","description":"closes */ here"},"日本":{"type":"string"},"$ok_1":{"type":"string"},"1abc":{"type":"string"},"__proto__":{"type":"string"},"constructor":{"type":"string"},"lone\ud800":{"type":"string"},"nested":{"type":"object","properties":{"x-y":{"type":"string"},"ok":{"type":"string"}},"required":["x-y"]}},"required":["a-b","missing-one"]}`,
			reason: "non-identifier names are JSON string literals everywhere, and a required name without a property is unknown",
		},
		{
			name:        "comment-close",
			description: "Ends */ early.\n\n  /* and */ again */\r\nthird */",
			schema:      `{"type":"object","properties":{"a":{"type":"string","description":"desc */ here\nsecond */","default":"*/ in default"},"b":{"type":"object","default":{"z":1,"a":[true,null,"*/"],"n":1e21,"m":0.000001,"k":-0}}}}`,
			reason:      "*/ in descriptions, parameter descriptions and defaults is written * /",
		},
		{
			name:        "long-description",
			description: strings.Repeat("line\n", 5) + "\n\n   \n" + strings.Repeat("more\n", 20),
			schema:      `{"type":"object","properties":{"p":{"type":"string","description":"` + strings.Repeat(`part\n`, 14) + `"}}}`,
			reason:      "at most 12 non-empty description lines are kept",
		},
		{
			name:   "1000-properties",
			schema: manyProperties(1000),
			reason: "every property is a parameter; required ones first",
		},
		{
			name:   "huge",
			schema: `{"type":"object","properties":{"obj":` + strings.Replace(manyProperties(300), `"required":["p0999","p0000"]`, `"required":[]`, 1) + `,"enum":` + hugeEnum() + `,"bomb":` + typeArrayBomb() + `}}`,
			reason: "a rendered type longer than 2000 characters is unknown, and type-array bombs stay cheap",
		},
		{
			name:   "types",
			schema: `{"type":"object","properties":{"e":{"enum":["a",1,true,null,{"x":1}]},"e17":{"type":"string","enum":["1","2","3","4","5","6","7","8","9","10","11","12","13","14","15","16","17"]},"eNone":{"type":"number","enum":[null]},"one":{"oneOf":[{"type":"string"},{"type":"array","items":{"type":["string","null"]}}]},"any":{"anyOf":[{"const":"x"},{"type":"integer"}]},"oneBad":{"oneOf":{"type":"string"},"anyOf":[{"type":"boolean"}]},"nine":{"type":"string","oneOf":[{},{},{},{},{},{},{},{},{}]},"ta":{"type":["string","integer","null"]},"taEmpty":{"type":[]},"arr":{"type":"array"},"obj":{"type":"object"},"propsOnly":{"properties":{"k":{"type":"string"}},"required":["k"]},"bool":true,"num":3,"unknownType":{"type":"date"},"empty":{}},"required":["e"]}`,
			reason: "the type mapping of section 14.6",
		},
		{
			name:   "not-object",
			schema: `[1,2,3]`,
			reason: "an input schema that is not an object has no parameter",
		},
		{
			name:        "invalid-json",
			description: "Broken schema.",
			schema:      `{"type":"object","properties":{`,
			reason:      "an input schema that is not JSON has no parameter",
		},
		{
			name:        "no-description-params",
			description: "   \n\t ",
			schema:      `{"type":"object","properties":{"a":{"type":"string"}}}`,
			reason:      "D is empty and there are parameters: an empty JSDoc",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Build(hostileServer(tt.description, tt.schema))
			got := m.ServerFile("evil")
			expectGolden(t, "hostile/"+tt.name+".d.ts", got)
			if err := checkComments(got); err != nil {
				t.Errorf("ServerFile() is not safe (%s): %v", tt.reason, err)
			}
		})
	}
}

// checkComments lexes a declaration file: string literals are skipped,
// every block comment must close at the end of a line (no comment text
// leaks into code), and the file must be valid UTF-8.
func checkComments(text string) error {
	if !utf8.ValidString(text) {
		return errors.New("not valid UTF-8")
	}
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
				if i < len(text) && text[i] == '\n' {
					return fmt.Errorf("string literal spans lines at byte %d", i)
				}
			}
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return fmt.Errorf("comment at byte %d is not closed", i)
			}
			i += 2 + end + 1
			if i+1 < len(text) && text[i+1] != '\n' {
				return fmt.Errorf("comment closes before the end of its line at byte %d: %q", i, text[max(0, i-20):min(len(text), i+20)])
			}
		}
	}
	return nil
}

func TestCheckComments(t *testing.T) {
	tests := []struct {
		text string
		ok   bool
	}{
		{"/** a */\nx;", true},
		{"/** a */ b */\n", false},
		{"/**\n * a */ b\n */", false},
		{"x: \"/*\";\n", true},
		{"/** a", false},
		{"\xff", false},
	}
	for _, tt := range tests {
		if err := checkComments(tt.text); (err == nil) != tt.ok {
			t.Errorf("checkComments(%q) = %v, want ok %t", tt.text, err, tt.ok)
		}
	}
}

func TestRenderer_typeOf(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   string
		reason string
	}{
		{"not object", `"string"`, "unknown", ""},
		{"empty", `{}`, "unknown", ""},
		{"string", `{"type":"string"}`, "string", ""},
		{"integer", `{"type":"integer"}`, "number", ""},
		{"number", `{"type":"number"}`, "number", ""},
		{"boolean", `{"type":"boolean"}`, "boolean", ""},
		{"null", `{"type":"null"}`, "null", ""},
		{"array", `{"type":"array","items":{"type":"number"}}`, "number[]", ""},
		{"array no items", `{"type":"array"}`, "unknown[]", ""},
		{"array of union", `{"type":"array","items":{"type":["string","null"]}}`, "string | null[]", "type(items) followed by [], unparenthesized as the SPEC says"},
		{"object empty", `{"type":"object"}`, "Record<string, unknown>", ""},
		{"object props", `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number"}},"required":["a"]}`, "{ b?: string; a: number }", "schema order, not sorted"},
		{"props without type", `{"properties":{"a":{}}}`, "{ a?: unknown }", ""},
		{"props not object", `{"type":"object","properties":[1]}`, "Record<string, unknown>", ""},
		{"enum", `{"enum":["a",2.5,false]}`, `"a" | 2.5 | false`, ""},
		{"enum drops others", `{"enum":["a",null,[1]],"type":"string"}`, `"a"`, "null and arrays are not string, number or boolean members"},
		{"enum numbers", `{"enum":[1e21,1e-7,-0,100]}`, `1e+21 | 1e-7 | 0 | 100`, "numbers are written as JSON.stringify does"},
		{"enum 17", `{"type":"string","enum":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]}`, "string", "more than 16 members fall through"},
		{"enum escapes", `{"enum":["a\"b","\u0001","\ud800"]}`, `"a\"b" | "\u0001" | "\ud800"`, ""},
		{"oneOf", `{"oneOf":[{"type":"string"},{"type":"number"}]}`, "string | number", ""},
		{"anyOf", `{"anyOf":[{"type":"string"},{"const":"x"}]}`, "string | unknown", "const is not part of the section 14.6 mapping"},
		{"oneOf before anyOf", `{"oneOf":[{"type":"string"}],"anyOf":[{"type":"number"}]}`, "string", ""},
		{"oneOf not array", `{"oneOf":{"type":"string"},"anyOf":[{"type":"number"}]}`, "number", ""},
		{"oneOf 9", `{"type":"string","oneOf":[{},{},{},{},{},{},{},{},{}]}`, "string", ""},
		{"oneOf empty", `{"oneOf":[],"type":"boolean"}`, "boolean", ""},
		{"type array", `{"type":["string","integer"]}`, "string | number", ""},
		{"type array object", `{"type":["object","null"],"properties":{"a":{"type":"string"}}}`, "{ a?: string } | null", ""},
		{"type array empty", `{"type":[]}`, "unknown", "an empty type array falls through"},
		{"type array nested", `{"type":[["string"],"null"]}`, "string | null", ""},
		{"unknown type", `{"type":"date"}`, "unknown", ""},
		{"ref only", `{"$ref":"#"}`, "unknown", "$ref is never resolved"},
		{"depth", nested(7), "{ a: { a: { a: { a: { a: { a: { a: string } } } } } } }", "levels 1 to 8 render"},
		{"too deep", nested(8), "{ a: { a: { a: { a: { a: { a: { a: { a: unknown } } } } } } } }", "level 9 renders unknown"},
		{"too long", `{"enum":["` + strings.Repeat("x", 1999) + `"]}`, "unknown", "2001 characters with the quotes"},
		{"just fits", `{"enum":["` + strings.Repeat("x", 1998) + `"]}`, `"` + strings.Repeat("x", 1998) + `"`, "2000 characters"},
		{"utf16 length", `{"enum":["` + strings.Repeat("😀", 999) + `"]}`, `"` + strings.Repeat("😀", 999) + `"`, "length counts UTF-16 code units: 1998 + 2"},
		{"utf16 too long", `{"enum":["` + strings.Repeat("😀", 1000) + `"]}`, "unknown", "2000 + 2 code units"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := jsjson.Parse([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if got := newRenderer().typeOf(s, nil, 1); got != tt.want {
				t.Errorf("typeOf(%.80s) = %q, want %q (%s)", tt.schema, got, tt.want, tt.reason)
			}
		})
	}
}

func TestParameters(t *testing.T) {
	type p struct {
		Name        string
		Required    bool
		Description string
		Default     string
	}
	tests := []struct {
		name   string
		schema string
		want   []p
	}{
		{"none", `{"type":"object"}`, nil},
		{"not object", `true`, nil},
		{
			"required first then schema order",
			`{"properties":{"c":{},"b":{"description":"  B\n\n b2 ","default":null},"a":{}},"required":["a","x",1,"a"]}`,
			[]p{{"a", true, "", ""}, {"x", true, "", ""}, {"c", false, "", ""}, {"b", false, "B b2", "null"}},
		},
		{"required not array", `{"properties":{"a":{}},"required":"a"}`, []p{{"a", false, "", ""}}},
		{"non-string description", `{"properties":{"a":{"description":5}}}`, []p{{"a", false, "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := jsjson.Parse([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			var got []p
			for _, x := range parameters(s) {
				d := ""
				if x.def != nil {
					d = x.def.String()
				}
				got = append(got, p{x.name, x.required, x.description, d})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parameters(%s) mismatch (-want +got):\n%s", tt.schema, diff)
			}
		})
	}
}
