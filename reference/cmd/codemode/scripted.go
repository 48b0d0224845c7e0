package main

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance/wire"
)

// A scriptedHost answers the catalog's tools as their behaviours say
// ([wire.Behavior.Answer]): the codemode command runs a scripted catalog on
// purpose, so that a program can be tried against tools that need no
// outside system. A tool whose behaviour holds its calls answers once
// release was called; delays are slept. The before_tool_call hook lets
// every call run, and approvals are denied, as no one is there to grant
// them. It is safe for concurrent use.
type scriptedHost struct {
	releaseOnce sync.Once
	released    chan struct{}
}

func newScriptedHost() *scriptedHost { return &scriptedHost{released: make(chan struct{})} }

var _ wire.ToolHost = (*scriptedHost)(nil)

// Invoke implements wire.ToolHost.
func (h *scriptedHost) Invoke(ctx context.Context, _ int, s wire.Spec, input json.RawMessage) (wire.Result, error) {
	var b wire.Behavior
	if s.Behavior != nil {
		b = *s.Behavior
	}
	if b.Hold {
		select {
		case <-h.released:
		case <-ctx.Done():
			return wire.Result{}, ctx.Err()
		}
	}
	if b.DelayMs > 0 {
		t := time.NewTimer(time.Duration(b.DelayMs) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return wire.Result{}, ctx.Err()
		}
	}
	return b.Answer(s.Name, input)
}

// BeforeToolCall implements wire.ToolHost: every call runs as asked.
func (h *scriptedHost) BeforeToolCall(context.Context, json.RawMessage) (wire.Decision, error) {
	return wire.Decision{}, nil
}

// Approve implements wire.ToolHost: without someone to ask, approval is
// denied.
func (h *scriptedHost) Approve(context.Context, string) (bool, error) { return false, nil }

// release lets every held call answer, now and from then on.
func (h *scriptedHost) release() { h.releaseOnce.Do(func() { close(h.released) }) }
