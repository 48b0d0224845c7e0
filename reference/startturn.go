package codemode

// This file holds the start of a turn: configuration and policy, the
// catalog, the model-visible surface and, when code mode activates, the
// turn as code mode's cells see it.

import (
	"context"
	"errors"
	"strings"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/surface"
)

// ErrSurface reports a model-visible surface that is not exactly exec, wait
// and approved direct-only tools: the agent run fails closed before any
// model request (CM-4.30).
var ErrSurface = errors.New("code mode payload check failed.")

// StartTurn resolves configuration and policy and prepares the model-visible
// surface of one agent run. The MCP servers of the configuration are
// connected (or their sessions reused) and listed here.
func (rt *Runtime) StartTurn(ctx context.Context, opts TurnOptions) (*Turn, error) {
	res := config.Resolve(opts.Config, opts.AgentID)
	res.Policy = res.Policy.ForRequester(opts.SenderID, opts.ChannelID)
	t := &Turn{rt: rt, opts: opts, settings: res.Settings, direct: map[string]Tool{}, byID: map[string]Tool{}}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	if opts.Raw || opts.DisableTools || res.Policy.EmptyAllowList() {
		return t, nil
	}
	var effective []Tool
	var ctools []catalog.Tool
	all := append(append([]Tool(nil), opts.Tools...), rt.mcp.tools(ctx, res.MCPServers)...)
	for i, tool := range all {
		ct := toCatalogTool(tool, i)
		if !res.Policy.Allows(policyRef(tool, ct)) {
			continue
		}
		effective = append(effective, tool)
		ctools = append(ctools, ct)
		t.byID[catalog.ID(ct)] = tool
	}
	if (!res.Settings.Enabled || len(effective) == 0) && res.ToolSearch.Enabled {
		t.startToolSearch(res.ToolSearch, effective, ctools)
		return t, nil
	}
	if !res.Settings.Enabled || len(effective) == 0 {
		for _, tool := range effective {
			t.visible = append(t.visible, definitionOf(tool))
			t.direct[tool.Name] = tool
		}
		return t, nil
	}
	t.active = true
	t.catalog = catalog.Build(ctools)
	t.mcp = mcpModel(t.catalog, t.byID)
	exec := surface.Exec(t.catalog, surface.Options{MCP: t.catalog.HasMCP(), Swarm: res.Settings.Swarm, NamespacePrompt: t.promptBlock()})
	wait := surface.Wait()
	t.visible = []Definition{
		{Name: exec.Name, Label: exec.Label, Description: exec.Description, Parameters: exec.Parameters},
		{Name: wait.Name, Label: wait.Label, Description: wait.Description, Parameters: wait.Parameters},
	}
	for _, tool := range effective {
		if tool.DirectOnly {
			t.visible = append(t.visible, definitionOf(tool))
			t.direct[tool.Name] = tool
		}
	}
	if err := checkSurface(t.visible); err != nil {
		return nil, err
	}
	t.cell = t.cellTurn()
	rt.debug.event("activated run=%s catalogSize=%d visibleTools=%s", opts.RunID, len(t.catalog.Entries), strings.Join(t.visibleNames(), ","))
	rt.debug.tools(t.visibleNames())
	return t, nil
}

func (t *Turn) visibleNames() []string {
	names := make([]string, len(t.visible))
	for i, d := range t.visible {
		names[i] = d.Name
	}
	return names
}

// checkSurface verifies the final surface: one exec, one wait, and otherwise
// only distinct direct-only tools.
func checkSurface(defs []Definition) error {
	seen := map[string]bool{}
	for _, d := range defs {
		if seen[d.Name] {
			return ErrSurface
		}
		seen[d.Name] = true
	}
	if !seen[surface.ExecName] || !seen[surface.WaitName] {
		return ErrSurface
	}
	return nil
}

// promptBlock joins the MCP and registered-namespace sections (SPEC.md 4.3).
func (t *Turn) promptBlock() string {
	var parts []string
	if t.mcp != nil {
		if p := t.mcp.Prompt(); p != "" {
			parts = append(parts, p)
		}
	}
	if p := t.namespacePrompt(t.visibleNamespaces()); p != "" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "\n\n")
}

// cellTurn is the active turn as code mode's cells see it: its values,
// resolved once, and the turn itself as their Host.
func (t *Turn) cellTurn() *cell.Turn {
	replaySafe := map[string]bool{}
	for _, e := range t.catalog.Entries {
		// Only openclaw-source tools marked replay-safe qualify.
		if tool, ok := t.byID[e.ID]; ok && e.Source == catalog.SourceOpenClaw && tool.ReplaySafe {
			replaySafe[e.ID] = true
		}
	}
	ct := &cell.Turn{
		Scope:    cell.Scope{AgentRunID: t.opts.RunID, SessionID: t.opts.SessionID, SessionKey: t.opts.SessionKey, AgentID: t.opts.AgentID},
		Settings: t.settings, Catalog: t.catalog, ReplaySafe: replaySafe, VisibleTools: t.visibleNames(),
		APIFiles: t.apiFiles(), Swarm: t.guestSwarm(), Host: cellHost{t},
	}
	if m := mcpGuest(t.mcp); m != nil {
		ct.Namespaces = []guest.Namespace{*m}
	}
	return ct
}

// apiFiles are the virtual declaration files of the run: agents.d.ts with
// Swarm, then the MCP files (CM-14.27).
func (t *Turn) apiFiles() []guest.APIFile {
	files := []guest.APIFile{}
	if t.swarmOn() {
		files = append(files, guest.APIFile{Path: "agents.d.ts", Description: agentsFileDescription, Content: agentsFile, Bytes: len(agentsFile)})
	}
	if t.mcp != nil {
		for _, f := range t.mcp.Files() {
			files = append(files, guest.APIFile{Path: f.Path, Description: f.Description, Content: f.Content, Bytes: f.Bytes})
		}
	}
	return files
}
