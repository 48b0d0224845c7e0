package openclaw

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/internal/modelturn"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// finalAnswer is the text the fake model ends a turn with.
const finalAnswer = "done"

// firstRequestTimeout bounds the wait for a fresh gateway's first model
// request (its first turn loads the provider plugin and builds the catalog).
const firstRequestTimeout = 60 * time.Second

// clientResult is how a turn's client request ended.
type clientResult struct {
	status int
	body   []byte
	err    error
}

// turn is one agent run: a POST /v1/responses that stays open while the
// suite, playing the model, answers OpenClaw's model requests.
type turn struct {
	t       *target
	g       *gateway
	key     string
	session string
	spec    conformance.TurnSpec
	cancel  context.CancelFunc // ends the client request

	done   chan struct{}
	result clientResult
	tools  []conformance.ToolDefinition

	calls sync.Mutex
	conv  modelturn.Conversation // the model's side
	clock modelturn.Clock        // the client request's
}

func (t *target) StartTurn(ctx context.Context, spec conformance.TurnSpec) (conformance.Turn, error) {
	if spec.DisableTools || spec.NoTools {
		return nil, conformance.NotApplicable("openclaw: an HTTP turn cannot disable tools or make a raw tool-less model call")
	}
	fresh, err := t.prepare()
	if err != nil {
		return nil, err
	}
	if fresh {
		// The gateway's start took the step's time (a minute on a loaded
		// machine): the first model request gets a wait of its own.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), firstRequestTimeout)
		defer cancel()
	}
	key := t.r.nextTurn()
	agent := spec.AgentID
	if agent == "" {
		agent = "main"
	}
	// Session keys are made unique per scenario: scenarios share a gateway
	// and its session store.
	session := "agent:" + agent + ":cmk" + strconv.Itoa(t.id) + "-" + spec.SessionID
	cctx, cancel := context.WithCancel(context.Background())
	tu := &turn{t: t, g: t.gw, key: key, session: session, spec: spec, cancel: cancel, done: make(chan struct{})}
	tu.conv.Model, tu.conv.Key, tu.conv.Name = t.r.model, tu.key, "openclaw turn "+key
	tu.conv.Done, tu.conv.Ended = tu.done, tu.ended
	t.r.model.Expect(key)

	_, client := t.tools()
	tools := make([]map[string]any, len(client))
	for i, s := range client {
		tools[i] = map[string]any{"type": "function", "name": s.Name, "description": s.Description, "parameters": s.Schema()}
	}
	body := map[string]any{"model": "openclaw", "input": key, "stream": false}
	if len(tools) > 0 {
		body["tools"] = tools
	}
	b, err := json.Marshal(body)
	if err != nil {
		cancel()
		return nil, err
	}
	go tu.send(cctx, agent, b)
	req, err := tu.conv.Next(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	tu.conv.Put(req)
	tu.tools = make([]conformance.ToolDefinition, len(req.Tools))
	for i, d := range req.Tools {
		tu.tools[i] = conformance.ToolDefinition{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
	}
	return tu, nil
}

// send makes the client request and records how it ended.
func (tu *turn) send(ctx context.Context, agent string, body []byte) {
	defer close(tu.done)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tu.g.url+"/v1/responses", bytes.NewReader(body))
	if err != nil {
		tu.result.err = err
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tu.g.token)
	req.Header.Set("x-openclaw-session-key", tu.session)
	req.Header.Set("x-openclaw-agent-id", agent)
	tu.clock.Start()
	resp, err := http.DefaultClient.Do(req)
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

// Implementation implements conformance.Timed: the transcript reads
// (transcribed) happen while the suite holds a model request, so they are
// not counted.
func (tu *turn) Implementation() (time.Duration, bool) { return tu.clock.Implementation(&tu.conv) }

// ended describes a client request that ended before the suite expected.
// An error answer before any model request is a turn failure.
func (tu *turn) ended() error {
	r := tu.result
	if r.err != nil {
		return fmt.Errorf("openclaw turn %s: %w", tu.key, r.err)
	}
	var res struct {
		Error *struct {
			Code    string `json:"code"`
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if r.status != http.StatusOK && json.Unmarshal(r.body, &res) == nil && res.Error != nil {
		return &conformance.TurnFailure{Message: res.Error.Message}
	}
	if err := tu.g.alive(); err != nil {
		return err
	}
	return fmt.Errorf("openclaw turn %s ended early: HTTP %d: %s", tu.key, r.status, bytes.TrimSpace(r.body))
}

func (tu *turn) Tools() []conformance.ToolDefinition { return slices.Clone(tu.tools) }

func (tu *turn) Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (conformance.Outcome, error) {
	return modelturn.Call(ctx, tu, toolCallID, name, args)
}

// CallBatch implements conformance.BatchCaller: one model answer with
// parallel tool calls. The outputs are what OpenClaw's next model request
// carries; details and error flags come from the session transcript.
func (tu *turn) CallBatch(ctx context.Context, calls []conformance.ToolCall) ([]conformance.Outcome, error) {
	tu.calls.Lock()
	defer tu.calls.Unlock()
	pending := tu.conv.Take()
	if pending == nil {
		return nil, fmt.Errorf("openclaw turn %s has ended", tu.key)
	}
	if err := pending.Respond(modelturn.Reply(calls)); err != nil {
		return nil, fmt.Errorf("openclaw turn %s: answering its model request: %w", tu.key, err)
	}
	req, err := tu.conv.Next(ctx)
	if err != nil {
		if outs, ok := tu.recorded(calls); ok {
			return outs, nil
		}
		return nil, err
	}
	tu.conv.Put(req)
	results := tu.transcribed()
	ids := replayedIDs(req, calls)
	outs := make([]conformance.Outcome, len(calls))
	for i, c := range calls {
		text, ok := req.ToolOutput(ids[i])
		if !ok {
			return nil, fmt.Errorf("openclaw turn %s: its next model request has no output for tool call %q (%s)", tu.key, c.ID, describe(req))
		}
		outs[i] = conformance.Outcome{Text: text}
		r, ok := results[c.ID]
		if !ok {
			r, ok = results[ids[i]]
		}
		if ok {
			outs[i].Details, outs[i].IsError = outcomeDetails(r.Details, text), r.IsError
		}
	}
	return outs, nil
}

// replayedIDs returns the ids under which req replays calls. OpenClaw
// keeps a call's id, except in the tool-less request it sends after a
// tool failure it deems not repairable: there it replays the conversation
// with rewritten ids (call_1 becomes call_call1_<hash>). The calls just
// answered are then the last function calls of the request, in order,
// with the same names.
func replayedIDs(req *fakemodel.Request, calls []conformance.ToolCall) []string {
	ids := make([]string, len(calls))
	missing := false
	for i, c := range calls {
		ids[i] = c.ID
		if _, ok := req.ToolOutput(c.ID); !ok {
			missing = true
		}
	}
	if !missing {
		return ids
	}
	var fcs []fakemodel.Item
	for _, it := range req.Items {
		if it.Type == "function_call" {
			fcs = append(fcs, it)
		}
	}
	if len(fcs) < len(calls) {
		return ids
	}
	fcs = fcs[len(fcs)-len(calls):]
	for i, c := range calls {
		if fcs[i].Name != c.Name {
			return ids
		}
	}
	for i := range calls {
		ids[i] = fcs[i].CallID
	}
	return ids
}

// recorded returns the outcomes of calls from the session transcript, of
// a turn that ended before it sent them to the model.
func (tu *turn) recorded(calls []conformance.ToolCall) ([]conformance.Outcome, bool) {
	select {
	case <-tu.done:
	default:
		return nil, false
	}
	results := tu.transcribed()
	outs := make([]conformance.Outcome, len(calls))
	for i, c := range calls {
		r, ok := results[c.ID]
		if !ok {
			return nil, false
		}
		outs[i] = conformance.Outcome{Text: r.Text, Details: outcomeDetails(r.Details, r.Text), IsError: r.IsError}
	}
	return outs, true
}

// End answers the pending model request with a final text and waits for
// the client request to complete.
func (tu *turn) End(ctx context.Context) error {
	tu.calls.Lock()
	defer tu.calls.Unlock()
	defer tu.cancel()
	if req := tu.conv.Take(); req != nil {
		if err := req.Respond(fakemodel.Reply{Text: finalAnswer}); err != nil {
			select {
			case <-tu.done:
				return nil
			default:
			}
			return fmt.Errorf("openclaw turn %s: answering its last model request: %w", tu.key, err)
		}
	}
	// OpenClaw may ask again (a nudge after a failed tool call): answer
	// every further model request of the turn with the final text.
	for {
		req, err := tu.conv.Next(ctx)
		if err != nil {
			select {
			case <-tu.done:
				return nil
			default:
				return err
			}
		}
		_ = req.Respond(fakemodel.Reply{Text: finalAnswer})
	}
}

// Abort ends the client request: the only abort an HTTP client of
// OpenClaw has. It waits for the request to end.
func (tu *turn) Abort(ctx context.Context) error {
	tu.cancel()
	select {
	case <-tu.done:
		tu.conv.Take()
		return nil
	case <-ctx.Done():
		return fmt.Errorf("openclaw turn %s did not end after abort: %w", tu.key, ctx.Err())
	}
}

func (tu *turn) Trajectory(ctx context.Context) ([]json.RawMessage, error) {
	return nil, conformance.NotApplicable("openclaw: no trajectory endpoint over HTTP")
}

// describe summarizes a model request for an error: its tool count and its
// last items.
func describe(req *fakemodel.Request) string {
	items := req.Items
	if len(items) > 4 {
		items = items[len(items)-4:]
	}
	parts := make([]string, len(items))
	for i, it := range items {
		text := it.Text + it.Output + it.Arguments
		if len(text) > 300 {
			text = text[:300] + "..."
		}
		parts[i] = fmt.Sprintf("%s/%s%s %q", it.Type, it.Role, it.CallID, text)
	}
	return fmt.Sprintf("%d tools; last items: %s", len(req.Tools), strings.Join(parts, "; "))
}
