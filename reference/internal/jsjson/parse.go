package jsjson

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of parsed JSON, so that hostile input cannot
// exhaust the stack: a value inside more than MaxDepth arrays and objects is
// rejected as invalid. (encoding/json stops one level earlier.)
const MaxDepth = 10000

// A SyntaxError reports JSON text that [Parse] rejects.
type SyntaxError struct {
	Offset int // the byte offset at which the text stopped being valid
}

func (e *SyntaxError) Error() string {
	return "jsjson: invalid JSON at offset " + strconv.Itoa(e.Offset)
}

// Parse decodes one RFC 8259 JSON text, surrounded by optional white space,
// as ECMAScript JSON.parse does:
//
//   - object members keep the order of their first occurrence; a repeated
//     key keeps its first position and takes its last value; "__proto__" is
//     a member like any other;
//   - numbers are IEEE 754 doubles, correctly rounded; "-0" is negative
//     zero and an out-of-range number is ±Inf (written back as null);
//   - strings are WTF-8: a lone surrogate escape is kept (see the package
//     documentation), while raw bytes are read as UTF-8, so an invalid byte
//     (a raw encoded surrogate too) becomes U+FFFD;
//   - nesting deeper than [MaxDepth] is an error.
//
// An error is a *[SyntaxError].
func Parse(data []byte) (*Value, error) {
	p := parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.fail()
	}
	return &v, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) fail() error { return &SyntaxError{Offset: p.pos} }

func (p *parser) skipSpace() {
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
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return true
	}
	return false
}

func (p *parser) value(depth int) (Value, error) {
	if p.pos >= len(p.data) || depth > MaxDepth {
		return Value{}, p.fail()
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.string()
		return Value{Kind: String, Str: s}, err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't' && p.literal("true"):
		return Value{Kind: Bool, Bool: true}, nil
	case c == 'f' && p.literal("false"):
		return Value{Kind: Bool}, nil
	case c == 'n' && p.literal("null"):
		return Value{Kind: Null}, nil
	}
	return Value{}, p.fail()
}

// indexAbove is the member count above which object looks repeated keys
// up in a map rather than by scanning.
const indexAbove = 16

func (p *parser) object(depth int) (Value, error) {
	p.pos++ // {
	v := Value{Kind: Object, Obj: []Member{}}
	var index map[string]int // built once the object grows
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.fail()
		}
		key, err := p.string()
		if err != nil {
			return Value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.fail()
		}
		p.pos++
		p.skipSpace()
		val, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		at := -1
		if index != nil {
			if i, ok := index[key]; ok {
				at = i
			}
		} else {
			for i := range v.Obj {
				if v.Obj[i].Key == key {
					at = i
					break
				}
			}
		}
		if at >= 0 {
			v.Obj[at].Value = val
		} else {
			v.Obj = append(v.Obj, Member{Key: key, Value: val})
			if index != nil {
				index[key] = len(v.Obj) - 1
			} else if len(v.Obj) > indexAbove {
				index = make(map[string]int, 2*len(v.Obj))
				for i, m := range v.Obj {
					index[m.Key] = i
				}
			}
		}
		more, err := p.more('}')
		if err != nil {
			return Value{}, err
		}
		if !more {
			return v, nil
		}
	}
}

func (p *parser) array(depth int) (Value, error) {
	p.pos++ // [
	v := Value{Kind: Array, Arr: []Value{}}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		el, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		v.Arr = append(v.Arr, el)
		more, err := p.more(']')
		if err != nil {
			return Value{}, err
		}
		if !more {
			return v, nil
		}
	}
}

// more reads the separator after a member or an element: true after a
// comma, false after the closing bracket end.
func (p *parser) more(end byte) (bool, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return false, p.fail()
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return true, nil
	case end:
		p.pos++
		return false, nil
	}
	return false, p.fail()
}

func (p *parser) number() (Value, error) {
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
		return Value{}, p.fail()
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return Value{}, p.fail()
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return Value{}, p.fail()
		}
	}
	// The text is a valid JSON number, which ParseFloat accepts. It rounds
	// correctly, like JSON.parse, and returns ±Inf with ErrRange for an
	// out-of-range number, which JSON.parse makes ±Infinity.
	f, _ := strconv.ParseFloat(string(p.data[start:p.pos]), 64)
	return Value{Kind: Number, Num: f}, nil
}

func (p *parser) string() (string, error) {
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
				r, ok := p.hex4()
				if !ok {
					return "", p.fail()
				}
				// A high surrogate followed by a low surrogate escape is one
				// code point; any other surrogate stays lone.
				if utf16.IsSurrogate(r) && r < 0xDC00 && p.pos+6 <= len(p.data) &&
					p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					if lo, ok := p.hex4(); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						r = utf16.DecodeRune(r, lo)
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

// hex4 reads the four hexadecimal digits of a \u escape.
func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
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
		r = r<<4 | rune(c)
	}
	p.pos += 4
	return r, true
}
