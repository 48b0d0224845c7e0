package openclaw

import (
	"maps"
	"slices"
	"strings"
)

// ownTools are the names of the tools OpenClaw builds itself, core and
// bundled-plugin, in 2026.8.1-beta.1 and 2026.9.6 together (their
// CORE_TOOL_DEFINITIONS, the coding tools, and the tools of the bundled
// plugins on by default; docs/openclaw-own-tools.md). A scenario sees
// only its own tools, so the target denies these for the fake model's
// provider. A name a release lacks is a no-op in a deny list.
var ownTools = []string{
	// Coding tools.
	"read", "write", "edit", "apply_patch", "exec", "process", "ls",
	// CORE_TOOL_DEFINITIONS of 2026.8.1-beta.1.
	"code_execution", "web_search", "web_fetch", "x_search", "memory_search", "memory_get",
	"sessions", "sessions_list", "sessions_history", "sessions_search", "conversations_list",
	"conversations_send", "conversations_turn", "sessions_send", "sessions_spawn", "agents_wait",
	"sessions_yield", "subagents", "session_status", "spawn_task", "dismiss_task", "browser",
	"screen", "dashboard", "terminal", "canvas", "show_widget", "message", "heartbeat_respond",
	"automations", "gateway", "nodes", "computer", "mobile_ui", "agents_list", "get_goal",
	"create_goal", "update_goal", "update_plan", "ask_user", "skill_workshop", "image",
	"image_generate", "music_generate", "video_generate", "tts",
	// Built by both releases but outside the 2026.8.1-beta.1 table.
	"openclaw", "pdf", "transcripts",
	// Added by 2026.9.6.
	"secrets", "github_identity_status", "github_publish", "suggest_task", "theme", "portal",
	"plugins", "progress_card", "view_image",
}

// ownPlugins are the bundled plugins on by default that ship tools, with
// their tools' names. The names are denied like ownTools; a plugin one
// of whose names the scenario declares is disabled instead, since its
// tool would win the name over the fixture plugin's.
var ownPlugins = map[string][]string{
	"file-transfer": {"file_fetch", "dir_list", "dir_fetch", "file_write"},
	"memory-core":   {"intent", "memory_get", "memory_search"},
	"ollama":        {"node_inference"},
	"xai":           {"code_execution", "x_search"},
	"talk-voice":    {"talk_voice"},
}

// keptTools are the own tools the target leaves in place in a release:
// the direct-only tools OpenClaw shows the model whatever the catalog
// holds (sessions_yield; from Era C also openclaw, which Era B has as a
// catalog tool), for the baseline to classify (SPEC.md Appendix A #22,
// #85).
func (rel release) keptTools() []string {
	if rel.eraC() {
		return []string{"sessions_yield", "openclaw"}
	}
	return []string{"sessions_yield"}
}

// swarmTools are the own tools Swarm runs on (agents.run spawns a
// sub-agent and waits for it); kept when the setup enables Swarm.
var swarmTools = []string{"sessions_spawn", "agents_wait"}

// normalToolName is a tool name as OpenClaw's policy matcher compares it
// (normalizeToolName): lower case, with its aliases resolved.
func normalToolName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "bash":
		return "exec"
	case "apply-patch":
		return "apply_patch"
	case "cron":
		return "automations"
	}
	return n
}

// ownToolPolicy takes OpenClaw's own tools but kept out of a
// configuration's catalog and model-visible list, leaving the scenario's
// tools (names) and its policies alone: a deny list in tools.byProvider.fake, a policy
// layer of its own that intersects with the scenario's tools.allow, deny
// and alsoAllow; web search and fetch off, so that OpenClaw does not
// build tools of those names; and the bundled plugins whose tool names the
// scenario declares disabled. Policy matches names only: an own tool
// whose name the scenario declares (read, say) stays beside the
// scenario's. A configuration whose tools, tools.byProvider, tools.web or
// plugins is not an object is left as the scenario wrote it, for
// OpenClaw's schema to judge.
func ownToolPolicy(doc map[string]any, names, kept []string) {
	declared := make(map[string]bool, len(names))
	for _, n := range names {
		declared[normalToolName(n)] = true
	}
	keep := slices.Clone(kept)
	if swarmEnabled(doc) {
		keep = append(keep, swarmTools...)
	}
	var deny []string
	add := func(n string) {
		if !declared[n] && !slices.Contains(keep, n) && !slices.Contains(deny, n) {
			deny = append(deny, n)
		}
	}
	for _, n := range ownTools {
		add(n)
	}
	var disable []string
	for _, id := range slices.Sorted(maps.Keys(ownPlugins)) {
		clash := false
		for _, n := range ownPlugins[id] {
			add(n)
			clash = clash || declared[n]
		}
		if clash {
			disable = append(disable, id)
		}
	}

	tools, ok := objectIn(doc, "tools")
	if !ok {
		return
	}
	if byProvider, ok := objectIn(tools, "byProvider"); ok {
		if fake, ok := objectIn(byProvider, "fake"); ok {
			if _, set := fake["deny"]; !set {
				list := make([]any, len(deny))
				for i, n := range deny {
					list[i] = n
				}
				fake["deny"] = list
			}
		}
	}
	if web, ok := objectIn(tools, "web"); ok {
		for _, kind := range []string{"search", "fetch"} {
			if m, ok := objectIn(web, kind); ok {
				if _, set := m["enabled"]; !set {
					m["enabled"] = false
				}
			}
		}
	}
	if len(disable) == 0 {
		return
	}
	if plugins, ok := objectIn(doc, "plugins"); ok {
		if entries, ok := objectIn(plugins, "entries"); ok {
			for _, id := range disable {
				if e, ok := objectIn(entries, id); ok {
					if _, set := e["enabled"]; !set {
						e["enabled"] = false
					}
				}
			}
		}
	}
}

// swarmEnabled reports whether the configuration turns Swarm on
// anywhere: tools.swarm or an agent's tools.swarm set to anything but
// false or null.
func swarmEnabled(doc map[string]any) bool {
	on := func(m map[string]any) bool {
		t, _ := m["tools"].(map[string]any)
		v, set := t["swarm"]
		return set && v != nil && v != false
	}
	if on(doc) {
		return true
	}
	agents, _ := doc["agents"].(map[string]any)
	list, _ := agents["list"].([]any)
	for _, a := range list {
		if m, ok := a.(map[string]any); ok && on(m) {
			return true
		}
	}
	return false
}

// objectIn returns doc[key] as an object, making it when absent; false
// when doc[key] is something else.
func objectIn(doc map[string]any, key string) (map[string]any, bool) {
	v, set := doc[key]
	if !set {
		m := map[string]any{}
		doc[key] = m
		return m, true
	}
	m, ok := v.(map[string]any)
	return m, ok
}
