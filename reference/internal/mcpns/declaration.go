package mcpns

import (
	"cmp"
	"slices"
	"strings"
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
	schema      *value // nil when the property is not declared
	description string // collapsed to one line; "" when none
	def         *value // the default; nil when none
}

// parameters returns the parameters of an input schema: its required
// string entries, then its other properties in schema order, without
// duplicates.
func parameters(schema *value) []param {
	if !schema.isObject() {
		return nil
	}
	props := schema.get("properties")
	if !props.isObject() {
		props = nil
	}
	var index map[string]*value
	if props != nil {
		index = make(map[string]*value, len(props.obj))
		for _, mb := range props.obj {
			index[mb.key] = mb.val
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
		if p.schema.isObject() {
			if d := p.schema.get("description"); d != nil && d.kind == kindString {
				p.description = collapse(d.str)
			}
			p.def = p.schema.get("default")
		}
		out = append(out, p)
	}
	for _, name := range requiredNames(schema) {
		add(name, true)
	}
	if props != nil {
		for _, mb := range props.obj {
			add(mb.key, false)
		}
	}
	return out
}

// requiredNames returns the distinct string entries of schema.required, in
// order.
func requiredNames(schema *value) []string {
	req := schema.get("required")
	if req == nil || req.kind != kindArray {
		return nil
	}
	var out []string
	seen := make(map[string]bool, len(req.arr))
	for _, r := range req.arr {
		if r.kind == kindString && !seen[r.str] {
			seen[r.str] = true
			out = append(out, r.str)
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
				lines = append(lines, " * @param "+escapeComment(propertyName(p.name)+optional(p)+" "+p.description))
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
			text += " Default: " + p.def.compact() + "."
		}
		if text = strings.TrimLeft(text, " "); text != "" {
			lines = append(lines, "  /** "+escapeComment(wellFormed(text))+" */")
		}
		lines = append(lines, "  "+propertyName(p.name)+optional(p)+": "+r.typeOf(p.schema, nil, 1)+";")
	}
	return append(lines, "}")
}

// A renderer maps schemas to TypeScript types. It memoizes the type of
// every (schema, type override, depth), so a schema whose type arrays
// repeat the rendering of shared subschemas costs time linear in its size.
type renderer struct {
	memo map[typeKey]string
}

type typeKey struct {
	s, override *value
	depth       int
}

func newRenderer() *renderer { return &renderer{memo: make(map[typeKey]string)} }

// typeOf maps a schema at a nesting depth to a TypeScript type (SPEC.md
// section 14.6). override, when not nil, replaces the schema's type: it
// renders "the schema with each listed type" of a type array. Any result
// longer than maxTypeChars, and any schema deeper than maxTypeDepth,
// renders unknown (CM-14.31). $ref is never resolved.
func (r *renderer) typeOf(s, override *value, depth int) string {
	if depth > maxTypeDepth || !s.isObject() {
		return "unknown"
	}
	key := typeKey{s, override, depth}
	if t, ok := r.memo[key]; ok {
		return t
	}
	t := r.render(s, override, depth)
	if utf16Len(t) > maxTypeChars {
		t = "unknown"
	}
	r.memo[key] = t
	return t
}

func (r *renderer) render(s, override *value, depth int) string {
	if enum := s.get("enum"); enum != nil && enum.kind == kindArray {
		var lits []*value
		for _, v := range enum.arr {
			if v.kind == kindString || v.kind == kindNumber || v.kind == kindBool {
				lits = append(lits, v)
			}
		}
		if len(lits) >= 1 && len(lits) <= maxEnumMembers {
			return joinTypes(lits, func(v *value) string { return v.compact() })
		}
	}
	variants := s.get("oneOf")
	if variants == nil || variants.kind != kindArray {
		variants = s.get("anyOf")
	}
	if variants != nil && variants.kind == kindArray && len(variants.arr) >= 1 && len(variants.arr) <= maxUnionVariants {
		return joinTypes(variants.arr, func(v *value) string { return r.typeOf(v, nil, depth+1) })
	}
	t := override
	if t == nil {
		t = s.get("type")
	}
	if t != nil && t.kind == kindArray && len(t.arr) > 0 {
		return joinTypes(t.arr, func(v *value) string { return r.typeOf(s, v, depth) })
	}
	if t != nil && t.kind == kindString {
		switch t.str {
		case "string", "boolean", "null":
			return t.str
		case "integer", "number":
			return "number"
		case "array":
			return r.typeOf(s.get("items"), nil, depth+1) + "[]"
		case "object":
			return r.object(s, depth)
		}
	}
	if s.get("properties") != nil {
		return r.object(s, depth)
	}
	return "unknown"
}

// joinTypes renders every element and joins the texts with " | ". It
// stops as soon as the text is too long: the type is unknown then anyway.
func joinTypes(els []*value, render func(*value) string) string {
	var b strings.Builder
	n := 0
	for i, el := range els {
		t := render(el)
		if i > 0 {
			b.WriteString(" | ")
			n += 3
		}
		b.WriteString(t)
		if n += utf16Len(t); n > maxTypeChars {
			return "unknown"
		}
	}
	return b.String()
}

// object renders the inline object type of s: Record<string, unknown>
// without properties, else its properties in schema order.
func (r *renderer) object(s *value, depth int) string {
	props := s.get("properties")
	if !props.isObject() || len(props.obj) == 0 {
		return "Record<string, unknown>"
	}
	required := make(map[string]bool)
	for _, name := range requiredNames(s) {
		required[name] = true
	}
	var b strings.Builder
	b.WriteString("{ ")
	n := 2
	for i, mb := range props.obj {
		part := propertyName(mb.key)
		if !required[mb.key] {
			part += "?"
		}
		part += ": " + r.typeOf(mb.val, nil, depth+1)
		if i > 0 {
			b.WriteString("; ")
			n += 2
		}
		b.WriteString(part)
		if n += utf16Len(part); n > maxTypeChars {
			return "unknown"
		}
	}
	b.WriteString(" }")
	return b.String()
}
