package catalog

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// HintLimits bound one compact hint (SPEC.md section 11.4).
type HintLimits struct {
	Chars int // maxChars: longest object text, in UTF-16 code units
	Depth int // maxDepth: type(s, d) with d >= Depth is unknown
	Props int // maxProps: properties rendered per object
}

// Input and output hint limits (SPEC.md section 11.4).
var (
	InputHintLimits  = HintLimits{Chars: 300, Depth: 4, Props: 16}
	OutputHintLimits = HintLimits{Chars: 800, Depth: 6, Props: 20}
)

const (
	// maxPropertyNameLength is the longest property name a hint renders;
	// longer names are "too long".
	maxPropertyNameLength = 128
	// maxLiterals bounds literals(values) and the variants of a union.
	maxLiterals = 8
	// maxLiteralChars bounds the text of a literal union.
	maxLiteralChars = 96
	// maxUnionTypes bounds rendered union variants and type arrays.
	maxUnionTypes = 4
)

// unsupportedKeywords make a hint incomplete without changing its text.
var unsupportedKeywords = []string{
	"$ref", "$dynamicRef", "$recursiveRef", "allOf", "patternProperties",
	"unevaluatedProperties", "dependentSchemas", "dependencies", "if", "then",
	"else", "prefixItems", "unevaluatedItems",
}

// unionExclusive are the members a schema with anyOf or oneOf must not have.
var unionExclusive = []string{"const", "enum", "type", "properties", "required", "additionalProperties", "items"}

// A hint is a compact hint: its text and whether it describes every value
// of the schema exactly.
type hint struct {
	text     string
	complete bool
}

// unknownHint is UNKNOWN: ("unknown", incomplete).
var unknownHint = hint{text: "unknown"}

// InputHint returns the compact input hint of a parameter schema (SPEC.md
// CM-11.23): "unknown" when the schema is not a JSON object, else the text
// of object(schema, 0) when schema.type is "object" and of type(schema, 0)
// otherwise, with input limits; a text longer than 300 becomes "unknown".
// An absent (empty) schema stands for the parameters {} (CM-11.20), whose
// hint is "unknown". The hint is used even when incomplete (CM-11.24).
func InputHint(schema json.RawMessage) string {
	v, ok := parseSchema(schema, "{}")
	if !ok || v.Kind != jsjson.Object {
		return "unknown"
	}
	r := hintRenderer{lim: InputHintLimits}
	var h hint
	if t := v.Get("type"); t != nil && t.Kind == jsjson.String && t.Str == "object" {
		h = r.object(v, 0)
	} else {
		h = r.typeOf(v, 0)
	}
	if jsjson.UTF16Len(h.text) > InputHintLimits.Chars {
		return "unknown"
	}
	return h.text
}

// OutputHint returns the compact output hint of a declared output schema
// (SPEC.md CM-11.25): the text of type(schema, 0) with output limits. ok is
// false, and the entry has no output member, when the schema is absent, the
// hint is incomplete or its text is longer than 800.
func OutputHint(schema json.RawMessage) (string, bool) {
	v, ok := parseSchema(schema, "")
	if !ok {
		return "", false
	}
	r := hintRenderer{lim: OutputHintLimits}
	h := r.typeOf(v, 0)
	if !h.complete || jsjson.UTF16Len(h.text) > OutputHintLimits.Chars {
		return "", false
	}
	return h.text, true
}

// parseSchema decodes schema. A blank schema is absent: ok is false when
// absent is "", and otherwise the JSON text absent stands for it. A schema
// that is not valid JSON decodes as null, which no hint describes.
func parseSchema(schema json.RawMessage, absent string) (v *jsjson.Value, ok bool) {
	if isBlankJSON(schema) {
		if absent == "" {
			return nil, false
		}
		schema = json.RawMessage(absent)
	}
	v, err := jsjson.Parse(schema)
	if err != nil {
		return &jsjson.Value{Kind: jsjson.Null}, true
	}
	return v, true
}

// isBlankJSON reports whether b is only JSON white space.
func isBlankJSON(b []byte) bool { return len(bytes.TrimLeft(b, " \t\n\r")) == 0 }

type hintRenderer struct{ lim HintLimits }

// hasUnsupported reports whether s has an unsupported keyword.
func hasUnsupported(s *jsjson.Value) bool {
	for _, m := range s.Obj {
		if slices.Contains(unsupportedKeywords, m.Key) {
			return true
		}
	}
	return false
}

// typeOf is type(s, d) of SPEC.md section 11.4.
func (r *hintRenderer) typeOf(s *jsjson.Value, d int) hint {
	// 1. Non-objects are unknown; {} is unknown but complete.
	if s.Kind != jsjson.Object {
		return unknownHint
	}
	if len(s.Obj) == 0 {
		return hint{text: "unknown", complete: true}
	}
	// 2. Depth.
	if d >= r.lim.Depth {
		return unknownHint
	}
	// 3. nullable.
	if nb := s.Get("nullable"); nb != nil {
		if nb.Kind != jsjson.Bool {
			return unknownHint
		}
		types, ok := schemaTypes(s)
		if !ok {
			return unknownHint
		}
		if nb.Bool {
			return r.typeOf(withNullType(s, types), d)
		}
	}
	unsupported := hasUnsupported(s)
	finish := func(h hint) hint {
		if unsupported {
			h.complete = false
		}
		return h
	}
	// 4. Unions.
	anyOf, oneOf := s.Get("anyOf"), s.Get("oneOf")
	hasAnyOf, hasOneOf := anyOf != nil, oneOf != nil
	if hasAnyOf && hasOneOf {
		return unknownHint
	}
	if hasAnyOf || hasOneOf {
		variants := anyOf
		if hasOneOf {
			variants = oneOf
		}
		return finish(r.union(s, variants, d))
	}
	// 5. const.
	if c := s.Get("const"); c != nil {
		if text, ok := primitiveLiteral(c); ok {
			return finish(hint{text: text, complete: true})
		}
	}
	// 6. enum.
	if e := s.Get("enum"); e != nil {
		if h, ok := literals(e); ok {
			return finish(h)
		}
	}
	t := s.Get("type")
	switch {
	case t == nil:
		return unknownHint
	case t.Kind == jsjson.Array:
		// 7. Type arrays.
		if len(t.Arr) == 0 || len(t.Arr) > maxUnionTypes {
			return unknownHint
		}
		for i := range t.Arr {
			if t.Arr[i].Kind != jsjson.String {
				return unknownHint
			}
		}
		texts := make([]string, 0, len(t.Arr))
		for i := range t.Arr {
			h := r.typeOf(withType(s, t.Arr[i]), d+1)
			if !h.complete {
				return unknownHint
			}
			texts = appendUnique(texts, h.text)
		}
		return finish(hint{text: strings.Join(texts, " | "), complete: true})
	case t.Kind != jsjson.String:
		return unknownHint
	}
	switch t.Str {
	case "integer", "number":
		// 8.
		return finish(hint{text: "number", complete: true})
	case "string", "boolean", "null":
		return finish(hint{text: t.Str, complete: true})
	case "array":
		// 9. A missing items member is not an object: Array<unknown>.
		items := s.Get("items")
		if items == nil {
			items = &jsjson.Value{Kind: jsjson.Null}
		}
		i := r.typeOf(items, d+1)
		return finish(hint{text: "Array<" + i.text + ">", complete: i.complete})
	case "object":
		// 10.
		return finish(r.object(s, d+1))
	}
	// 11.
	return unknownHint
}

// union is step 4 of type(s, d) for the anyOf or oneOf value v, without the
// unsupported-keyword marking.
func (r *hintRenderer) union(s, v *jsjson.Value, d int) hint {
	if v.Kind != jsjson.Array || len(v.Arr) == 0 || len(v.Arr) > maxLiterals {
		return unknownHint
	}
	for _, k := range unionExclusive {
		if s.Get(k) != nil {
			return unknownHint
		}
	}
	consts := jsjson.Value{Kind: jsjson.Array, Arr: make([]jsjson.Value, 0, len(v.Arr))}
	for i := range v.Arr {
		variant := &v.Arr[i]
		if variant.Kind != jsjson.Object || hasUnsupported(variant) {
			break
		}
		c := variant.Get("const")
		if c == nil {
			break
		}
		consts.Arr = append(consts.Arr, *c)
	}
	if len(consts.Arr) == len(v.Arr) {
		if h, ok := literals(&consts); ok {
			return h
		}
	}
	if len(v.Arr) > maxUnionTypes {
		return unknownHint
	}
	texts := make([]string, 0, len(v.Arr))
	for i := range v.Arr {
		h := r.typeOf(&v.Arr[i], d+1)
		if !h.complete {
			return unknownHint
		}
		texts = appendUnique(texts, h.text)
	}
	return hint{text: strings.Join(texts, " | "), complete: true}
}

// schemaTypes returns s.type as a list when it is a string or an array of
// strings.
func schemaTypes(s *jsjson.Value) ([]string, bool) {
	t := s.Get("type")
	if t == nil {
		return nil, false
	}
	switch t.Kind {
	case jsjson.String:
		return []string{t.Str}, true
	case jsjson.Array:
		types := make([]string, 0, len(t.Arr))
		for i := range t.Arr {
			if t.Arr[i].Kind != jsjson.String {
				return nil, false
			}
			types = append(types, t.Arr[i].Str)
		}
		return types, true
	}
	return nil, false
}

// withNullType returns s with nullable false and type the distinct types
// followed by "null" (a type that is already "null" keeps its place).
func withNullType(s *jsjson.Value, types []string) *jsjson.Value {
	var list []string
	for _, t := range append(types, "null") {
		list = appendUnique(list, t)
	}
	t := jsjson.Value{Kind: jsjson.Array, Arr: make([]jsjson.Value, len(list))}
	for i, name := range list {
		t.Arr[i] = jsjson.Value{Kind: jsjson.String, Str: name}
	}
	out := withType(s, t)
	for i := range out.Obj {
		if out.Obj[i].Key == "nullable" {
			out.Obj[i].Value = jsjson.Value{Kind: jsjson.Bool, Bool: false}
		}
	}
	return out
}

// withType returns a copy of s whose type member is t.
func withType(s *jsjson.Value, t jsjson.Value) *jsjson.Value {
	out := &jsjson.Value{Kind: jsjson.Object, Obj: slices.Clone(s.Obj)}
	out.Set("type", t)
	return out
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// primitiveLiteral renders null, a string, a boolean or a finite number as
// its JSON text.
func primitiveLiteral(v *jsjson.Value) (string, bool) {
	switch v.Kind {
	case jsjson.Null:
		return "null", true
	case jsjson.Bool:
		if v.Bool {
			return "true", true
		}
		return "false", true
	case jsjson.String:
		return jsjson.Quote(v.Str), true
	case jsjson.Number:
		if !math.IsInf(v.Num, 0) && !math.IsNaN(v.Num) {
			return jsjson.FormatNumber(v.Num), true
		}
	}
	return "", false
}

// literals is literals(values) of SPEC.md section 11.4; ok is false when
// there is no literal union.
func literals(values *jsjson.Value) (hint, bool) {
	if values.Kind != jsjson.Array || len(values.Arr) == 0 || len(values.Arr) > maxLiterals {
		return hint{}, false
	}
	texts := make([]string, 0, len(values.Arr))
	for i := range values.Arr {
		text, ok := primitiveLiteral(&values.Arr[i])
		if !ok {
			return hint{}, false
		}
		texts = appendUnique(texts, text)
	}
	text := strings.Join(texts, " | ")
	if jsjson.UTF16Len(text) > maxLiteralChars {
		return hint{}, false
	}
	return hint{text: text, complete: true}, true
}

// object is object(s, d) of SPEC.md section 11.4.
func (r *hintRenderer) object(s *jsjson.Value, d int) hint {
	maxProps := r.lim.Props
	var req []jsjson.Value
	if rv := s.Get("required"); rv != nil && rv.Kind == jsjson.Array {
		req = rv.Arr
	}
	ap := s.Get("additionalProperties")
	apFalse := ap != nil && ap.Kind == jsjson.Bool && !ap.Bool
	apOpen := ap != nil && (ap.Kind == jsjson.Bool && ap.Bool || ap.Kind == jsjson.Object)

	// 1. No properties object.
	p := s.Get("properties")
	if p == nil || p.Kind != jsjson.Object {
		hasString := slices.ContainsFunc(req, func(v jsjson.Value) bool { return v.Kind == jsjson.String })
		if len(req) <= maxProps && !hasString && apFalse {
			return hint{text: "{}", complete: true}
		}
		return hint{text: "{ ... }"}
	}

	// 2. required.
	invalidRequired := len(req) <= maxProps &&
		slices.ContainsFunc(req, func(v jsjson.Value) bool { return v.Kind != jsjson.String })
	var reqKeys []string
	for _, v := range req[:min(len(req), maxProps)] {
		if v.Kind == jsjson.String {
			reqKeys = appendUnique(reqKeys, v.Str)
		}
	}

	// 3. Required keys.
	var required []string
	missingRequired := false
	for _, k := range reqKeys {
		if jsjson.UTF16Len(k) > maxPropertyNameLength || p.Get(k) == nil {
			missingRequired = true
			continue
		}
		required = append(required, k)
	}
	slices.Sort(required)
	required = required[:min(len(required), maxProps)]

	// 4. Optional keys.
	var optional []string
	optionalCount := 0
	oversizedOptional := false
	for _, m := range p.Obj {
		if slices.Contains(reqKeys, m.Key) {
			continue
		}
		optionalCount++
		if jsjson.UTF16Len(m.Key) > maxPropertyNameLength {
			oversizedOptional = true
			continue
		}
		optional = append(optional, m.Key)
	}
	slices.Sort(optional)
	optionalLimit := maxProps - len(required)
	optional = optional[:max(0, min(len(optional), optionalLimit))]

	// 5, 6.
	structurallyIncomplete := len(req) > maxProps || invalidRequired || missingRequired ||
		oversizedOptional || optionalCount > optionalLimit
	omitted := structurallyIncomplete || apOpen
	complete := !structurallyIncomplete && apFalse

	// 7. Parts within the character budget.
	keys := append(required, optional...)
	parts := make([]string, 0, len(keys))
	size := 4 // "{ " and " }"
	for i, k := range keys {
		name := jsjson.PropertyName(k)
		if i >= len(required) {
			name += "?"
		}
		v := p.Get(k)
		h := r.typeOf(v, d)
		complete = complete && h.complete
		part := name + ": " + h.text
		grown := size + jsjson.UTF16Len(part)
		if len(parts) > 0 {
			grown += 2 // "; "
		}
		if grown > r.lim.Chars {
			omitted = true
			complete = false
			break
		}
		parts = append(parts, part)
		size = grown
	}

	// 8.
	if len(parts) == 0 {
		if len(keys) == 0 && !omitted {
			return hint{text: "{}", complete: complete}
		}
		return hint{text: "{ ... }"}
	}
	text := "{ " + strings.Join(parts, "; ")
	if omitted {
		text += "; ..."
	}
	return hint{text: text + " }", complete: complete}
}
