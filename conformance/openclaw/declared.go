package openclaw

import (
	"maps"
	"slices"
)

// declarations are the tool names each fixture plugin of a gateway
// declares, by plugin id: the names in its manifest's contracts.tools, for
// each of which it registers a tool factory. A gateway serves a scenario
// whose every tool its plugin declares.
//
// OpenClaw registers every factory of every plugin at each of its plugin
// loads (three in a start), so the declarations are kept to what a plugin
// may need: the fixture plugin and the core plugin declare every known
// name, the other owners' plugins the names the suite gives them.
type declarations map[string][]string

// plugins returns the ids of the plugins, sorted.
func (d declarations) plugins() []string {
	return slices.Sorted(maps.Keys(d))
}

// covers reports whether every tool is declared by its plugin.
func (d declarations) covers(tools []pluginTool) bool {
	for _, t := range tools {
		if _, ok := slices.BinarySearch(d[t.Plugin], t.Name); !ok {
			return false
		}
	}
	return true
}

// declarationsFor returns what a new gateway for cfg declares: for every
// plugin every gateway loads (Runner.owners), the names it may need (all
// known names without Options.OwnedNames), plus the scenario's own tools
// by their plugins.
func (r *Runner) declarationsFor(cfg gatewayConfig) declarations {
	d := declarations{}
	for _, id := range append(slices.Clone(r.owners), pluginID) {
		if r.owned != nil && id != pluginID && id != pluginFor(coreOwner, r.bundled) {
			d[id] = slices.Clone(r.owned[id])
		} else {
			d[id] = slices.Clone(r.opts.ToolNames)
		}
	}
	for _, t := range cfg.tools {
		d[t.Plugin] = append(d[t.Plugin], t.Name)
	}
	for id, names := range d {
		slices.Sort(names)
		d[id] = slices.Compact(names)
	}
	return d
}
