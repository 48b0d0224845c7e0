package codemode

// This file holds the model's tool calls: exec and wait, which run code
// mode's cells, and the direct tools; each is written to the session
// transcript before it runs and after.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/surface"
)

// Call answers one model tool call: exec and wait run code mode, any
// other name a model-visible tool. Whatever the tool or the guest code
// did, failures included, is in the result. The call and its result are
// appended to the session transcript; the error reports a TranscriptStore
// that failed. When the call could not be appended it did not run; when
// only its result could not be, the result comes with the error.
func (t *Turn) Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (ToolResult, error) {
	if err := t.transcribe(TranscriptRecord{Type: "tool_call", ToolCallID: toolCallID, Name: name, Arguments: args}); err != nil {
		return ToolResult{}, err
	}
	res := t.call(ctx, toolCallID, name, args)
	var text []string
	for _, b := range res.Content {
		if b.Type == "text" {
			text = append(text, b.Text)
		}
	}
	err := t.transcribe(TranscriptRecord{Type: "tool_result", ToolCallID: toolCallID, Name: name,
		Text: strings.Join(text, "\n"), Details: res.Details, IsError: res.IsError})
	return res, err
}

// transcribe appends rec to the session transcript.
func (t *Turn) transcribe(rec TranscriptRecord) error {
	rec.AgentRunID, rec.Boot = t.opts.RunID, t.rt.boot
	if err := t.rt.transcripts.Append(t.opts.SessionKey, rec); err != nil {
		return fmt.Errorf("append %s %s to the transcript: %w", rec.Type, rec.ToolCallID, err)
	}
	return nil
}

func (t *Turn) call(ctx context.Context, toolCallID, name string, args json.RawMessage) ToolResult {
	ctx, stop := mergeCancel(ctx, t.ctx)
	defer stop()
	if t.active && (name == surface.ExecName || name == surface.WaitName) {
		return t.callControl(ctx, toolCallID, name, args)
	}
	tool, ok := t.direct[name]
	if !ok {
		tool, ok = t.hydrated(name)
	}
	if !ok {
		return ToolResult{Content: []ContentBlock{{Type: "text", Text: fmt.Sprintf("Tool %s not found.", name)}}, IsError: true}
	}
	res, err := t.runTool(ctx, tool, ToolCall{ToolCallID: toolCallID, Name: name, Input: args}, "")
	if err != nil {
		return ToolResult{Content: []ContentBlock{{Type: "text", Text: err.Error()}}, IsError: true}
	}
	return res
}

// callControl answers exec or wait: the hook sees the call, the cell runs
// it, and the payload is the result.
func (t *Turn) callControl(ctx context.Context, toolCallID, name string, args json.RawMessage) ToolResult {
	ev := TrajectoryEvent{Type: "tool_call", ToolCallID: toolCallID, Name: name}
	if name == surface.ExecName {
		ev.ToolKind = "code_mode_exec"
	}
	idx := t.record(ev)
	if h := t.opts.Hooks.BeforeToolCall; h != nil {
		hookEv := t.hookEvent(HookEvent{ToolName: name, ToolCallID: toolCallID, Params: args})
		if name == surface.ExecName {
			hookEv.ToolKind = "code_mode_exec"
			hookEv.ToolInputKind = inputKind(args)
			hookEv.Params = mirrorCodeCommand(args)
		}
		d, err := h(ctx, hookEv)
		if err != nil || d.Block {
			t.finish(idx, statusBlocked)
			return blockedResult(d.Reason, err)
		}
		if d.Params != nil {
			args = d.Params
		}
	}
	start := time.Now()
	if name == surface.ExecName {
		t.rt.debug.event("exec start call=%s", toolCallID)
	} else {
		t.rt.debug.event("wait start call=%s runId=%s", toolCallID, waitRunID(args))
	}
	if t.rt.debug.codeMode && name == surface.ExecName && inputKind(args) == "typescript" && t.settings.LanguageEnabled("typescript") {
		t.rt.debug.typeScriptLoaded()
	}
	var res cell.Result
	if name == surface.ExecName {
		res = t.rt.runner.Exec(ctx, t.cell, toolCallID, args)
	} else if rec, ok := t.recoverable(args); ok {
		res = t.rt.runner.ExecRebuilt(ctx, t.cell, rec.execCallID, rec.args,
			cell.Rebuild{RunID: waitRunID(args), SkipOutput: rec.delivered})
	} else {
		res = t.rt.runner.Wait(ctx, t.cell, toolCallID, args)
	}
	runID := res.RunID
	if runID == "" && name != surface.ExecName {
		runID = waitRunID(args) // the run a wait resumed keeps its id on the line (CM-21.10)
	}
	t.rt.debug.event("%s end call=%s status=%s runId=%s code=%s duration=%s", name, toolCallID, res.Status, runID, res.Code, ms(time.Since(start)))
	status := statusOK
	if res.Status == "failed" {
		status = statusError
	}
	t.finish(idx, status)
	details, text := res.Payload()
	return ToolResult{Content: []ContentBlock{{Type: "text", Text: text}}, Details: details}
}

// waitRunID reads the run id of wait arguments.
func waitRunID(args json.RawMessage) string {
	id, fail := cell.ParseWait(args)
	if fail != nil {
		return ""
	}
	return id
}

// recoverable reports whether a wait names a restart-safe run lost in a
// restart that the session transcript can rebuild (CM-9.10).
func (t *Turn) recoverable(args json.RawMessage) (recovery, bool) {
	id := waitRunID(args)
	if id == "" || t.rt.runner.Has(id) {
		return recovery{}, false
	}
	recs, err := t.rt.transcripts.Records(t.opts.SessionKey)
	if err != nil {
		return recovery{}, false
	}
	return findRecoverable(recs, id, t.rt.boot)
}

// inputKind is the exec language for hooks; a missing language is javascript.
func inputKind(args json.RawMessage) string {
	var a struct {
		Language string `json:"language"`
	}
	_ = json.Unmarshal(args, &a)
	if a.Language == "typescript" {
		return "typescript"
	}
	return "javascript"
}

// mirrorCodeCommand makes code and command mirror each other in hook params.
func mirrorCodeCommand(args json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		return args
	}
	if c, ok := obj["code"]; ok {
		if _, has := obj["command"]; !has {
			obj["command"] = c
		}
	} else if c, ok := obj["command"]; ok {
		obj["code"] = c
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return args
	}
	return b
}
