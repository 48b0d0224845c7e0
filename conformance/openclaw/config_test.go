package openclaw

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteLayout checks the gateway root a configuration writes: one
// plugin directory per id with its manifest (replay-safe tools in
// toolMetadata), the entries with only the fixture plugin hooked, and no
// trace of them left in the configuration afterwards.
func TestWriteLayout(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "index.js"), []byte("export default {};\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := gatewayConfig{
		doc: map[string]any{"tools": map[string]any{"codeMode": true}},
		tools: []pluginTool{
			{Plugin: coreOwner, Name: "read", ReplaySafe: true},
			{Plugin: coreOwner, Name: "weather"},
			{Plugin: "shipping", Name: "shipping_list"},
		},
	}
	before := cfg.key()
	root := t.TempDir()
	names := []string{"read", "shipping_list", "weather"}
	plugins := []string{pluginID, coreOwner, "shipping"}
	declared := declarations{pluginID: names, coreOwner: names, "shipping": {"shipping_list"}}
	if err := cfg.write(root, src, "tok", 4321, declared); err != nil {
		t.Fatal(err)
	}
	if after := cfg.key(); after != before {
		t.Errorf("write changed the configuration's key:\n%s\n%s", before, after)
	}

	var doc struct {
		Plugins struct {
			Load    struct{ Paths []string }
			Entries map[string]struct {
				Hooks  map[string]any
				Config struct {
					Plugin string
					Hooks  bool
				}
			}
		}
	}
	readJSON(t, filepath.Join(root, "openclaw.json"), &doc)
	wantPaths := []string{root + "/plugins/" + pluginID, root + "/plugins/core", root + "/plugins/shipping"}
	if diff := cmp.Diff(wantPaths, doc.Plugins.Load.Paths); diff != "" {
		t.Errorf("plugins.load.paths (-want +got):\n%s", diff)
	}
	for _, id := range plugins {
		e, ok := doc.Plugins.Entries[id]
		if !ok {
			t.Errorf("no plugins.entries[%q]", id)
			continue
		}
		if e.Config.Plugin != id || e.Config.Hooks != (id == pluginID) || (e.Hooks != nil) != (id == pluginID) {
			t.Errorf("plugins.entries[%q] = %+v", id, e)
		}
	}

	var manifest struct {
		ID           string
		Contracts    struct{ Tools []string }
		ToolMetadata map[string]map[string]bool
	}
	readJSON(t, filepath.Join(root, "plugins", "core", "openclaw.plugin.json"), &manifest)
	if manifest.ID != "core" || !cmp.Equal(manifest.Contracts.Tools, names) {
		t.Errorf("core manifest: id %q, tools %v", manifest.ID, manifest.Contracts.Tools)
	}
	if diff := cmp.Diff(map[string]map[string]bool{"read": {"replaySafe": true}}, manifest.ToolMetadata); diff != "" {
		t.Errorf("core toolMetadata (-want +got):\n%s", diff)
	}
	manifest.ToolMetadata = nil
	readJSON(t, filepath.Join(root, "plugins", "shipping", "openclaw.plugin.json"), &manifest)
	if manifest.ID != "shipping" || manifest.ToolMetadata != nil || !cmp.Equal(manifest.Contracts.Tools, []string{"shipping_list"}) {
		t.Errorf("shipping manifest: id %q, tools %v, toolMetadata %v", manifest.ID, manifest.Contracts.Tools, manifest.ToolMetadata)
	}
	if _, err := os.Stat(filepath.Join(root, "plugins", pluginID, "index.js")); err != nil {
		t.Error(err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
