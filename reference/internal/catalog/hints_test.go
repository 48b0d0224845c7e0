package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/google/go-cmp/cmp"
)

// props returns the JSON text of a properties object with n string members
// named <prefix>00, <prefix>01, ...
func props(prefix string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"%s%02d":{"type":"string"}`, prefix, i)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// names returns the JSON text of an array of n strings <prefix>00, ...
func names(prefix string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"%s%02d"`, prefix, i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// fields returns the hint parts "<prefix>00<opt>: string; ..." of n keys.
func fields(prefix, opt string, from, to int) string {
	parts := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		parts = append(parts, fmt.Sprintf("%s%02d%s: string", prefix, i, opt))
	}
	return strings.Join(parts, "; ")
}

// nest wraps leaf in depth closed single-property objects {v: ...}.
func nest(leaf string, depth int) string {
	s := leaf
	for range depth {
		s = `{"type":"object","properties":{"v":` + s + `},"required":["v"],"additionalProperties":false}`
	}
	return s
}

// wideN are properties objects with three string members whose parts
// "a...: string", "b...: string", "c...: string" are N long together, so
// that their rendering with every key required is N+8 long.
var (
	wide285   = `{"` + strings.Repeat("a", 88) + `":{"type":"string"},"` + strings.Repeat("b", 88) + `":{"type":"string"},"` + strings.Repeat("c", 85) + `":{"type":"string"}}`
	wide286   = `{"` + strings.Repeat("a", 88) + `":{"type":"string"},"` + strings.Repeat("b", 88) + `":{"type":"string"},"` + strings.Repeat("c", 86) + `":{"type":"string"}}`
	wide290   = `{"` + strings.Repeat("a", 88) + `":{"type":"string"},"` + strings.Repeat("b", 88) + `":{"type":"string"},"` + strings.Repeat("c", 90) + `":{"type":"string"}}`
	closed290 = `{"type":"object","properties":` + wide290 + `,"required":["` + strings.Repeat("a", 88) + `","` + strings.Repeat("b", 88) + `","` + strings.Repeat("c", 90) + `"],"additionalProperties":false}`
)

func TestInputHint(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   string
		reason string
	}{
		// SPEC.md section 11.4 examples.
		{
			name:   "spec/open object",
			schema: `{"type":"object","properties":{"optional":{"type":"boolean"},"beta":{"type":"number"},"alpha":{"type":"string"}},"required":["beta","alpha"]}`,
			want:   `{ alpha: string; beta: number; optional?: boolean }`,
			reason: "required keys first, each group in code point order",
		},
		{
			name:   "spec/additionalProperties true",
			schema: `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":true}`,
			want:   `{ id: string; ... }`,
		},
		{
			name:   "spec/object without properties",
			schema: `{"type":"object"}`,
			want:   `{ ... }`,
		},
		{
			name:   "spec/closed empty object",
			schema: `{"type":"object","properties":{},"additionalProperties":false}`,
			want:   `{}`,
		},
		// SPEC.md section 4.4 quick index example.
		{
			name:   "quick index/read",
			schema: `{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"Workspace-relative file path."},"offset":{"type":"integer","description":"First line to read."},"limit":{"type":"integer","description":"Maximum number of lines."}}}`,
			want:   `{ path: string; limit?: number; offset?: number }`,
		},
		{
			name:   "quick index/shipping_list",
			schema: `{"type":"object","properties":{}}`,
			want:   `{}`,
			reason: "no keys and nothing omitted: {} (incomplete, which only matters for outputs)",
		},
		{
			name:   "quick index/web_fetch",
			schema: `{"type":"object","required":["url"],"properties":{"url":{"type":"string"}}}`,
			want:   `{ url: string }`,
		},
		// CM-11.23: the schema must be an object.
		{name: "absent schema", schema: ``, want: `unknown`, reason: "absent parameters are {} (CM-11.20); type({}, 0) is unknown"},
		{name: "blank schema", schema: " \n", want: `unknown`},
		{name: "empty schema", schema: `{}`, want: `unknown`},
		{name: "invalid JSON", schema: `{"type":`, want: `unknown`},
		{name: "array schema", schema: `[]`, want: `unknown`},
		{name: "null schema", schema: `null`, want: `unknown`},
		{name: "boolean schema", schema: `true`, want: `unknown`},
		{name: "non-object type", schema: `{"type":"string"}`, want: `string`, reason: "type(schema, 0) when type is not \"object\""},
		{name: "type array at top level", schema: `{"type":["object","null"]}`, want: `unknown`, reason: "type(s, 1) of an object without properties is incomplete, so the union is UNKNOWN"},
		{name: "properties without type", schema: `{"properties":{"a":{"type":"string"}}}`, want: `unknown`, reason: "type(schema, 0) has no type"},
		// Input hints are used even when incomplete (CM-11.24).
		{name: "unsupported keyword keeps text", schema: `{"type":"object","properties":{"a":{"type":"string","$ref":"#/x"}},"required":["a"]}`, want: `{ a: string }`},
		{name: "items missing", schema: `{"type":"object","properties":{"a":{"type":"array"}}}`, want: `{ a?: Array<unknown> }`},
		// Keys.
		{
			name:   "non-identifier keys are JSON string literals",
			schema: `{"type":"object","properties":{"with space":{"type":"string"},"9lives":{"type":"number"},"$ok_1":{"type":"boolean"},"ключ":{"type":"null"},"tab\there":{}}}`,
			want:   `{ $ok_1?: boolean; "9lives"?: number; "tab\there"?: unknown; "with space"?: string; "ключ"?: null }`,
			reason: "optional keys in code point order",
		},
		{
			name:   "128-character key is rendered",
			schema: `{"type":"object","properties":{"` + strings.Repeat("k", 128) + `":{"type":"string"}},"required":["` + strings.Repeat("k", 128) + `"]}`,
			want:   `{ ` + strings.Repeat("k", 128) + `: string }`,
		},
		{
			name:   "129-character optional key is too long",
			schema: `{"type":"object","properties":{"a":{"type":"string"},"` + strings.Repeat("k", 129) + `":{"type":"string"}}}`,
			want:   `{ a?: string; ... }`,
		},
		{
			name:   "129-character required key is missing",
			schema: `{"type":"object","properties":{"a":{"type":"string"},"` + strings.Repeat("k", 129) + `":{"type":"string"}},"required":["a","` + strings.Repeat("k", 129) + `"]}`,
			want:   `{ a: string; ... }`,
		},
		{
			name:   "key length counts UTF-16 code units",
			schema: `{"type":"object","properties":{"a":{"type":"string"},"` + strings.Repeat("😀", 65) + `":{"type":"string"}}}`,
			want:   `{ a?: string; ... }`,
			reason: "65 emoji are 130 code units but 65 runes",
		},
		// required.
		{
			name:   "required key missing from properties",
			schema: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}`,
			want:   `{ a: string; ... }`,
		},
		{
			name:   "non-string required",
			schema: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a",1],"additionalProperties":false}`,
			want:   `{ a: string; ... }`,
		},
		{
			name:   "duplicate required",
			schema: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"],"additionalProperties":false}`,
			want:   `{ a: string }`,
		},
		{
			name:   "required not an array",
			schema: `{"type":"object","properties":{"a":{"type":"string"}},"required":"a"}`,
			want:   `{ a?: string }`,
		},
		{
			name:   "no properties, string required",
			schema: `{"type":"object","required":["a"],"additionalProperties":false}`,
			want:   `{ ... }`,
		},
		{
			name:   "no properties, closed",
			schema: `{"type":"object","required":[],"additionalProperties":false}`,
			want:   `{}`,
		},
		{
			name:   "properties not an object",
			schema: `{"type":"object","properties":[],"additionalProperties":false}`,
			want:   `{}`,
		},
		// maxProps = 16.
		{
			name:   "16 optional keys fit",
			schema: `{"type":"object","properties":` + props("p", 16) + `}`,
			want:   `{ ` + fields("p", "?", 0, 16) + ` }`,
		},
		{
			name:   "17 optional keys keep the 16 smallest",
			schema: `{"type":"object","properties":` + props("p", 17) + `}`,
			want:   `{ ` + fields("p", "?", 0, 16) + `; ... }`,
		},
		{
			name:   "required keys leave fewer optional slots",
			schema: `{"type":"object","properties":` + props("p", 17) + `,"required":["p16","p15"]}`,
			want:   `{ p15: string; p16: string; ` + fields("p", "?", 0, 14) + `; ... }`,
		},
		{
			name:   "17 required keys",
			schema: `{"type":"object","properties":` + props("p", 17) + `,"required":` + names("p", 17) + `,"additionalProperties":false}`,
			want:   `{ ` + fields("p", "", 0, 16) + `; ... }`,
			reason: "Req holds the first 16 names; p16 counts as optional and there is no slot left",
		},
		// The character budget of object() is 300.
		{
			name:   "parts beyond the budget are omitted",
			schema: `{"type":"object","properties":` + props(strings.Repeat("x", 40), 8) + `}`,
			want:   `{ ` + fields(strings.Repeat("x", 40), "?", 0, 5) + `; ... }`,
			reason: "a part is 51 long: 4 + 5*51 + 4*2 = 267 fits, a sixth part would make 320",
		},
		{
			name:   "later part beyond the budget",
			schema: `{"type":"object","properties":{"` + strings.Repeat("x", 100) + `":{"type":"string"},"a":{"type":"object","properties":` + props(strings.Repeat("y", 100), 3) + `}}}`,
			want:   `{ a?: { ` + strings.Repeat("y", 100) + `00?: string; ` + strings.Repeat("y", 100) + `01?: string; ... }; ... }`,
			reason: "the inner object keeps two parts; the outer budget then omits the 100-character key",
		},
		{
			name:   "first part beyond the budget",
			schema: `{"type":"object","properties":{"a":` + closed290 + `}}`,
			want:   `{ ... }`,
			reason: "the only part is \"a?: \" plus a 298-long object: no part fits",
		},
		{
			name:   "budget ignores the omission marker",
			schema: `{"type":"object","properties":` + wide290 + `,"required":["` + strings.Repeat("a", 88) + `","` + strings.Repeat("b", 88) + `","` + strings.Repeat("c", 90) + `"],"additionalProperties":true}`,
			want:   `unknown`,
			reason: "the parts make 298 <= 300, \"; ...\" makes 303 > 300 and CM-11.23 replaces the text",
		},
		{
			name:   "text of exactly 300",
			schema: `{"type":"array","items":{"type":"object","properties":` + wide285 + `,"required":["` + strings.Repeat("a", 88) + `","` + strings.Repeat("b", 88) + `","` + strings.Repeat("c", 85) + `"]}}`,
			want:   `Array<{ ` + strings.Repeat("a", 88) + `: string; ` + strings.Repeat("b", 88) + `: string; ` + strings.Repeat("c", 85) + `: string }>`,
		},
		{
			name:   "text of 301",
			schema: `{"type":"array","items":{"type":"object","properties":` + wide286 + `,"required":["` + strings.Repeat("a", 88) + `","` + strings.Repeat("b", 88) + `","` + strings.Repeat("c", 86) + `"]}}`,
			want:   `unknown`,
			reason: "the object fits its budget; Array<...> is one too long",
		},
		// maxDepth = 4.
		{
			name:   "four object levels",
			schema: nest(`{"type":"string"}`, 4),
			want:   `{ v: { v: { v: { v: string } } } }`,
			reason: "object(s, 0) renders properties at depth 0 and every nested object adds 1: the string is at depth 3",
		},
		{
			name:   "five object levels",
			schema: nest(`{"type":"string"}`, 5),
			want:   `{ v: { v: { v: { v: { v: unknown } } } } }`,
			reason: "the string is at depth 4 = maxDepth",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InputHint(json.RawMessage(tt.schema)); got != tt.want {
				t.Errorf("InputHint(%s) = %q, want %q (%s)", tt.schema, got, tt.want, tt.reason)
			}
		})
	}
}

func TestOutputHint(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   string
		wantOK bool
		reason string
	}{
		// SPEC.md section 11.4 examples.
		{
			name:   "spec/array of closed objects",
			schema: `{"type":"array","items":{"type":"object","properties":{"state":{"enum":["ready","held"]},"metrics":{"type":"object","properties":{"tons":{"type":"number"},"paid":{"type":"boolean"}},"required":["paid","tons"],"additionalProperties":false},"id":{"type":"string"}},"required":["id","metrics","state"],"additionalProperties":false}}`,
			want:   `Array<{ id: string; metrics: { paid: boolean; tons: number }; state: "ready" | "held" }>`,
			wantOK: true,
		},
		{
			name:   "spec/array of closed objects, const union",
			schema: `{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"metrics":{"type":"object","properties":{"paid":{"type":"boolean"},"tons":{"type":"number"}},"required":["paid","tons"],"additionalProperties":false},"state":{"oneOf":[{"const":"ready"},{"const":"held"}]}},"required":["id","metrics","state"],"additionalProperties":false}}`,
			want:   `Array<{ id: string; metrics: { paid: boolean; tons: number }; state: "ready" | "held" }>`,
			wantOK: true,
		},
		{name: "spec/nullable string", schema: `{"type":"string","nullable":true}`, want: `string | null`, wantOK: true},
		{
			name:   "spec/closed object with unknowns",
			schema: `{"type":"object","properties":{"count":{"type":"number"},"messages":{"type":"array","items":{}},"payload":{}},"required":["count","messages"],"additionalProperties":false}`,
			want:   `{ count: number; messages: Array<unknown>; payload?: unknown }`,
			wantOK: true,
			reason: "{} is (unknown, complete)",
		},
		{name: "spec/additionalProperties true", schema: `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":true}`},
		{name: "spec/closed empty object", schema: `{"type":"object","properties":{},"additionalProperties":false}`, want: `{}`, wantOK: true},
		{name: "spec/object without additionalProperties false", schema: `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`},
		// SPEC.md section 4.4 quick index example.
		{
			name:   "quick index/read",
			schema: `{"type":"object","required":["kind","content"],"properties":{"kind":{"const":"text"},"content":{"type":"string"}},"additionalProperties":false}`,
			want:   `{ content: string; kind: "text" }`,
			wantOK: true,
		},
		{
			name:   "quick index/shipping_list",
			schema: `{"type":"array","items":{"type":"object","required":["id","paid","tons"],"properties":{"id":{"type":"string"},"paid":{"type":"boolean"},"tons":{"type":"number"}},"additionalProperties":false}}`,
			want:   `Array<{ id: string; paid: boolean; tons: number }>`,
			wantOK: true,
		},
		{name: "quick index/web_fetch, no output schema", schema: ``},
		// Step 1.
		{name: "empty schema", schema: `{}`, want: `unknown`, wantOK: true, reason: "a schema without members is (unknown, complete)"},
		{name: "not an object", schema: `"string"`},
		{name: "invalid JSON", schema: `{`},
		// Step 2: maxDepth = 6.
		{name: "array depth", schema: `{"type":"array","items":` + nest(`{"type":"string"}`, 4) + `}`, want: `Array<{ v: { v: { v: { v: string } } } }>`, wantOK: true, reason: "items at depth 1, the string at depth 5"},
		{name: "array depth limit", schema: `{"type":"array","items":` + nest(`{"type":"string"}`, 5) + `}`},
		{name: "five object levels", schema: nest(`{"type":"string"}`, 5), want: `{ v: { v: { v: { v: { v: string } } } } }`, wantOK: true, reason: "type(s, 0) renders object(s, 1): the string is at depth 5"},
		{name: "six object levels", schema: nest(`{"type":"string"}`, 6), reason: "the string is at depth 6 = maxDepth"},
		{name: "{} at the depth limit", schema: nest(`{}`, 6), want: `{ v: { v: { v: { v: { v: { v: unknown } } } } } }`, wantOK: true, reason: "{} is complete before the depth check"},
		// Step 3: nullable.
		{name: "nullable false", schema: `{"type":"string","nullable":false}`, want: `string`, wantOK: true},
		{name: "nullable not boolean", schema: `{"type":"string","nullable":"yes"}`},
		{name: "nullable without type", schema: `{"enum":["a"],"nullable":true}`},
		{name: "nullable type array", schema: `{"type":["number","string"],"nullable":true}`, want: `number | string | null`, wantOK: true},
		{name: "nullable type array with null", schema: `{"type":["null","string","number","boolean"],"nullable":true}`, want: `null | string | number | boolean`, wantOK: true, reason: "the type list is de-duplicated after adding null"},
		{name: "nullable with non-string types", schema: `{"type":["string",1],"nullable":true}`},
		{name: "nullable enum", schema: `{"type":"string","enum":["a","b"],"nullable":true}`, want: `"a" | "b"`, wantOK: true, reason: "step 6 runs before the type array is rendered"},
		// Step 4: unions.
		{name: "anyOf", schema: `{"anyOf":[{"type":"string"},{"type":"number"}]}`, want: `string | number`, wantOK: true},
		{name: "oneOf de-duplicated", schema: `{"oneOf":[{"type":"integer"},{"type":"number"},{"type":"string"}]}`, want: `number | string`, wantOK: true},
		{name: "anyOf and oneOf", schema: `{"anyOf":[{"type":"string"}],"oneOf":[{"type":"string"}]}`},
		{name: "anyOf not an array", schema: `{"anyOf":{"type":"string"}}`},
		{name: "anyOf empty", schema: `{"anyOf":[]}`},
		{name: "anyOf with type", schema: `{"type":"string","anyOf":[{"type":"string"}]}`},
		{name: "anyOf with required", schema: `{"required":[],"anyOf":[{"type":"string"}]}`},
		{name: "five variants", schema: `{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"},{"type":"string"}]}`},
		{name: "incomplete variant", schema: `{"anyOf":[{"type":"string"},{"type":"object"}]}`},
		{name: "const union of eight", schema: `{"oneOf":[{"const":1},{"const":2},{"const":3},{"const":4},{"const":5},{"const":6},{"const":7},{"const":1}]}`, want: `1 | 2 | 3 | 4 | 5 | 6 | 7`, wantOK: true},
		{name: "const union of nine", schema: `{"oneOf":[{"const":1},{"const":2},{"const":3},{"const":4},{"const":5},{"const":6},{"const":7},{"const":8},{"const":9}]}`},
		{name: "const union with described variants", schema: `{"anyOf":[{"const":"a","description":"A"},{"const":null}]}`, want: `"a" | null`, wantOK: true},
		{name: "const variant with unsupported keyword", schema: `{"anyOf":[{"const":"a","$ref":"#"},{"const":"b"}]}`, reason: "not a literal union; the variant renders incomplete"},
		{name: "const union with object const", schema: `{"anyOf":[{"const":{}},{"const":"b"}]}`, reason: "no literal union; the {} const variant has no type"},
		{name: "union with unsupported keyword", schema: `{"anyOf":[{"type":"string"}],"allOf":[]}`},
		// Step 5: const.
		{name: "const string", schema: `{"const":"a\"b"}`, want: `"a\"b"`, wantOK: true},
		{name: "const with type", schema: `{"type":"number","const":7}`, want: `7`, wantOK: true},
		{name: "const object falls through", schema: `{"type":"string","const":{}}`, want: `string`, wantOK: true},
		{name: "const number text", schema: `{"const":1.0}`, want: `1`, wantOK: true},
		{name: "const infinity", schema: `{"const":1e400}`, reason: "JSON.parse makes it Infinity, which is not a primitive literal"},
		// Step 6: enum.
		{name: "enum", schema: `{"enum":["a",1,true,null]}`, want: `"a" | 1 | true | null`, wantOK: true},
		{name: "enum de-duplicated", schema: `{"enum":["a","a",1,1.0]}`, want: `"a" | 1`, wantOK: true},
		{name: "enum of nine", schema: `{"type":"string","enum":["a","b","c","d","e","f","g","h","i"]}`, want: `string`, wantOK: true},
		{name: "enum with an object", schema: `{"type":"string","enum":["a",{}]}`, want: `string`, wantOK: true},
		{name: "enum empty", schema: `{"type":"string","enum":[]}`, want: `string`, wantOK: true},
		{name: "enum of 96", schema: `{"enum":["` + strings.Repeat("a", 45) + `","` + strings.Repeat("b", 44) + `"]}`, want: `"` + strings.Repeat("a", 45) + `" | "` + strings.Repeat("b", 44) + `"`, wantOK: true},
		{name: "enum of 97", schema: `{"enum":["` + strings.Repeat("a", 45) + `","` + strings.Repeat("b", 45) + `"]}`},
		{name: "enum length in UTF-16", schema: `{"type":"string","enum":["` + strings.Repeat("😀", 24) + `","` + strings.Repeat("😃", 24) + `"]}`, want: `string`, wantOK: true, reason: "103 code units, though only 55 runes"},
		// Step 7: type arrays.
		{name: "type array", schema: `{"type":["string","integer","number"]}`, want: `string | number`, wantOK: true},
		{name: "type array too long", schema: `{"type":["string","number","boolean","null","array"]}`},
		{name: "type array empty", schema: `{"type":[]}`},
		{name: "type array with a non-string", schema: `{"type":["string",null]}`},
		{name: "type array with object", schema: `{"type":["object","null"],"properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`, want: `{ a: string } | null`, wantOK: true},
		// Steps 8 to 11.
		{name: "integer", schema: `{"type":"integer"}`, want: `number`, wantOK: true},
		{name: "boolean", schema: `{"type":"boolean"}`, want: `boolean`, wantOK: true},
		{name: "null", schema: `{"type":"null"}`, want: `null`, wantOK: true},
		{name: "array without items", schema: `{"type":"array"}`},
		{name: "array of strings", schema: `{"type":"array","items":{"type":"string"}}`, want: `Array<string>`, wantOK: true},
		{name: "unknown type", schema: `{"type":"date"}`},
		{name: "no type", schema: `{"description":"x"}`},
		{name: "unsupported keyword", schema: `{"type":"string","$ref":"#/x"}`, reason: "text string, but incomplete"},
		{name: "unsupported keyword in items", schema: `{"type":"array","items":{"type":"string","if":{}}}`},
		// object(): maxProps = 20.
		{name: "20 closed properties", schema: `{"type":"object","properties":` + props("p", 20) + `,"required":` + names("p", 20) + `,"additionalProperties":false}`, want: `{ ` + fields("p", "", 0, 20) + ` }`, wantOK: true},
		{name: "21 closed properties", schema: `{"type":"object","properties":` + props("p", 21) + `,"additionalProperties":false}`},
		{name: "additionalProperties schema", schema: `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}`},
		// The whole hint must be at most 800 long.
		{name: "array of 797", schema: `{"type":"array","items":{"type":"string","enum":["x"]}}`, want: `Array<"x">`, wantOK: true},
		{
			name:   "budget omission is incomplete",
			schema: `{"type":"object","properties":` + props(strings.Repeat("x", 60), 20) + `,"additionalProperties":false}`,
			reason: "the char budget drops parts",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := OutputHint(json.RawMessage(tt.schema))
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("OutputHint(%s) = %q, %t, want %q, %t (%s)", tt.schema, got, ok, tt.want, tt.wantOK, tt.reason)
			}
		})
	}
}

func TestHints_quickIndexExample(t *testing.T) {
	// The three tools of the SPEC.md section 4.4 example, as index lines.
	tools := []struct {
		id, parameters, outputSchema string
	}{
		{
			id:           "openclaw:core:read",
			parameters:   `{"type":"object","required":["path"],"properties":{"path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}}}`,
			outputSchema: `{"type":"object","required":["kind","content"],"properties":{"kind":{"const":"text"},"content":{"type":"string"}},"additionalProperties":false}`,
		},
		{
			id:           "openclaw:shipping:shipping_list",
			parameters:   `{"type":"object","properties":{}}`,
			outputSchema: `{"type":"array","items":{"type":"object","required":["id","paid","tons"],"properties":{"id":{"type":"string"},"paid":{"type":"boolean"},"tons":{"type":"number"}},"additionalProperties":false}}`,
		},
		{
			id:         "openclaw:core:web_fetch",
			parameters: `{"type":"object","required":["url"],"properties":{"url":{"type":"string"}}}`,
		},
	}
	var got []string
	for _, tool := range tools {
		out, ok := OutputHint(json.RawMessage(tool.outputSchema))
		if !ok {
			out = "?"
		}
		got = append(got, "- "+jsjson.Quote(tool.id)+" "+InputHint(json.RawMessage(tool.parameters))+" -> "+out)
	}
	want := []string{
		`- "openclaw:core:read" { path: string; limit?: number; offset?: number } -> { content: string; kind: "text" }`,
		`- "openclaw:shipping:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>`,
		`- "openclaw:core:web_fetch" { url: string } -> ?`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("quick index lines mismatch (-want +got):\n%s", diff)
	}
}

func TestBuild_hints(t *testing.T) {
	c := Build([]Tool{
		{Name: "plain", Kind: Core},
		{Name: "shaped", Kind: Core, Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`),
			OutputSchema: json.RawMessage(`{"type":"string"}`)},
		{Name: "client_tool", Kind: Client, Parameters: json.RawMessage(`{"type":"object","properties":{}}`), OutputSchema: json.RawMessage(`{"type":"string"}`)},
	})
	type io struct{ Input, Output string }
	got := map[string]io{}
	for _, e := range c.Entries {
		got[e.ID] = io{e.Input, e.Output}
	}
	want := map[string]io{
		"openclaw:core:plain":       {Input: "unknown"},
		"openclaw:core:shaped":      {Input: "{ q: string }", Output: "string"},
		"client:client:client_tool": {Input: "unknown"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Build() hints mismatch (-want +got):\n%s", diff)
	}
}

func BenchmarkInputHint(b *testing.B) {
	schemas := map[string]json.RawMessage{
		"small": json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"Workspace-relative file path."},"offset":{"type":"integer"},"limit":{"type":"integer"}}}`),
		"large": json.RawMessage(`{"type":"object","properties":` + props("property", 40) + `,"required":` + names("property", 10) + `}`),
		"nested": json.RawMessage(`{"type":"object","properties":{"a":` + nest(`{"anyOf":[{"type":"string"},{"type":"number"}]}`, 5) +
			`,"b":{"type":"array","items":{"enum":["x","y","z"]}},"c":{"type":["string","null"]}}}`),
	}
	for _, name := range []string{"small", "large", "nested"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				InputHint(schemas[name])
			}
		})
	}
}
