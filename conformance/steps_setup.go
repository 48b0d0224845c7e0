package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fixtures"
)

// registerSetup binds the steps that give a scenario its setup: the
// configuration document, tools and their behaviours, hooks, policies, MCP
// servers, namespace registrations and the target's environment (STEPS.md,
// "Setup"), and the check of a refused namespace registration.
func (w *world) registerSetup(sc *godog.ScenarioContext) {
	sc.Step(`^code mode is enabled$`, func() error { return w.setCodeMode(true) })
	sc.Step(`^code mode is disabled$`, func() error { delete(w.tools(), "codeMode"); return w.syncConfig() })
	sc.Step(`^code mode is configured as:$`, w.codeModeConfigured)
	sc.Step(`^tool search is enabled$`, func() error { w.tools()["toolSearch"] = true; return w.syncConfig() })
	sc.Step(`^tool search is configured as:$`, w.toolSearchConfigured)
	sc.Step(`^the config also has:$`, w.configAlsoHas)
	sc.Step(`^the config is:$`, w.configIs)
	sc.Step(`^the catalog "([^"]+)"$`, w.catalogFile)
	sc.Step(`^the tools:$`, w.toolsDoc)
	sc.Step(`^the tool:$`, w.toolsDoc)
	sc.Step(`^the tool "([^"]+)" returns:$`, w.toolReturns)
	sc.Step(`^the tool "([^"]+)" returns the text "([^"]*)"$`, w.toolReturnsText)
	sc.Step(`^the tool "([^"]+)" fails with "([^"]*)"$`, w.toolFails)
	sc.Step(`^the tool "([^"]+)" is held until released$`, func(name string) error { w.host.Hold(name); return nil })
	sc.Step(`^the tool "([^"]+)" takes (\d+) ms$`, w.toolTakes)
	sc.Step(`^the tool "([^"]+)" requires approval$`, w.toolRequiresApproval)
	sc.Step(`^approval for "([^"]+)" is (granted|denied|held)$`, func(name, d string) error { w.host.SetApproval(name, d); return nil })
	sc.Step(`^the before_tool_call hook blocks "([^"]+)"$`, func(name string) error { w.host.BlockHook(name, ""); return nil })
	sc.Step(`^the before_tool_call hook blocks "([^"]+)" with "([^"]*)"$`, func(name, reason string) error { w.host.BlockHook(name, reason); return nil })
	sc.Step(`^the before_tool_call hook rewrites "([^"]+)" params to:$`, w.hookRewrites)
	sc.Step(`^the tool policy denies "([^"]+)"$`, w.policyDenies)
	sc.Step(`^the tool policy allows only "([^"]*)"$`, w.policyAllowsOnly)
	sc.Step(`^the MCP server "([^"]+)" with tools:$`, w.mcpServer)
	sc.Step(`^the MCP server "([^"]+)" also offers resources:$`, w.mcpResources)
	sc.Step(`^the MCP server "([^"]+)" also offers prompts:$`, w.mcpPrompts)
	sc.Step(`^the real MCP server "([^"]+)"$`, w.realMCPServer)
	sc.Step(`^the MCP server "([^"]+)" is served over (streamable HTTP|SSE)$`, w.mcpTransport)
	sc.Step(`^the plugin "([^"]*)" registers the namespace:$`, w.registerNamespace)
	sc.Step(`^the plugin "([^"]+)" is rolled back$`, func(p string) error { w.setup.RolledBack = append(w.setup.RolledBack, p); return nil })
	sc.Step(`^the plugin "([^"]+)" is disabled$`, func(p string) error { w.setup.Disabled = append(w.setup.Disabled, p); return nil })
	sc.Step(`^the plugin "([^"]+)" is uninstalled$`, func(p string) error { w.setup.Uninstalled = append(w.setup.Uninstalled, p); return nil })
	sc.Step(`^sub-agents answer "([^"]*)"$`, func(t string) error { w.setup.SubAgentAnswer = t; return nil })
	sc.Step(`^sub-agents answer:$`, func(d *godog.DocString) error { w.setup.SubAgentAnswer = d.Content; return nil })
	sc.Step(`^the target environment has "([^"]+)" set to "([^"]*)"$`, w.setEnv)
	sc.Step(`^the registration is refused with:$`, w.registrationRefused)
	sc.Step(`^the quickjs-wasi binary is (missing|unreadable|corrupt)$`, func(m string) error { w.setup.Runtime = m; return nil })
}

func (w *world) tools() map[string]any {
	t, ok := w.config["tools"].(map[string]any)
	if !ok {
		t = map[string]any{}
		w.config["tools"] = t
	}
	return t
}

func (w *world) setCodeMode(v any) error {
	w.tools()["codeMode"] = v
	return w.syncConfig()
}

func (w *world) codeModeConfigured(d *godog.DocString) error {
	v, err := parseDoc(d.Content)
	if err != nil {
		return err
	}
	return w.setCodeMode(v)
}

// toolSearchConfigured sets tools.toolSearch (SPEC.md chapter 24) to the
// docstring's JSON value, whatever it is.
func (w *world) toolSearchConfigured(d *godog.DocString) error {
	v, err := parseDoc(d.Content)
	if err != nil {
		return err
	}
	w.tools()["toolSearch"] = v
	return w.syncConfig()
}

func (w *world) configAlsoHas(d *godog.DocString) error {
	v, err := parseDoc(d.Content)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("the config also has: want a JSON object")
	}
	deepMerge(w.config, m)
	return w.syncConfig()
}

func deepMerge(dst, src map[string]any) {
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := dst[k].(map[string]any); ok {
				deepMerge(dv, sv)
				continue
			}
		}
		dst[k] = v
	}
}

func (w *world) configIs(d *godog.DocString) error {
	v, err := parseDoc(d.Content)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("the config is: want a JSON object")
	}
	w.config = m
	return w.syncConfig()
}

func (w *world) catalogFile(name string) error {
	b, err := fixtures.FS.ReadFile("catalogs/" + name + ".json")
	if err != nil {
		return fmt.Errorf("catalog %q: %w", name, err)
	}
	c, err := wire.ParseCatalog(b)
	if err != nil {
		return err
	}
	w.setup.Tools = append(w.setup.Tools, c.Tools...)
	return nil
}

func (w *world) toolsDoc(d *godog.DocString) error {
	content := strings.TrimSpace(d.Content)
	if strings.HasPrefix(content, "{") {
		content = "[" + content + "]"
	}
	c, err := wire.ParseCatalog([]byte(`{"tools":` + content + `}`))
	if err != nil {
		return err
	}
	w.setup.Tools = append(w.setup.Tools, c.Tools...)
	return nil
}

func (w *world) specs(name string) []*wire.Spec {
	var out []*wire.Spec
	for i := range w.setup.Tools {
		if w.setup.Tools[i].Name == name {
			out = append(out, &w.setup.Tools[i])
		}
	}
	for si := range w.setup.MCPServers {
		for ti := range w.setup.MCPServers[si].Tools {
			if w.setup.MCPServers[si].Tools[ti].Name == name {
				out = append(out, &w.setup.MCPServers[si].Tools[ti])
			}
		}
	}
	return out
}

func (w *world) toolReturns(name string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	w.host.SetBehavior(name, wire.Behavior{Returns: json.RawMessage(d.Content)})
	return nil
}

func (w *world) toolReturnsText(name, text string) error {
	w.host.SetBehavior(name, wire.Behavior{Text: &text})
	return nil
}

func (w *world) toolFails(name, msg string) error {
	w.host.SetBehavior(name, wire.Behavior{Fails: &msg})
	return nil
}

func (w *world) toolTakes(name string, ms int) error {
	specs := w.specs(name)
	if len(specs) == 0 {
		return fmt.Errorf("no tool %q in the setup", name)
	}
	b := wire.Behavior{}
	if specs[0].Behavior != nil {
		b = *specs[0].Behavior
	}
	b.DelayMs = ms
	w.host.SetBehavior(name, b)
	return nil
}

func (w *world) toolRequiresApproval(name string) error {
	specs := w.specs(name)
	if len(specs) == 0 {
		return fmt.Errorf("no tool %q in the setup", name)
	}
	for _, s := range specs {
		s.RequiresApproval = true
	}
	return nil
}

func (w *world) hookRewrites(name string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	w.host.RewriteHook(name, json.RawMessage(d.Content))
	return nil
}

func (w *world) policyDenies(entry string) error {
	t := w.tools()
	deny, _ := t["deny"].([]any)
	t["deny"] = append(deny, entry)
	return w.syncConfig()
}

func (w *world) policyAllowsOnly(list string) error {
	items := splitList(list)
	allow := make([]any, len(items))
	for i, s := range items {
		allow[i] = s
	}
	w.tools()["allow"] = allow
	return w.syncConfig()
}

func (w *world) server(name string) *MCPServer {
	for i := range w.setup.MCPServers {
		if w.setup.MCPServers[i].Name == name {
			return &w.setup.MCPServers[i]
		}
	}
	w.setup.MCPServers = append(w.setup.MCPServers, MCPServer{Name: name})
	return &w.setup.MCPServers[len(w.setup.MCPServers)-1]
}

func (w *world) mcpServer(name string, d *godog.DocString) error {
	c, err := wire.ParseCatalog([]byte(`{"tools":` + d.Content + `}`))
	if err != nil {
		return err
	}
	s := w.server(name)
	for _, t := range c.Tools {
		t.Source, t.Owner = "mcp", name
		s.Tools = append(s.Tools, t)
	}
	return nil
}

func rawList(content string) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(content), &items); err != nil {
		return nil, fmt.Errorf("docstring is not a JSON array: %w", err)
	}
	return items, nil
}

func (w *world) mcpResources(name string, d *godog.DocString) error {
	items, err := rawList(d.Content)
	if err != nil {
		return err
	}
	s := w.server(name)
	s.Resources = append(s.Resources, items...)
	return nil
}

func (w *world) mcpPrompts(name string, d *godog.DocString) error {
	items, err := rawList(d.Content)
	if err != nil {
		return err
	}
	s := w.server(name)
	s.Prompts = append(s.Prompts, items...)
	return nil
}

// mcpTransport serves a scripted server over the named HTTP transport; it
// must be declared first.
func (w *world) mcpTransport(name, transport string) error {
	for i := range w.setup.MCPServers {
		if s := &w.setup.MCPServers[i]; s.Name == name && s.Fixture == "" {
			s.Transport = map[string]string{"streamable HTTP": "streamable-http", "SSE": "sse"}[transport]
			return nil
		}
	}
	return fmt.Errorf("no scripted MCP server %q is declared before this step", name)
}

func (w *world) realMCPServer(fixture string) error {
	w.setup.MCPServers = append(w.setup.MCPServers, MCPServer{Name: fixture, Fixture: fixture})
	return nil
}

func (w *world) registerNamespace(plugin string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	w.setup.Namespaces = append(w.setup.Namespaces, Namespace{PluginID: plugin, Registration: json.RawMessage(d.Content)})
	return nil
}

func (w *world) setEnv(name, value string) error {
	if w.setup.Env == nil {
		w.setup.Env = map[string]string{}
	}
	w.setup.Env[name] = value
	return nil
}

// registrationRefused checks the error of the latest namespace registration.
func (w *world) registrationRefused(d *godog.DocString) error {
	if len(w.setup.Namespaces) == 0 {
		return errors.New("no namespace was registered")
	}
	if err := w.start(); err != nil {
		return err
	}
	rr, ok := w.target.(RegistrationReporter)
	if !ok {
		return w.notApplicable(NotApplicable("the target does not report namespace registration errors"))
	}
	errs := rr.RegistrationErrors()
	i := len(w.setup.Namespaces) - 1
	if i >= len(errs) || errs[i] == nil {
		return fmt.Errorf("the latest namespace registration was accepted, want it refused with %q", d.Content)
	}
	w.checkedRegistrations = len(errs)
	if errs[i].Error() != d.Content {
		return fmt.Errorf("registration error = %q, want %q", errs[i].Error(), d.Content)
	}
	return nil
}
