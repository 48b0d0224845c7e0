package openclaw

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
)

func TestPluginFor(t *testing.T) {
	bundled := map[string]bool{"browser": true, "vault": true}
	tests := []struct {
		spec wire.Spec
		want string
	}{
		{wire.Spec{Name: "weather"}, "core"},
		{wire.Spec{Name: "weather", Source: "core", Owner: "shipping"}, "core"},
		{wire.Spec{Name: "shipping_list", Source: "plugin", Owner: "shipping"}, "shipping"},
		{wire.Spec{Name: "x", Source: "plugin", Owner: " ops-kit "}, "ops-kit"},
		{wire.Spec{Name: "x", Source: "plugin"}, pluginID},
		{wire.Spec{Name: "x", Source: "plugin", Owner: "browser"}, pluginID},    // bundled
		{wire.Spec{Name: "x", Source: "plugin", Owner: "vault"}, pluginID},      // bundled
		{wire.Spec{Name: "x", Source: "plugin", Owner: "message"}, pluginID},    // an own tool's name
		{wire.Spec{Name: "x", Source: "plugin", Owner: "file_write"}, pluginID}, // a bundled plugin's tool
		{wire.Spec{Name: "x", Source: "plugin", Owner: "bundle-mcp"}, pluginID},
		{wire.Spec{Name: "x", Source: "plugin", Owner: pluginID}, pluginID},
		{wire.Spec{Name: "x", Source: "plugin", Owner: "Alpha"}, pluginID},
		{wire.Spec{Name: "x", Source: "plugin", Owner: "a b"}, pluginID},
		{wire.Spec{Name: "x", Source: "plugin", Owner: "9lives"}, pluginID},
	}
	for _, tt := range tests {
		if got := pluginFor(owner(tt.spec), bundled); got != tt.want {
			t.Errorf("pluginFor(%+v) = %q, want %q", tt.spec, got, tt.want)
		}
	}
}

func TestKnownOwners(t *testing.T) {
	fsys := fstest.MapFS{
		"a.feature":  {Data: []byte(`{"name": "x", "source": "plugin", "owner": "shipping"}` + "\n" + `"owner":"tasks"`)},
		"b.json":     {Data: []byte(`{"tools": [{"owner": "shipping"}, {"owner": "Some text, not an id"}]}`)},
		"c.md":       {Data: []byte(`"owner": "ignored"`)},
		"d/e.json":   {Data: []byte(`{"owner": "alpha"}`)},
		"d/f.txt":    {Data: []byte(`{"owner": "ignored"}`)},
		"g.feature~": {Data: []byte(`{"owner": "ignored"}`)},
	}
	got, err := KnownOwners(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Some text, not an id", "alpha", "shipping", "tasks"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("KnownOwners (-want +got):\n%s", diff)
	}
}

func TestKnownOwnedNames(t *testing.T) {
	fsys := fstest.MapFS{
		"a.feature": {Data: []byte("Feature: f\n  Scenario: s\n    Given the catalog\n      \"\"\"\n      [{\"name\": \"x\", \"owner\": \"shipping\"},\n       {\"name\": \"y\", \"owner\": \" tasks \"}]\n      \"\"\"\n    And the text \"{\\\"name\\\": \\\"z\\\", \\\"owner\\\": \\\"ignored\\\"}\"\n")},
		"b.json":    {Data: []byte(`{"tools": [{"name": "x", "owner": "shipping"}, {"name": "w", "owner": "shipping", "nested": {"name": "v", "owner": "alpha"}}, {"name": "core_only"}]}`)},
		"c.json":    {Data: []byte(`{"name": "broken", "owner": `)},
		"d.md":      {Data: []byte(`{"name": "ignored", "owner": "alpha"}`)},
	}
	got, err := KnownOwnedNames(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"alpha": {"v"}, "shipping": {"w", "x"}, "tasks": {"y"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("KnownOwnedNames (-want +got):\n%s", diff)
	}
}
