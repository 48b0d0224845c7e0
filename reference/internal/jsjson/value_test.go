package jsjson

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValue_Get(t *testing.T) {
	v, err := Parse([]byte(`{"a":1,"b":{"c":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		v    *Value
		key  string
		want string // "" for nil
	}{
		{"member", v, "a", "1"},
		{"object member", v, "b", `{"c":[]}`},
		{"absent", v, "x", ""},
		{"nil", nil, "a", ""},
		{"not an object", v.Get("b").Get("c"), "0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if m := tt.v.Get(tt.key); m != nil {
				got = m.String()
			}
			if got != tt.want {
				t.Errorf("Get(%q) = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
	if v.Get("b") != v.Get("b") {
		t.Errorf("Get returned two addresses for one member")
	}
}

func TestValue_IsObject(t *testing.T) {
	tests := []struct {
		v    *Value
		want bool
	}{
		{nil, false}, {&Value{}, false}, {&Value{Kind: Array}, false}, {&Value{Kind: Object}, true},
	}
	for _, tt := range tests {
		if got := tt.v.IsObject(); got != tt.want {
			t.Errorf("%v.IsObject() = %t, want %t", tt.v, got, tt.want)
		}
	}
}

func TestValue_Set(t *testing.T) {
	v := Value{Kind: Object}
	v.Set("b", Value{Kind: Number, Num: 1})
	v.Set("a", Value{Kind: Null})
	v.Set("b", Value{Kind: String, Str: "x"})
	want := Value{Kind: Object, Obj: []Member{{"b", Value{Kind: String, Str: "x"}}, {"a", Value{Kind: Null}}}}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("Set mismatch (-want +got):\n%s", diff)
	}
}

func TestValue_String(t *testing.T) {
	tests := []struct {
		name string
		v    Value
		want string
	}{
		{"zero value is null", Value{}, "null"},
		{"false", Value{Kind: Bool}, "false"},
		{"NaN", Value{Kind: Number, Num: math.NaN()}, "null"},
		{"-Infinity", Value{Kind: Number, Num: math.Inf(-1)}, "null"},
		{"-0", Value{Kind: Number, Num: math.Copysign(0, -1)}, "0"},
		{"string", Value{Kind: String, Str: "a\"\xed\xb0\x80"}, `"a\"\udc00"`},
		{"nil containers", Value{Kind: Array, Arr: []Value{{Kind: Object}, {Kind: Array}}}, `[{},[]]`},
		{"members in order", Value{Kind: Object, Obj: []Member{{"z", Value{Kind: Bool, Bool: true}}, {"1 a", Value{Kind: Number, Num: 1e21}}}}, `{"z":true,"1 a":1e+21}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.v.String(); got != tt.want {
				t.Errorf("String() = %s, want %s", got, tt.want)
			}
		})
	}
}
