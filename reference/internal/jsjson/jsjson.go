// Package jsjson writes JSON text exactly as ECMAScript JSON.stringify does
// (SPEC.md section 1.2): no HTML escaping, lower-case \u00XX escapes for
// control characters only, numbers formatted by Number::toString, and -0
// written as 0.
package jsjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Canonical re-serializes the JSON text raw as JSON.stringify(JSON.parse(raw))
// would, keeping object member order.
func Canonical(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var sb strings.Builder
	if err := writeValue(&sb, dec); err != nil {
		return "", err
	}
	if dec.More() {
		return "", fmt.Errorf("jsjson: trailing data")
	}
	return sb.String(), nil
}

func writeValue(sb *strings.Builder, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			sb.WriteByte('{')
			first := true
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				if !first {
					sb.WriteByte(',')
				}
				first = false
				sb.WriteString(Quote(k.(string)))
				sb.WriteByte(':')
				if err := writeValue(sb, dec); err != nil {
					return err
				}
			}
			_, err := dec.Token()
			sb.WriteByte('}')
			return err
		case '[':
			sb.WriteByte('[')
			first := true
			for dec.More() {
				if !first {
					sb.WriteByte(',')
				}
				first = false
				if err := writeValue(sb, dec); err != nil {
					return err
				}
			}
			_, err := dec.Token()
			sb.WriteByte(']')
			return err
		}
	case string:
		sb.WriteString(Quote(t))
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return err
		}
		sb.WriteString(Number(f))
	case bool:
		sb.WriteString(strconv.FormatBool(t))
	case nil:
		sb.WriteString("null")
	}
	return nil
}

// Number formats f as Number::toString does; NaN and infinities give null
// (as JSON.stringify writes them).
func Number(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	neg := f < 0
	if neg {
		f = -f
	}
	// Shortest round-trip digits and decimal exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expPart, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expPart)
	k, n := len(digits), exp+1
	var s string
	switch {
	case k <= n && n <= 21:
		s = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		s = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		s = "0." + strings.Repeat("0", -n) + digits
	default:
		sign := "+"
		if n-1 < 0 {
			sign = "-"
		}
		ex := n - 1
		if ex < 0 {
			ex = -ex
		}
		if k == 1 {
			s = digits + "e" + sign + strconv.Itoa(ex)
		} else {
			s = digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(ex)
		}
	}
	if neg {
		return "-" + s
	}
	return s
}

// Quote returns the JSON.stringify text of the string s. Invalid UTF-8 bytes
// (lone surrogates read as WTF-8) are written as \uXXXX escapes.
func Quote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				sb.WriteString(`\"`)
			case '\\':
				sb.WriteString(`\\`)
			case '\b':
				sb.WriteString(`\b`)
			case '\f':
				sb.WriteString(`\f`)
			case '\n':
				sb.WriteString(`\n`)
			case '\r':
				sb.WriteString(`\r`)
			case '\t':
				sb.WriteString(`\t`)
			default:
				if c < 0x20 {
					fmt.Fprintf(&sb, `\u%04x`, c)
				} else {
					sb.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// A WTF-8 surrogate is ED A0..BF xx: write it as its code unit.
			if c == 0xED && i+2 < len(s) {
				u := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				fmt.Fprintf(&sb, `\u%04x`, u)
				i += 3
				continue
			}
			sb.WriteString(`\ufffd`)
			i++
			continue
		}
		sb.WriteString(s[i : i+size])
		i += size
	}
	sb.WriteByte('"')
	return sb.String()
}
