package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/internal/modelturn"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// finalAnswer is the text the fake model ends a turn with.
const finalAnswer = "done"

// clientResult is how a turn's client request ended.
type clientResult struct {
	status int
	body   []byte
	err    error
}

// turn is one agent run: a client request to the gateway that stays open
// while the suite, playing the model, answers the gateway's model requests
// one by one.
type turn struct {
	t    *target
	id   string
	key  string // the conversation key: the turn's first user message
	spec conformance.TurnSpec
	gen  int

	done   chan struct{} // closed when the client request ended
	result clientResult
	tools  []conformance.ToolDefinition

	// calls serializes the model's answers; Abort does not take it, so an
	// abort can land while a call runs.
	calls sync.Mutex
	conv  modelturn.Conversation // the model's side
	clock modelturn.Clock        // the client request's
}

func (t *target) StartTurn(ctx context.Context, spec conformance.TurnSpec) (conformance.Turn, error) {
	if err := t.writeConfig(); err != nil {
		return nil, err
	}
	p, gen, err := t.current()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.turnSeq++
	id := "t" + strconv.Itoa(t.turnSeq)
	t.mu.Unlock()
	tu := &turn{t: t, id: id, key: "conformance turn " + id, spec: spec, gen: gen, done: make(chan struct{})}
	tu.conv.Model, tu.conv.Key, tu.conv.Name = t.model, tu.key, "gateway turn "+id
	tu.conv.Done, tu.conv.Ended = tu.done, tu.ended
	t.model.Expect(tu.key)

	_, client := t.tools()
	tools := make([]map[string]any, len(client))
	for i, s := range client {
		s.Behavior = nil
		tools[i] = map[string]any{"type": "function", "name": s.Name, "description": s.Description, "parameters": s.Schema(), "x_codemodekit": s}
	}
	body := map[string]any{
		"model": "codemode", "input": tu.key, "stream": false, "tools": tools,
		"metadata": map[string]string{
			"turnId": id, "agentId": spec.AgentID, "sessionId": spec.SessionID, "sessionKey": spec.SessionKey, "runId": spec.RunID,
			"disableTools": strconv.FormatBool(spec.DisableTools), "noTools": strconv.FormatBool(spec.NoTools),
		},
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	go tu.send(p, b)
	req, err := tu.conv.Next(ctx)
	if err != nil {
		return nil, err
	}
	tu.conv.Put(req)
	tu.tools = make([]conformance.ToolDefinition, len(req.Tools))
	for i, d := range req.Tools {
		tu.tools[i] = conformance.ToolDefinition{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
	}
	return tu, nil
}

// send makes the turn's client request and records how it ended. It is
// not bound to any step's context: the turn lives until it ends.
func (tu *turn) send(p *process, body []byte) {
	defer close(tu.done)
	tu.clock.Start()
	resp, err := tu.t.client.Post(p.url+"/v1/responses", "application/json", bytes.NewReader(body))
	if err != nil {
		tu.result.err = err
		return
	}
	defer resp.Body.Close()
	tu.result.status = resp.StatusCode
	tu.result.body, tu.result.err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if tu.result.err == nil {
		tu.clock.End()
	}
}

// Implementation implements conformance.Timed.
func (tu *turn) Implementation() (time.Duration, bool) { return tu.clock.Implementation(&tu.conv) }

// ended describes a client request that ended before the suite expected:
// a turn failure when the gateway said the turn failed before any model
// request.
func (tu *turn) ended() error {
	r := tu.result
	if r.err != nil {
		return fmt.Errorf("gateway turn %s: %w", tu.id, r.err)
	}
	var res struct {
		Status string `json:"status"`
		Error  *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(r.body, &res) == nil && res.Error != nil {
		if res.Error.Code == "turn_failed" {
			return &conformance.TurnFailure{Message: res.Error.Message}
		}
		return fmt.Errorf("gateway turn %s ended: %s (%s): %s", tu.id, res.Status, res.Error.Code, res.Error.Message)
	}
	return fmt.Errorf("gateway turn %s ended early: HTTP %d: %s", tu.id, r.status, bytes.TrimSpace(r.body))
}

func (tu *turn) Tools() []conformance.ToolDefinition { return slices.Clone(tu.tools) }

func (tu *turn) Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (conformance.Outcome, error) {
	return modelturn.Call(ctx, tu, toolCallID, name, args)
}

// CallBatch implements conformance.BatchCaller: one model answer with
// parallel tool calls. The outputs come from the gateway's next model
// request; the details and error flags, which the wire does not carry,
// from the session transcript.
func (tu *turn) CallBatch(ctx context.Context, calls []conformance.ToolCall) ([]conformance.Outcome, error) {
	tu.calls.Lock()
	defer tu.calls.Unlock()
	pending := tu.conv.Take()
	if pending == nil {
		return nil, fmt.Errorf("gateway turn %s has ended", tu.id)
	}
	if err := pending.Respond(modelturn.Reply(calls)); err != nil {
		return nil, fmt.Errorf("gateway turn %s: answering its model request: %w", tu.id, err)
	}
	req, err := tu.conv.Next(ctx)
	if err != nil {
		// A run aborted while its calls ran sends no more model requests:
		// what the calls ended with is in the session transcript.
		if outs, ok := tu.recorded(ctx, calls); ok {
			return outs, nil
		}
		return nil, err
	}
	tu.conv.Put(req)
	results, err := tu.transcribed(ctx)
	if err != nil {
		return nil, err
	}
	outs := make([]conformance.Outcome, len(calls))
	for i, c := range calls {
		text, ok := req.ToolOutput(c.ID)
		if !ok {
			return nil, fmt.Errorf("gateway turn %s: its next model request has no output for tool call %q", tu.id, c.ID)
		}
		outs[i] = conformance.Outcome{Text: text}
		if r, ok := results[c.ID]; ok {
			outs[i].Details, outs[i].IsError = r.Details, r.IsError
		}
	}
	return outs, nil
}

// recorded returns the outcomes of calls from the session transcript, of
// a turn that ended before it sent them to the model; ok is false unless
// the turn ended and every call has a result there.
func (tu *turn) recorded(ctx context.Context, calls []conformance.ToolCall) ([]conformance.Outcome, bool) {
	select {
	case <-tu.done:
	default:
		return nil, false
	}
	results, err := tu.transcribed(ctx)
	if err != nil {
		return nil, false
	}
	outs := make([]conformance.Outcome, len(calls))
	for i, c := range calls {
		r, ok := results[c.ID]
		if !ok {
			return nil, false
		}
		outs[i] = conformance.Outcome{Text: r.Text, Details: r.Details, IsError: r.IsError}
	}
	return outs, true
}

// A transcribedResult is a tool result of the session transcript.
type transcribedResult struct {
	Text    string
	Details json.RawMessage
	IsError bool
}

// transcribed returns the latest tool result of every tool call in the
// turn's session transcript.
func (tu *turn) transcribed(ctx context.Context) (map[string]transcribedResult, error) {
	recs, err := tu.t.Transcript(ctx, tu.spec.SessionKey)
	if errors.Is(err, conformance.ErrNotApplicable) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]transcribedResult{}
	for _, raw := range recs {
		var r struct {
			Type       string          `json:"type"`
			ToolCallID string          `json:"toolCallId"`
			Text       string          `json:"text"`
			Details    json.RawMessage `json:"details"`
			IsError    bool            `json:"isError"`
		}
		if json.Unmarshal(raw, &r) != nil || r.Type != "tool_result" {
			continue
		}
		if string(r.Details) == "null" {
			r.Details = nil
		}
		out[r.ToolCallID] = transcribedResult{Text: r.Text, Details: r.Details, IsError: r.IsError}
	}
	return out, nil
}

// stale reports whether the turn's gateway was restarted since it
// started: its run ended with that process.
func (tu *turn) stale() bool {
	_, gen, err := tu.t.current()
	return err != nil || gen != tu.gen
}

// End answers the pending model request with a final text and waits for
// the client request to complete.
func (tu *turn) End(ctx context.Context) error {
	tu.calls.Lock()
	defer tu.calls.Unlock()
	if tu.stale() {
		return nil
	}
	if req := tu.conv.Take(); req != nil {
		if err := req.Respond(fakemodel.Reply{Text: finalAnswer}); err != nil {
			select {
			case <-tu.done:
				return nil // the turn ended on its own (aborted)
			default:
			}
			return fmt.Errorf("gateway turn %s: answering its last model request: %w", tu.id, err)
		}
	}
	select {
	case <-tu.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("gateway turn %s did not end: %w", tu.id, ctx.Err())
	}
}

// Abort asks the gateway to abort the run and waits for its client
// request to end. It may land while a call runs.
func (tu *turn) Abort(ctx context.Context) error {
	p, gen, err := tu.t.current()
	if err != nil || gen != tu.gen {
		return nil
	}
	select {
	case <-tu.done:
		tu.conv.Take()
		return nil
	default:
	}
	if err := tu.t.do(ctx, p, http.MethodPost, "/v1/turns/"+tu.id+"/abort", struct{}{}, nil); err != nil {
		return err
	}
	select {
	case <-tu.done:
		tu.conv.Take()
		return nil
	case <-ctx.Done():
		return fmt.Errorf("gateway turn %s did not end after abort: %w", tu.id, ctx.Err())
	}
}

func (tu *turn) Trajectory(ctx context.Context) ([]json.RawMessage, error) {
	var res struct {
		Events []json.RawMessage `json:"events"`
	}
	if err := tu.t.get(ctx, "/v1/turns/"+tu.id+"/trajectory", &res); err != nil {
		return nil, err
	}
	if res.Events == nil {
		res.Events = []json.RawMessage{}
	}
	return res.Events, nil
}
