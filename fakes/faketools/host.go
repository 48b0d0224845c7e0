package faketools

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance/wire"
)

// A Host runs scripted tools and records what it sees: it is the suite's
// [wire.ToolHost]. It is safe for concurrent use.
type Host struct {
	mu        sync.Mutex
	overrides map[string]wire.Behavior
	gates     map[string]chan struct{}
	held      map[string]int // calls waiting at their tool's gate
	// heldChanged is closed, and replaced, whenever a held count changes.
	heldChanged chan struct{}
	calls       []wire.Call

	hookBlocks   map[string]string
	hookRewrites map[string]json.RawMessage
	hookEvents   []json.RawMessage

	approvals map[string]string
	decisions map[string]chan bool
}

var _ wire.ToolHost = (*Host)(nil)

// NewHost returns an empty host.
func NewHost() *Host {
	return &Host{overrides: map[string]wire.Behavior{}, gates: map[string]chan struct{}{},
		held: map[string]int{}, heldChanged: make(chan struct{}),
		hookBlocks: map[string]string{}, hookRewrites: map[string]json.RawMessage{},
		approvals: map[string]string{}, decisions: map[string]chan bool{}}
}

// SetBehavior overrides the behaviour of every tool named name.
func (h *Host) SetBehavior(name string, b wire.Behavior) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.overrides[name] = b
}

// Hold makes calls of tool name block until Release.
func (h *Host) Hold(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.gates[name]; !ok {
		h.gates[name] = make(chan struct{})
	}
}

// Release lets every held call of tool name (and later ones) proceed.
func (h *Host) Release(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g, ok := h.gates[name]
	if !ok {
		g = make(chan struct{})
		h.gates[name] = g
	}
	select {
	case <-g:
	default:
		close(g)
	}
}

func (h *Host) behavior(s wire.Spec) wire.Behavior {
	h.mu.Lock()
	defer h.mu.Unlock()
	if b, ok := h.overrides[s.Name]; ok {
		return b
	}
	if s.Behavior != nil {
		return *s.Behavior
	}
	return wire.Behavior{}
}

// Invoke runs one call of s with input, as its behaviour says
// ([wire.Behavior.Answer]), after its hold and delay.
func (h *Host) Invoke(ctx context.Context, _ int, s wire.Spec, input json.RawMessage) (wire.Result, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	b := h.behavior(s)
	h.mu.Lock()
	gate := h.gates[s.Name]
	h.mu.Unlock()
	if b.Hold && gate == nil {
		h.Hold(s.Name)
		h.mu.Lock()
		gate = h.gates[s.Name]
		h.mu.Unlock()
	}
	if gate != nil {
		h.addHeld(s.Name, 1)
		var err error
		select {
		case <-gate:
		case <-ctx.Done():
			err = ctx.Err()
		}
		h.addHeld(s.Name, -1)
		if err != nil {
			return wire.Result{}, err
		}
	}
	if b.DelayMs > 0 {
		t := time.NewTimer(time.Duration(b.DelayMs) * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return wire.Result{}, ctx.Err()
		}
	}
	h.mu.Lock()
	h.calls = append(h.calls, wire.Call{Tool: s.Name, Input: append(json.RawMessage(nil), input...)})
	h.mu.Unlock()
	return b.Answer(s.Name, input)
}

// addHeld changes the held count of tool name by delta and wakes the
// watchers of held counts.
func (h *Host) addHeld(name string, delta int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held[name] += delta
	close(h.heldChanged)
	h.heldChanged = make(chan struct{})
}

// Held returns how many calls of tool name are waiting at its gate: held
// and neither released nor cancelled yet.
func (h *Host) Held(name string) int {
	n, _ := h.WatchHeld(name)
	return n
}

// WatchHeld returns what Held returns, and a channel that is closed when a
// held count (of any tool) changes next. A caller waiting for a count
// reads it again once the channel is closed.
func (h *Host) WatchHeld(name string) (int, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held[name], h.heldChanged
}

// Calls returns the calls that reached tool name, in order.
func (h *Host) Calls(name string) []wire.Call {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []wire.Call
	for _, c := range h.calls {
		if c.Tool == name {
			out = append(out, c)
		}
	}
	return out
}

// BlockHook makes the before_tool_call hook block calls of tool name.
func (h *Host) BlockHook(name, reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hookBlocks[name] = reason
}

// RewriteHook makes the hook replace the params of calls of tool name.
func (h *Host) RewriteHook(name string, params json.RawMessage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hookRewrites[name] = params
}

// BeforeToolCall records a hook event (any JSON object with a toolName
// member) and returns the scripted decision.
func (h *Host) BeforeToolCall(_ context.Context, event json.RawMessage) (wire.Decision, error) {
	var ev struct {
		ToolName string `json:"toolName"`
	}
	_ = json.Unmarshal(event, &ev)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hookEvents = append(h.hookEvents, append(json.RawMessage(nil), event...))
	if reason, ok := h.hookBlocks[ev.ToolName]; ok {
		return wire.Decision{Block: true, Reason: reason}, nil
	}
	if p, ok := h.hookRewrites[ev.ToolName]; ok {
		return wire.Decision{Params: p}, nil
	}
	return wire.Decision{}, nil
}

// HookEvents returns every recorded hook event.
func (h *Host) HookEvents() []json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]json.RawMessage(nil), h.hookEvents...)
}

// SetApproval scripts the decision for calls of tool name: wire.Granted, wire.Denied
// or wire.Held (decided later by Decide).
func (h *Host) SetApproval(name, decision string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.approvals[name] = decision
	if decision == wire.Held {
		if _, ok := h.decisions[name]; !ok {
			h.decisions[name] = make(chan bool, 1)
		}
	}
}

// Decide answers every held approval of tool name.
func (h *Host) Decide(name string, granted bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if granted {
		h.approvals[name] = wire.Granted
	} else {
		h.approvals[name] = wire.Denied
	}
	if ch, ok := h.decisions[name]; ok {
		close(ch)
		delete(h.decisions, name)
	}
}

// Approve returns the approval decision for a call of tool name. Without a
// scripted decision, calls are denied: approval must be explicit.
func (h *Host) Approve(ctx context.Context, name string) (bool, error) {
	for {
		h.mu.Lock()
		d := h.approvals[name]
		ch := h.decisions[name]
		h.mu.Unlock()
		switch d {
		case wire.Granted:
			return true, nil
		case wire.Held:
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return false, ctx.Err()
			}
		default:
			return false, nil
		}
	}
}
