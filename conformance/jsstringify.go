package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsPrettyJSON returns what ECMAScript's JSON.stringify(JSON.parse(text),
// null, 2) returns for the JSON text b (SPEC.md section 1.2): JSON.parse
// keeps an object's members in the order they first appear, the last
// duplicate's value winning, but puts array-index keys ("0", "7", "10")
// first in ascending numeric order; JSON.stringify escapes only '"', '\'
// and code units below U+0020, and writes numbers as Number::toString
// does. A target whose text is not this has another serializer than
// JSON.stringify (CM-1.6): one that escapes '<' or '&', sorts keys, or
// writes 1e+21 as 1000000000000000000000.
func jsPrettyJSON(b []byte) (string, error) {
	p := &jsParser{b: b}
	v, err := p.value(0)
	if err != nil {
		return "", err
	}
	p.space()
	if p.i != len(p.b) {
		return "", fmt.Errorf("JSON text: more after the value at byte %d", p.i)
	}
	var out strings.Builder
	jsWrite(&out, v, "")
	return out.String(), nil
}

// jsString is a parsed string as UTF-16 code units: a lone surrogate
// (\ud800) survives, as it does in ECMAScript.
type jsString []uint16

// jsObject is a parsed object: its keys in JSON.parse's order.
type jsObject struct {
	keys   []jsString
	values map[string]any // by string(key) of the code units' bytes
}

func unitsKey(s jsString) string {
	b := make([]byte, 0, 2*len(s))
	for _, u := range s {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}

// jsParser reads JSON text (RFC 8259) into nil, bool, json.Number,
// jsString, []any and *jsObject.
type jsParser struct {
	b []byte
	i int
}

// maxJSDepth bounds nesting: the payloads the suite reads nest far less.
const maxJSDepth = 10000

func (p *jsParser) space() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *jsParser) fail(what string) error {
	return fmt.Errorf("JSON text: %s at byte %d", what, p.i)
}

func (p *jsParser) value(depth int) (any, error) {
	if depth > maxJSDepth {
		return nil, p.fail("nested too deep")
	}
	p.space()
	if p.i >= len(p.b) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		o := &jsObject{values: map[string]any{}}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return o, nil
		}
		for {
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, p.fail("want a member name")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.fail("want ':'")
			}
			p.i++
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			key := unitsKey(k)
			if _, seen := o.values[key]; !seen {
				o.keys = append(o.keys, k)
			}
			o.values[key] = v
			p.space()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == '}' {
				p.i++
				break
			}
			return nil, p.fail("want ',' or '}'")
		}
		// Array-index keys first, ascending; the rest keep their order.
		slices.SortStableFunc(o.keys, func(a, b jsString) int {
			ia, aok := arrayIndex(string(utf16.Decode(a)))
			ib, bok := arrayIndex(string(utf16.Decode(b)))
			switch {
			case aok && bok:
				return int(ia - ib)
			case aok:
				return -1
			case bok:
				return 1
			}
			return 0
		})
		return o, nil
	case c == '[':
		p.i++
		arr := []any{}
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return arr, nil
		}
		for {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
			p.space()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == ']' {
				p.i++
				return arr, nil
			}
			return nil, p.fail("want ',' or ']'")
		}
	case c == '"':
		return p.str()
	case c == 't' && bytes.HasPrefix(p.b[p.i:], []byte("true")):
		p.i += 4
		return true, nil
	case c == 'f' && bytes.HasPrefix(p.b[p.i:], []byte("false")):
		p.i += 5
		return false, nil
	case c == 'n' && bytes.HasPrefix(p.b[p.i:], []byte("null")):
		p.i += 4
		return nil, nil
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
			p.i++
		}
		n := json.Number(p.b[start:p.i])
		if !json.Valid([]byte(n)) {
			return nil, p.fail("bad number")
		}
		return n, nil
	}
	return nil, p.fail("unexpected character")
}

// str reads a string literal as UTF-16 code units.
func (p *jsParser) str() (jsString, error) {
	p.i++ // the opening quote
	var out jsString
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return out, nil
		case c < 0x20:
			return nil, p.fail("control character in a string")
		case c == '\\':
			if p.i+1 >= len(p.b) {
				return nil, p.fail("unexpected end")
			}
			e := p.b[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, uint16(e))
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				if p.i+4 > len(p.b) {
					return nil, p.fail("short \\u escape")
				}
				u, err := strconv.ParseUint(string(p.b[p.i:p.i+4]), 16, 16)
				if err != nil {
					return nil, p.fail("bad \\u escape")
				}
				out = append(out, uint16(u))
				p.i += 4
			default:
				return nil, p.fail("bad escape")
			}
		default:
			r, size := utf8.DecodeRune(p.b[p.i:])
			if r == utf8.RuneError && size == 1 {
				return nil, p.fail("invalid UTF-8")
			}
			out = append(out, utf16.Encode([]rune{r})...)
			p.i += size
		}
	}
	return nil, p.fail("unterminated string")
}

// arrayIndex reports whether k is an ECMAScript array index: the canonical
// decimal form of an integer from 0 to 2^32 - 2.
func arrayIndex(k string) (int64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseInt(k, 10, 64)
	if err != nil || n < 0 || n > math.MaxUint32-1 {
		return 0, false
	}
	return n, true
}

func jsWrite(out *strings.Builder, v any, indent string) {
	switch v := v.(type) {
	case nil:
		out.WriteString("null")
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			out.WriteString(string(v))
			return
		}
		out.WriteString(jsNumber(f))
	case jsString:
		out.WriteString(jsQuote(v))
	case []any:
		if len(v) == 0 {
			out.WriteString("[]")
			return
		}
		inner := indent + "  "
		out.WriteString("[\n")
		for i, e := range v {
			if i > 0 {
				out.WriteString(",\n")
			}
			out.WriteString(inner)
			jsWrite(out, e, inner)
		}
		out.WriteString("\n" + indent + "]")
	case *jsObject:
		if len(v.keys) == 0 {
			out.WriteString("{}")
			return
		}
		inner := indent + "  "
		out.WriteString("{\n")
		for i, k := range v.keys {
			if i > 0 {
				out.WriteString(",\n")
			}
			out.WriteString(inner + jsQuote(k) + ": ")
			jsWrite(out, v.values[unitsKey(k)], inner)
		}
		out.WriteString("\n" + indent + "}")
	}
}

// jsNumber formats f as ECMAScript's Number::toString(10): the shortest
// digits that round-trip, in fixed notation from 1e-6 up to 1e21 and in
// exponential notation outside; -0 is "0", and a non-finite number (which
// JSON text cannot hold) is "null".
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "null"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// d.ddde±x: the shortest round-tripping digits s and the exponent n of
	// the spec's s × 10^(n-k).
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	esign := "+"
	if n-1 < 0 {
		esign = "-"
	}
	exponent := strconv.Itoa(abs(n - 1))
	if k == 1 {
		return sign + digits + "e" + esign + exponent
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + esign + exponent
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// jsQuote is ECMAScript's QuoteJSONString of s: '"' and '\' escaped, the
// control characters below U+0020 as \b, \f, \n, \r, \t or \u00xx, lone
// surrogates as \udxxx, everything else as is (in UTF-8).
func jsQuote(s jsString) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		u := s[i]
		switch {
		case u == '"':
			b.WriteString(`\"`)
		case u == '\\':
			b.WriteString(`\\`)
		case u == '\b':
			b.WriteString(`\b`)
		case u == '\f':
			b.WriteString(`\f`)
		case u == '\n':
			b.WriteString(`\n`)
		case u == '\r':
			b.WriteString(`\r`)
		case u == '\t':
			b.WriteString(`\t`)
		case u < 0x20:
			fmt.Fprintf(&b, `\u%04x`, u)
		case utf16.IsSurrogate(rune(u)):
			if i+1 < len(s) && u < 0xdc00 && s[i+1] >= 0xdc00 && s[i+1] <= 0xdfff {
				b.WriteRune(utf16.DecodeRune(rune(u), rune(s[i+1])))
				i++
				continue
			}
			fmt.Fprintf(&b, `\u%04x`, u)
		default:
			b.WriteRune(rune(u))
		}
	}
	b.WriteByte('"')
	return b.String()
}
