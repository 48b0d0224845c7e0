package nsscope

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSerialize(t *testing.T) {
	shared := map[string]any{"x": 1.0}
	cyclic := map[string]any{"name": "loop"}
	cyclic["self"] = cyclic
	tests := []struct {
		name    string
		scope   any
		wantErr string
		calls   []string
	}{
		{name: "data and tools", scope: map[string]any{"repo": map[string]any{"owner": "o"}, "list": &Tool{Name: "t"}},
			calls: []string{"list"}},
		{name: "nested tool", scope: map[string]any{"a": map[string]any{"b": &Tool{Name: "t"}}}, calls: []string{"a.b"}},
		{name: "shared reference", scope: map[string]any{"p": shared, "q": shared}},
		{name: "raw function", scope: map[string]any{"a": map[string]any{"f": func() {}}},
			wantErr: "Code mode namespace function at a.f must be created with createCodeModeNamespaceTool."},
		{name: "root function", scope: func() {}, wantErr: "Code mode namespace function at (root) must be created with createCodeModeNamespaceTool."},
		{name: "cycle", scope: map[string]any{"c": cyclic}, wantErr: "Circular code mode namespace scope at c.self."},
		{name: "proto key", scope: map[string]any{"__proto__": 1.0}, wantErr: "Invalid code mode namespace path segment: __proto__"},
		{name: "empty key", scope: map[string]any{"": 1.0}, wantErr: "Invalid code mode namespace path segment: (empty)"},
		{name: "separator key", scope: map[string]any{"a.b": 1.0}, wantErr: "Invalid code mode namespace path segment: a.b"},
		{name: "bigint", scope: map[string]any{"n": big.NewInt(10)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Serialize(tt.scope)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("Serialize error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for p := range s.Callables {
				got = append(got, p)
			}
			if diff := cmp.Diff(len(tt.calls), len(got)); diff != "" {
				t.Errorf("callables %v, want %v", got, tt.calls)
			}
			for _, p := range tt.calls {
				if _, err := s.Resolve(p); err != nil {
					t.Errorf("Resolve(%q): %v", p, err)
				}
			}
		})
	}
}

func TestResolve(t *testing.T) {
	s, err := Serialize(map[string]any{"a": map[string]any{"b": &Tool{Name: "t"}}, "v": 1.0})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"a.b":           "",
		"v":             "Code mode namespace path is not callable: v",
		"a":             "Code mode namespace path is not callable: a",
		"a.constructor": "Invalid code mode namespace path segment: constructor",
		"__proto__.b":   "Invalid code mode namespace path segment: __proto__",
		"a..b":          "Invalid code mode namespace path segment: (empty)",
	} {
		_, err := s.Resolve(path)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Resolve(%q) = %q, want %q", path, got, want)
		}
	}
}

// FuzzSerialize serializes arbitrary JSON scopes (with "$tool" markers) and
// resolves arbitrary paths: errors are exact messages, never panics, and
// every callable resolves.
func FuzzSerialize(f *testing.F) {
	f.Add(`{"a":{"b":{"$tool":"x"}},"c":[1,2]}`, "a.b")
	f.Add(`{"__proto__":1}`, "__proto__")
	f.Add(`{"":{"$tool":"y"}}`, "")
	f.Add(`{"a.b":{"$tool":"z"}}`, "a.b")
	f.Fuzz(func(t *testing.T, scope, path string) {
		var v any
		if json.Unmarshal([]byte(scope), &v) != nil {
			return
		}
		var conv func(x any) any
		conv = func(x any) any {
			switch m := x.(type) {
			case map[string]any:
				if name, ok := m["$tool"].(string); ok {
					return &Tool{Name: name}
				}
				for k, c := range m {
					m[k] = conv(c)
				}
			}
			return x
		}
		s, err := Serialize(conv(v))
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "Invalid code mode namespace path segment: ") && !strings.HasPrefix(msg, "Circular") &&
				!strings.HasPrefix(msg, "Code mode namespace function") {
				t.Fatalf("unexpected error %q", msg)
			}
			return
		}
		for p := range s.Callables {
			if _, err := s.Resolve(p); err != nil {
				t.Errorf("callable %q does not resolve: %v", p, err)
			}
		}
		_, _ = s.Resolve(path)
	})
}
