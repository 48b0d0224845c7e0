package conformance

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSPrettyJSON compares jsPrettyJSON with Node's own
// JSON.stringify(JSON.parse(input), null, 2) for inputs that tell a
// JSON.stringify from other serializers: array-index keys, duplicates,
// escapes (lone surrogates, U+2028, '<' and '&' left as they are) and
// numbers at the edges of Number::toString's notations.
func TestJSPrettyJSON(t *testing.T) {
	b, err := os.ReadFile("testdata/jsstringify.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct{ Input, Want string }
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range file.Cases {
		got, err := jsPrettyJSON([]byte(c.Input))
		if err != nil {
			t.Errorf("jsPrettyJSON(%q): %v", c.Input, err)
			continue
		}
		if diff := cmp.Diff(c.Want, got); diff != "" {
			t.Errorf("jsPrettyJSON(%q) (-node +got):\n%s", c.Input, diff)
		}
	}
}

func TestJSPrettyJSON_refusesBadText(t *testing.T) {
	for _, in := range []string{``, `{`, `[1,]`, `{"a" 1}`, `"\x01"`, `01x`, `"\u12"`, `1 2`, `{"a":1}}`, "\"\xff\""} {
		if got, err := jsPrettyJSON([]byte(in)); err == nil {
			t.Errorf("jsPrettyJSON(%q) = %q, want an error", in, got)
		}
	}
}

func TestJSNumber(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-1, "-1"}, {0.5, "0.5"}, {1e20, "100000000000000000000"}, {1e21, "1e+21"},
		{1.5e-6, "0.0000015"}, {1e-7, "1e-7"}, {123.456, "123.456"}, {-2.5e-10, "-2.5e-10"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		if got := jsNumber(tt.f); got != tt.want {
			t.Errorf("jsNumber(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}
