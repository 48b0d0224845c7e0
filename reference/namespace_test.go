package codemode

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNamespaceRegistry_unregisterAndList checks CM-15.6 on the registry:
// List in ascending code point order, Unregister of one id, ClearPlugin of
// one plugin, and the zero value as the cleared registry.
func TestNamespaceRegistry_unregisterAndList(t *testing.T) {
	var r NamespaceRegistry
	if got := r.List(); len(got) != 0 {
		t.Fatalf("List() of a new registry = %q, want none", got)
	}
	for _, reg := range []struct{ plugin, id, global string }{
		{"p1", "zeta", "zeta"}, {"p2", "Alpha", "Alpha"}, {"p1", "alpha", "alpha"},
	} {
		if err := r.Register(reg.plugin, NamespaceRegistration{ID: reg.id, GlobalName: reg.global, RequiredToolNames: []string{"read"}, CreateScope: func(NamespaceContext) (any, error) { return map[string]any{}, nil }}); err != nil {
			t.Fatalf("Register(%s, %s): %v", reg.plugin, reg.id, err)
		}
	}
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"registered", func() {}, []string{"Alpha", "alpha", "zeta"}},
		{"unregister one", func() { r.Unregister("alpha") }, []string{"Alpha", "zeta"}},
		{"unregister an unknown id", func() { r.Unregister("nope") }, []string{"Alpha", "zeta"}},
		{"clear a plugin", func() { r.ClearPlugin("p1") }, []string{"Alpha"}},
	}
	for _, s := range steps {
		s.do()
		if diff := cmp.Diff(s.want, r.List()); diff != "" {
			t.Errorf("%s: List() mismatch (-want +got):\n%s", s.name, diff)
		}
	}
}
