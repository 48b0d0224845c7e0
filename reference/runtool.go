package codemode

// This file holds how a turn runs a tool: model-level and nested calls
// alike go through the before_tool_call hook, approvals and the
// trajectory; nested calls also through their output contract.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/contract"
)

// defaultBlockReason is the message of a hook block without a reason.
const defaultBlockReason = "Tool call blocked by before_tool_call hook."

// blockedResult is the result of a model-level call the hook blocked.
func blockedResult(reason string, err error) ToolResult {
	msg := reason
	if msg == "" && err != nil {
		msg = err.Error()
	}
	if msg == "" {
		msg = defaultBlockReason
	}
	return ToolResult{Content: []ContentBlock{{Type: "text", Text: msg}}, IsError: true}
}

// deniedMessage is the message of a call whose approval was denied.
func deniedMessage(catalogID string) string { return "Tool call denied: " + catalogID + "." }

var unsafeIDChars = regexp.MustCompile(`[^A-Za-z0-9_.:-]+`)

// nestedCallID is tool_search_code:<parent>:<tool name>:<seq> (CM-16.11).
func nestedCallID(parent, name string, seq int) string {
	p := unsafeIDChars.ReplaceAllString(strings.TrimSpace(parent), "_")
	if len(p) > 120 {
		p = p[:120]
	}
	if p == "" {
		p = "call"
	}
	return fmt.Sprintf("tool_search_code:%s:%s:%d", p, name, seq)
}

// runTool runs a tool through hooks and approvals, recording it in the
// trajectory. parent is empty for model-level calls.
func (t *Turn) runTool(ctx context.Context, tool Tool, call ToolCall, parent string) (ToolResult, error) {
	idx := t.record(TrajectoryEvent{Type: "tool_call", ToolCallID: call.ToolCallID, Name: tool.Name, CatalogID: call.CatalogID, ParentToolCallID: parent})
	if h := t.opts.Hooks.BeforeToolCall; h != nil {
		d, err := h(ctx, t.hookEvent(HookEvent{ToolName: tool.Name, ToolCallID: call.ToolCallID, Params: call.Input, CatalogID: call.CatalogID, ParentToolCallID: parent}))
		if err != nil || d.Block {
			t.finish(idx, statusBlocked)
			msg := d.Reason
			if msg == "" {
				msg = defaultBlockReason
			}
			return ToolResult{}, errors.New(msg)
		}
		if d.Params != nil {
			call.Input = d.Params
		}
	}
	if tool.RequiresApproval {
		approved := false
		if a := t.opts.Hooks.Approve; a != nil {
			ok, err := a(ctx, ApprovalRequest{ToolName: tool.Name, CatalogID: call.CatalogID, ToolCallID: call.ToolCallID, Params: call.Input})
			approved = ok && err == nil
		}
		if !approved {
			t.finish(idx, statusDenied)
			id := call.CatalogID
			if id == "" {
				id = tool.Name
			}
			return ToolResult{}, errors.New(deniedMessage(id))
		}
	}
	if tool.Execute == nil {
		t.finish(idx, statusError)
		return ToolResult{}, fmt.Errorf("tool %s has no implementation", tool.Name)
	}
	res, err := tool.Execute(ctx, call)
	if err != nil {
		t.finish(idx, statusError)
		return ToolResult{}, err
	}
	t.finish(idx, statusOK)
	return res, nil
}

// nestedCall runs a nested tool call from guest code.
func (t *Turn) nestedCall(ctx context.Context, e catalog.Entry, input json.RawMessage, n cell.Nested) (cell.ToolResult, error) {
	tool, ok := t.byID[e.ID]
	if !ok {
		return cell.ToolResult{}, fmt.Errorf("Unknown tool id: %s.", e.ID)
	}
	ctx, stop := mergeCancel(ctx, t.ctx)
	defer stop()
	c, err := t.contractOf(e)
	if err != nil {
		return cell.ToolResult{}, fmt.Errorf("Tool %q has an invalid outputSchema.", e.ID)
	}
	id := nestedCallID(n.Parent, tool.Name, n.Seq)
	res, err := t.runTool(ctx, tool, ToolCall{ToolCallID: id, Name: tool.Name, CatalogID: e.ID, Input: input, ParentToolCallID: n.Parent}, n.Parent)
	if err != nil {
		return cell.ToolResult{}, err
	}
	if c != nil && c.Check(res.Details) != nil {
		return cell.ToolResult{}, fmt.Errorf("Tool %q returned details that do not match its declared outputSchema.", e.ID)
	}
	content := []byte("[]")
	if res.Content != nil {
		content, _ = json.Marshal(res.Content)
	}
	return cell.ToolResult{Content: content, Details: res.Details}, nil
}

// contractOf compiles e's declared output schema once per turn; only
// trusted (openclaw) entries have contracts.
func (t *Turn) contractOf(e catalog.Entry) (*contract.Contract, error) {
	if e.Source != catalog.SourceOpenClaw || len(strings.TrimSpace(string(e.Tool.OutputSchema))) == 0 {
		return nil, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if cc, ok := t.contracts[e.ID]; ok {
		return cc.c, cc.err
	}
	c, err := contract.Compile(e.Tool.OutputSchema)
	if t.contracts == nil {
		t.contracts = map[string]compiledContract{}
	}
	t.contracts[e.ID] = compiledContract{c, err}
	return c, err
}
