package openclaw

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/internal/modelturn"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// firstRequestTimeout bounds the wait for a fresh gateway's first model
// request (its first turn loads the provider plugin and builds the catalog).
const firstRequestTimeout = 60 * time.Second

// turn is one agent run: a POST /v1/responses that stays open while the
// suite, playing the model, answers OpenClaw's model requests
// (modelturn.Turn). OpenClaw's own are the request's headers, an abort
// that ends the request, replayed call ids, and details read from the
// SQLite transcript.
type turn struct {
	*modelturn.Turn
	t       *target
	g       *gateway
	session string
	spec    conformance.TurnSpec
	cancel  context.CancelFunc // ends the client request
}

func (t *target) StartTurn(ctx context.Context, spec conformance.TurnSpec) (conformance.Turn, error) {
	if spec.DisableTools || spec.NoTools {
		return nil, conformance.NotApplicable("openclaw: an HTTP turn cannot disable tools or make a raw tool-less model call")
	}
	if spec.SenderID != "" {
		// The responses endpoint reads a message channel header and no
		// sender, and its runs give hooks no channel or requester.
		return nil, conformance.NotApplicable("openclaw: an HTTP turn has no sender (the responses endpoint takes only a message channel header)")
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
	tu := &turn{t: t, g: t.gw, session: session, spec: spec, cancel: cancel}
	tu.Turn = modelturn.NewTurn(modelturn.Options{
		Model: t.r.model, Key: key, Name: "openclaw turn " + key,
		Ended: tu.ended,
		Transcribed: func(context.Context) (map[string]modelturn.TranscribedResult, error) {
			return tu.transcribed(), nil
		},
		ReplayedIDs: replayedIDs, Details: outcomeDetails, Describe: describe,
		AsksAgain: true,
	})

	_, client := t.tools()
	client = spec.TurnTools(client)
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
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, tu.g.url+"/v1/responses", bytes.NewReader(b))
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tu.g.token)
	req.Header.Set("x-openclaw-session-key", tu.session)
	req.Header.Set("x-openclaw-agent-id", agent)
	if err := tu.Start(ctx, http.DefaultClient, req); err != nil {
		cancel()
		return nil, err
	}
	return tu, nil
}

// ended reads the answer of a client request that ended before the suite
// expected. An error answer before any model request is a turn failure.
func (tu *turn) ended(status int, body []byte) error {
	var res struct {
		Error *struct {
			Code    string `json:"code"`
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if status != http.StatusOK && json.Unmarshal(body, &res) == nil && res.Error != nil {
		return &conformance.TurnFailure{Message: res.Error.Message}
	}
	return tu.g.alive()
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

// End answers the pending model request with the final text, and every
// further model request of the turn (OpenClaw may ask again: a nudge after
// a failed tool call), until the client request completes.
func (tu *turn) End(ctx context.Context) error {
	defer tu.cancel()
	return tu.Turn.End(ctx)
}

// Abort ends the client request: the only abort an HTTP client of
// OpenClaw has. It waits for the request to end.
func (tu *turn) Abort(ctx context.Context) error {
	tu.cancel()
	return tu.AbortWith(ctx, nil)
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
