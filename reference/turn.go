package codemode

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/contract"
	"github.com/codemodekit/kit/reference/internal/mcpns"
	"github.com/codemodekit/kit/reference/internal/toolsearch"
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
	// SenderID and ChannelID name who sent the turn's message and the
	// channel it came from; nested calls keep them (CM-16.2).
	SenderID  string
	ChannelID string
	// Tools are the turn's effective tools before policy: core, plugin, MCP
	// and the client's tools.
	Tools []Tool
	// DisableTools marks a run that intentionally uses no tools.
	DisableTools bool
	// Raw marks a raw model call: no tool at all, MCP servers included.
	Raw   bool
	Hooks Hooks
}

// A Turn is one agent run, made by [Runtime.StartTurn]. Its methods are
// safe for concurrent use.
type Turn struct {
	rt       *Runtime
	opts     TurnOptions
	settings config.Settings
	active   bool
	visible  []Definition
	direct   map[string]Tool // model-visible tools by name (direct-only, or all when inactive)
	catalog  *catalog.Catalog
	byID     map[string]Tool
	mcp      *mcpns.Model // the run's MCP namespace, nil without MCP
	cell     *cell.Turn   // the turn as code mode's cells see it, nil when inactive
	// toolSearch is the turn's Tool Search, nil unless it applies.
	toolSearch *toolSearch

	ctx    context.Context
	cancel context.CancelFunc
	ended  atomic.Bool // End was called (not an abort)

	mu         sync.Mutex
	trajectory []TrajectoryEvent
	contracts  map[string]compiledContract
	nsRuns     map[string]map[string]*nsRun // exec call id -> namespace id -> scope
}

// toolSearch is a turn's Tool Search (toolsearch.go).
type toolSearch struct {
	mode     string
	controls toolsearch.Controls
	seq      atomic.Int64 // nested calls of the turn's tool_call calls
	// cell is the turn as tool_search_code's runs see it; its counters
	// count every Tool Search call of the turn.
	cell         *cell.Turn
	counterScope string
}

type compiledContract struct {
	c   *contract.Contract
	err error
}

// Active reports whether code mode is active for the turn.
func (t *Turn) Active() bool { return t.active }

// Tools returns the model-visible tools, in provider order.
func (t *Turn) Tools() []Definition { return append([]Definition(nil), t.visible...) }

// Abort aborts the agent run: in-flight exec and wait calls fail and its
// suspended code-mode runs are discarded.
func (t *Turn) Abort() {
	t.cancel()
	t.rt.runner.Drop(t.opts.RunID)
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

// aborted reports whether the agent run was aborted (not ended).
func (t *Turn) aborted() bool { return t.ctx.Err() != nil && !t.ended.Load() }

// record adds ev to the trajectory as running and returns its index.
func (t *Turn) record(ev TrajectoryEvent) int {
	ev.Status = statusRunning
	t.mu.Lock()
	defer t.mu.Unlock()
	t.trajectory = append(t.trajectory, ev)
	return len(t.trajectory) - 1
}

// finish sets the status of the trajectory event at idx.
func (t *Turn) finish(idx int, status string) {
	t.mu.Lock()
	t.trajectory[idx].Status = status
	t.mu.Unlock()
}

// hookEvent adds the agent run context to a hook event.
func (t *Turn) hookEvent(e HookEvent) HookEvent {
	e.AgentID, e.SessionID, e.SessionKey = t.opts.AgentID, t.opts.SessionID, t.opts.SessionKey
	e.SenderID, e.ChannelID = t.opts.SenderID, t.opts.ChannelID
	return e
}

// mergeCancel returns a context cancelled when either a or b is.
func mergeCancel(a, b context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(a)
	stop := context.AfterFunc(b, cancel)
	return ctx, func() { stop(); cancel() }
}
