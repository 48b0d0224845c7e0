package openclaw

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire"
)

// pluginID is the fixture plugin's id (fixtures/openclaw/plugin).
const pluginID = "codemodekit-fixture"

// modelRef is the fake model as OpenClaw names it: provider "fake".
const modelRef = "fake/fake-model"

// A pluginTool is one scenario tool as the fixture plugin registers it.
type pluginTool struct {
	// Plugin is the id of the plugin that registers the tool (pluginFor).
	Plugin       string          `json:"plugin"`
	Index        int             `json:"index"`
	Name         string          `json:"name"`
	Label        string          `json:"label,omitempty"`
	Description  string          `json:"description,omitempty"`
	Parameters   json.RawMessage `json:"parameters,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	DirectOnly   bool            `json:"directOnly,omitempty"`
	// RequiresApproval makes the plugin's before_tool_call hook ask the
	// tool host's POST /approve before the call.
	RequiresApproval bool `json:"requiresApproval,omitempty"`
	// ReplaySafe tools are declared replay-safe in their plugin's manifest
	// (toolMetadata), where OpenClaw reads it at start.
	ReplaySafe bool `json:"replaySafe,omitempty"`
}

// A gatewayConfig is what a gateway is started with; two scenarios with
// equal keys share a gateway. The scenario's tools are not part of it:
// the fixture plugin reads them from the scenario file at every turn.
type gatewayConfig struct {
	doc   map[string]any // openclaw.json, paths under the gateway root as "{root}"
	env   []string
	tools []pluginTool // the scenario's core and plugin tools
}

// key identifies the configuration.
func (c gatewayConfig) key() string { return c.keyOf(c.doc) }

// keyOf identifies the configuration with doc as its document: doc, the
// environment and the manifests' replay-safe tools.
func (c gatewayConfig) keyOf(doc map[string]any) string {
	b, _ := json.Marshal(struct {
		Doc        map[string]any
		Env        []string
		ReplaySafe map[string][]string
	}{doc, c.env, c.replaySafe()})
	return string(b)
}

// replaySafe returns the names of the replay-safe tools by plugin id,
// sorted: the manifests declare them, so they are part of the
// configuration.
func (c gatewayConfig) replaySafe() map[string][]string {
	out := map[string][]string{}
	for _, t := range c.tools {
		if t.ReplaySafe {
			out[t.Plugin] = append(out[t.Plugin], t.Name)
		}
	}
	for id, names := range out {
		slices.Sort(names)
		out[id] = slices.Compact(names)
	}
	return out
}

// buildConfig makes the OpenClaw configuration of a setup: the scenario's
// document (tools.codeMode and everything else it sets) with the fake
// model as the only provider, the fixture plugin with the setup's core and
// plugin tools, OpenClaw's own tools denied but those rel keeps
// (ownToolPolicy; client names
// the tools a turn's request carries), a loopback HTTP gateway with token
// auth, and every update, discovery and catalog lookup off. Paths use the
// placeholder "{root}".
//
// Each server tool is registered by the plugin of its owner (owners.go),
// bundled the ids of the plugins bundled with OpenClaw.
func buildConfig(s *conformance.Setup, rel release, bundled map[string]bool, modelURL string, server, client []wire.Spec) (gatewayConfig, error) {
	doc, err := decodeDocument(s.Config)
	if err != nil || doc == nil {
		doc = map[string]any{}
	}
	doc["gateway"] = map[string]any{
		"mode": "local", "port": "{port}", "bind": "loopback",
		"auth":      map[string]any{"mode": "token", "token": "{token}"},
		"controlUi": map[string]any{"enabled": false},
		"tailscale": map[string]any{"mode": "off"},
		"http": map[string]any{"endpoints": map[string]any{
			"responses": map[string]any{"enabled": true, "files": map[string]any{"allowUrl": false}, "images": map[string]any{"allowUrl": false}},
		}},
	}
	doc["update"] = map[string]any{"checkOnStart": false, "auto": map[string]any{"enabled": false}}
	doc["discovery"] = map[string]any{"mdns": map[string]any{"mode": "off"}}
	models := object(doc, "models")
	models["mode"] = "replace"
	models["catalogRefresh"] = map[string]any{"enabled": false}
	models["providers"] = map[string]any{"fake": map[string]any{
		"baseUrl": modelURL, "apiKey": "fake-local", "api": "openai-responses",
		"models": []any{map[string]any{
			"id": "fake-model", "name": "Fake Model", "reasoning": false, "input": []any{"text"},
			"cost":          map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
			"contextWindow": 128000, "maxTokens": 4096,
		}},
	}}
	defaults := object(object(doc, "agents"), "defaults")
	defaults["model"] = map[string]any{"primary": modelRef}
	defaults["workspace"] = "{root}/work"
	defaults["skipBootstrap"] = true
	doc["logging"] = map[string]any{"file": "{root}/logs/openclaw.log"}

	tools := make([]pluginTool, len(server))
	for i, sp := range server {
		tools[i] = pluginTool{Plugin: pluginFor(owner(sp), bundled), Index: i, Name: sp.Name, Label: sp.Label, Description: sp.Description,
			Parameters: sp.Schema(), OutputSchema: sp.OutputSchema, DirectOnly: sp.DirectOnly,
			RequiresApproval: sp.RequiresApproval, ReplaySafe: sp.ReplaySafe}
	}
	names := make([]string, 0, len(server)+len(client))
	for _, sp := range append(slices.Clone(server), client...) {
		names = append(names, sp.Name)
	}
	ownToolPolicy(doc, names, rel.keptTools())
	object(doc, "plugins")

	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	env := make([]string, len(keys))
	for i, k := range keys {
		env[i] = k + "=" + s.Env[k]
	}
	return gatewayConfig{doc: doc, tools: tools, env: env}, nil
}

// object returns doc[key] as an object, making it if needed.
func object(doc map[string]any, key string) map[string]any {
	m, ok := doc[key].(map[string]any)
	if !ok {
		m = map[string]any{}
		doc[key] = m
	}
	return m
}

// write lays out a gateway root: the configuration (placeholders filled
// in), one directory per plugin id in plugins (pluginID among them) with
// the fixture plugin and a manifest declaring the tools names, and the
// home, state, tmp, work and logs directories. Only the fixture plugin
// installs the before_tool_call hook.
func (c gatewayConfig) write(root, pluginSrc, token string, port int, declared declarations) error {
	for _, d := range []string{"home", "state", "tmp", "work", "logs", "plugins"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o700); err != nil {
			return err
		}
	}
	b, err := c.render(root, token, port, declared)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "openclaw.json"), b, 0o600); err != nil {
		return err
	}
	index, err := os.ReadFile(filepath.Join(pluginSrc, "index.js"))
	if err != nil {
		return err
	}
	safe := c.replaySafe()
	for _, id := range declared.plugins() {
		if err := writePlugin(filepath.Join(root, "plugins", id), id, index, declared[id], safe[id]); err != nil {
			return err
		}
	}
	return nil
}

// render returns the openclaw.json of a gateway rooted at root with the
// fixture plugins and names of declared.
func (c gatewayConfig) render(root, token string, port int, declared declarations) ([]byte, error) {
	plugins := declared.plugins()
	doc, err := clone(c.doc)
	if err != nil {
		return nil, err
	}
	entries := object(object(doc, "plugins"), "entries")
	load := object(object(doc, "plugins"), "load")
	paths := make([]any, len(plugins))
	for i, id := range plugins {
		paths[i] = "{root}/plugins/" + id
		entry := map[string]any{
			"enabled": true,
			"config": map[string]any{"scenarioFile": "{root}/scenario.json", "names": declared[id],
				"plugin": id, "hooks": id == pluginID},
		}
		if id == pluginID {
			// A held approval keeps the hook waiting; OpenClaw blocks a
			// call whose hook times out (15 s by default), so the limit is
			// its schema's maximum.
			entry["hooks"] = map[string]any{"timeouts": map[string]any{"before_tool_call": 600000}}
		}
		entries[id] = entry
	}
	load["paths"] = paths
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	b = bytes.ReplaceAll(b, []byte(`"{port}"`), []byte(jsonInt(port)))
	b = bytes.ReplaceAll(b, []byte("{token}"), []byte(token))
	b = bytes.ReplaceAll(b, []byte("{root}"), []byte(root))
	return b, nil
}

// clone returns a deep copy of a configuration document.
func clone(doc map[string]any) (map[string]any, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return decodeDocument(b)
}

// decodeDocument decodes a configuration document, numbers keeping their
// text (json.Number). Empty input is a nil document.
func decodeDocument(b []byte) (map[string]any, error) {
	if len(b) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// writePlugin writes one plugin directory: the fixture plugin's code under
// the plugin id id, declaring the tools names, those in replaySafe as
// replay-safe.
func writePlugin(dir, id string, index []byte, names, replaySafe []string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "index.js"), index, 0o600); err != nil {
		return err
	}
	manifest := map[string]any{
		"id": id, "name": "Code Mode Kit fixture (" + id + ")",
		"description":  "Scenario tools of the Code Mode Kit conformance suite, run by its tool host.",
		"contracts":    map[string]any{"tools": names},
		"activation":   map[string]any{"onStartup": true},
		"configSchema": map[string]any{"type": "object", "additionalProperties": true},
	}
	if len(replaySafe) > 0 {
		meta := map[string]any{}
		for _, n := range replaySafe {
			meta[n] = map[string]any{"replaySafe": true}
		}
		manifest["toolMetadata"] = meta
	}
	pkg := map[string]any{
		"name": "codemodekit-openclaw-fixture-" + id, "version": "0.0.0", "private": true, "type": "module",
		"openclaw": map[string]any{"extensions": []any{"./index.js"}},
	}
	for name, v := range map[string]any{"openclaw.plugin.json": manifest, "package.json": pkg} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// writeScenario writes the scenario file the fixture plugin reads: the
// tool host's URL and the scenario's tools.
func writeScenario(root, toolHost string, tools []pluginTool) error {
	b, err := json.Marshal(map[string]any{"toolHost": toolHost, "tools": tools})
	if err != nil {
		return err
	}
	tmp := filepath.Join(root, "scenario.json.tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(root, "scenario.json"))
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
