package mcpns

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestParseJSON_compact(t *testing.T) {
	tests := []struct {
		name, in, want string
		reason         string
	}{
		{"order kept", `{"b":1,"a":{"d":2,"c":3}}`, `{"b":1,"a":{"d":2,"c":3}}`, "Go maps would sort the keys"},
		{"whitespace", " {\n\t\"a\" : [ 1 , 2 ] } \r\n", `{"a":[1,2]}`, ""},
		{"duplicate keys", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`, "last value at the first position, as JSON.parse"},
		{"literals", `[true,false,null]`, `[true,false,null]`, ""},
		{"numbers", `[1.0,-0,0.1,1e21,1e20,1E-7,0.000001,123456789012345678901,-1.5e-10,1e400]`, `[1,0,0.1,1e+21,100000000000000000000,1e-7,0.000001,123456789012345680000,-1.5e-10,null]`, "Number::toString; an overflow is Infinity, written null"},
		{"string escapes", `"\"\\\/\b\f\n\r\t\u0001\u001f\u007f\u00e9\u2028"`, "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\u007f\u00e9\u2028\"", "only quote, backslash and control characters are escaped"},
		{"surrogate pair", `"\ud83d\ude00"`, `"😀"`, ""},
		{"lone surrogates", `["\ud800","\udc00x","\ud800\u0041"]`, `["\ud800","\udc00x","\ud800A"]`, "lone surrogates survive as escapes"},
		{"raw invalid UTF-8", "\"\xed\xa8\xa8\xff\"", "\"\uFFFD\uFFFD\uFFFD\uFFFD\"", "raw bytes are UTF-8; only escapes make lone surrogates"},
		{"html not escaped", `"<a&b>"`, `"<a&b>"`, ""},
		{"empty containers", `[{},[]]`, `[{},[]]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := parseJSON([]byte(tt.in))
			if err != nil {
				t.Fatalf("parseJSON(%s) error = %v", tt.in, err)
			}
			if got := v.compact(); got != tt.want {
				t.Errorf("parseJSON(%s).compact() = %s, want %s (%s)", tt.in, got, tt.want, tt.reason)
			}
		})
	}
}

func TestParseJSON_invalid(t *testing.T) {
	tests := []string{
		``, ` `, `{`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
		`"abc`, "\"a\nb\"", `"\x"`, `"\u12"`, `"\u12G4"`, `tru`, `nul`, `[1] 2`, `NaN`, `{"a":1}}`,
		strings.Repeat("[", maxParseDepth+2) + strings.Repeat("]", maxParseDepth+2),
	}
	for _, in := range tests {
		if v, err := parseJSON([]byte(in)); err == nil {
			t.Errorf("parseJSON(%.40q) = %s, want an error", in, v.compact())
		}
	}
}

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1, "-1"}, {0.5, "0.5"}, {123.456, "123.456"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {1.5e21, "1.5e+21"}, {1e-6, "0.000001"},
		{1e-7, "1e-7"}, {1.25e-7, "1.25e-7"}, {math.MaxFloat64, "1.7976931348623157e+308"},
		{5e-324, "5e-324"}, {0.30000000000000004, "0.30000000000000004"},
	}
	for _, tt := range tests {
		if got := formatNumber(tt.in); got != tt.want {
			t.Errorf("formatNumber(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"a\"b\\c", `"a\"b\\c"`},
		{"\x00\x1f\x7f", `"\u0000\u001f` + "\x7f" + `"`},
		{"\xff", "\"\uFFFD\""},
		{"\xed\xa0\x80", `"\ud800"`},
		{"\u2028\u2029", "\"\u2028\u2029\""},
	}
	for _, tt := range tests {
		if got := quote(tt.in); got != tt.want {
			t.Errorf("quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzParseJSON checks the order-preserving decoder against encoding/json:
// both accept the same texts (up to the lone-surrogate and depth
// differences) and the compact text means the same value.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,2.5,"x"]}`, `[]`, `"\u00e9"`, `1e21`, `{"a":{"a":{}}}`, `[null,true,false]`, `"\ud800"`, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := parseJSON([]byte(in))
		valid := json.Valid([]byte(in))
		if err == nil && !valid {
			t.Fatalf("parseJSON accepted invalid JSON %q", in)
		}
		if err != nil {
			if valid && strings.Count(in, "[")+strings.Count(in, "{") < maxParseDepth {
				t.Fatalf("parseJSON rejected valid JSON %q: %v", in, err)
			}
			return
		}
		out := v.compact()
		if !json.Valid([]byte(out)) {
			t.Fatalf("compact() of %q is not JSON: %q", in, out)
		}
		again, err := parseJSON([]byte(out))
		if err != nil || again.compact() != out {
			t.Fatalf("compact() is not stable for %q: %q", in, out)
		}
	})
}
