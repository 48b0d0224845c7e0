package openclaw

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/fakes/faketools"
)

func TestPluginFor(t *testing.T) {
	bundled := map[string]bool{"browser": true, "vault": true}
	tests := []struct {
		spec faketools.Spec
		want string
	}{
		{faketools.Spec{Name: "weather"}, "core"},
		{faketools.Spec{Name: "weather", Source: "core", Owner: "shipping"}, "core"},
		{faketools.Spec{Name: "shipping_list", Source: "plugin", Owner: "shipping"}, "shipping"},
		{faketools.Spec{Name: "x", Source: "plugin", Owner: " ops-kit "}, "ops-kit"},
		{faketools.Spec{Name: "x", Source: "plugin"}, pluginID},
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "browser"}, pluginID},    // bundled
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "vault"}, pluginID},      // bundled
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "message"}, pluginID},    // an own tool's name
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "file_write"}, pluginID}, // a bundled plugin's tool
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "bundle-mcp"}, pluginID},
		{faketools.Spec{Name: "x", Source: "plugin", Owner: pluginID}, pluginID},
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "Alpha"}, pluginID},
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "a b"}, pluginID},
		{faketools.Spec{Name: "x", Source: "plugin", Owner: "9lives"}, pluginID},
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
