package nsscope

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/codemodekit/kit/reference/internal/guest"
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
// resolves arbitrary paths (CM-15.11 to CM-15.18): errors are exact
// messages, never panics; the descriptor is JSON whose keys are all safe
// segments and whose call nodes are exactly the callables; Resolve answers
// a callable only for its own path and otherwise names the first bad
// segment or the whole path.
func FuzzSerialize(f *testing.F) {
	f.Add(`{"a":{"b":{"$tool":"x"}},"c":[1,2]}`, "a.b")
	f.Add(`{"__proto__":1}`, "__proto__")
	f.Add(`{"":{"$tool":"y"}}`, "")
	f.Add(`{"a.b":{"$tool":"z"}}`, "a.b")
	f.Add(`{"a":[{"b":{"$tool":"w"}}],"c":{"constructor":1}}`, "a.0.b")
	f.Add(`{"x":{"y":{"$tool":"t"}}}`, "x..y")
	f.Add(`{"x":{"prototype":{"$tool":"t"}}}`, "x.prototype")
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
		if _, err := json.Marshal(s.Root); err != nil {
			t.Fatalf("descriptor of %s is not JSON: %v", scope, err)
		}
		calls := map[string]bool{}
		var walk func(n guest.Node)
		walk = func(n guest.Node) {
			switch n.Kind {
			case "call":
				if s.Callables[n.Path] == nil {
					t.Fatalf("call node %q has no callable", n.Path)
				}
				calls[n.Path] = true
			case "object":
				for k, c := range n.Members {
					if k == "" || forbidden[k] || strings.Contains(k, ".") {
						t.Fatalf("descriptor of %s has the unsafe key %q", scope, k)
					}
					walk(c)
				}
			case "value":
			default:
				t.Fatalf("descriptor node of kind %q", n.Kind)
			}
		}
		walk(s.Root)
		if len(calls) != len(s.Callables) {
			t.Fatalf("%d call nodes for %d callables", len(calls), len(s.Callables))
		}
		for p, tool := range s.Callables {
			if got, err := s.Resolve(p); err != nil || got != tool {
				t.Errorf("callable %q does not resolve: %v", p, err)
			}
		}
		got, err := s.Resolve(path)
		if err == nil {
			if got != s.Callables[path] || got == nil {
				t.Fatalf("Resolve(%q) = %v, not the callable at that path", path, got)
			}
			return
		}
		want := fmt.Sprintf("Code mode namespace path is not callable: %s", path)
		for _, seg := range strings.Split(path, ".") {
			if seg == "" || forbidden[seg] {
				want = SegmentError(seg).Error()
				break
			}
		}
		if err.Error() != want {
			t.Fatalf("Resolve(%q) = %q, want %q", path, err, want)
		}
	})
}
