package catalog

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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
	if !ok || v.kind != jsonObject {
		return "unknown"
	}
	r := hintRenderer{lim: InputHintLimits}
	var h hint
	if t, ok := v.get("type"); ok && t.kind == jsonString && t.str == "object" {
		h = r.object(&v, 0)
	} else {
		h = r.typeOf(&v, 0)
	}
	if utf16Len(h.text) > InputHintLimits.Chars {
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
	h := r.typeOf(&v, 0)
	if !h.complete || utf16Len(h.text) > OutputHintLimits.Chars {
		return "", false
	}
	return h.text, true
}

// parseSchema decodes schema. A blank schema is absent: ok is false when
// absent is "", and otherwise the JSON text absent stands for it. A schema
// that is not valid JSON decodes as null, which no hint describes.
func parseSchema(schema json.RawMessage, absent string) (v jsonValue, ok bool) {
	if isBlankJSON(schema) {
		if absent == "" {
			return jsonValue{}, false
		}
		schema = json.RawMessage(absent)
	}
	v, err := parseJSON(schema)
	if err != nil {
		return jsonValue{kind: jsonNull}, true
	}
	return v, true
}

func isBlankJSON(b []byte) bool {
	for _, c := range b {
		if !isJSONSpace(c) {
			return false
		}
	}
	return true
}

type hintRenderer struct{ lim HintLimits }

// hasUnsupported reports whether s has an unsupported keyword.
func hasUnsupported(s *jsonValue) bool {
	for _, m := range s.obj {
		if slices.Contains(unsupportedKeywords, m.key) {
			return true
		}
	}
	return false
}

// typeOf is type(s, d) of SPEC.md section 11.4.
func (r *hintRenderer) typeOf(s *jsonValue, d int) hint {
	// 1. Non-objects are unknown; {} is unknown but complete.
	if s.kind != jsonObject {
		return unknownHint
	}
	if len(s.obj) == 0 {
		return hint{text: "unknown", complete: true}
	}
	// 2. Depth.
	if d >= r.lim.Depth {
		return unknownHint
	}
	// 3. nullable.
	if nb, ok := s.get("nullable"); ok {
		if nb.kind != jsonBool {
			return unknownHint
		}
		types, ok := schemaTypes(s)
		if !ok {
			return unknownHint
		}
		if nb.b {
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
	anyOf, hasAnyOf := s.get("anyOf")
	oneOf, hasOneOf := s.get("oneOf")
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
	if c, ok := s.get("const"); ok {
		if text, ok := primitiveLiteral(c); ok {
			return finish(hint{text: text, complete: true})
		}
	}
	// 6. enum.
	if e, ok := s.get("enum"); ok {
		if h, ok := literals(e); ok {
			return finish(h)
		}
	}
	t, _ := s.get("type")
	switch {
	case t == nil:
		return unknownHint
	case t.kind == jsonArray:
		// 7. Type arrays.
		if len(t.arr) == 0 || len(t.arr) > maxUnionTypes {
			return unknownHint
		}
		for i := range t.arr {
			if t.arr[i].kind != jsonString {
				return unknownHint
			}
		}
		texts := make([]string, 0, len(t.arr))
		for i := range t.arr {
			h := r.typeOf(withType(s, t.arr[i]), d+1)
			if !h.complete {
				return unknownHint
			}
			texts = appendUnique(texts, h.text)
		}
		return finish(hint{text: strings.Join(texts, " | "), complete: true})
	case t.kind != jsonString:
		return unknownHint
	}
	switch t.str {
	case "integer", "number":
		// 8.
		return finish(hint{text: "number", complete: true})
	case "string", "boolean", "null":
		return finish(hint{text: t.str, complete: true})
	case "array":
		// 9. A missing items member is not an object: Array<unknown>.
		items, _ := s.get("items")
		if items == nil {
			items = &jsonValue{kind: jsonNull}
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
func (r *hintRenderer) union(s, v *jsonValue, d int) hint {
	if v.kind != jsonArray || len(v.arr) == 0 || len(v.arr) > maxLiterals {
		return unknownHint
	}
	for _, k := range unionExclusive {
		if _, ok := s.get(k); ok {
			return unknownHint
		}
	}
	consts := jsonValue{kind: jsonArray, arr: make([]jsonValue, 0, len(v.arr))}
	for i := range v.arr {
		variant := &v.arr[i]
		if variant.kind != jsonObject || hasUnsupported(variant) {
			break
		}
		c, ok := variant.get("const")
		if !ok {
			break
		}
		consts.arr = append(consts.arr, *c)
	}
	if len(consts.arr) == len(v.arr) {
		if h, ok := literals(&consts); ok {
			return h
		}
	}
	if len(v.arr) > maxUnionTypes {
		return unknownHint
	}
	texts := make([]string, 0, len(v.arr))
	for i := range v.arr {
		h := r.typeOf(&v.arr[i], d+1)
		if !h.complete {
			return unknownHint
		}
		texts = appendUnique(texts, h.text)
	}
	return hint{text: strings.Join(texts, " | "), complete: true}
}

// schemaTypes returns s.type as a list when it is a string or an array of
// strings.
func schemaTypes(s *jsonValue) ([]string, bool) {
	t, ok := s.get("type")
	if !ok {
		return nil, false
	}
	switch t.kind {
	case jsonString:
		return []string{t.str}, true
	case jsonArray:
		types := make([]string, 0, len(t.arr))
		for i := range t.arr {
			if t.arr[i].kind != jsonString {
				return nil, false
			}
			types = append(types, t.arr[i].str)
		}
		return types, true
	}
	return nil, false
}

// withNullType returns s with nullable false and type the distinct types
// followed by "null" (a type that is already "null" keeps its place).
func withNullType(s *jsonValue, types []string) *jsonValue {
	var list []string
	for _, t := range append(types, "null") {
		list = appendUnique(list, t)
	}
	t := jsonValue{kind: jsonArray, arr: make([]jsonValue, len(list))}
	for i, name := range list {
		t.arr[i] = jsonValue{kind: jsonString, str: name}
	}
	out := withType(s, t)
	for i := range out.obj {
		if out.obj[i].key == "nullable" {
			out.obj[i].val = jsonValue{kind: jsonBool, b: false}
		}
	}
	return out
}

// withType returns a copy of s whose type member is t.
func withType(s *jsonValue, t jsonValue) *jsonValue {
	out := &jsonValue{kind: jsonObject, obj: slices.Clone(s.obj)}
	for i := range out.obj {
		if out.obj[i].key == "type" {
			out.obj[i].val = t
			return out
		}
	}
	out.obj = append(out.obj, jsonMember{key: "type", val: t})
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
func primitiveLiteral(v *jsonValue) (string, bool) {
	switch v.kind {
	case jsonNull:
		return "null", true
	case jsonBool:
		if v.b {
			return "true", true
		}
		return "false", true
	case jsonString:
		return jsonQuote(v.str), true
	case jsonNumber:
		if v.finite() {
			return formatJSNumber(v.num), true
		}
	}
	return "", false
}

// literals is literals(values) of SPEC.md section 11.4; ok is false when
// there is no literal union.
func literals(values *jsonValue) (hint, bool) {
	if values.kind != jsonArray || len(values.arr) == 0 || len(values.arr) > maxLiterals {
		return hint{}, false
	}
	texts := make([]string, 0, len(values.arr))
	for i := range values.arr {
		text, ok := primitiveLiteral(&values.arr[i])
		if !ok {
			return hint{}, false
		}
		texts = appendUnique(texts, text)
	}
	text := strings.Join(texts, " | ")
	if utf16Len(text) > maxLiteralChars {
		return hint{}, false
	}
	return hint{text: text, complete: true}, true
}

// isIdentifier reports whether key matches /^[A-Za-z_$][A-Za-z0-9_$]*$/.
func isIdentifier(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c == '_', c == '$':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// object is object(s, d) of SPEC.md section 11.4.
func (r *hintRenderer) object(s *jsonValue, d int) hint {
	maxProps := r.lim.Props
	var req []jsonValue
	if rv, ok := s.get("required"); ok && rv.kind == jsonArray {
		req = rv.arr
	}
	ap, _ := s.get("additionalProperties")
	apFalse := ap != nil && ap.kind == jsonBool && !ap.b
	apOpen := ap != nil && (ap.kind == jsonBool && ap.b || ap.kind == jsonObject)

	// 1. No properties object.
	p, _ := s.get("properties")
	if p == nil || p.kind != jsonObject {
		hasString := slices.ContainsFunc(req, func(v jsonValue) bool { return v.kind == jsonString })
		if len(req) <= maxProps && !hasString && apFalse {
			return hint{text: "{}", complete: true}
		}
		return hint{text: "{ ... }"}
	}

	// 2. required.
	invalidRequired := len(req) <= maxProps &&
		slices.ContainsFunc(req, func(v jsonValue) bool { return v.kind != jsonString })
	var reqKeys []string
	for _, v := range req[:min(len(req), maxProps)] {
		if v.kind == jsonString {
			reqKeys = appendUnique(reqKeys, v.str)
		}
	}

	// 3. Required keys.
	var required []string
	missingRequired := false
	for _, k := range reqKeys {
		if utf16Len(k) > maxPropertyNameLength || !p.has(k) {
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
	for _, m := range p.obj {
		if slices.Contains(reqKeys, m.key) {
			continue
		}
		optionalCount++
		if utf16Len(m.key) > maxPropertyNameLength {
			oversizedOptional = true
			continue
		}
		optional = append(optional, m.key)
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
		name := k
		if !isIdentifier(k) {
			name = jsonQuote(k)
		}
		if i >= len(required) {
			name += "?"
		}
		v, _ := p.get(k)
		h := r.typeOf(v, d)
		complete = complete && h.complete
		part := name + ": " + h.text
		grown := size + utf16Len(part)
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

// Ordered JSON.
//
// Hints and parameter text need JSON objects with their members in schema
// order and ECMAScript JSON.parse semantics, which encoding/json's maps do
// not give. parseJSON decodes RFC 8259 JSON into jsonValue:
//
//   - object members keep the order of their first occurrence; a repeated
//     key keeps its first position and takes its last value, as JSON.parse
//     does;
//   - numbers are IEEE 754 doubles (out-of-range numbers become infinite and
//     are then not primitive literals);
//   - strings are UTF-8, except that a lone surrogate escape ("\ud800") is
//     kept as its 3-byte WTF-8 encoding so that it counts as one UTF-16 code
//     unit and is re-escaped by jsonQuote; invalid UTF-8 bytes decode as
//     U+FFFD.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// A jsonValue is one decoded JSON value.
type jsonValue struct {
	kind jsonKind
	b    bool
	num  float64
	str  string
	arr  []jsonValue
	obj  []jsonMember
}

// A jsonMember is one object member.
type jsonMember struct {
	key string
	val jsonValue
}

// get returns the member k of an object.
func (v *jsonValue) get(k string) (*jsonValue, bool) {
	for i := range v.obj {
		if v.obj[i].key == k {
			return &v.obj[i].val, true
		}
	}
	return nil, false
}

// has reports whether an object has the member k.
func (v *jsonValue) has(k string) bool {
	_, ok := v.get(k)
	return ok
}

func (v *jsonValue) finite() bool {
	return v.num-v.num == 0 // false for ±Inf and NaN
}

// maxJSONNesting bounds the nesting of decoded values.
const maxJSONNesting = 10000

type jsonSyntaxError struct{ offset int }

func (e *jsonSyntaxError) Error() string {
	return "invalid JSON at offset " + strconv.Itoa(e.offset)
}

// parseJSON decodes one JSON text.
func parseJSON(data []byte) (jsonValue, error) {
	p := jsonParser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return jsonValue{}, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return jsonValue{}, p.fail()
	}
	return v, nil
}

type jsonParser struct {
	data []byte
	pos  int
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *jsonParser) fail() error { return &jsonSyntaxError{offset: p.pos} }

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.data) && isJSONSpace(p.data[p.pos]) {
		p.pos++
	}
}

func (p *jsonParser) literal(word string) bool {
	if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+len(word))]), word) {
		p.pos += len(word)
		return true
	}
	return false
}

func (p *jsonParser) value(depth int) (jsonValue, error) {
	if p.pos >= len(p.data) || depth > maxJSONNesting {
		return jsonValue{}, p.fail()
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.string()
		return jsonValue{kind: jsonString, str: s}, err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case p.literal("true"):
		return jsonValue{kind: jsonBool, b: true}, nil
	case p.literal("false"):
		return jsonValue{kind: jsonBool}, nil
	case p.literal("null"):
		return jsonValue{kind: jsonNull}, nil
	}
	return jsonValue{}, p.fail()
}

func (p *jsonParser) object(depth int) (jsonValue, error) {
	p.pos++ // {
	v := jsonValue{kind: jsonObject, obj: []jsonMember{}}
	var index map[string]int // built once the object grows
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return jsonValue{}, p.fail()
		}
		key, err := p.string()
		if err != nil {
			return jsonValue{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return jsonValue{}, p.fail()
		}
		p.pos++
		p.skipSpace()
		val, err := p.value(depth + 1)
		if err != nil {
			return jsonValue{}, err
		}
		at := -1
		if index != nil {
			if i, ok := index[key]; ok {
				at = i
			}
		} else {
			for i := range v.obj {
				if v.obj[i].key == key {
					at = i
					break
				}
			}
		}
		if at >= 0 {
			v.obj[at].val = val
		} else {
			v.obj = append(v.obj, jsonMember{key: key, val: val})
			if index != nil {
				index[key] = len(v.obj) - 1
			} else if len(v.obj) > 16 {
				index = make(map[string]int, 2*len(v.obj))
				for i, m := range v.obj {
					index[m.key] = i
				}
			}
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return jsonValue{}, p.fail()
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return jsonValue{}, p.fail()
		}
	}
}

func (p *jsonParser) array(depth int) (jsonValue, error) {
	p.pos++ // [
	v := jsonValue{kind: jsonArray, arr: []jsonValue{}}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		el, err := p.value(depth + 1)
		if err != nil {
			return jsonValue{}, err
		}
		v.arr = append(v.arr, el)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return jsonValue{}, p.fail()
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return jsonValue{}, p.fail()
		}
	}
}

func (p *jsonParser) number() (jsonValue, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return jsonValue{}, p.fail()
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return jsonValue{}, p.fail()
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return jsonValue{}, p.fail()
		}
	}
	// ParseFloat rounds correctly, like JSON.parse, and returns ±Inf with
	// ErrRange for out-of-range numbers, which JSON.parse makes Infinity.
	f, _ := strconv.ParseFloat(string(p.data[start:p.pos]), 64)
	return jsonValue{kind: jsonNumber, num: f}, nil
}

func (p *jsonParser) string() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// Fast path: printable ASCII without escapes.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := string(p.data[start:p.pos])
			p.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.pos++
	}
	buf := append([]byte(nil), p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail()
		case c == '\\':
			p.pos++
			if p.pos >= len(p.data) {
				return "", p.fail()
			}
			e := p.data[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				u, ok := p.hex4()
				if !ok {
					return "", p.fail()
				}
				r := rune(u)
				if utf16.IsSurrogate(r) && r < 0xDC00 && p.pos+6 <= len(p.data) &&
					p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					if lo, ok := p.hex4(); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						r = utf16.DecodeRune(r, rune(lo))
					} else {
						p.pos = save
					}
				}
				buf = appendWTF8(buf, r)
			default:
				return "", p.fail()
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, p.data[p.pos:p.pos+size]...)
			}
			p.pos += size
		}
	}
	return "", p.fail()
}

func (p *jsonParser) hex4() (uint16, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var u uint16
	for _, c := range p.data[p.pos : p.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		u = u<<4 | uint16(c)
	}
	p.pos += 4
	return u, true
}

// appendWTF8 appends r in UTF-8, encoding a lone surrogate as its 3 bytes.
func appendWTF8(buf []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return append(buf, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return utf8.AppendRune(buf, r)
}

// wtf8Surrogate returns the lone surrogate encoded at the start of s, if any.
func wtf8Surrogate(s string) (rune, bool) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
	}
	return 0, false
}

// utf16Len is the length of s in UTF-16 code units (the ECMAScript length);
// a WTF-8 lone surrogate counts 1, an invalid byte counts 1.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if _, ok := wtf8Surrogate(s[i:]); ok {
				size = 3
			}
			n++
		case r >= 0x10000:
			n += 2
		default:
			n++
		}
		i += size
	}
	return n
}

const lowerHex = "0123456789abcdef"

// jsonQuote returns the JSON string literal of s (SPEC.md section 1.2):
// only ", \ and code units below U+0020 are escaped, with \b, \f, \n, \r, \t
// or lower-case \u00xx, and lone surrogates as lower-case \uxxxx.
func jsonQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			if r, ok := wtf8Surrogate(s[i:]); ok {
				b.WriteString(`\u`)
				b.WriteByte(lowerHex[r>>12&0xF])
				b.WriteByte(lowerHex[r>>8&0xF])
				b.WriteByte(lowerHex[r>>4&0xF])
				b.WriteByte(lowerHex[r&0xF])
				i += 3
				continue
			}
			b.WriteByte(c)
			i++
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(lowerHex[c>>4])
				b.WriteByte(lowerHex[c&0xF])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
	return b.String()
}

// formatJSNumber formats a finite double as ECMAScript Number::toString does
// (-0 is "0").
func formatJSNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// The shortest round-tripping digits, as Number::toString requires.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±xx
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // value = 0.digits × 10^n
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		es := "+"
		if n-1 < 0 {
			es = "-"
		}
		ex := strconv.Itoa(abs(n - 1))
		if k == 1 {
			out = digits + "e" + es + ex
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + es + ex
		}
	}
	return sign + out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
