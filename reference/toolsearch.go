package codemode

// This file holds Tool Search on a turn where code mode did not activate
// (SPEC.md chapter 24): its surface, and its controls as the turn's own
// tools, which run through the same path as every tool call; the tools
// tool_call reaches run through it as nested calls of that call.

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/codemodekit/kit/reference/internal/cell"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/prepare"
	"github.com/codemodekit/kit/reference/internal/toolsearch"
)

// startToolSearch lays out the Tool Search surface of the effective tools
// (ctools are their catalog views): direct-only tools, core coding tools
// and, in mode directory, client tools stay visible in their order, the
// controls follow; everything else is cataloged. Tools named like a
// control are dropped.
func (t *Turn) startToolSearch(s config.ToolSearch, effective []Tool, ctools []catalog.Tool) {
	ts := &toolSearch{mode: s.Mode}
	var cataloged []catalog.Tool
	for i, tool := range effective {
		ct := ctools[i]
		switch {
		case toolsearch.IsControl(tool.Name):
			continue
		case tool.DirectOnly, ts.mode == config.ToolSearchDirectory && ct.Kind == catalog.Client:
			t.showDirect(tool)
			continue
		}
		cataloged = append(cataloged, ct)
		if toolsearch.StaysVisible(ts.mode, tool.Name, ct.Kind == catalog.Core, false) {
			t.showDirect(tool)
		}
	}
	ts.controls = toolsearch.Controls{Settings: s, Catalog: catalog.BuildWithMCP(cataloged)}
	ts.cell = t.searchCodeCell(s, ts.controls.Catalog)
	ts.controls.Count = ts.cell.Count
	ts.counterScope = counterScope()
	for _, d := range toolsearch.Definitions(s) {
		t.visible = append(t.visible, Definition{Name: d.Name, Label: d.Label, Description: d.Description, Parameters: d.Parameters})
		t.direct[d.Name] = t.controlTool(ts, d.Name)
	}
	t.toolSearch = ts
	t.rt.debug.event("tool-search run=%s mode=%s catalogSize=%d visibleTools=%d", t.opts.RunID, ts.mode, len(ts.controls.Catalog.Entries), len(t.visible))
}

// showDirect makes tool model-visible with its own definition.
func (t *Turn) showDirect(tool Tool) {
	t.visible = append(t.visible, definitionOf(tool))
	t.direct[tool.Name] = tool
}

// controlTool is a Tool Search control as one of the turn's tools.
func (t *Turn) controlTool(ts *toolSearch, name string) Tool {
	run := func(ctx context.Context, call ToolCall) (ToolResult, error) {
		var r toolsearch.Result
		switch name {
		case toolsearch.SearchName:
			r = ts.controls.Search(call.Input)
		case toolsearch.DescribeName:
			r = ts.controls.Describe(call.Input)
		case toolsearch.SearchCodeName:
			r = t.searchCode(ctx, ts, call)
		default:
			r = t.toolCall(ctx, ts, call)
		}
		return ToolResult{Content: []ContentBlock{{Type: "text", Text: r.Text}}, Details: r.Details, IsError: r.IsError}, nil
	}
	return Tool{Name: name, Source: SourceCore, Execute: run}
}

// toolCall runs the target of a tool_call through the turn's path for
// tools, as a nested call of the tool_call, and checks its declared
// output.
func (t *Turn) toolCall(ctx context.Context, ts *toolSearch, call ToolCall) toolsearch.Result {
	target, refused := ts.controls.ReadCall(call.Input)
	if refused != nil {
		return *refused
	}
	e := target.Entry
	tool, ok := t.byID[e.ID]
	if !ok {
		return toolsearch.CallFailed("Unknown tool id: " + e.ID + ".")
	}
	c, err := t.contractOf(e)
	if err != nil {
		return toolsearch.CallFailed(`Tool "` + e.ID + `" has an invalid outputSchema.`)
	}
	id := nestedCallID(call.ToolCallID, tool.Name, int(ts.seq.Add(1)))
	res, err := t.runTool(ctx, tool, ToolCall{ToolCallID: id, Name: tool.Name, CatalogID: e.ID, Input: target.Input, ParentToolCallID: call.ToolCallID}, call.ToolCallID)
	if err != nil {
		return toolsearch.CallFailed(err.Error())
	}
	if c != nil && c.Check(res.Details) != nil {
		return toolsearch.CallFailed(`Tool "` + e.ID + `" returned details that do not match its declared outputSchema.`)
	}
	envelope, err := json.Marshal(struct {
		Content []ContentBlock  `json:"content"`
		Details json.RawMessage `json:"details,omitempty"`
	}{nonNilContent(res.Content), res.Details})
	if err != nil {
		return toolsearch.CallFailed(err.Error())
	}
	// A result the host marks as an error is a failure even when its
	// details do not say so.
	kind := toolsearch.FailureKind(res.Details)
	if kind == "" && res.IsError {
		kind = toolsearch.KindFailed
	}
	return toolsearch.Called(e, envelope, kind)
}

func nonNilContent(c []ContentBlock) []ContentBlock {
	if c == nil {
		return []ContentBlock{}
	}
	return c
}

// hydrated returns the hidden catalog tool a model call names in mode
// directory: the one entry with exactly that name.
func (t *Turn) hydrated(name string) (Tool, bool) {
	if t.toolSearch == nil || t.toolSearch.mode != config.ToolSearchDirectory {
		return Tool{}, false
	}
	var found []catalog.Entry
	for _, e := range t.toolSearch.controls.Catalog.Entries {
		if e.Name == name {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return Tool{}, false
	}
	tool, ok := t.byID[found[0].ID]
	return tool, ok
}

// counterScope names a turn's Tool Search counters: 12 random bytes,
// base64url.
func counterScope() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// searchCodeCell is the turn as tool_search_code's runs see it: Tool
// Search's catalog and limits, openclaw.tools and console for globals.
func (t *Turn) searchCodeCell(s config.ToolSearch, c *catalog.Catalog) *cell.Turn {
	settings := config.Defaults()
	settings.Languages = []string{"javascript"}
	settings.TimeoutMs = s.CodeTimeoutMs
	settings.SearchDefaultLimit, settings.MaxSearchLimit = s.SearchDefaultLimit, s.MaxSearchLimit
	return &cell.Turn{
		Scope:    cell.Scope{AgentRunID: t.opts.RunID, SessionID: t.opts.SessionID, SessionKey: t.opts.SessionKey, AgentID: t.opts.AgentID},
		Settings: settings, Catalog: c, ReplaySafe: map[string]bool{}, Host: searchCodeHost{cellHost{t}},
		View: &cell.View{
			Compact:  func(e catalog.Entry) any { return toolsearch.Compact(e) },
			Describe: toolsearch.Describe,
			Recovery: "Use openclaw.tools.search to find a tool, openclaw.tools.describe to inspect it, then openclaw.tools.call with the exact id or name.",
			Guest:    catalog.ToolSearchCodeGuest,
		},
	}
}

// searchCodeHost is the cell's Host for tool_search_code runs: they have
// no namespaces.
type searchCodeHost struct{ cellHost }

func (searchCodeHost) Scoped() bool { return false }

// searchCode runs a tool_search_code program in the engine code mode uses,
// under codeTimeoutMs; a run that waits for its tools is resumed until it
// ends.
func (t *Turn) searchCode(ctx context.Context, ts *toolSearch, call ToolCall) toolsearch.Result {
	args, refused := toolsearch.CodeArgs(call.Input)
	if refused != nil {
		return *refused
	}
	timeout := time.Duration(ts.controls.Settings.CodeTimeoutMs) * time.Millisecond
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := t.rt.runner.Exec(ctx, ts.cell, call.ToolCallID, args)
	for res.Status == "waiting" && ctx.Err() == nil {
		wargs, _ := json.Marshal(struct {
			RunID string `json:"runId"`
		}{res.RunID})
		res = t.rt.runner.Wait(ctx, ts.cell, call.ToolCallID, wargs)
	}
	if res.Error == cell.MsgPendingNoWork {
		// A promise that nothing can settle (CM-8.34 in code mode) waits,
		// as in OpenClaw, for codeTimeoutMs: the run is over and holds no
		// VM, only this call.
		<-ctx.Done()
	}
	switch {
	case res.Status == "completed":
		return toolsearch.CodeCompleted(res.Value, logLines(res.Output), ts.telemetry())
	case res.Code == cell.CodeTimeout || ctx.Err() == context.DeadlineExceeded:
		return toolsearch.CodeFailed(toolsearch.MsgCodeTimeout)
	case ctx.Err() != nil:
		return toolsearch.CodeFailed(toolsearch.MsgCodeAborted)
	}
	switch res.Error {
	case prepare.ShellMessage:
		return toolsearch.CodeFailed(toolsearch.MsgCodeShell)
	case prepare.ModuleAccessMessage:
		return toolsearch.CodeFailed(toolsearch.MsgCodeModuleAccess)
	}
	return toolsearch.CodeFailed(withoutFrames(res.Error))
}

// withoutFrames is a guest error's text without its stack frames: what
// String(error) gives.
func withoutFrames(text string) string {
	lines := strings.Split(text, "\n")
	for len(lines) > 1 && strings.Contains(lines[len(lines)-1], guest.UserFile) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// logLines are the text of a run's output items, one per console call.
func logLines(items []json.RawMessage) []string {
	lines := make([]string, 0, len(items))
	for _, raw := range items {
		var it struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(raw, &it)
		lines = append(lines, it.Text)
	}
	return lines
}

// telemetry is the Tool Search telemetry of the turn.
func (ts *toolSearch) telemetry() toolsearch.Telemetry {
	o, m, c := ts.controls.Catalog.Counts()
	s, d, n := ts.cell.Counts()
	return toolsearch.Telemetry{CatalogSize: len(ts.controls.Catalog.Entries), Sources: toolsearch.Sources{OpenClaw: o, MCP: m, Client: c},
		CounterScope: ts.counterScope, SearchCount: s, DescribeCount: d, CallCount: n}
}
