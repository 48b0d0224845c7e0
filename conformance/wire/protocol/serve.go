package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	wire "github.com/codemodekit/kit/conformance/wire"
)

// An Implementation is the implementation side of the protocol, for
// implementations written in Go: [Serve] decodes each request, calls the
// matching method and encodes its answer. Methods are called
// concurrently. An error becomes an error response as for a [Handler]:
// return [NotApplicable] when the implementation cannot express a setup,
// [TurnFailed] when an agent run fails before any model request.
type Implementation interface {
	// Start builds the system of the scenario. host reaches the suite's
	// fake host for the whole life of the process.
	Start(ctx context.Context, p *StartParams, host *Host) (*StartResult, error)
	StartTurn(ctx context.Context, p *TurnStartParams) (*TurnStartResult, error)
	Call(ctx context.Context, p *CallParams) (*CallResult, error)
	Abort(ctx context.Context, turnID string) error
	End(ctx context.Context, turnID string) error
	Trajectory(ctx context.Context, turnID string) ([]json.RawMessage, error)
	// Transcript and Log are only called with their capability.
	Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error)
	Log(ctx context.Context) (string, error)
	// Close releases everything Start made. It is called once, for the
	// close request or when the suite goes away, when Start returned,
	// even with an error.
	Close(ctx context.Context) error
}

// A SessionEnder is an [Implementation] that can end a session, for the
// sessionEnd capability: it disposes the session's suspended runs.
type SessionEnder interface {
	EndSession(ctx context.Context, sessionKey, how string) error
}

// Serve speaks the protocol on in and out for impl, declaring hello in
// the handshake, until the suite sends close (Serve returns nil after
// answering it), in ends (nil) or the suite breaks the protocol (an
// error). Either way impl.Close has been called when Serve returns, if
// Start was. The caller should then exit.
func Serve(ctx context.Context, in io.Reader, out io.Writer, hello HelloResult, impl Implementation) error {
	if hello.ProtocolVersion == "" {
		hello.ProtocolVersion = Version
	}
	s := &server{hello: hello, impl: impl, closed: make(chan struct{})}
	c := NewConn(out, s.handle)
	s.host = &Host{c: c}
	c.after = func(method string) {
		if method == MethodClose {
			s.closeOnce.Do(func() { close(s.closed) })
		}
	}
	readErr := make(chan error, 1)
	go func() { readErr <- c.Read(in) }()
	var err error
	select {
	case <-s.closed:
	case err = <-readErr:
		if errors.Is(err, io.EOF) {
			// The suite sends nothing more: answer what is in flight (host
			// requests now fail at once), within a bound.
			err = nil
			c.endInput(errors.New("driver: the suite closed the input"))
			waitHandlers(c, eofDrain)
		}
	case <-ctx.Done():
		err = ctx.Err()
	}
	c.End(errors.New("driver: served connection ended"))
	s.shutdown(context.WithoutCancel(ctx))
	return err
}

// eofDrain bounds how long Serve answers the requests in flight after its
// input ended.
const eofDrain = 10 * time.Second

// waitHandlers waits for c's handlers, at most d.
func waitHandlers(c *Conn, d time.Duration) {
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// server holds Serve's state: hello first, start once, then the rest.
type server struct {
	hello HelloResult
	impl  Implementation
	host  *Host

	mu       sync.Mutex
	helloed  bool
	starting bool  // start was received
	started  bool  // Start returned
	startErr error // what Start returned
	finished bool

	closeOnce sync.Once
	closed    chan struct{}
}

// shutdown calls impl.Close once, if Start returned (even with an error:
// it may have made something).
func (s *server) shutdown(ctx context.Context) error {
	s.mu.Lock()
	run := s.started && !s.finished
	s.finished = true
	s.mu.Unlock()
	if !run {
		return nil
	}
	return s.impl.Close(ctx)
}

func (s *server) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	s.mu.Lock()
	helloed, starting, finished := s.helloed, s.starting, s.finished
	switch {
	case method == MethodHello:
		s.helloed = true
	case !helloed:
		s.mu.Unlock()
		return nil, &RPCError{Code: CodeInvalidState, Message: method + " before hello"}
	case finished:
		s.mu.Unlock()
		return nil, &RPCError{Code: CodeInvalidState, Message: method + " after close"}
	case method == MethodStart:
		s.starting = true
	case method == MethodClose:
	case !s.started:
		s.mu.Unlock()
		return nil, &RPCError{Code: CodeInvalidState, Message: method + " before start"}
	case s.startErr != nil:
		s.mu.Unlock()
		return nil, &RPCError{Code: CodeInvalidState, Message: method + " after a failed start"}
	}
	s.mu.Unlock()
	switch method {
	case MethodHello:
		if helloed {
			return nil, &RPCError{Code: CodeInvalidState, Message: "a second hello"}
		}
		var p HelloParams
		if err := DecodeParams(params, &p); err != nil {
			return nil, err
		}
		if p.ProtocolVersion != s.hello.ProtocolVersion {
			return nil, InvalidParams("protocol version %q is not supported (this implementation speaks %q)", p.ProtocolVersion, s.hello.ProtocolVersion)
		}
		return s.hello, nil
	case MethodStart:
		if starting {
			return nil, &RPCError{Code: CodeInvalidState, Message: "a second start"}
		}
		var p StartParams
		if err := DecodeParams(params, &p); err != nil {
			s.mu.Lock()
			s.started, s.startErr = true, err
			s.mu.Unlock()
			return nil, err
		}
		res, err := s.impl.Start(ctx, &p, s.host)
		s.mu.Lock()
		s.started, s.startErr = true, err
		s.mu.Unlock()
		if res == nil {
			res = &StartResult{}
		}
		if res.RegistrationErrors == nil {
			res.RegistrationErrors = []*string{}
		}
		return res, err
	case MethodClose:
		if err := s.shutdown(ctx); err != nil {
			return nil, err
		}
		return Empty{}, nil
	case MethodTurnStart:
		var p TurnStartParams
		if err := DecodeParams(params, &p); err != nil {
			return nil, err
		}
		return s.impl.StartTurn(ctx, &p)
	case MethodTurnCall:
		var p CallParams
		if err := DecodeParams(params, &p); err != nil {
			return nil, err
		}
		return s.impl.Call(ctx, &p)
	case MethodTurnAbort, MethodTurnEnd, MethodTrajectory:
		var p TurnParams
		if err := DecodeParams(params, &p); err != nil {
			return nil, err
		}
		switch method {
		case MethodTurnAbort:
			return Empty{}, s.impl.Abort(ctx, p.TurnID)
		case MethodTurnEnd:
			return Empty{}, s.impl.End(ctx, p.TurnID)
		}
		events, err := s.impl.Trajectory(ctx, p.TurnID)
		if events == nil {
			events = []json.RawMessage{}
		}
		return TrajectoryResult{Events: events}, err
	case MethodTranscript:
		if !s.hello.Capabilities.Transcript {
			return nil, &RPCError{Code: CodeMethodNotFound, Message: "no transcript capability"}
		}
		var p TranscriptParams
		if err := DecodeParams(params, &p); err != nil {
			return nil, err
		}
		recs, err := s.impl.Transcript(ctx, p.SessionKey)
		if recs == nil {
			recs = []json.RawMessage{}
		}
		return TranscriptResult{Records: recs}, err
	case MethodSessionEnd:
		ender, ok := s.impl.(SessionEnder)
		if !s.hello.Capabilities.SessionEnd || !ok {
			return nil, &RPCError{Code: CodeMethodNotFound, Message: "no sessionEnd capability"}
		}
		var p SessionEndParams
		if err := DecodeParams(params, &p); err != nil {
			return nil, err
		}
		if p.How != "reset" && p.How != "delete" {
			return nil, &RPCError{Code: CodeInvalidParams, Message: "session/end: how is \"reset\" or \"delete\""}
		}
		return Empty{}, ender.EndSession(ctx, p.SessionKey, p.How)
	case MethodLog:
		if !s.hello.Capabilities.Log {
			return nil, &RPCError{Code: CodeMethodNotFound, Message: "no log capability"}
		}
		text, err := s.impl.Log(ctx)
		return LogResult{Text: text}, err
	default:
		return nil, &RPCError{Code: CodeMethodNotFound, Message: "unknown method " + method}
	}
}

// A Host is the suite's fake host as a served implementation reaches it:
// each method is a request to the suite. When ctx ends first, the request
// is cancelled with $/cancel and the method returns ctx.Err().
type Host struct{ c *Conn }

// Invoke runs tool p.ToolIndex of turn p.TurnID as the suite's fake host
// says. A tool failure is a *ToolError whose Error is the failure text.
func (h *Host) Invoke(ctx context.Context, p InvokeParams) (wire.Result, error) {
	if len(p.Input) == 0 {
		p.Input = json.RawMessage("{}")
	}
	var res wire.Result
	err := h.c.Call(ctx, MethodInvoke, p, &res)
	var rpc *RPCError
	if errors.As(err, &rpc) && rpc.Code == CodeToolFailed {
		return wire.Result{}, &ToolError{Message: rpc.Message}
	}
	return res, hostError(ctx, MethodInvoke, err)
}

// BeforeToolCall runs the before_tool_call hook for p.Event.
func (h *Host) BeforeToolCall(ctx context.Context, p HookParams) (wire.Decision, error) {
	var d wire.Decision
	err := h.c.Call(ctx, MethodBeforeToolCall, p, &d)
	return d, hostError(ctx, MethodBeforeToolCall, err)
}

// Approve asks for the approval of a call of p.ToolName; it may wait for
// a step of the scenario.
func (h *Host) Approve(ctx context.Context, p ApproveParams) (bool, error) {
	var res ApproveResult
	err := h.c.Call(ctx, MethodApprove, p, &res)
	return res.Granted, hostError(ctx, MethodApprove, err)
}

// SubAgent returns the final text of a Swarm sub-agent turn.
func (h *Host) SubAgent(ctx context.Context, p SubAgentParams) (string, error) {
	var res SubAgentResult
	err := h.c.Call(ctx, MethodSubAgent, p, &res)
	return res.Text, hostError(ctx, MethodSubAgent, err)
}

// hostError keeps ctx.Err() as it is, so an implementation sees a
// cancelled host request exactly as a cancelled local call.
func hostError(ctx context.Context, method string, err error) error {
	if err == nil || (ctx.Err() != nil && errors.Is(err, ctx.Err())) {
		return err
	}
	return fmt.Errorf("%s: %w", method, err)
}
