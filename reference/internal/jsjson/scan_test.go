package jsjson

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScan(t *testing.T) {
	tests := []struct {
		in    string
		depth int
		end   int // -1: an error
		deep  bool
	}{
		{`1`, 0, 1, false},
		{`  -0.5e+10 ,`, 0, 10, false},
		{`"a\u00e9\n"x`, 0, 11, false},
		{`{"a":[1,{"b":null}],"c":true}`, 3, 29, false},
		{`{"a":[1,{"b":null}],"c":true}`, 2, -1, true},
		{`[]`, 1, 2, false},
		{`[]`, 0, -1, true},
		{`[[]]`, 1, -1, true},
		{`[[]]`, 2, 4, false},
		{`{}`, 1, 2, false},
		{`{"a":{}}`, 2, 8, false},
		{`[1,]`, 5, -1, false},
		{`{"a" 1}`, 5, -1, false},
		{`{1:2}`, 5, -1, false},
		{`01`, 5, 1, false},
		{`1.`, 5, -1, false},
		{`"\x"`, 5, -1, false},
		{"\"\x01\"", 5, -1, false},
		{"\"\xff\"", 5, -1, false},
		{`tru`, 5, -1, false},
		{`[`, 5, -1, false},
		{``, 5, -1, false},
	}
	for _, tt := range tests {
		end, err := Scan([]byte(tt.in), 0, tt.depth)
		if tt.end < 0 {
			if err == nil {
				t.Errorf("Scan(%q, %d) = %d, want an error", tt.in, tt.depth, end)
			} else if errors.Is(err, ErrTooDeep) != tt.deep {
				t.Errorf("Scan(%q, %d): %v, too deep want %v", tt.in, tt.depth, err, tt.deep)
			}
			continue
		}
		if err != nil || end != tt.end {
			t.Errorf("Scan(%q, %d) = %d, %v, want %d", tt.in, tt.depth, end, err, tt.end)
		}
	}
}

func TestScan_deepWithoutRecursion(t *testing.T) {
	n := 2_000_000
	deep := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	if !Valid(deep, n) {
		t.Fatal("a 2,000,000-level array is not valid at that bound")
	}
	if _, err := Scan(deep, 0, MaxGuestDepth); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("Scan at MaxGuestDepth: %v, want ErrTooDeep", err)
	}
}

// depthOf is the nesting depth of valid JSON text, counted outside strings.
func depthOf(b []byte) int {
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			d++
			most = max(most, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return most
}

// FuzzScan checks Valid against encoding/json, which accepts the same
// texts except invalid UTF-8, and the depth bound against a count.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":"c"}]}`, `[[[[]]]]`, `"\ud800"`, ` 1 `, `{"a":}`, "\"\xff\"", `[1e5,-0.0,true,false,null]`} {
		f.Add([]byte(s), 3)
	}
	f.Fuzz(func(t *testing.T, b []byte, maxDepth int) {
		if maxDepth < 0 || maxDepth > 64 {
			return
		}
		want := json.Valid(b) && utf8.Valid(b)
		if got := Valid(b, 1<<20); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
		if !want {
			return
		}
		if got, want := Valid(b, maxDepth), depthOf(b) <= maxDepth; got != want {
			t.Fatalf("Valid(%q, %d) = %v, depth %d", b, maxDepth, got, depthOf(b))
		}
	})
}
