package openclaw

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/codemodekit/kit/conformance/wire"
)

// OpenClaw names a plugin tool's catalog entry after the plugin that
// registers it (openclaw:<plugin id>:<name>) and a tool of its own
// openclaw:core:<name>. So the target registers each scenario tool
// through a plugin whose id is the tool's owner: core tools through a
// plugin with id "core", a plugin tool through a plugin with the id of its
// owner. An owner that cannot be a plugin id of its own (not a plugin id,
// the id of a plugin bundled with OpenClaw, the name of one of OpenClaw's
// own tools, which a deny list would expand to the plugin's tools, or none
// at all) falls back to the fixture plugin, pluginID, and the scenario sees
// openclaw:codemodekit-fixture:<name>.

// coreOwner is the plugin id of scenario core tools.
const coreOwner = "core"

// pluginIDPattern is what the target accepts as an owner's plugin id.
var pluginIDPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`)

// reservedPluginIDs are ids OpenClaw keeps for itself.
var reservedPluginIDs = []string{pluginID, "node-mcp", "bundle-mcp", "mcp"}

// owner returns the owner of a scenario tool served by the gateway: core
// for core tools, the trimmed owner of a plugin tool.
func owner(sp wire.Spec) string {
	if sp.Source == "" || sp.Source == "core" {
		return coreOwner
	}
	return strings.TrimSpace(sp.Owner)
}

// pluginFor returns the id of the plugin that registers owner's tools,
// given the ids of the plugins bundled with OpenClaw.
func pluginFor(owner string, bundled map[string]bool) string {
	if !pluginIDPattern.MatchString(owner) || bundled[owner] ||
		slices.Contains(reservedPluginIDs, owner) || slices.Contains(ownTools, owner) {
		return pluginID
	}
	for _, names := range ownPlugins {
		if slices.Contains(names, owner) {
			return pluginID
		}
	}
	return owner
}

// bundledPlugins returns the ids of the plugins an install bundles: the
// directories of openclaw/dist/extensions.
func bundledPlugins(install string) map[string]bool {
	out := map[string]bool{}
	entries, _ := os.ReadDir(filepath.Join(install, "app", "node_modules", "openclaw", "dist", "extensions"))
	for _, e := range entries {
		if e.IsDir() {
			out[e.Name()] = true
		}
	}
	return out
}

// ownerMember matches an "owner" member of a JSON object.
var ownerMember = regexp.MustCompile(`"owner"\s*:\s*"([^"]+)"`)

// KnownOwners returns every "owner" member in the .json and .feature
// files of fsyss (the tool catalogs and the features): the owners whose
// plugins every gateway loads, so that scenarios with different owners
// share a gateway. Owners that cannot be plugin ids cost nothing: their
// tools go to the fixture plugin.
func KnownOwners(fsyss ...fs.FS) ([]string, error) {
	return knownMembers(ownerMember, fsyss...)
}

// KnownOwnedNames returns, by owner, the names of the tools the .json and
// .feature files of fsyss give an owner: every JSON object with a string
// "name" and a string "owner", in the .json files and in the features'
// doc strings. A name the scan misses costs a gateway start, not a
// verdict: a gateway whose plugin does not declare a scenario's tool is
// not reused for it.
func KnownOwnedNames(fsyss ...fs.FS) (map[string][]string, error) {
	out := map[string][]string{}
	for _, fsys := range fsyss {
		err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			var docs [][]byte
			switch {
			case strings.HasSuffix(path, ".json"):
				b, err := fs.ReadFile(fsys, path)
				if err != nil {
					return err
				}
				docs = [][]byte{b}
			case strings.HasSuffix(path, ".feature"):
				b, err := fs.ReadFile(fsys, path)
				if err != nil {
					return err
				}
				docs = docStrings(b)
			}
			for _, doc := range docs {
				var v any
				if json.Unmarshal(doc, &v) == nil {
					ownedNames(v, out)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for owner, names := range out {
		slices.Sort(names)
		out[owner] = slices.Compact(names)
	}
	return out, nil
}

// ownedNames adds the name of every object of v with a string name and
// owner to out[owner].
func ownedNames(v any, out map[string][]string) {
	switch v := v.(type) {
	case map[string]any:
		name, ok1 := v["name"].(string)
		owner, ok2 := v["owner"].(string)
		if ok1 && ok2 {
			owner = strings.TrimSpace(owner)
			out[owner] = append(out[owner], name)
		}
		for _, e := range v {
			ownedNames(e, out)
		}
	case []any:
		for _, e := range v {
			ownedNames(e, out)
		}
	}
}

// docStrings returns the contents of the """-delimited doc strings of a
// feature file.
func docStrings(b []byte) [][]byte {
	var out [][]byte
	var cur []byte
	in := false
	for _, line := range bytes.Split(b, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte(`"""`)) {
			if in {
				out = append(out, cur)
				cur = nil
			}
			in = !in
			continue
		}
		if in {
			cur = append(append(cur, t...), '\n')
		}
	}
	return out
}
