package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/contract"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/mcpns"
	"github.com/codemodekit/kit/reference/internal/surface"
)

// TurnOptions describe one agent run.
type TurnOptions struct {
	// Config is the OpenClaw-style configuration document.
	Config json.RawMessage
	// AgentID, SessionID, SessionKey and RunID scope the turn. RunID is the
	// agent run id; suspended code-mode runs only resume within it.
	AgentID    string
	SessionID  string
	SessionKey string
	RunID      string
	// Tools are the turn's effective tools before policy: core, plugin, MCP
	// and the client's tools.
	Tools []Tool
	// DisableTools marks a run that intentionally uses no tools.
	DisableTools bool
	// Raw marks a raw model call: no tool at all, MCP servers included.
	Raw   bool
	Hooks Hooks
}

// A Turn is one agent run. Its methods are safe for concurrent use.
type Turn struct {
	rt       *Runtime
	opts     TurnOptions
	settings config.Settings
	active   bool
	visible  []Definition
	direct   map[string]Tool // model-visible tools by name (direct-only, or all when inactive)
	catalog  *catalog.Catalog
	byID     map[string]Tool
	scope    cell.Scope

	ctx    context.Context
	cancel context.CancelFunc

	mu         sync.Mutex
	counters   struct{ search, describe, call int }
	trajectory []TrajectoryEvent
	contracts  map[string]compiledContract
	nsRuns     map[string]map[string]*nsRun // exec call id -> namespace id -> scope
	mcp        *mcpns.Model                 // the run's MCP namespace, nil without MCP
	ended      atomic.Bool                  // End was called (not an abort)

	// plainConfig is the guest configuration of a cell without registered
	// namespaces, made once: the rest of it is fixed for the turn.
	plainConfig struct {
		once sync.Once
		raw  []byte
		err  error
	}
}

type compiledContract struct {
	c   *contract.Contract
	err error
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

// ErrSurface reports a model-visible surface that is not exactly exec, wait
// and approved direct-only tools: the agent run fails closed before any
// model request (CM-4.30).
var ErrSurface = errors.New("code mode payload check failed.")

// StartTurn resolves configuration and policy and prepares the model-visible
// surface of one agent run.
func (rt *Runtime) StartTurn(ctx context.Context, opts TurnOptions) (*Turn, error) {
	res := config.Resolve(opts.Config, opts.AgentID)
	t := &Turn{rt: rt, opts: opts, settings: res.Settings, direct: map[string]Tool{}, byID: map[string]Tool{},
		scope: cell.Scope{AgentRunID: opts.RunID, SessionID: opts.SessionID, SessionKey: opts.SessionKey, AgentID: opts.AgentID}}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	if opts.Raw || opts.DisableTools || res.Policy.EmptyAllowList() {
		return t, nil
	}
	var effective []Tool
	var ctools []catalog.Tool
	all := append(append([]Tool(nil), opts.Tools...), rt.mcpTools(ctx, res.MCPServers)...)
	for i, tool := range all {
		ct := toCatalogTool(tool, i)
		if !res.Policy.Allows(policyRef(tool, ct)) {
			continue
		}
		effective = append(effective, tool)
		ctools = append(ctools, ct)
		t.byID[catalog.ID(ct)] = tool
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
	t.buildMCP()
	_, hasMCP := countSources(t.catalog)
	exec := surface.Exec(t.catalog, surface.Options{MCP: hasMCP, Swarm: res.Settings.Swarm, NamespacePrompt: t.promptBlock()})
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

// policyRef names a tool for policy matching (CM-3.6).
func policyRef(t Tool, ct catalog.Tool) config.ToolRef {
	ref := config.ToolRef{Name: t.Name, ID: catalog.ID(ct)}
	switch t.Source {
	case SourcePlugin:
		ref.Owner = t.Owner
	case SourceMCP:
		ref.Owner = "bundle-mcp"
	}
	return ref
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

func countSources(c *catalog.Catalog) (cell.Sources, bool) {
	o, m, cl := c.Counts()
	return cell.Sources{OpenClaw: o, MCP: m, Client: cl}, m > 0
}

func toCatalogTool(t Tool, i int) catalog.Tool {
	ct := catalog.Tool{Name: t.Name, Label: t.Label, Description: t.Description, Owner: t.Owner, Bundled: t.Bundled,
		MCPToolName: t.MCPToolName, Parameters: t.Parameters, OutputSchema: t.OutputSchema, DirectOnly: t.DirectOnly, Index: i}
	switch t.Source {
	case SourcePlugin:
		ct.Kind = catalog.Plugin
	case SourceMCP:
		ct.Kind = catalog.MCP
	case SourceClient:
		ct.Kind = catalog.Client
	default:
		ct.Kind = catalog.Core
	}
	return ct
}

func definitionOf(t Tool) Definition {
	params := t.Parameters
	if len(strings.TrimSpace(string(params))) == 0 {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return Definition{Name: t.Name, Label: t.Label, Description: t.Description, Parameters: params}
}

// Active reports whether code mode is active for the turn.
func (t *Turn) Active() bool { return t.active }

// Tools returns the model-visible tools, in provider order.
func (t *Turn) Tools() []Definition { return append([]Definition(nil), t.visible...) }

// Abort aborts the agent run: in-flight exec and wait calls fail and its
// suspended code-mode runs are discarded.
func (t *Turn) Abort() {
	t.cancel()
	t.rt.runner.Drop(t.scope.AgentRunID)
}

// End ends the agent run normally. Its suspended runs stay stored until
// they expire, so a later wait for them is refused with the right message
// (CM-22.8) rather than as unknown.
func (t *Turn) End() {
	t.ended.Store(true)
	t.cancel()
}

// Trajectory returns the turn's tool calls in start order; nested calls name
// the exec or wait call they ran under.
func (t *Turn) Trajectory() []TrajectoryEvent {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]TrajectoryEvent(nil), t.trajectory...)
}

// Call answers one model tool call. The call and its result are appended
// to the session transcript.
func (t *Turn) Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (ToolResult, error) {
	t.transcribe(TranscriptRecord{Type: "tool_call", ToolCallID: toolCallID, Name: name, Arguments: args})
	res := t.call(ctx, toolCallID, name, args)
	var text []string
	for _, b := range res.Content {
		if b.Type == "text" {
			text = append(text, b.Text)
		}
	}
	t.transcribe(TranscriptRecord{Type: "tool_result", ToolCallID: toolCallID, Name: name,
		Text: strings.Join(text, "\n"), Details: res.Details, IsError: res.IsError})
	return res, nil
}

func (t *Turn) transcribe(rec TranscriptRecord) {
	rec.AgentRunID, rec.Boot = t.opts.RunID, t.rt.boot
	_ = t.rt.transcripts.Append(t.opts.SessionKey, rec)
}

func (t *Turn) call(ctx context.Context, toolCallID, name string, args json.RawMessage) ToolResult {
	ctx, stop := mergeCancel(ctx, t.ctx)
	defer stop()
	if t.active && (name == surface.ExecName || name == surface.WaitName) {
		return t.callControl(ctx, toolCallID, name, args)
	}
	tool, ok := t.direct[name]
	if !ok {
		return ToolResult{Content: []ContentBlock{{Type: "text", Text: fmt.Sprintf("Tool %s not found.", name)}}, IsError: true}
	}
	res, err := t.runTool(ctx, tool, ToolCall{ToolCallID: toolCallID, Name: name, Input: args}, "")
	if err != nil {
		return ToolResult{Content: []ContentBlock{{Type: "text", Text: err.Error()}}, IsError: true}
	}
	return res
}

// mergeCancel returns a context cancelled when either a or b is.
func mergeCancel(a, b context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(a)
	stop := context.AfterFunc(b, cancel)
	return ctx, func() { stop(); cancel() }
}

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
			t.finish(idx, StatusBlocked)
			return blockedResult(d.Reason, err)
		}
		if d.Params != nil {
			args = d.Params
		}
	}
	start := time.Now()
	t.rt.debug.event("%s start call=%s", name, toolCallID)
	if t.rt.debug.codeMode && name == surface.ExecName && inputKind(args) == "typescript" && t.settings.LanguageEnabled("typescript") {
		t.rt.debug.typeScriptLoaded()
	}
	var res cell.Result
	if name == surface.ExecName {
		res = t.rt.runner.Exec(ctx, hostAdapter{t}, t.scope, toolCallID, args)
	} else if rec, ok := t.recoverable(args); ok {
		res = t.rt.runner.ExecRebuilt(ctx, hostAdapter{t}, t.scope, rec.execCallID, rec.args,
			cell.Rebuild{RunID: t.waitRunID(args), SkipOutput: rec.delivered})
	} else {
		res = t.rt.runner.Wait(ctx, hostAdapter{t}, t.scope, toolCallID, args)
	}
	t.rt.debug.event("%s end call=%s status=%s runId=%s code=%s duration=%s", name, toolCallID, res.Status, res.RunID, res.Code, ms(time.Since(start)))
	status := StatusOK
	if res.Status == "failed" {
		status = StatusError
	}
	t.finish(idx, status)
	details, text := res.Payload()
	return ToolResult{Content: []ContentBlock{{Type: "text", Text: text}}, Details: details}
}

// waitRunID reads the run id of wait arguments.
func (t *Turn) waitRunID(args json.RawMessage) string {
	id, fail := cell.ParseWait(args)
	if fail != nil {
		return ""
	}
	return id
}

// recoverable reports whether a wait names a restart-safe run lost in a
// restart that the session transcript can rebuild (CM-9.10).
func (t *Turn) recoverable(args json.RawMessage) (recovery, bool) {
	id := t.waitRunID(args)
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

// hookEvent adds the agent run context to a hook event.
func (t *Turn) hookEvent(e HookEvent) HookEvent {
	e.AgentID, e.SessionID, e.SessionKey = t.opts.AgentID, t.opts.SessionID, t.opts.SessionKey
	return e
}

// DefaultBlockReason is the message of a hook block without a reason.
const DefaultBlockReason = "Tool call blocked by before_tool_call hook."

func blockedResult(reason string, err error) ToolResult {
	msg := reason
	if msg == "" && err != nil {
		msg = err.Error()
	}
	if msg == "" {
		msg = DefaultBlockReason
	}
	return ToolResult{Content: []ContentBlock{{Type: "text", Text: msg}}, IsError: true}
}

func (t *Turn) record(ev TrajectoryEvent) int {
	ev.Status = StatusRunning
	t.mu.Lock()
	defer t.mu.Unlock()
	t.trajectory = append(t.trajectory, ev)
	return len(t.trajectory) - 1
}

func (t *Turn) finish(idx int, status string) {
	t.mu.Lock()
	t.trajectory[idx].Status = status
	t.mu.Unlock()
}

// Tool call denial and block messages for nested calls.
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
			t.finish(idx, StatusBlocked)
			msg := d.Reason
			if msg == "" {
				msg = DefaultBlockReason
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
			t.finish(idx, StatusDenied)
			id := call.CatalogID
			if id == "" {
				id = tool.Name
			}
			return ToolResult{}, errors.New(deniedMessage(id))
		}
	}
	if tool.Execute == nil {
		t.finish(idx, StatusError)
		return ToolResult{}, fmt.Errorf("tool %s has no implementation", tool.Name)
	}
	res, err := tool.Execute(ctx, call)
	if err != nil {
		t.finish(idx, StatusError)
		return ToolResult{}, err
	}
	t.finish(idx, StatusOK)
	return res, nil
}

// The cell.Host implementation.

// Catalog implements cell.Host.
func (t *Turn) Catalog() *catalog.Catalog { return t.catalog }

// Settings implements cell.Host.
func (t *Turn) Settings() config.Settings { return t.settings }

// GuestConfig implements cell.Host: everything but ALL_TOOLS, which the
// cell installs from the catalog's JSON (built once per catalog,
// catalog.Guest); namespace scopes once per exec.
func (t *Turn) GuestConfig(execCallID string) ([]byte, error) {
	namespaces, err := t.scopes(execCallID)
	if err != nil {
		return nil, err
	}
	if len(namespaces) > 0 {
		return t.guestConfig(namespaces)
	}
	// The caller keeps the bytes (the VM pool compares them) and never
	// changes them, so every such cell shares one copy.
	pc := &t.plainConfig
	pc.once.Do(func() { pc.raw, pc.err = t.guestConfig(namespaces) })
	return pc.raw, pc.err
}

// PlainGuestConfig implements cell's optional plainConfiger: the guest
// configuration of every cell of the turn when no namespace scope has to
// be made for a cell, which is all GuestConfig would do besides.
func (t *Turn) PlainGuestConfig() ([]byte, bool) {
	if len(t.visibleNamespaces()) > 0 {
		return nil, false
	}
	pc := &t.plainConfig
	pc.once.Do(func() { pc.raw, pc.err = t.guestConfig([]guest.Namespace{}) })
	return pc.raw, pc.err == nil
}

// guestConfig encodes the guest configuration with the registered
// namespaces' scopes of one cell.
func (t *Turn) guestConfig(namespaces []guest.Namespace) ([]byte, error) {
	gc := guest.Config{MaxOutputBytes: t.settings.MaxOutputBytes,
		APIFiles: t.apiFiles(), Namespaces: namespaces, Swarm: t.guestSwarm()}
	if m := t.mcpNamespace(); m != nil {
		gc.Namespaces = append([]guest.Namespace{*m}, gc.Namespaces...)
	}
	return json.Marshal(gc)
}

// Telemetry implements cell.Host.
func (t *Turn) Telemetry() cell.Telemetry {
	src, _ := countSources(t.catalog)
	names := t.visibleNames()
	t.mu.Lock()
	defer t.mu.Unlock()
	return cell.Telemetry{CatalogSize: len(t.catalog.Entries), Sources: src,
		SearchCount: t.counters.search, DescribeCount: t.counters.describe, CallCount: t.counters.call, VisibleTools: names}
}

// Count implements cell.Host.
func (t *Turn) Count(method string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch method {
	case guest.MethodSearch:
		t.counters.search++
	case guest.MethodDescribe:
		t.counters.describe++
	default:
		t.counters.call++
	}
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

// Aborted implements cell.Host.
func (t *Turn) Aborted() bool { return t.ctx.Err() != nil && !t.ended.Load() }

// ReplaySafe implements cell.Host: only openclaw-source tools marked
// replay-safe qualify.
func (t *Turn) ReplaySafe(e catalog.Entry) bool {
	tool, ok := t.byID[e.ID]
	return ok && e.Source == catalog.SourceOpenClaw && tool.ReplaySafe
}

// hostAdapter exposes Turn as a cell.Host with the nested-call method name
// the interface wants, keeping Turn.Call for model-level calls.
type hostAdapter struct{ *Turn }

func (h hostAdapter) Call(ctx context.Context, e catalog.Entry, input json.RawMessage, n cell.Nested) (cell.ToolResult, error) {
	return h.nestedCall(ctx, e, input, n)
}
