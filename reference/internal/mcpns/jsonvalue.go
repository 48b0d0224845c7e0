package mcpns

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// kind is the JSON type of a value.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// A value is a parsed JSON value that keeps the member order of objects,
// which Go maps lose. Schemas are rendered in schema order (SPEC.md
// section 14.6) and defaults are written as compact JSON (section 1.2), so
// the order has to survive parsing.
//
// Strings hold WTF-8: a lone surrogate escape (\ud800) is kept as the
// three-byte generalized UTF-8 encoding of the surrogate, so writing the
// value back produces the same escape, as ECMAScript JSON.stringify does.
type value struct {
	kind kind
	b    bool
	num  float64
	str  string
	arr  []*value
	obj  []member
}

// A member is one member of a JSON object.
type member struct {
	key string
	val *value
}

// maxParseDepth bounds the nesting of parsed JSON; deeper input is
// rejected as invalid, like encoding/json does.
const maxParseDepth = 10000

var errSyntax = errors.New("mcpns: invalid JSON")

// parseJSON parses one JSON text. For an object with a repeated key the
// last value wins at the position of the first occurrence, as with
// ECMAScript JSON.parse.
func parseJSON(data []byte) (*value, error) {
	p := parser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, errSyntax
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) literal(word string) bool {
	if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+len(word))]), word) {
		p.pos += len(word)
		return true
	}
	return false
}

func (p *parser) value(depth int) (*value, error) {
	if depth > maxParseDepth || p.pos >= len(p.data) {
		return nil, errSyntax
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return &value{kind: kindString, str: s}, nil
	case c == 't' && p.literal("true"):
		return &value{kind: kindBool, b: true}, nil
	case c == 'f' && p.literal("false"):
		return &value{kind: kindBool}, nil
	case c == 'n' && p.literal("null"):
		return &value{kind: kindNull}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	return nil, errSyntax
}

func (p *parser) object(depth int) (*value, error) {
	p.pos++ // {
	v := &value{kind: kindObject}
	var index map[string]int
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, errSyntax
		}
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, errSyntax
		}
		p.pos++
		p.space()
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if index == nil {
			index = make(map[string]int)
		}
		if i, ok := index[key]; ok {
			v.obj[i].val = val
		} else {
			index[key] = len(v.obj)
			v.obj = append(v.obj, member{key: key, val: val})
		}
		p.space()
		if p.pos >= len(p.data) {
			return nil, errSyntax
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return nil, errSyntax
		}
	}
}

func (p *parser) array(depth int) (*value, error) {
	p.pos++ // [
	v := &value{kind: kindArray}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.space()
		el, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.arr = append(v.arr, el)
		p.space()
		if p.pos >= len(p.data) {
			return nil, errSyntax
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return nil, errSyntax
		}
	}
}

func (p *parser) number() (*value, error) {
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
		return nil, errSyntax
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, errSyntax
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, errSyntax
		}
	}
	// An out-of-range number becomes ±Inf (ParseFloat reports ErrRange
	// but returns the infinity), which JSON.parse also yields.
	f, err := strconv.ParseFloat(string(p.data[start:p.pos]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, errSyntax
	}
	return &value{kind: kindNumber, num: f}, nil
}

func (p *parser) string() (string, error) {
	p.pos++ // "
	var b []byte
	for {
		if p.pos >= len(p.data) {
			return "", errSyntax
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(b), nil
		case c < 0x20:
			return "", errSyntax
		case c == '\\':
			p.pos++
			if p.pos >= len(p.data) {
				return "", errSyntax
			}
			e := p.data[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", errSyntax
				}
				if utf16.IsSurrogate(r) && r < 0xDC00 && p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					if r2, ok := p.hex4(); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
						b = utf8.AppendRune(b, utf16.DecodeRune(r, r2))
						continue
					}
					p.pos = save
				}
				b = appendWTF8(b, r)
			default:
				return "", errSyntax
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.pos++
		default:
			// Raw text is UTF-8: an invalid byte (including a raw WTF-8
			// surrogate) becomes U+FFFD, so only \u escapes yield lone
			// surrogates.
			r, size := utf8.DecodeRune(p.data[p.pos:])
			b = utf8.AppendRune(b, r)
			p.pos += size
		}
	}
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}

// appendWTF8 appends r, encoding a surrogate code point with the
// three-byte generalized UTF-8 form that utf8.AppendRune refuses.
func appendWTF8(b []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return utf8.AppendRune(b, r)
}

// wtf8Surrogate decodes a WTF-8 encoded surrogate at the start of s.
func wtf8Surrogate(s string) (rune, bool) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
	}
	return 0, false
}

// get returns the value of the own member key of an object, or nil.
func (v *value) get(key string) *value {
	if v == nil || v.kind != kindObject {
		return nil
	}
	for i := range v.obj {
		if v.obj[i].key == key {
			return v.obj[i].val
		}
	}
	return nil
}

// isObject reports whether v is a JSON object (not null, not an array).
func (v *value) isObject() bool { return v != nil && v.kind == kindObject }

// JSON builders for the values this package writes.

func jsonString(s string) *value { return &value{kind: kindString, str: s} }

func jsonNumber(f float64) *value { return &value{kind: kindNumber, num: f} }

func jsonArray(els ...*value) *value { return &value{kind: kindArray, arr: els} }

// jsonObject builds an object from alternating keys and values.
func jsonObject(kv ...any) *value {
	v := &value{kind: kindObject}
	for i := 0; i+1 < len(kv); i += 2 {
		v.obj = append(v.obj, member{key: kv[i].(string), val: kv[i+1].(*value)})
	}
	return v
}

// set appends or replaces the member key of an object.
func (v *value) set(key string, val *value) {
	for i := range v.obj {
		if v.obj[i].key == key {
			v.obj[i].val = val
			return
		}
	}
	v.obj = append(v.obj, member{key: key, val: val})
}

// compact returns the compact JSON text of v (JSON.stringify(v)).
func (v *value) compact() string { return string(v.appendJSON(nil)) }

// appendJSON appends the compact JSON text of v with the ECMAScript
// JSON.stringify rules of SPEC.md section 1.2.
func (v *value) appendJSON(b []byte) []byte {
	switch v.kind {
	case kindNull:
		return append(b, "null"...)
	case kindBool:
		if v.b {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case kindNumber:
		if math.IsInf(v.num, 0) || math.IsNaN(v.num) {
			return append(b, "null"...)
		}
		return append(b, formatNumber(v.num)...)
	case kindString:
		return appendQuoted(b, v.str)
	case kindArray:
		b = append(b, '[')
		for i, el := range v.arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = el.appendJSON(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, m := range v.obj {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, m.key)
			b = append(b, ':')
			b = m.val.appendJSON(b)
		}
		return append(b, '}')
	}
}

const lowerHex = "0123456789abcdef"

// quote returns the JSON string literal of s (SPEC.md section 1.2).
func quote(s string) string { return string(appendQuoted(nil, s)) }

// appendQuoted appends the JSON string literal of s: only '"', '\\' and
// code units below U+0020 are escaped, lone surrogates (WTF-8) are written
// as \uXXXX in lower-case hexadecimal, and bytes that are not UTF-8 become
// U+FFFD.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			if r, ok := wtf8Surrogate(s[i:]); ok {
				b = append(b, '\\', 'u', lowerHex[r>>12&0xF], lowerHex[r>>8&0xF], lowerHex[r>>4&0xF], lowerHex[r&0xF])
				i += 3
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r) // RuneError for an invalid byte
			i += size
			continue
		}
		i++
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', lowerHex[c>>4], lowerHex[c&0xF])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

// formatNumber formats a finite number as ECMAScript Number::toString
// does: shortest round-tripping digits, -0 as 0, exponent form outside
// [1e-7, 1e21).
func formatNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±xx
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // f = 0.digits × 10^n
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
		ex := strconv.Itoa(max(n-1, 1-n))
		if k == 1 {
			out = digits + "e" + es + ex
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + es + ex
		}
	}
	return sign + out
}
