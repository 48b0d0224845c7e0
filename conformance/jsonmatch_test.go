package conformance

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMatchJSON(t *testing.T) {
	tests := []struct {
		name   string
		want   string
		got    string
		subset bool
		ok     bool
	}{
		{name: "equal", want: `{"a":1,"b":[true,null]}`, got: `{"b":[true,null],"a":1}`, ok: true},
		{name: "number forms", want: `1`, got: `1.0`, ok: true},
		{name: "extra member exact", want: `{"a":1}`, got: `{"a":1,"b":2}`},
		{name: "extra member subset", want: `{"a":1}`, got: `{"a":1,"b":2}`, subset: true, ok: true},
		{name: "missing member", want: `{"a":1,"b":2}`, got: `{"a":1}`, subset: true},
		{name: "absent marker", want: `{"b":"<absent>"}`, got: `{"a":1}`, subset: true, ok: true},
		{name: "absent marker fails", want: `{"a":"<absent>"}`, got: `{"a":1}`, subset: true},
		{name: "array length", want: `[1,2]`, got: `[1,2,3]`, subset: true},
		{name: "any", want: `{"a":"<any>"}`, got: `{"a":[1]}`, ok: true},
		{name: "string marker", want: `"<string>"`, got: `3`},
		{name: "number marker", want: `"<number>"`, got: `3.5`, ok: true},
		{name: "run id", want: `"<run-id>"`, got: `"cm_0f8fad5b-d9cb-469f-a165-70867728950e"`, ok: true},
		{name: "bad run id", want: `"<run-id>"`, got: `"cm_not-a-uuid"`},
		{name: "type mismatch", want: `{"a":"1"}`, got: `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := decodeJSON([]byte(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			g, err := decodeJSON([]byte(tt.got))
			if err != nil {
				t.Fatal(err)
			}
			if err := matchJSON(w, g, tt.subset); (err == nil) != tt.ok {
				t.Errorf("matchJSON(%s, %s, subset=%v) = %v, want ok %v", tt.want, tt.got, tt.subset, err, tt.ok)
			}
		})
	}
}

func TestMatchSequence(t *testing.T) {
	got := []any{map[string]any{"n": "a"}, map[string]any{"n": "b"}, map[string]any{"n": "c"}}
	if err := matchSequence([]any{map[string]any{"n": "a"}, map[string]any{"n": "c"}}, got); err != nil {
		t.Errorf("in-order subsequence: %v", err)
	}
	if err := matchSequence([]any{map[string]any{"n": "c"}, map[string]any{"n": "a"}}, got); err == nil {
		t.Error("out-of-order subsequence matched")
	}
}

// TestMatchJSON_FirstMismatch checks the first difference a failure
// carries: the one a failure signature is made of.
func TestMatchJSON_FirstMismatch(t *testing.T) {
	tests := []struct {
		name      string
		want, got string
		subset    bool
		first     Mismatch
	}{
		{name: "code vs code", want: `{"status":"failed","code":"timeout"}`, got: `{"status":"failed","code":"aborted"}`, subset: true,
			first: Mismatch{Path: "$.code", Want: `"timeout"`, Got: `"aborted"`}},
		{name: "member missing", want: `{"a":{"b":1}}`, got: `{"a":{}}`, subset: true,
			first: Mismatch{Path: "$.a.b", Want: "present", Got: "missing"}},
		{name: "extra member", want: `{"a":1}`, got: `{"a":1,"repair":{}}`,
			first: Mismatch{Path: "$.repair", Want: "absent", Got: "present"}},
		{name: "absent marker", want: `{"repair":"<absent>"}`, got: `{"repair":{}}`, subset: true,
			first: Mismatch{Path: "$.repair", Want: "absent", Got: "present"}},
		{name: "free text is a kind", want: `"Error: boom"`, got: `"Error: bang"`,
			first: Mismatch{Path: "$", Want: "string", Got: "string"}},
		{name: "length", want: `[1]`, got: `[1,2]`,
			first: Mismatch{Path: "$.length", Want: "number", Got: "number"}},
		{name: "marker", want: `"<run-id>"`, got: `null`,
			first: Mismatch{Path: "$", Want: "run id", Got: "null"}},
		{name: "path order", want: `{"b":1,"a":true}`, got: `{"b":2,"a":false}`,
			first: Mismatch{Path: "$.a", Want: "true", Got: "false"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _ := decodeJSON([]byte(tt.want))
			g, _ := decodeJSON([]byte(tt.got))
			err := matchJSON(w, g, tt.subset)
			first, ok := firstMismatch(err)
			if !ok {
				t.Fatalf("matchJSON = %v, want a mismatch", err)
			}
			if diff := cmp.Diff(tt.first, first); diff != "" {
				t.Errorf("first mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if got, want := signature("the result fails with code \"timeout\"", mismatch("$.code", "timeout", "aborted", "x")),
		`the result fails with code "timeout" | $.code: "timeout" vs "aborted"`; got != want {
		t.Errorf("signature = %q, want %q", got, want)
	}
	if got, want := signature("a step", errors.New("the target hung")), "a step | error"; got != want {
		t.Errorf("signature = %q, want %q", got, want)
	}
}
