package modelturn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// FinalAnswer is the text the fake model ends a turn with.
const FinalAnswer = "done"

// A TranscribedResult is a tool result of a session transcript.
type TranscribedResult struct {
	Text    string
	Details json.RawMessage
	IsError bool
}

// Options tell a Turn what its target does its own way.
type Options struct {
	// Model is the fake model, Key the turn's conversation key (its first
	// user message).
	Model *fakemodel.Server
	Key   string
	// Name names the turn in errors ("gateway turn t1").
	Name string
	// Ended reads the answer of a client request that ended before the
	// suite expected: the error it reports (a *conformance.TurnFailure
	// for a turn that failed before any model request), or nil when the
	// answer says nothing the target knows, for an "ended early" error
	// with the HTTP status and body.
	Ended func(status int, body []byte) error
	// Transcribed returns the latest tool result of every tool call in the
	// turn's session transcript, by the call id the model gave. It gives
	// the details and error flags the wire does not carry.
	Transcribed func(ctx context.Context) (map[string]TranscribedResult, error)

	// Optional.

	// Stale reports whether the turn's run ended with the process that ran
	// it (a restart since the turn started): End then does nothing.
	Stale func() bool
	// ReplayedIDs returns the ids under which req carries the outputs of
	// calls; without it, the calls' own ids.
	ReplayedIDs func(req *fakemodel.Request, calls []conformance.ToolCall) []string
	// Details returns an outcome's details from its transcribed details
	// and its text; without it, the transcribed details.
	Details func(details json.RawMessage, text string) json.RawMessage
	// Describe summarizes a model request for an error.
	Describe func(req *fakemodel.Request) string
	// AsksAgain says the implementation may send further model requests
	// after the final answer (a nudge after a failed tool call): End
	// answers each of them with the final text.
	AsksAgain bool
}

// A Turn is one agent run driven over the wire: a client request that
// stays open while the suite, playing the model, answers the
// implementation's model requests one by one. A target's turn embeds it
// and adds what it does its own way: the client request, the abort and
// the trajectory.
type Turn struct {
	opts Options

	done   chan struct{} // closed when the client request ended
	result clientResult
	tools  []conformance.ToolDefinition

	// calls serializes the model's answers; AbortWith does not take it, so
	// an abort can land while a call runs.
	calls  sync.Mutex
	conv   Conversation     // the model's side
	clock  Clock            // the client request's
	latest []fakemodel.Item // the conversation of the latest model request, under calls
	// lastCall is the implementation's time on the latest batch of calls:
	// from the answer that made them to the next model request.
	lastCall atomic.Int64

	seenMu sync.Mutex
	seen   []conformance.ModelRequest // every model request received, in order
}

// clientResult is how a turn's client request ended.
type clientResult struct {
	status int
	body   []byte
	err    error
}

// NewTurn returns a turn that has not started.
func NewTurn(o Options) *Turn {
	t := &Turn{opts: o, done: make(chan struct{})}
	t.conv.Model, t.conv.Key, t.conv.Name = o.Model, o.Key, o.Name
	t.conv.Done, t.conv.Ended = t.done, t.ended
	return t
}

// Start sends req, the turn's client request, with client and waits for
// the turn's first model request, whose tools are the model-visible ones.
// The request is not bound to ctx: the turn lives until it ends.
func (t *Turn) Start(ctx context.Context, client *http.Client, req *http.Request) error {
	t.opts.Model.Expect(t.opts.Key)
	go t.send(client, req)
	first, err := t.conv.Next(ctx)
	if err != nil {
		return err
	}
	t.conv.Put(first)
	t.see(first)
	t.calls.Lock()
	t.latest = first.Items
	t.calls.Unlock()
	t.tools = make([]conformance.ToolDefinition, len(first.Tools))
	for i, d := range first.Tools {
		t.tools[i] = conformance.ToolDefinition{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
	}
	return nil
}

// send makes the turn's client request and records how it ended.
func (t *Turn) send(client *http.Client, req *http.Request) {
	defer close(t.done)
	t.clock.Start()
	resp, err := client.Do(req)
	if err != nil {
		t.result.err = err
		return
	}
	defer resp.Body.Close()
	t.result.status = resp.StatusCode
	t.result.body, t.result.err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if t.result.err == nil {
		t.clock.End()
	}
}

// ended describes a client request that ended before the suite expected.
func (t *Turn) ended() error {
	r := t.result
	if r.err != nil {
		return fmt.Errorf("%s: %w", t.opts.Name, r.err)
	}
	if err := t.opts.Ended(r.status, r.body); err != nil {
		return err
	}
	return fmt.Errorf("%s ended early: HTTP %d: %s", t.opts.Name, r.status, bytes.TrimSpace(r.body))
}

// LatestCall implements conformance.Timed.
func (t *Turn) LatestCall() (time.Duration, bool) {
	d := t.lastCall.Load()
	return time.Duration(d), d > 0
}

// Implementation implements conformance.Timed: the transcript reads
// happen while the suite holds a model request, so they are not counted.
func (t *Turn) Implementation() (time.Duration, bool) { return t.clock.Implementation(&t.conv) }

// ModelInput implements conformance.ModelInputReader.
func (t *Turn) ModelInput() []conformance.ModelItem {
	t.calls.Lock()
	defer t.calls.Unlock()
	out := make([]conformance.ModelItem, len(t.latest))
	for i, it := range t.latest {
		out[i] = conformance.ModelItem{Type: it.Type, Role: it.Role, Text: it.Text, CallID: it.CallID,
			Name: it.Name, Arguments: it.Arguments, Output: it.Output}
	}
	return out
}

// see records what req asked for (ModelRequests).
func (t *Turn) see(req *fakemodel.Request) {
	m := conformance.ModelRequest{Model: req.Model, Credential: req.Header.Get("Authorization"),
		ToolTypes: slices.Clone(req.ToolTypes), OutputBlocks: map[string]int{}}
	if m.Credential == "" {
		m.Credential = req.Header.Get("X-Api-Key")
	}
	for _, it := range req.Items {
		if it.Type == "function_call_output" {
			m.OutputBlocks[it.CallID] = it.OutputBlocks
		}
	}
	t.seenMu.Lock()
	t.seen = append(t.seen, m)
	t.seenMu.Unlock()
}

// Reply implements conformance.ReplyReader: the text of the message items
// of the client request's Responses answer, once it has ended.
func (t *Turn) Reply() (reply, final string, ok bool) {
	select {
	case <-t.done:
	default:
		return "", FinalAnswer, false
	}
	if t.result.err != nil {
		return "", FinalAnswer, false
	}
	var body struct {
		Output []struct {
			Type    string `json:"type"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"output"`
	}
	if json.Unmarshal(t.result.body, &body) != nil {
		return "", FinalAnswer, false
	}
	var texts []string
	for _, o := range body.Output {
		if o.Type != "message" {
			continue
		}
		for _, c := range o.Content {
			if c.Type == "output_text" {
				texts = append(texts, c.Text)
			}
		}
	}
	if len(texts) == 0 {
		return "", FinalAnswer, false
	}
	return strings.Join(texts, ""), FinalAnswer, true
}

// ModelRequests implements conformance.ModelRequestReader.
func (t *Turn) ModelRequests() []conformance.ModelRequest {
	t.seenMu.Lock()
	defer t.seenMu.Unlock()
	return slices.Clone(t.seen)
}

// Tools returns the model-visible tools of the turn's first model request.
func (t *Turn) Tools() []conformance.ToolDefinition { return slices.Clone(t.tools) }

// Call makes one model tool call, as a batch of one.
func (t *Turn) Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (conformance.Outcome, error) {
	return Call(ctx, t, toolCallID, name, args)
}

// CallBatch implements conformance.BatchCaller: one model answer with
// parallel tool calls. The outputs are what the implementation's next
// model request carries; the details and error flags, which the wire does
// not carry, come from the session transcript.
func (t *Turn) CallBatch(ctx context.Context, calls []conformance.ToolCall) ([]conformance.Outcome, error) {
	t.calls.Lock()
	defer t.calls.Unlock()
	pending := t.conv.Take()
	if pending == nil {
		return nil, fmt.Errorf("%s has ended", t.opts.Name)
	}
	answered := time.Now()
	if err := pending.RespondContext(ctx, Reply(calls)); err != nil {
		return nil, fmt.Errorf("%s: answering its model request: %w", t.opts.Name, err)
	}
	req, err := t.conv.Next(ctx)
	if err == nil {
		t.lastCall.Store(int64(time.Since(answered)))
	}
	if err != nil {
		// A run aborted while its calls ran sends no more model requests:
		// what the calls ended with is in the session transcript.
		if outs, ok := t.recorded(ctx, calls); ok {
			return outs, nil
		}
		return nil, err
	}
	t.conv.Put(req)
	t.see(req)
	t.latest = req.Items
	results, err := t.opts.Transcribed(ctx)
	if err != nil {
		return nil, err
	}
	ids := t.replayedIDs(req, calls)
	outs := make([]conformance.Outcome, len(calls))
	for i, c := range calls {
		text, ok := req.ToolOutput(ids[i])
		if !ok {
			return nil, fmt.Errorf("%s: its next model request has no output for tool call %q%s", t.opts.Name, c.ID, t.describe(req))
		}
		outs[i] = conformance.Outcome{Text: text}
		r, ok := results[c.ID]
		if !ok {
			r, ok = results[ids[i]]
		}
		if ok {
			outs[i].Details, outs[i].IsError = t.details(r.Details, text), r.IsError
		}
	}
	return outs, nil
}

// recordedWithin bounds how long a turn that ended early may take to write
// its calls' results to its session transcript: a target may write them
// after its client request ended (OpenClaw does, for a run aborted while a
// call ran).
const recordedWithin = 5 * time.Second

// recorded returns the outcomes of calls from the session transcript, of
// a turn that ended before it sent them to the model; ok is false unless
// the turn ended and, within recordedWithin, every call had a result there.
func (t *Turn) recorded(ctx context.Context, calls []conformance.ToolCall) ([]conformance.Outcome, bool) {
	select {
	case <-t.done:
	default:
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, recordedWithin)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if outs, ok := t.transcribedOutcomes(ctx, calls); ok {
			return outs, true
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-tick.C:
		}
	}
}

// transcribedOutcomes reads the outcomes of calls from the session
// transcript; ok is false unless every call has a result there.
func (t *Turn) transcribedOutcomes(ctx context.Context, calls []conformance.ToolCall) ([]conformance.Outcome, bool) {
	results, err := t.opts.Transcribed(ctx)
	if err != nil {
		return nil, false
	}
	outs := make([]conformance.Outcome, len(calls))
	for i, c := range calls {
		r, ok := results[c.ID]
		if !ok {
			return nil, false
		}
		outs[i] = conformance.Outcome{Text: r.Text, Details: t.details(r.Details, r.Text), IsError: r.IsError}
	}
	return outs, true
}

func (t *Turn) replayedIDs(req *fakemodel.Request, calls []conformance.ToolCall) []string {
	if t.opts.ReplayedIDs != nil {
		return t.opts.ReplayedIDs(req, calls)
	}
	ids := make([]string, len(calls))
	for i, c := range calls {
		ids[i] = c.ID
	}
	return ids
}

func (t *Turn) details(details json.RawMessage, text string) json.RawMessage {
	if t.opts.Details != nil {
		return t.opts.Details(details, text)
	}
	return details
}

// describe is " (<summary of req>)", or "" without Options.Describe.
func (t *Turn) describe(req *fakemodel.Request) string {
	if t.opts.Describe == nil {
		return ""
	}
	return " (" + t.opts.Describe(req) + ")"
}

// End answers the pending model request with the final text and waits for
// the client request to complete.
func (t *Turn) End(ctx context.Context) error {
	t.calls.Lock()
	defer t.calls.Unlock()
	if t.opts.Stale != nil && t.opts.Stale() {
		return nil
	}
	if req := t.conv.Take(); req != nil {
		if err := req.RespondContext(ctx, fakemodel.Reply{Text: FinalAnswer}); err != nil {
			select {
			case <-t.done:
				return nil // the turn ended on its own (aborted)
			default:
			}
			return fmt.Errorf("%s: answering its last model request: %w", t.opts.Name, err)
		}
	}
	if t.opts.AsksAgain {
		for {
			req, err := t.conv.Next(ctx)
			if err != nil {
				select {
				case <-t.done:
					return nil
				default:
					return err
				}
			}
			t.see(req)
			_ = req.RespondContext(ctx, fakemodel.Reply{Text: FinalAnswer})
		}
	}
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s did not end: %w", t.opts.Name, ctx.Err())
	}
}

// AbortWith aborts the run with abort (nil: the abort is already under
// way), unless its client request has ended, and waits for the client
// request to end. It may land while a call runs.
func (t *Turn) AbortWith(ctx context.Context, abort func(context.Context) error) error {
	select {
	case <-t.done:
		t.conv.Take()
		return nil
	default:
	}
	if abort != nil {
		if err := abort(ctx); err != nil {
			return err
		}
	}
	select {
	case <-t.done:
		t.conv.Take()
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s did not end after abort: %w", t.opts.Name, ctx.Err())
	}
}
