package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/internal/modelturn"
)

// turn is one agent run: a client request to the gateway that stays open
// while the suite, playing the model, answers the gateway's model requests
// one by one (modelturn.Turn). The gateway's own are the request, the
// abort endpoint and the trajectory endpoint.
type turn struct {
	*modelturn.Turn
	t       *target
	id      string
	spec    conformance.TurnSpec
	gen     int
	replica string // the replica serving the turn, when there are several
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
	key := "conformance turn " + id // the conversation key: the turn's first user message
	tu := &turn{t: t, id: id, spec: spec, gen: gen}
	base := p.url
	if len(p.names) > 0 {
		// A turn's client request goes to a replica of its own, in turn.
		i, err := p.replica()
		if err != nil {
			return nil, err
		}
		base, tu.replica = p.procs[i].url, p.names[i]
	}
	tu.Turn = modelturn.NewTurn(modelturn.Options{
		Model: t.model, Key: key, Name: "gateway turn " + id,
		Ended: tu.ended, Transcribed: tu.transcribed, Stale: tu.stale,
	})

	_, client := t.tools()
	client = spec.TurnTools(client)
	tools := make([]map[string]any, len(client))
	for i, s := range client {
		s.Behavior = nil
		tools[i] = map[string]any{"type": "function", "name": s.Name, "description": s.Description, "parameters": s.Schema(), "x_codemodekit": s}
	}
	body := map[string]any{
		"model": "codemode", "input": key, "stream": false, "tools": tools,
		"metadata": map[string]string{
			"turnId": id, "agentId": spec.AgentID, "sessionId": spec.SessionID, "sessionKey": spec.SessionKey, "runId": spec.RunID,
			"senderId": spec.SenderID, "channelId": spec.ChannelID,
			"disableTools": strconv.FormatBool(spec.DisableTools), "noTools": strconv.FormatBool(spec.NoTools),
		},
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, base+"/v1/responses", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if err := tu.Start(ctx, t.client, req); err != nil {
		return nil, err
	}
	return tu, nil
}

// ended reads the answer of a client request that ended before the suite
// expected: a turn failure when the gateway said the turn failed before
// any model request.
func (tu *turn) ended(status int, body []byte) error {
	var res struct {
		Status string `json:"status"`
		Error  *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &res) == nil && res.Error != nil {
		if res.Error.Code == "turn_failed" {
			return &conformance.TurnFailure{Message: res.Error.Message}
		}
		return fmt.Errorf("gateway turn %s ended: %s (%s): %s", tu.id, res.Status, res.Error.Code, res.Error.Message)
	}
	return nil
}

// transcribed returns the latest tool result of every tool call in the
// turn's session transcript.
func (tu *turn) transcribed(ctx context.Context) (map[string]modelturn.TranscribedResult, error) {
	recs, err := tu.t.Transcript(ctx, tu.spec.SessionKey)
	if errors.Is(err, conformance.ErrNotApplicable) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]modelturn.TranscribedResult{}
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
		out[r.ToolCallID] = modelturn.TranscribedResult{Text: r.Text, Details: r.Details, IsError: r.IsError}
	}
	return out, nil
}

// stale reports whether the turn's gateway was restarted since it
// started: its run ended with that process.
func (tu *turn) stale() bool {
	_, gen, err := tu.t.current()
	return err != nil || gen != tu.gen
}

// Abort asks the gateway to abort the run and waits for its client
// request to end. It may land while a call runs.
func (tu *turn) Abort(ctx context.Context) error {
	p, gen, err := tu.t.current()
	if err != nil || gen != tu.gen {
		return nil
	}
	return tu.AbortWith(ctx, func(ctx context.Context) error {
		return tu.t.do(ctx, p, http.MethodPost, "/v1/turns/"+tu.id+"/abort", struct{}{}, nil)
	})
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
