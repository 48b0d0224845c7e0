package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
)

// refuseAll answers every request of a process that is only asked hello.
func refuseAll(ctx context.Context, method string, params json.RawMessage) (any, error) {
	return nil, &protocol.RPCError{Code: protocol.CodeInvalidState, Message: method + " before start"}
}

// target is one scenario's implementation. It implements
// conformance.Target, Restarter and Transcripter; MakeTarget adds
// LogReader and RegistrationReporter when the implementation declares
// them.
type target struct {
	d     *Driver
	caps  protocol.Capabilities
	hello *protocol.HelloResult

	setup    *conformance.Setup
	stateDir string
	mcp      *MCPSetup

	mu      sync.Mutex
	proc    *proc
	regErrs []error
	turnSeq int
	closed  bool
}

// base returns t itself, through the wrappers MakeTarget adds.
func (t *target) base() *target { return t }

func (t *target) Start(ctx context.Context, s *conformance.Setup) error {
	t.setup = s
	t.mcp = NewMCPSetup(t.d.opts.fixtures)
	dir, err := os.MkdirTemp("", "codemode-driver-state-")
	if err != nil {
		return err
	}
	t.stateDir = dir
	return t.boot(ctx)
}

// boot starts a process for the current setup: hello, then start.
func (t *target) boot(ctx context.Context) error {
	if err := t.mcp.Start(t.setup); err != nil {
		return err
	}
	cfg, err := t.mcp.Config(t.setup)
	if err != nil {
		return err
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return &Error{Code: FailureClosed}
	}
	p, err := spawn(t.d.argv, t.d.environ(t.setup.Env), t.d.opts.dir, t.d.opts.stderrLimit, t.handler)
	if err != nil {
		t.mu.Unlock()
		return &Error{Code: FailureSpawn, Err: fmt.Errorf("%q: %w", t.d.argv, err)}
	}
	t.proc = p
	t.mu.Unlock()
	if _, err := t.d.handshake(ctx, p, t.hello); err != nil {
		return err
	}
	params := protocol.StartParams{Config: cfg, Tools: WithoutBehavior(t.setup.Tools), MCPFixtures: []protocol.MCPFixture{},
		Namespaces: []protocol.Namespace{}, RolledBack: append([]string{}, t.setup.RolledBack...), Disabled: t.setup.Disabled, Uninstalled: t.setup.Uninstalled, Runtime: t.setup.Runtime, StateDir: t.stateDir}
	for _, srv := range t.mcp.Unresolved(t.setup) {
		params.MCPFixtures = append(params.MCPFixtures, protocol.MCPFixture{Name: srv.Name, Fixture: srv.Fixture})
	}
	for _, ns := range t.setup.Namespaces {
		params.Namespaces = append(params.Namespaces, protocol.Namespace{PluginID: ns.PluginID, Registration: ns.Registration})
	}
	var res protocol.StartResult
	if err := callProc(ctx, p, protocol.MethodStart, params, &res); err != nil {
		return err
	}
	if t.caps.RegistrationErrors && len(res.RegistrationErrors) != len(params.Namespaces) {
		err := fmt.Errorf("start result has %d registration errors for %d namespace registrations", len(res.RegistrationErrors), len(params.Namespaces))
		p.conn.End(p.failure(FailureProtocol, err))
		p.kill()
		return p.failure(FailureProtocol, err)
	}
	regErrs := make([]error, len(res.RegistrationErrors))
	for i, msg := range res.RegistrationErrors {
		if msg != nil {
			regErrs[i] = errors.New(*msg)
		}
	}
	t.mu.Lock()
	t.regErrs = regErrs
	t.mu.Unlock()
	return nil
}

// current returns the running process.
func (t *target) current() (*proc, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, &Error{Code: FailureClosed}
	}
	if t.proc == nil {
		return nil, &Error{Code: FailureClosed, Err: errors.New("the target has not started")}
	}
	return t.proc, nil
}

func (t *target) StartTurn(ctx context.Context, spec conformance.TurnSpec) (conformance.Turn, error) {
	p, err := t.current()
	if err != nil {
		return nil, err
	}
	if err := t.mcp.Start(t.setup); err != nil {
		return nil, err
	}
	cfg, err := t.mcp.Config(t.setup)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.turnSeq++
	id := fmt.Sprintf("t%d", t.turnSeq)
	t.mu.Unlock()
	tools := slices.Clone(spec.TurnTools(t.setup.Tools))
	p.addTurn(id, tools)
	params := protocol.TurnStartParams{TurnID: id, AgentID: spec.AgentID, SessionID: spec.SessionID, SessionKey: spec.SessionKey,
		RunID: spec.RunID, SenderID: spec.SenderID, ChannelID: spec.ChannelID, DisableTools: spec.DisableTools, NoTools: spec.NoTools, Config: cfg, Tools: WithoutBehavior(tools)}
	var res protocol.TurnStartResult
	if err := callProc(ctx, p, protocol.MethodTurnStart, params, &res); err != nil {
		return nil, err
	}
	tu := &turn{p: p, id: id, tools: make([]conformance.ToolDefinition, len(res.Tools))}
	for i, d := range res.Tools {
		tu.tools[i] = conformance.ToolDefinition{Name: d.Name, Label: d.Label, Description: d.Description, Parameters: d.Parameters}
	}
	return tu, nil
}

// Restart implements conformance.Restarter: the process is closed and a
// new one is started for the current setup, with the same state
// directory.
func (t *target) Restart(ctx context.Context) error {
	if !t.caps.Restart {
		return conformance.NotApplicable("%s does not declare the restart capability", t.hello.Implementation.Name)
	}
	p, err := t.current()
	if err != nil {
		return err
	}
	if err := p.stop(t.d.opts.closeTimeout, t.d.opts.exitGrace); err != nil {
		return p.failure(FailureExited, fmt.Errorf("restart: %w", err))
	}
	return t.boot(ctx)
}

// Transcript implements conformance.Transcripter.
func (t *target) Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error) {
	if !t.caps.Transcript {
		return nil, conformance.NotApplicable("%s does not declare the transcript capability", t.hello.Implementation.Name)
	}
	p, err := t.current()
	if err != nil {
		return nil, err
	}
	var res protocol.TranscriptResult
	if err := callProc(ctx, p, protocol.MethodTranscript, protocol.TranscriptParams{SessionKey: sessionKey}, &res); err != nil {
		return nil, err
	}
	return res.Records, nil
}

// EndSession implements conformance.SessionEnder.
func (t *target) EndSession(ctx context.Context, sessionKey string, how conformance.SessionEnd) error {
	if !t.caps.SessionEnd {
		return conformance.NotApplicable("%s does not declare the sessionEnd capability", t.hello.Implementation.Name)
	}
	p, err := t.current()
	if err != nil {
		return err
	}
	return callProc(ctx, p, protocol.MethodSessionEnd, protocol.SessionEndParams{SessionKey: sessionKey, How: string(how)}, &protocol.Empty{})
}

// Close ends the process (close, EOF, then a kill), stops the fake MCP
// servers and removes the state directory. It reports an error when the
// process did not end on its own.
func (t *target) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	p := t.proc
	t.mu.Unlock()
	var err error
	if p != nil {
		if serr := p.stop(t.d.opts.closeTimeout, t.d.opts.exitGrace); serr != nil {
			err = p.failure(FailureExited, serr)
		}
	}
	if t.mcp != nil {
		t.mcp.Close()
	}
	if t.stateDir != "" {
		_ = os.RemoveAll(t.stateDir)
	}
	return err
}

// handler answers the host requests of process p.
func (t *target) handler(p *proc) protocol.Handler {
	return func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		host := t.setup.Host
		switch method {
		case protocol.MethodInvoke:
			var in protocol.InvokeParams
			if err := protocol.DecodeParams(params, &in); err != nil {
				return nil, err
			}
			spec, ok := p.tool(in.TurnID, in.ToolIndex)
			if !ok {
				return nil, protocol.InvalidParams("turn %q has no tool %d", in.TurnID, in.ToolIndex)
			}
			if spec.Name != in.Name {
				return nil, protocol.InvalidParams("tool %d of turn %q is %q, not %q", in.ToolIndex, in.TurnID, spec.Name, in.Name)
			}
			res, err := host.Invoke(ctx, in.ToolIndex, spec, in.Input)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, &protocol.ToolError{Message: err.Error()}
			}
			if res.Content == nil {
				res.Content = []wire.Block{}
			}
			return res, nil
		case protocol.MethodBeforeToolCall:
			var in protocol.HookParams
			if err := protocol.DecodeParams(params, &in); err != nil {
				return nil, err
			}
			if !p.hasTurn(in.TurnID) {
				return nil, protocol.InvalidParams("no turn %q", in.TurnID)
			}
			var ev map[string]json.RawMessage
			if json.Unmarshal(in.Event, &ev) != nil || ev == nil {
				return nil, protocol.InvalidParams("event is not a JSON object")
			}
			return host.BeforeToolCall(ctx, in.Event)
		case protocol.MethodApprove:
			var in protocol.ApproveParams
			if err := protocol.DecodeParams(params, &in); err != nil {
				return nil, err
			}
			if !p.hasTurn(in.TurnID) {
				return nil, protocol.InvalidParams("no turn %q", in.TurnID)
			}
			ok, err := host.Approve(ctx, in.ToolName)
			if err != nil {
				return nil, err
			}
			return protocol.ApproveResult{Granted: ok}, nil
		case protocol.MethodSubAgent:
			var in protocol.SubAgentParams
			if err := protocol.DecodeParams(params, &in); err != nil {
				return nil, err
			}
			return protocol.SubAgentResult{Text: t.setup.SubAgentAnswer}, nil
		default:
			return nil, &protocol.RPCError{Code: protocol.CodeMethodNotFound, Message: "unknown method " + method}
		}
	}
}

// callProc makes one request of p and maps its failure: not_applicable
// wraps conformance.ErrNotApplicable, turn_failed (turn/start) is a
// *conformance.TurnFailure, and everything else is an *Error with the
// stderr seen so far. A result of the wrong shape kills the process.
func callProc(ctx context.Context, p *proc, method string, params, result any) error {
	err := p.conn.Call(ctx, method, params, result)
	if err == nil {
		return nil
	}
	var rpc *protocol.RPCError
	var e *Error
	var merr *protocol.MessageError
	var f *Error
	switch {
	case errors.As(err, &rpc):
		switch {
		case rpc.Code == protocol.CodeNotApplicable:
			return conformance.NotApplicable("%s", rpc.Message)
		case rpc.Code == protocol.CodeTurnFailed && method == protocol.MethodTurnStart:
			return &conformance.TurnFailure{Message: rpc.Message}
		}
		f = p.failure(FailureRemote, rpc)
		f.RPC = rpc
	case errors.As(err, &e):
		c := *e
		f = &c
	case errors.As(err, &merr):
		f = p.failure(FailureProtocol, merr)
		p.conn.End(f)
		p.kill()
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		f = p.failure(FailureTimeout, err)
	default:
		f = p.failure(FailureExited, err)
	}
	f.Method = method
	return f
}

// turn is one agent run on one process.
type turn struct {
	p     *proc
	id    string
	tools []conformance.ToolDefinition
}

func (tu *turn) Tools() []conformance.ToolDefinition { return slices.Clone(tu.tools) }

func (tu *turn) Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (conformance.Outcome, error) {
	var res protocol.CallResult
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	params := protocol.CallParams{TurnID: tu.id, ToolCallID: toolCallID, Name: name, Arguments: args}
	if err := callProc(ctx, tu.p, protocol.MethodTurnCall, params, &res); err != nil {
		return conformance.Outcome{}, err
	}
	if string(res.Details) == "null" {
		res.Details = nil
	}
	return conformance.Outcome{Text: res.Text, Details: res.Details, IsError: res.IsError}, nil
}

// Abort and End of a turn whose process the suite stopped (a restart)
// succeed: the run ended with its process.
func (tu *turn) Abort(ctx context.Context) error { return tu.finish(ctx, protocol.MethodTurnAbort) }
func (tu *turn) End(ctx context.Context) error   { return tu.finish(ctx, protocol.MethodTurnEnd) }

func (tu *turn) finish(ctx context.Context, method string) error {
	if tu.p.stopping.Load() {
		return nil
	}
	return callProc(ctx, tu.p, method, protocol.TurnParams{TurnID: tu.id}, nil)
}

func (tu *turn) Trajectory(ctx context.Context) ([]json.RawMessage, error) {
	var res protocol.TrajectoryResult
	if err := callProc(ctx, tu.p, protocol.MethodTrajectory, protocol.TurnParams{TurnID: tu.id}, &res); err != nil {
		return nil, err
	}
	if res.Events == nil {
		res.Events = []json.RawMessage{}
	}
	return res.Events, nil
}

// logReader adds conformance.LogReader.
type logReader struct{ t *target }

// Log returns the implementation's debug log. A failed log request
// returns "" (LogReader has no error; the failure is in the stderr the
// next failing request reports).
func (l logReader) Log() string {
	p, err := l.t.current()
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.t.d.opts.callTimeout)
	defer cancel()
	var res protocol.LogResult
	if err := callProc(ctx, p, protocol.MethodLog, struct{}{}, &res); err != nil {
		return ""
	}
	return res.Text
}

// registrationReporter adds conformance.RegistrationReporter.
type registrationReporter struct{ t *target }

// RegistrationErrors returns the registration errors of the latest start.
func (r registrationReporter) RegistrationErrors() []error {
	r.t.mu.Lock()
	defer r.t.mu.Unlock()
	return slices.Clone(r.t.regErrs)
}
