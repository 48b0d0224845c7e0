// Package modelturn is one agent turn driven over the wire, shared by the
// targets that play the model through fakes/fakemodel
// (conformance/gateway, conformance/openclaw). [Turn] is the turn itself:
// its client request, the model's answers to it and what the calls ended
// with; a target's turn embeds it and adds what the target does its own
// way ([Options], the abort, the trajectory). Beneath it are the model's
// side ([Conversation]: the model request awaiting an answer and the wait
// for the next one while the client request may end), the answer for a
// batch of tool calls ([Reply]) and the turn's timing ([Clock]).
package modelturn

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// A Conversation is one turn's conversation with the fake model.
type Conversation struct {
	// Model is the fake model, Key the turn's conversation key.
	Model *fakemodel.Server
	Key   string
	// Name names the turn in errors ("gateway turn t1").
	Name string
	// Done is closed when the turn's client request ended; Ended says how.
	Done  <-chan struct{}
	Ended func() error

	mu      sync.Mutex
	pending *fakemodel.Request
	since   time.Time     // when pending was put
	held    time.Duration // how long the model's side held its requests
}

// Take returns the model request awaiting an answer and clears it.
func (c *Conversation) Take() *fakemodel.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := c.pending
	c.pending = nil
	if !c.since.IsZero() {
		c.held += time.Since(c.since)
		c.since = time.Time{}
	}
	return req
}

// Put makes req the model request awaiting an answer.
func (c *Conversation) Put(req *fakemodel.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending = req
	c.since = time.Now()
}

// Held is how long the model's side held the turn's model requests: from
// each Put to the Take that answered it. A request still pending counts
// up to now.
func (c *Conversation) Held() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.since.IsZero() {
		return c.held + time.Since(c.since)
	}
	return c.held
}

// A Clock times a turn's client request, for conformance.Timed.
type Clock struct {
	mu         sync.Mutex
	start, end time.Time
}

// Start marks the client request sent.
func (k *Clock) Start() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.start = time.Now()
}

// End marks the client request's answer read.
func (k *Clock) End() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.end = time.Now()
}

// Implementation is the client request's duration less what the model's
// side held (conformance.Timed); false until the request has ended.
func (k *Clock) Implementation(c *Conversation) (time.Duration, bool) {
	k.mu.Lock()
	start, end := k.start, k.end
	k.mu.Unlock()
	if start.IsZero() || end.IsZero() {
		return 0, false
	}
	return end.Sub(start) - c.Held(), true
}

// Next waits for the turn's next model request, or for the end of its
// client request (then Ended's error, unless a last request came in).
func (c *Conversation) Next(ctx context.Context) (*fakemodel.Request, error) {
	nctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type got struct {
		req *fakemodel.Request
		err error
	}
	ch := make(chan got, 1)
	go func() {
		req, err := c.Model.Next(nctx, c.Key)
		ch <- got{req, err}
	}()
	select {
	case g := <-ch:
		if g.err != nil {
			return nil, fmt.Errorf("%s: waiting for its model request: %w", c.Name, g.err)
		}
		return g.req, nil
	case <-c.Done:
		cancel()
		if g := <-ch; g.err == nil {
			// The request came in as the turn ended: it is the last one.
			return g.req, nil
		}
		return nil, c.Ended()
	}
}

// Reply is the model answer that makes calls, as parallel tool calls.
func Reply(calls []conformance.ToolCall) fakemodel.Reply {
	rep := fakemodel.Reply{ToolCalls: make([]fakemodel.ToolCall, len(calls))}
	for i, c := range calls {
		args := c.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		rep.ToolCalls[i] = fakemodel.ToolCall{ID: c.ID, Name: c.Name, Arguments: args}
	}
	return rep
}

// Call makes one model tool call as a batch of one.
func Call(ctx context.Context, bc conformance.BatchCaller, id, name string, args json.RawMessage) (conformance.Outcome, error) {
	outs, err := bc.CallBatch(ctx, []conformance.ToolCall{{ID: id, Name: name, Arguments: args}})
	if err != nil {
		return conformance.Outcome{}, err
	}
	return outs[0], nil
}

// SplitClientTools splits a setup's tools into those the implementation
// serves and the client tools a turn's request carries, each in setup
// order.
func SplitClientTools(specs []wire.Spec) (server, client []wire.Spec) {
	for _, s := range specs {
		if s.Source == "client" {
			client = append(client, s)
		} else {
			server = append(server, s)
		}
	}
	return server, client
}
