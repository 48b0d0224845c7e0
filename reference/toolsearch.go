package codemode

// This file holds Tool Search on a turn where code mode did not activate
// (SPEC.md chapter 24): its surface, and its controls as the turn's own
// tools, which run through the same path as every tool call; the tools
// tool_call reaches run through it as nested calls of that call.

import (
	"context"
	"encoding/json"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/toolsearch"
)

// startToolSearch lays out the Tool Search surface of the effective tools
// (ctools are their catalog views): direct-only tools, core coding tools
// and, in mode directory, client tools stay visible in their order, the
// controls follow; everything else is cataloged. Tools named like a
// control are dropped.
func (t *Turn) startToolSearch(s config.ToolSearch, effective []Tool, ctools []catalog.Tool) {
	ts := &toolSearch{mode: toolsearch.Mode(s)}
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
		default:
			r = t.toolCall(ctx, ts, call)
		}
		return ToolResult{Content: []ContentBlock{{Type: "text", Text: r.Text}}, Details: r.Details}, nil
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
	return toolsearch.Called(e, envelope, res.IsError)
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
