package openclaw

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDeclarations(t *testing.T) {
	r := &Runner{
		opts:    Options{ToolNames: []string{"read", "weather", "x"}},
		owners:  []string{coreOwner, "shipping", "tasks"},
		owned:   map[string][]string{"shipping": {"ship"}, coreOwner: {"ignored"}},
		bundled: map[string]bool{},
	}
	cfg := gatewayConfig{tools: []pluginTool{{Plugin: "tasks", Name: "plan"}, {Plugin: "shipping", Name: "track"}, {Plugin: coreOwner, Name: "new"}}}
	got := r.declarationsFor(cfg)
	want := declarations{
		pluginID:   {"read", "weather", "x"},
		coreOwner:  {"new", "read", "weather", "x"},
		"shipping": {"ship", "track"},
		"tasks":    {"plan"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("declarationsFor (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		tools []pluginTool
		want  bool
	}{
		{cfg.tools, true},
		{[]pluginTool{{Plugin: "shipping", Name: "read"}}, false},
		{[]pluginTool{{Plugin: "other", Name: "read"}}, false},
		{nil, true},
	} {
		if got := want.covers(tt.tools); got != tt.want {
			t.Errorf("covers(%v) = %v, want %v", tt.tools, got, tt.want)
		}
	}
	if diff := cmp.Diff([]string{pluginID, coreOwner, "shipping", "tasks"}, want.plugins()); diff != "" {
		t.Errorf("plugins (-want +got):\n%s", diff)
	}
}
