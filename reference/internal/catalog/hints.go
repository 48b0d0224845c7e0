package catalog

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// HintLimits bound one compact hint.
type HintLimits struct {
	Chars int // whole hint, in characters (UTF-16 code units are not used: runes)
	Depth int // object/array nesting levels rendered
	Props int // properties rendered per object
}

// Input and output hint limits (SPEC.md chapter 11).
var (
	InputHintLimits  = HintLimits{Chars: 300, Depth: 4, Props: 16}
	OutputHintLimits = HintLimits{Chars: 800, Depth: 6, Props: 20}
)

const (
	maxUnion     = 4
	maxEnum      = 8
	maxEnumChars = 96
)

// incompleteKeywords make a schema node impossible to describe exactly.
var incompleteKeywords = []string{
	"$ref", "$dynamicRef", "allOf", "if", "then", "else", "not", "patternProperties",
	"dependentSchemas", "dependentRequired", "dependencies", "propertyNames",
	"unevaluatedProperties", "unevaluatedItems", "prefixItems", "contains",
}

var identifierRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// InputHint renders a schema as a bounded TypeScript-style input hint. An
// absent or empty schema renders "{}".
func InputHint(schema json.RawMessage) string {
	if len(bytes.TrimSpace(schema)) == 0 {
		return "{}"
	}
	h, _ := renderHint(schema, InputHintLimits)
	return h
}

// OutputHint renders a trusted output schema as a compact hint. ok is false
// when the schema is absent, does not render completely or does not fit: the
// quick index then shows "?".
func OutputHint(schema json.RawMessage) (string, bool) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return "", false
	}
	h, complete := renderHint(schema, OutputHintLimits)
	if !complete {
		return "", false
	}
	return h, true
}

// renderHint renders at full depth, then at smaller depths until the hint
// fits the character budget. complete is false when anything was elided.
func renderHint(schema json.RawMessage, lim HintLimits) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var node any
	if err := dec.Decode(&node); err != nil {
		return "unknown", false
	}
	for depth := lim.Depth; depth >= 0; depth-- {
		r := hintRenderer{lim: lim, maxDepth: depth, complete: true}
		s := r.render(node, 0)
		if runeLen(s) <= lim.Chars {
			return s, r.complete && depth == lim.Depth
		}
	}
	return "unknown", false
}

func runeLen(s string) int { return len([]rune(s)) }

type hintRenderer struct {
	lim      HintLimits
	maxDepth int
	complete bool
}

func (r *hintRenderer) incomplete(s string) string {
	r.complete = false
	return s
}

func (r *hintRenderer) render(node any, depth int) string {
	switch n := node.(type) {
	case bool:
		if n {
			return r.incomplete("unknown")
		}
		return "never"
	case map[string]any:
		s := r.renderObjectSchema(n, depth)
		if nb, ok := n["nullable"].(bool); ok && nb && s != "null" && !strings.HasSuffix(s, " | null") {
			s += " | null"
		}
		return s
	default:
		return r.incomplete("unknown")
	}
}

func (r *hintRenderer) renderObjectSchema(n map[string]any, depth int) string {
	for _, k := range incompleteKeywords {
		if _, ok := n[k]; ok {
			return r.incomplete("unknown")
		}
	}
	if c, ok := n["const"]; ok {
		return literal(c)
	}
	if e, ok := n["enum"].([]any); ok {
		return r.renderEnum(e, n, depth)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if vs, ok := n[k].([]any); ok {
			if len(vs) == 0 || len(vs) > maxUnion {
				return r.incomplete("unknown")
			}
			parts := make([]string, 0, len(vs))
			for _, v := range vs {
				parts = appendUnique(parts, r.render(v, depth))
			}
			return strings.Join(parts, " | ")
		}
	}
	switch t := n["type"].(type) {
	case string:
		return r.renderType(t, n, depth)
	case []any:
		if len(t) == 0 || len(t) > maxUnion {
			return r.incomplete("unknown")
		}
		parts := make([]string, 0, len(t))
		for _, v := range t {
			ts, ok := v.(string)
			if !ok {
				return r.incomplete("unknown")
			}
			parts = appendUnique(parts, r.renderType(ts, n, depth))
		}
		return strings.Join(parts, " | ")
	case nil:
		if _, ok := n["properties"]; ok {
			return r.renderType("object", n, depth)
		}
		if _, ok := n["items"]; ok {
			return r.renderType("array", n, depth)
		}
		return r.incomplete("unknown")
	default:
		return r.incomplete("unknown")
	}
}

func appendUnique(parts []string, s string) []string {
	for _, p := range parts {
		if p == s {
			return parts
		}
	}
	return append(parts, s)
}

func (r *hintRenderer) renderEnum(values []any, n map[string]any, depth int) string {
	if len(values) == 0 {
		return "never"
	}
	if len(values) <= maxEnum {
		parts := make([]string, 0, len(values))
		for _, v := range values {
			parts = appendUnique(parts, literal(v))
		}
		if s := strings.Join(parts, " | "); runeLen(s) <= maxEnumChars {
			return s
		}
	}
	r.complete = false
	if t, ok := n["type"].(string); ok {
		return r.renderType(t, n, depth)
	}
	return "unknown"
}

func literal(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "unknown"
	}
	return strings.TrimRight(buf.String(), "\n")
}

func (r *hintRenderer) renderType(t string, n map[string]any, depth int) string {
	switch t {
	case "string":
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "null":
		return "null"
	case "array":
		items, ok := n["items"]
		if !ok {
			return r.incomplete("Array<unknown>")
		}
		if depth >= r.maxDepth {
			return r.incomplete("Array<unknown>")
		}
		return "Array<" + r.render(items, depth+1) + ">"
	case "object":
		return r.renderObject(n, depth)
	default:
		return r.incomplete("unknown")
	}
}

func (r *hintRenderer) renderObject(n map[string]any, depth int) string {
	props, _ := n["properties"].(map[string]any)
	open := true
	if ap, ok := n["additionalProperties"]; ok {
		if b, isBool := ap.(bool); isBool && !b {
			open = false
		}
	}
	explicitOpen := false
	if ap, ok := n["additionalProperties"]; ok {
		if b, isBool := ap.(bool); !isBool || b {
			explicitOpen = true
		}
	}
	if open {
		// An open object is never a complete description of a value.
		r.complete = false
	}
	if len(props) == 0 {
		if explicitOpen {
			return "{ ... }"
		}
		return "{}"
	}
	if depth >= r.maxDepth {
		return r.incomplete("{ ... }")
	}
	required := map[string]bool{}
	if req, ok := n["required"].([]any); ok {
		for _, k := range req {
			if s, ok := k.(string); ok {
				required[s] = true
			}
		}
	}
	var req, opt []string
	for k := range props {
		if required[k] {
			req = append(req, k)
		} else {
			opt = append(opt, k)
		}
	}
	sort.Strings(req)
	sort.Strings(opt)
	keys := append(req, opt...)
	partial := false
	if len(keys) > r.lim.Props {
		keys = keys[:r.lim.Props]
		partial = true
		r.complete = false
	}
	parts := make([]string, 0, len(keys)+1)
	for _, k := range keys {
		name := k
		if !identifierRE.MatchString(k) {
			name = literal(k)
		}
		if !required[k] {
			name += "?"
		}
		parts = append(parts, name+": "+r.render(props[k], depth+1))
	}
	if partial || explicitOpen {
		parts = append(parts, "...")
	}
	return "{ " + strings.Join(parts, "; ") + " }"
}
