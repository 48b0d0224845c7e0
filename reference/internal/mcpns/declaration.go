package mcpns

import (
	"cmp"
	"slices"
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// Bounds of a rendered type (CM-14.31).
const (
	// maxTypeDepth is the deepest nesting level that renders: the input
	// schema is level 0, a parameter's schema level 1, and every
	// property, items or oneOf/anyOf variant one level deeper.
	maxTypeDepth = 8
	// maxTypeChars is the longest rendered type, in UTF-16 code units.
	maxTypeChars = 2000
	// maxEnumMembers and maxUnionVariants bound enum and union types.
	maxEnumMembers   = 16
	maxUnionVariants = 8
)

// IndexFile renders mcp/index.d.ts, the root declaration (CM-14.29).
func (m *Model) IndexFile() string {
	var lines []string
	for _, s := range m.Servers {
		lines = append(lines, `/// <reference path="./`+s.Identifier+`.d.ts" />`)
	}
	lines = append(lines,
		"",
		"type McpApiHeader = { header: string; servers?: unknown[] };",
		"",
		"declare const MCP: {",
		"  /** List visible MCP servers and request server-specific headers. */",
		"  $api(): Promise<McpApiHeader>;",
	)
	for _, s := range m.Servers {
		lines = append(lines, "  readonly "+s.Identifier+": typeof MCP."+s.Identifier+";")
	}
	lines = append(lines, "};")
	return strings.Join(lines, "\n")
}

// ServerFile renders mcp/<identifier>.d.ts, the declaration of one server
// (SPEC.md section 14.6), or "" when no visible server has that
// identifier.
func (m *Model) ServerFile(identifier string) string {
	s := m.Server(identifier)
	if s == nil {
		return ""
	}
	return renderServer(s, s.Entries)
}

// serverHeader are the first lines of a server file; the declared
// namespace follows.
var serverHeader = []string{
	"type McpApiHeader = { header: string; tools?: unknown[]; schemas?: Record<string, unknown> };",
	"",
	"type McpToolResult = {",
	"  content?: unknown[];",
	"  structuredContent?: unknown;",
	"  isError?: boolean;",
	"  [key: string]: unknown;",
	"};",
	"",
}

// renderServer renders the declaration file of server s holding the given
// entries: top-level tools sorted by method, then the groups (prompts,
// resources) in code point order with their tools sorted by method
// (CM-14.30).
func renderServer(s *ServerNamespace, entries []*Entry) string {
	lines := slices.Clone(serverHeader)
	lines = append(lines,
		"declare namespace MCP."+s.Identifier+" {",
		"  /** Return this TypeScript-style API header. */",
		"  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;",
	)
	r := newRenderer()
	top, groups := declarationOrder(entries)
	for _, e := range top {
		lines = append(lines, "")
		lines = appendIndented(lines, "  ", r.signature(e))
	}
	for _, g := range groups {
		lines = append(lines, "", "  namespace "+g.name+" {")
		for _, e := range g.entries {
			lines = append(lines, "")
			lines = appendIndented(lines, "    ", r.signature(e))
		}
		lines = append(lines, "  }")
	}
	lines = append(lines, "}")
	return strings.Join(lines, "\n")
}

// A group is a nested namespace of a server object (resources, prompts).
type group struct {
	name    string
	entries []*Entry
}

// declarationOrder splits entries into top-level entries sorted by method
// and groups sorted by name, each sorted by method. This is the order of
// the server file, of $api tool lists and of the guest descriptor.
func declarationOrder(entries []*Entry) (top []*Entry, groups []group) {
	byMethod := func(a, b *Entry) int { return strings.Compare(a.Method, b.Method) }
	for _, e := range entries {
		if len(e.Path) == 1 {
			top = append(top, e)
			continue
		}
		i := slices.IndexFunc(groups, func(g group) bool { return g.name == e.Path[0] })
		if i < 0 {
			i = len(groups)
			groups = append(groups, group{name: e.Path[0]})
		}
		groups[i].entries = append(groups[i].entries, e)
	}
	slices.SortStableFunc(top, byMethod)
	slices.SortFunc(groups, func(a, b group) int { return cmp.Compare(a.name, b.name) })
	for _, g := range groups {
		slices.SortStableFunc(g.entries, byMethod)
	}
	return top, groups
}

func appendIndented(lines []string, indent string, block []string) []string {
	for _, l := range block {
		lines = append(lines, indent+l)
	}
	return lines
}

// A param is one parameter of a tool (SPEC.md section 14.6).
type param struct {
	name        string // raw property name
	required    bool
	schema      *jsjson.Value // nil when the property is not declared
	description string        // collapsed to one line; "" when none
	def         *jsjson.Value // the default; nil when none
}

// parameters returns the parameters of an input schema: its required
// string entries, then its other properties in schema order, without
// duplicates.
func parameters(schema *jsjson.Value) []param {
	if !schema.IsObject() {
		return nil
	}
	props := schema.Get("properties")
	if !props.IsObject() {
		props = nil
	}
	var index map[string]*jsjson.Value
	if props != nil {
		index = make(map[string]*jsjson.Value, len(props.Obj))
		for i := range props.Obj {
			index[props.Obj[i].Key] = &props.Obj[i].Value
		}
	}
	seen := make(map[string]bool)
	var out []param
	add := func(name string, required bool) {
		if seen[name] {
			return
		}
		seen[name] = true
		p := param{name: name, required: required, schema: index[name]}
		if p.schema.IsObject() {
			if d := p.schema.Get("description"); d != nil && d.Kind == jsjson.String {
				p.description = collapse(d.Str)
			}
			p.def = p.schema.Get("default")
		}
		out = append(out, p)
	}
	for _, name := range requiredNames(schema) {
		add(name, true)
	}
	if props != nil {
		for _, mb := range props.Obj {
			add(mb.Key, false)
		}
	}
	return out
}

// requiredNames returns the distinct string entries of schema.required, in
// order.
func requiredNames(schema *jsjson.Value) []string {
	req := schema.Get("required")
	if req == nil || req.Kind != jsjson.Array {
		return nil
	}
	var out []string
	seen := make(map[string]bool, len(req.Arr))
	for _, r := range req.Arr {
		if r.Kind == jsjson.String && !seen[r.Str] {
			seen[r.Str] = true
			out = append(out, r.Str)
		}
	}
	return out
}

// signature returns the signature lines of an entry: its JSDoc, the
// function line, the input lines and the result line.
func (r *renderer) signature(e *Entry) []string {
	params := parameters(e.schema)
	doc := descriptionLines(e.Description)
	var lines []string
	if len(doc) > 0 || len(params) > 0 {
		lines = append(lines, "/**")
		for _, l := range doc {
			lines = append(lines, " * "+escapeComment(l))
		}
		if len(doc) > 0 && len(params) > 0 {
			lines = append(lines, " *")
		}
		for _, p := range params {
			if p.description != "" {
				lines = append(lines, " * @param "+escapeComment(jsjson.PropertyName(p.name)+optional(p)+" "+p.description))
			}
		}
		lines = append(lines, " */")
	}
	lines = append(lines, "function "+e.Path[len(e.Path)-1]+"(")
	lines = appendIndented(lines, "  ", r.input(params))
	return append(lines, "): Promise<McpToolResult>;")
}

func optional(p param) string {
	if p.required {
		return ""
	}
	return "?"
}

// input returns the input lines of a tool.
func (r *renderer) input(params []param) []string {
	if len(params) == 0 {
		return []string{"input?: Record<string, never>"}
	}
	lines := []string{"input: {"}
	for _, p := range params {
		text := p.description
		if p.def != nil {
			text += " Default: " + p.def.String() + "."
		}
		if text = strings.TrimLeft(text, " "); text != "" {
			lines = append(lines, "  /** "+escapeComment(wellFormed(text))+" */")
		}
		lines = append(lines, "  "+jsjson.PropertyName(p.name)+optional(p)+": "+r.typeOf(p.schema, nil, 1)+";")
	}
	return append(lines, "}")
}

// A renderer maps schemas to TypeScript types. It memoizes the type of
// every (schema, type override, depth), so a schema whose type arrays
// repeat the rendering of shared subschemas costs time linear in its size.
type renderer struct {
	memo map[typeKey]string
}

// typeKey identifies a schema by its address in the parsed input schema:
// the same subschema has the same address every time it is rendered.
type typeKey struct {
	s, override *jsjson.Value
	depth       int
}

func newRenderer() *renderer { return &renderer{memo: make(map[typeKey]string)} }

// typeOf maps a schema at a nesting depth to a TypeScript type (SPEC.md
// section 14.6). override, when not nil, replaces the schema's type: it
// renders "the schema with each listed type" of a type array. Any result
// longer than maxTypeChars, and any schema deeper than maxTypeDepth,
// renders unknown (CM-14.31). $ref is never resolved.
func (r *renderer) typeOf(s, override *jsjson.Value, depth int) string {
	if depth > maxTypeDepth || !s.IsObject() {
		return "unknown"
	}
	key := typeKey{s, override, depth}
	if t, ok := r.memo[key]; ok {
		return t
	}
	t := r.render(s, override, depth)
	if jsjson.UTF16Len(t) > maxTypeChars {
		t = "unknown"
	}
	r.memo[key] = t
	return t
}

func (r *renderer) render(s, override *jsjson.Value, depth int) string {
	if enum := s.Get("enum"); enum != nil && enum.Kind == jsjson.Array {
		var lits []*jsjson.Value
		for i := range enum.Arr {
			if v := &enum.Arr[i]; v.Kind == jsjson.String || v.Kind == jsjson.Number || v.Kind == jsjson.Bool {
				lits = append(lits, v)
			}
		}
		if len(lits) >= 1 && len(lits) <= maxEnumMembers {
			return joinTypes(len(lits), func(i int) string { return lits[i].String() })
		}
	}
	variants := s.Get("oneOf")
	if variants == nil || variants.Kind != jsjson.Array {
		variants = s.Get("anyOf")
	}
	if variants != nil && variants.Kind == jsjson.Array && len(variants.Arr) >= 1 && len(variants.Arr) <= maxUnionVariants {
		return joinTypes(len(variants.Arr), func(i int) string { return r.typeOf(&variants.Arr[i], nil, depth+1) })
	}
	t := override
	if t == nil {
		t = s.Get("type")
	}
	if t != nil && t.Kind == jsjson.Array && len(t.Arr) > 0 {
		return joinTypes(len(t.Arr), func(i int) string { return r.typeOf(s, &t.Arr[i], depth) })
	}
	if t != nil && t.Kind == jsjson.String {
		switch t.Str {
		case "string", "boolean", "null":
			return t.Str
		case "integer", "number":
			return "number"
		case "array":
			return r.typeOf(s.Get("items"), nil, depth+1) + "[]"
		case "object":
			return r.object(s, depth)
		}
	}
	if s.Get("properties") != nil {
		return r.object(s, depth)
	}
	return "unknown"
}

// joinTypes renders the elements 0 to count-1 and joins the texts with
// " | ". It stops as soon as the text is too long: the type is unknown
// then anyway.
func joinTypes(count int, render func(i int) string) string {
	var b strings.Builder
	n := 0
	for i := range count {
		t := render(i)
		if i > 0 {
			b.WriteString(" | ")
			n += 3
		}
		b.WriteString(t)
		if n += jsjson.UTF16Len(t); n > maxTypeChars {
			return "unknown"
		}
	}
	return b.String()
}

// object renders the inline object type of s: Record<string, unknown>
// without properties, else its properties in schema order.
func (r *renderer) object(s *jsjson.Value, depth int) string {
	props := s.Get("properties")
	if !props.IsObject() || len(props.Obj) == 0 {
		return "Record<string, unknown>"
	}
	required := make(map[string]bool)
	for _, name := range requiredNames(s) {
		required[name] = true
	}
	var b strings.Builder
	b.WriteString("{ ")
	n := 2
	for i := range props.Obj {
		mb := &props.Obj[i]
		part := jsjson.PropertyName(mb.Key)
		if !required[mb.Key] {
			part += "?"
		}
		part += ": " + r.typeOf(&mb.Value, nil, depth+1)
		if i > 0 {
			b.WriteString("; ")
			n += 2
		}
		b.WriteString(part)
		if n += jsjson.UTF16Len(part); n > maxTypeChars {
			return "unknown"
		}
	}
	b.WriteString(" }")
	return b.String()
}
