package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"sync"

	"github.com/nats-io/nats.go"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/harness"
)

// maxSteps bounds the model requests of one turn.
const maxSteps = 512

// maxKeptTurns bounds the ended turns the gateway remembers for their
// trajectories.
const maxKeptTurns = 1024

// errPayload is the fail-closed refusal of a model request whose tools
// are not the turn's model-visible tools (SPEC.md CM-4.30).
var errPayload = errors.New("code mode payload check failed.")

// gateway runs agent turns: one reference runtime, the configured model
// provider, the tool host, and the turns it keeps for the admin endpoints.
type gateway struct {
	cfgPath     string
	sys         *harness.System
	transcripts codemode.TranscriptStore // shared with sys: the gateway adds the model turns
	member      *member                  // with -cluster: this replica's membership
	log         *transportLog
	client      *http.Client

	mu    sync.Mutex
	turns map[string]*liveTurn
	order []string
	seq   int
}

// A liveTurn is one agent run the gateway answers.
type liveTurn struct {
	id     string
	tu     *harness.Turn
	cancel context.CancelCauseFunc
	sub    *nats.Subscription // with -cluster: where other replicas ask for it
}

// errAborted is the cause of a turn's context when a client aborts it.
var errAborted = errors.New("turn aborted")

// errReplicaStopped is the cause of a turn's context when its replica of
// a clustered gateway stops: the turn ends there, but its agent run is not
// aborted, so its suspended runs stay for the other replicas.
var errReplicaStopped = errors.New("the gateway replica stopped")

// runtimeOptions are the runtime's flags.
type runtimeOptions struct {
	strict    bool
	isolation codemode.Isolation
	cluster   clusterOptions
}

// bootGateway starts the runtime for the configuration at path, keeping
// its durable state under stateDir.
func bootGateway(ctx context.Context, path, stateDir string, ro runtimeOptions, getenv func(string) string, stderr io.Writer) (*gateway, *gatewayConfig, error) {
	cfg, err := loadConfig(path)
	if err != nil {
		return nil, nil, err
	}
	g := &gateway{cfgPath: path, log: newTransportLog(getenv, stderr), client: &http.Client{}, turns: map[string]*liveTurn{}}
	g.log.setSecrets(configSecrets(cfg.doc))
	var tr codemode.TranscriptStore
	var nc *nats.Conn
	jctx := ctx // joining the cluster: bounded by clusterJoinTimeout
	if ro.cluster.url != "" {
		if ro.cluster.name == "" {
			ro.cluster.name = defaultReplicaName()
		}
		var cancel context.CancelFunc
		jctx, cancel = context.WithTimeout(ctx, clusterJoinTimeout)
		defer cancel()
		nc, tr, err = dialCluster(jctx, ro.cluster)
	} else {
		tr, err = harness.OpenFileTranscripts(filepath.Join(stateDir, "transcripts"))
	}
	if err != nil {
		return nil, nil, err
	}
	g.transcripts = tr
	// The runtime writes the code-mode lifecycle lines; the gateway writes
	// the model-side ones, for its real model requests.
	env := map[string]string{envDebugCodeMode: getenv(envDebugCodeMode)}
	sys, err := harness.Boot(ctx, harness.Options{
		Namespaces: cfg.Kit.Namespaces, RolledBack: cfg.Kit.RolledBack, Disabled: cfg.Kit.Disabled, Uninstalled: cfg.Kit.Uninstalled, Runtime: cfg.Kit.Runtime,
		Env: env, Transcripts: tr, SubAgents: g.subAgent, StrictPreemption: ro.strict, Isolation: ro.isolation,
	})
	if err != nil {
		if nc != nil {
			nc.Close()
		}
		return nil, nil, err
	}
	g.sys = sys
	if nc != nil {
		if g.member, err = joinCluster(jctx, ro.cluster, nc, sys); err == nil {
			err = g.member.serveDebugLog(g.localDebugLog)
		}
		if err != nil {
			sys.Close()
			nc.Close()
			return nil, nil, err
		}
	}
	return g, cfg, nil
}

// localDebugLog is this process's debug log: the runtime's lines, then
// the gateway's own.
func (g *gateway) localDebugLog() string { return g.sys.Log() + g.log.text() }

// Close aborts every turn and closes the runtime. A replica of a
// clustered gateway ends its turns instead: their agent runs go on.
func (g *gateway) Close() {
	g.mu.Lock()
	turns := make([]*liveTurn, 0, len(g.turns))
	for _, lt := range g.turns {
		turns = append(turns, lt)
	}
	g.mu.Unlock()
	cause := errAborted
	if g.member != nil {
		cause = errReplicaStopped
	}
	for _, lt := range turns {
		lt.cancel(cause)
	}
	g.sys.Close()
	if g.member != nil {
		g.member.leave()
		g.member = nil
	}
}

// A turnRequest is what a client asks for: one agent run.
type turnRequest struct {
	TurnID       string
	AgentID      string
	SessionID    string
	SessionKey   string
	RunID        string
	SenderID     string
	ChannelID    string
	DisableTools bool
	NoTools      bool
	Input        []item
	ClientTools  []wire.Spec
}

// A turnFailure is a turn that failed before any model request.
type turnFailure struct{ msg string }

func (e *turnFailure) Error() string { return e.msg }

// runTurn runs one agent turn to its final answer.
func (g *gateway) runTurn(ctx context.Context, req turnRequest) (string, error) {
	cfg, err := loadConfig(g.cfgPath)
	if err != nil {
		return "", err
	}
	g.log.setSecrets(configSecrets(cfg.doc))
	pc, model, err := cfg.provider()
	if err != nil {
		return "", err
	}
	prov := &provider{baseURL: pc.BaseURL, api: pc.API, apiKey: pc.APIKey, headers: pc.Headers, model: model,
		stream: cfg.stream(), client: g.client, debug: g.log}
	tools := append(slices.Clone(cfg.Kit.Tools), req.ClientTools...)
	host := wire.NewHTTPClient(cfg.Kit.ToolHost)
	defer host.Close()
	params := &protocol.TurnStartParams{TurnID: req.TurnID, AgentID: req.AgentID, SessionID: req.SessionID,
		SessionKey: req.SessionKey, RunID: req.RunID, SenderID: req.SenderID, ChannelID: req.ChannelID,
		DisableTools: req.DisableTools, NoTools: req.NoTools,
		Config: cfg.raw, Tools: tools}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	tu, err := g.sys.StartTurn(ctx, params, host)
	if errors.Is(err, codemode.ErrSurface) {
		return "", &turnFailure{msg: err.Error()}
	}
	if err != nil {
		return "", err
	}
	g.keep(&liveTurn{id: req.TurnID, tu: tu, cancel: cancel})
	defs := make([]toolDef, 0)
	prov.visible = []string{}
	for _, d := range tu.Tools() {
		defs = append(defs, toolDef{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
		prov.visible = append(prov.visible, d.Name)
	}
	history, err := g.history(req.SessionKey)
	if err != nil {
		tu.Abort()
		return "", err
	}
	conv := append(history, req.Input...)
	for range maxSteps {
		a, err := prov.complete(ctx, conv, defs)
		if errors.Is(err, errPayload) {
			tu.Abort()
			return "", &turnFailure{msg: errPayload.Error()}
		}
		if err != nil {
			if errors.Is(context.Cause(ctx), errReplicaStopped) {
				tu.End()
				return "", errReplicaStopped
			}
			tu.Abort()
			if cause := context.Cause(ctx); errors.Is(cause, errAborted) {
				return "", errAborted
			}
			return "", err
		}
		ids := make([]string, len(a.Calls))
		for i, c := range a.Calls {
			ids[i] = c.ID
		}
		rec := codemode.TranscriptRecord{Type: "model_turn", AgentRunID: req.RunID, ToolCallIDs: ids, Text: a.Text}
		if err := g.transcripts.Append(req.SessionKey, rec); err != nil {
			tu.Abort()
			return "", err
		}
		if len(a.Calls) == 0 {
			tu.End()
			return a.Text, nil
		}
		for _, c := range a.Calls {
			conv = append(conv, item{Type: "function_call", CallID: c.ID, Name: c.Name, Arguments: c.Arguments})
		}
		outs := make([]string, len(a.Calls))
		var wg sync.WaitGroup
		for i, c := range a.Calls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i] = g.call(ctx, tu, c)
			}()
		}
		wg.Wait()
		if cause := context.Cause(ctx); errors.Is(cause, errAborted) {
			tu.Abort()
			return "", errAborted
		}
		for i, c := range a.Calls {
			conv = append(conv, item{Type: "function_call_output", CallID: c.ID, Output: outs[i]})
		}
	}
	tu.Abort()
	return "", fmt.Errorf("turn %s: more than %d model requests", req.TurnID, maxSteps)
}

// history replays a session's transcript as the start of a model
// conversation: every earlier tool call with its result, in order. A call
// without a result (its process ended mid-call) is left out, so the
// conversation stays valid.
func (g *gateway) history(sessionKey string) ([]item, error) {
	recs, err := g.sys.Transcript(sessionKey)
	if err != nil {
		return nil, err
	}
	type record struct {
		Type       string          `json:"type"`
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Text       string          `json:"text"`
	}
	results := map[string]string{}
	parsed := make([]record, 0, len(recs))
	for _, raw := range recs {
		var r record
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("transcript of %q: %w", sessionKey, err)
		}
		parsed = append(parsed, r)
		if r.Type == "tool_result" {
			results[r.ToolCallID] = r.Text
		}
	}
	var out []item
	for _, r := range parsed {
		out2, ok := results[r.ToolCallID]
		if r.Type != "tool_call" || !ok {
			continue
		}
		args := string(r.Arguments)
		if args == "" {
			args = "{}"
		}
		out = append(out, item{Type: "function_call", CallID: r.ToolCallID, Name: r.Name, Arguments: args},
			item{Type: "function_call_output", CallID: r.ToolCallID, Output: out2})
	}
	return out, nil
}

// call runs one model tool call and returns the output the model gets:
// the result's text.
func (g *gateway) call(ctx context.Context, tu *harness.Turn, c modelCall) string {
	args := json.RawMessage(c.Arguments)
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	res, err := tu.Call(ctx, c.ID, c.Name, args)
	if err != nil {
		return fmt.Sprintf("Tool %s failed: %v", c.Name, err)
	}
	return res.Text
}

// checkPayload fails closed unless the tools of the serialized model
// request body are exactly the visible tools, in order: whatever built
// the body, nothing else reaches the model (SPEC.md CM-4.30).
func checkPayload(body []byte, visible []string) error {
	var sent struct {
		Tools []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &sent); err != nil {
		return fmt.Errorf("%w (%v)", errPayload, err)
	}
	if len(sent.Tools) != len(visible) {
		return fmt.Errorf("%w (%d tools in the payload, %d visible)", errPayload, len(sent.Tools), len(visible))
	}
	for i, t := range sent.Tools {
		name := t.Name
		if name == "" {
			name = t.Function.Name
		}
		if name != visible[i] {
			return fmt.Errorf("%w (tool %d is %q, want %q)", errPayload, i, name, visible[i])
		}
	}
	return nil
}

// keep remembers a turn for the admin endpoints, forgetting the oldest
// beyond maxKeptTurns.
func (g *gateway) keep(lt *liveTurn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if old, dup := g.turns[lt.id]; !dup {
		g.order = append(g.order, lt.id)
	} else if old.sub != nil {
		_ = old.sub.Unsubscribe()
	}
	g.turns[lt.id] = lt
	if g.member != nil {
		// The other replicas ask this one for the turn's admin requests.
		lt.sub, _ = g.member.serveTurn(lt, g.answerTurn)
	}
	for len(g.order) > maxKeptTurns {
		if old := g.turns[g.order[0]]; old.sub != nil {
			_ = old.sub.Unsubscribe()
		}
		delete(g.turns, g.order[0])
		g.order = g.order[1:]
	}
}

func (g *gateway) turn(id string) (*liveTurn, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	lt, ok := g.turns[id]
	return lt, ok
}

// newTurnID names a turn whose client did not.
func (g *gateway) newTurnID() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seq++
	if g.member != nil {
		return fmt.Sprintf("turn-%s-%d", g.member.name, g.seq)
	}
	return fmt.Sprintf("turn-%d", g.seq)
}

// subAgent runs a Swarm sub-agent turn (agents.run): a conversation of its
// own with the configured model, without tools, whose final text is the
// result.
func (g *gateway) subAgent(ctx context.Context, r codemode.SubAgentRequest) (string, error) {
	cfg, err := loadConfig(g.cfgPath)
	if err != nil {
		return "", err
	}
	pc, model, err := cfg.provider()
	if err != nil {
		return "", err
	}
	prov := &provider{baseURL: pc.BaseURL, api: pc.API, apiKey: pc.APIKey, headers: pc.Headers, model: model,
		stream: cfg.stream(), client: g.client, debug: g.log}
	a, err := prov.complete(ctx, []item{{Type: "message", Role: "user", Text: r.Prompt}}, nil)
	if err != nil {
		return "", err
	}
	if len(a.Calls) > 0 {
		return "", errors.New("sub-agent answered with tool calls but has no tools")
	}
	return a.Text, nil
}
