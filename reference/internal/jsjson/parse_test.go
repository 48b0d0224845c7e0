package jsjson

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in, want string // want: the compact text of the value
		reason         string
	}{
		{"member order", `{"b":1,"a":2,"c":{"z":true,"y":null}}`, `{"b":1,"a":2,"c":{"z":true,"y":null}}`, "Go maps would sort the keys"},
		{"nested order", `{"b":1,"a":{"d":2,"c":3}}`, `{"b":1,"a":{"d":2,"c":3}}`, ""},
		{"repeated key", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`, "last value at the first position, as JSON.parse"},
		{"repeated key in a large object", `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":33}`, `{"k0":0,"k1":1,"k2":2,"k3":33,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17}`, "the map index of large objects"},
		{"__proto__ is a member", `{"__proto__":{"x":1},"a":2,"__proto__":3}`, `{"__proto__":3,"a":2}`, "JSON.parse defines it like any key"},
		{"whitespace", " \t\r\n{ \"a\" : [ ] } \n", `{"a":[]}`, ""},
		{"more whitespace", " {\n\t\"a\" : [ 1 , 2 ] } \r\n", `{"a":[1,2]}`, ""},
		{"literals", `[true,false,null]`, `[true,false,null]`, ""},
		{"numbers", `[0,-0,1.50,1e2,1E-7,-12.5e+1,123456789012345678901234]`, `[0,0,1.5,100,1e-7,-125,1.2345678901234569e+23]`, "Number::toString"},
		{"more numbers", `[1.0,-0,0.1,1e21,1e20,1E-7,0.000001,123456789012345678901,-1.5e-10,1e400]`, `[1,0,0.1,1e+21,100000000000000000000,1e-7,0.000001,123456789012345680000,-1.5e-10,null]`, "an overflow is Infinity, written null"},
		{"escapes", `["\"\\\/\b\f\n\r\t\u0041\u00e9"]`, `["\"\\/\b\f\n\r\tAé"]`, ""},
		{"string escapes", `"\"\\\/\b\f\n\r\t\u0001\u001f\u007f\u00e9\u2028"`, "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\u007f\u00e9\u2028\"", "only quote, backslash and control characters are escaped"},
		{"NUL", `"a\u0000b"`, `"a\u0000b"`, ""},
		{"surrogate pair", `["\ud83d\ude00"]`, `["😀"]`, ""},
		{"bare surrogate pair", `"\ud83d\ude00"`, `"😀"`, ""},
		{"lone surrogates", `["\ud800x\uDC00"]`, `["\ud800x\udc00"]`, "kept as WTF-8, written back as escapes"},
		{"more lone surrogates", `["\ud800","\udc00x","\ud800\u0041"]`, `["\ud800","\udc00x","\ud800A"]`, "lone surrogates survive as escapes"},
		{"high before a pair", `"\ud800\ud800\udc00"`, `"\ud800𐀀"`, "a high surrogate pairs only with a low one"},
		{"raw invalid UTF-8", "\"\xed\xa8\xa8\xff\"", "\"\uFFFD\uFFFD\uFFFD\uFFFD\"", "raw bytes are UTF-8; only escapes make lone surrogates"},
		{"html not escaped", `"<a&b>"`, `"<a&b>"`, ""},
		{"empty containers", `[{},[]]`, `[{},[]]`, ""},
		{"deepest", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "MaxDepth levels inside the outermost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse(%.40q) error = %v", tt.in, err)
			}
			if got := v.String(); got != tt.want {
				t.Errorf("Parse(%.40q).String() = %.40s, want %.40s (%s)", tt.in, got, tt.want, tt.reason)
			}
		})
	}
}

func TestParse_tree(t *testing.T) {
	v, err := Parse([]byte(`{"s":"\ud800","n":[-0,1e400,-1e400,1e-400],"o":{},"a":[],"t":true,"z":null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Value{Kind: Object, Obj: []Member{
		{"s", Value{Kind: String, Str: "\xed\xa0\x80"}},
		{"n", Value{Kind: Array, Arr: []Value{
			{Kind: Number, Num: math.Copysign(0, -1)},
			{Kind: Number, Num: math.Inf(1)},
			{Kind: Number, Num: math.Inf(-1)},
			{Kind: Number, Num: 0},
		}}},
		{"o", Value{Kind: Object, Obj: []Member{}}},
		{"a", Value{Kind: Array, Arr: []Value{}}},
		{"t", Value{Kind: Bool, Bool: true}},
		{"z", Value{Kind: Null}},
	}}
	exact := cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
	if diff := cmp.Diff(want, v, exact); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
}

func TestParse_invalid(t *testing.T) {
	tests := []struct {
		name, in   string
		wantOffset int
	}{
		{"empty", ``, 0},
		{"space", ` `, 1},
		{"unterminated object", `{`, 1},
		{"unterminated array", `{"a":[1,2`, 9},
		{"trailing comma", `[1,]`, 3},
		{"trailing comma in object", `{"a":1,}`, 7},
		{"missing colon", `{"a" 1}`, 5},
		{"bare key", `{a:1}`, 1},
		{"single quotes", `{'a':1}`, 1},
		{"leading zero", `01`, 1},
		{"bare fraction", `1.`, 2},
		{"bare point", `.5`, 0},
		{"lone minus", `-`, 1},
		{"bare exponent", `1e`, 2},
		{"plus sign", `+1`, 0},
		{"NaN", `NaN`, 0},
		{"unterminated string", `"abc`, 4},
		{"raw newline", "\"a\nb\"", 2},
		{"control character", "\"a\x01\"", 2},
		{"bad escape", `"\x"`, 3},
		{"short unicode escape", `"\u12"`, 3},
		{"bad unicode escape", `"\u12G4"`, 3},
		{"cut literal", `tru`, 0},
		{"cut null", `nul`, 0},
		{"trailing value", `[1] 2`, 4},
		{"trailing text", `{} x`, 3},
		{"extra brace", `{"a":1}}`, 7},
		{"too deep", strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2), MaxDepth + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Parse([]byte(tt.in))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%.40q) = %v, %v; want a *SyntaxError", tt.in, v, err)
			}
			if se.Offset != tt.wantOffset {
				t.Errorf("Parse(%.40q) error offset = %d, want %d", tt.in, se.Offset, tt.wantOffset)
			}
		})
	}
}
