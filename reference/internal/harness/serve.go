package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"sync"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
)

// Name is the implementation name ServeDriver declares.
const Name = "reference"

// Hello is what ServeDriver declares in the handshake: every profile and
// every optional capability.
func Hello() protocol.HelloResult {
	version := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		version = bi.Main.Version
	}
	return protocol.HelloResult{
		ProtocolVersion: protocol.Version,
		Implementation:  protocol.Info{Name: Name, Version: version},
		Profiles:        wire.ProcessProfiles(), // every profile of one process
		Capabilities:    protocol.Capabilities{Restart: true, Transcript: true, SessionEnd: true, Log: true, RegistrationErrors: true},
	}
}

// ServeDriver serves the reference over the driver protocol
// (SPEC.md Appendix D) on in and out, until the suite sends
// close or in ends: the same adaptation as in process, with the suite's
// fake host reached over the protocol.
//
// # Notes
//
//   - Durable state (the session transcripts) lives in the state
//     directory the suite names, so it survives a restart of the process.
//   - The suite configures every MCP server: real server fixtures it left
//     unresolved (StartParams.MCPFixtures) are not applicable here.
//   - The hook and sub-agent requests are not cancelled with the run: the
//     suite answers them at once, as its host does in process, so a call
//     in an aborted run still gets its decision.
func ServeDriver(ctx context.Context, in io.Reader, out io.Writer) error {
	return ServeDriverWith(ctx, in, out, codemode.ProcessIsolation)
}

// ServeDriverWith is ServeDriver with the runtime's isolation.
func ServeDriverWith(ctx context.Context, in io.Reader, out io.Writer, isolation codemode.Isolation) error {
	return protocol.Serve(ctx, in, out, Hello(), &served{turns: map[string]*Turn{}, isolation: isolation})
}

// served is the reference as a protocol.Implementation: one System per
// process.
type served struct {
	sys       *System
	host      *protocol.Host
	isolation codemode.Isolation

	mu    sync.Mutex
	turns map[string]*Turn
}

func (s *served) Start(ctx context.Context, p *protocol.StartParams, host *protocol.Host) (*protocol.StartResult, error) {
	if len(p.MCPFixtures) > 0 {
		return nil, protocol.NotApplicable("real MCP server fixture %q: the reference expects the suite to configure it (driver.WithMCPFixtures)", p.MCPFixtures[0].Fixture)
	}
	s.host = host
	o := Options{Namespaces: p.Namespaces, RolledBack: p.RolledBack, Disabled: p.Disabled, Uninstalled: p.Uninstalled, Runtime: p.Runtime, Isolation: s.isolation,
		SubAgents: func(ctx context.Context, r codemode.SubAgentRequest) (string, error) {
			return host.SubAgent(context.WithoutCancel(ctx), protocol.SubAgentParams{Prompt: r.Prompt, Options: r.Options, Spawned: r.Spawned})
		}}
	if p.StateDir != "" {
		tr, err := OpenFileTranscripts(filepath.Join(p.StateDir, "transcripts"))
		if err != nil {
			return nil, err
		}
		o.Transcripts = tr
	}
	sys, err := Boot(ctx, o)
	if err != nil {
		return nil, err
	}
	s.sys = sys
	res := &protocol.StartResult{RegistrationErrors: make([]*string, len(sys.RegistrationErrors()))}
	for i, err := range sys.RegistrationErrors() {
		if err != nil {
			msg := err.Error()
			res.RegistrationErrors[i] = &msg
		}
	}
	return res, nil
}

func (s *served) StartTurn(ctx context.Context, p *protocol.TurnStartParams) (*protocol.TurnStartResult, error) {
	s.mu.Lock()
	_, dup := s.turns[p.TurnID]
	s.mu.Unlock()
	if dup {
		return nil, &protocol.RPCError{Code: protocol.CodeInvalidState, Message: fmt.Sprintf("turn %q already started", p.TurnID)}
	}
	tu, err := s.sys.StartTurn(ctx, p, remoteHost{h: s.host, turnID: p.TurnID})
	if errors.Is(err, codemode.ErrSurface) {
		return nil, protocol.TurnFailed(err.Error())
	}
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.turns[p.TurnID] = tu
	s.mu.Unlock()
	return &protocol.TurnStartResult{Tools: tu.Tools()}, nil
}

// turn returns the turn id.
func (s *served) turn(id string) (*Turn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tu, ok := s.turns[id]
	if !ok {
		return nil, &protocol.RPCError{Code: protocol.CodeInvalidState, Message: fmt.Sprintf("no turn %q", id)}
	}
	return tu, nil
}

func (s *served) Call(ctx context.Context, p *protocol.CallParams) (*protocol.CallResult, error) {
	tu, err := s.turn(p.TurnID)
	if err != nil {
		return nil, err
	}
	res, err := tu.Call(ctx, p.ToolCallID, p.Name, p.Arguments)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

func (s *served) Abort(ctx context.Context, id string) error {
	tu, err := s.turn(id)
	if err != nil {
		return err
	}
	tu.Abort()
	return nil
}

func (s *served) End(ctx context.Context, id string) error {
	tu, err := s.turn(id)
	if err != nil {
		return err
	}
	tu.End()
	return nil
}

func (s *served) Trajectory(ctx context.Context, id string) ([]json.RawMessage, error) {
	tu, err := s.turn(id)
	if err != nil {
		return nil, err
	}
	return tu.Trajectory()
}

func (s *served) Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error) {
	return s.sys.Transcript(sessionKey)
}

// EndSession implements protocol.SessionEnder.
func (s *served) EndSession(ctx context.Context, sessionKey, how string) error {
	if s.sys == nil {
		return &protocol.RPCError{Code: protocol.CodeInvalidState, Message: "session/end before start"}
	}
	s.sys.EndSession(sessionKey)
	return nil
}

func (s *served) Log(ctx context.Context) (string, error) { return s.sys.Log(), nil }

func (s *served) Close(ctx context.Context) error {
	if s.sys != nil {
		s.sys.Close()
	}
	return nil
}

// remoteHost is the suite's fake host over the protocol, for the turn
// turnID.
type remoteHost struct {
	h      *protocol.Host
	turnID string
}

func (r remoteHost) Invoke(ctx context.Context, i int, s wire.Spec, input json.RawMessage) (wire.Result, error) {
	return r.h.Invoke(ctx, protocol.InvokeParams{TurnID: r.turnID, ToolIndex: i, Name: s.Name, Input: input})
}

// BeforeToolCall is not cancelled with ctx: see ServeDriver.
func (r remoteHost) BeforeToolCall(ctx context.Context, event json.RawMessage) (wire.Decision, error) {
	return r.h.BeforeToolCall(context.WithoutCancel(ctx), protocol.HookParams{TurnID: r.turnID, Event: event})
}

func (r remoteHost) Approve(ctx context.Context, tool string) (bool, error) {
	return r.h.Approve(ctx, protocol.ApproveParams{TurnID: r.turnID, ToolName: tool})
}
