package openclaw

import (
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
