// Package harness runs the reference implementation for one conformance
// scenario, described in the terms of the driver protocol
// (conformance/wire/protocol), with the suite's tool host behind a
// [wire.ToolHost]. It is the adaptation both conformance modes share:
// codemodetest wraps it as an in-process conformance.Target, and
// [ServeDriver] serves it over the protocol (codemode serve-driver).
//
// It never imports the conformance suite itself, so the codemode command
// links neither godog nor the features.
package harness

import (
	"context"
	"encoding/json"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/runtimeaccess"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
)

// Options describe the system of one scenario, as it boots.
type Options struct {
	// Namespaces are the internal namespace registrations, in order.
	Namespaces []protocol.Namespace
	// RolledBack, Disabled and Uninstalled list the plugins rolled back,
	// disabled or uninstalled after their registrations; the namespaces of
	// each are cleared (CM-15.5).
	RolledBack, Disabled, Uninstalled []string
	// Runtime is "" for a working runtime, or "missing", "unreadable" (a
	// directory where the binary should be) or "corrupt" to boot without a
	// usable quickjs-wasi binary.
	Runtime string
	// Env replaces the process environment for the debug switches when
	// not nil (codemode.Options.Env).
	Env map[string]string
	// SubAgents answers Swarm sub-agents (codemode.Options.SubAgents).
	SubAgents func(ctx context.Context, r codemode.SubAgentRequest) (string, error)
	// Transcripts is the durable state; nil means an in-memory store.
	Transcripts codemode.TranscriptStore
	// MCP adds the setup's MCP servers to a turn's configuration; nil
	// leaves the configuration as it is.
	MCP func(config json.RawMessage) (json.RawMessage, error)
	// StrictPreemption is codemode.Options.StrictPreemption.
	StrictPreemption bool
	// Isolation is codemode.Options.Isolation.
	Isolation codemode.Isolation
	// WorkerExecutable is codemode.Options.WorkerExecutable.
	WorkerExecutable string
}

// A System is one booted reference runtime.
type System struct {
	rt          *codemode.Runtime
	tmp         string
	regErrs     []error
	mcp         func(json.RawMessage) (json.RawMessage, error)
	transcripts codemode.TranscriptStore
	log         debugLog

	mu    sync.Mutex
	turns []*Turn
}

// Boot creates the runtime of o.
func Boot(ctx context.Context, o Options) (*System, error) {
	s := &System{mcp: o.MCP, transcripts: o.Transcripts}
	opts := codemode.Options{}
	switch o.Runtime {
	case "missing":
		opts.WasmPath = filepath.Join(os.TempDir(), "codemodekit-missing", "quickjs.wasm")
	case "unreadable", "corrupt":
		dir, err := os.MkdirTemp("", "codemodekit-"+o.Runtime+"-")
		if err != nil {
			return nil, err
		}
		s.tmp = dir
		opts.WasmPath = filepath.Join(dir, "quickjs.wasm")
		if o.Runtime == "unreadable" {
			err = os.Mkdir(opts.WasmPath, 0o700) // a directory where the file should be
		} else {
			err = os.WriteFile(opts.WasmPath, []byte("\x00asm not really"), 0o600)
		}
		if err != nil {
			s.Close()
			return nil, err
		}
	}
	reg, regErrs, err := registry(o.Namespaces, o.RolledBack, o.Disabled, o.Uninstalled)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.regErrs = regErrs
	opts.Namespaces = reg
	opts.Env = o.Env
	opts.Log = &s.log
	opts.SubAgents = o.SubAgents
	opts.StrictPreemption = o.StrictPreemption
	opts.Isolation = o.Isolation
	opts.WorkerExecutable = o.WorkerExecutable
	if s.transcripts == nil {
		s.transcripts = codemode.NewMemoryTranscripts()
	}
	opts.Transcripts = s.transcripts
	s.rt = codemode.New(ctx, opts)
	return s, nil
}

// Runner is the runtime's cell runner, which a clustered gateway shares
// with its other replicas (cell.Runner.Share).
func (s *System) Runner() *cell.Runner { return runtimeaccess.Runner(s.rt) }

// Close ends every turn and the runtime: nothing in memory survives.
func (s *System) Close() {
	s.mu.Lock()
	turns := s.turns
	s.turns = nil
	s.mu.Unlock()
	for _, tu := range turns {
		tu.t.End()
	}
	if s.rt != nil {
		s.rt.Close()
	}
	if s.tmp != "" {
		_ = os.RemoveAll(s.tmp)
	}
}

// RegistrationErrors returns, index by index, the outcome of the
// namespace registrations (nil for accepted ones).
func (s *System) RegistrationErrors() []error { return s.regErrs }

// Log returns the runtime's debug log so far.
func (s *System) Log() string { return s.log.text() }

// maxDebugLog bounds the debug log a System keeps.
const maxDebugLog = 1 << 20

// debugLog keeps the runtime's debug lines (codemode.Options.Log), up to
// maxDebugLog bytes: a line that does not fit is dropped.
type debugLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *debugLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buf.Len()+len(p) <= maxDebugLog {
		l.buf.Write(p)
	}
	return len(p), nil
}

func (l *debugLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// EndSession ends a session: its suspended runs are disposed.
func (s *System) EndSession(sessionKey string) { s.rt.EndSession(sessionKey) }

// Transcript returns a session's transcript records.
func (s *System) Transcript(sessionKey string) ([]json.RawMessage, error) {
	recs, err := s.transcripts.Records(sessionKey)
	if err != nil {
		return nil, err
	}
	return marshalEach(recs)
}

// marshalEach encodes each element of xs, without HTML escaping, so that
// embedded documents (details) keep their bytes.
func marshalEach[T any](xs []T) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(xs))
	for _, x := range xs {
		b, err := protocol.Marshal(x)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// Tool adapts a catalog spec, tool i of a turn, to a codemode.Tool whose
// calls host answers.
func Tool(i int, s wire.Spec, host wire.ToolHost) codemode.Tool {
	tool := codemode.Tool{
		Name: s.Name, Label: s.Label, Description: s.Description, Owner: s.Owner, Bundled: s.Bundled,
		Parameters: s.Schema(), OutputSchema: s.OutputSchema, DirectOnly: s.DirectOnly,
		ReplaySafe: s.ReplaySafe, RequiresApproval: s.RequiresApproval,
	}
	switch s.Source {
	case "plugin":
		tool.Source = codemode.SourcePlugin
	case "client":
		tool.Source = codemode.SourceClient
	case "mcp":
		tool.Source = codemode.SourceMCP
	default:
		tool.Source = codemode.SourceCore
	}
	tool.Execute = func(ctx context.Context, c codemode.ToolCall) (codemode.ToolResult, error) {
		res, err := host.Invoke(ctx, i, s, c.Input)
		if err != nil {
			return codemode.ToolResult{}, err
		}
		out := codemode.ToolResult{Details: res.Details}
		for _, b := range res.Content {
			out.Content = append(out.Content, codemode.ContentBlock{Type: b.Type, Text: b.Text})
		}
		return out, nil
	}
	return tool
}

// StartTurn starts the agent run p describes, with p's configuration and
// tools, delegating to host. A run that fails before any model request
// returns an error wrapping codemode.ErrSurface.
func (s *System) StartTurn(ctx context.Context, p *protocol.TurnStartParams, host wire.ToolHost) (*Turn, error) {
	opts := codemode.TurnOptions{
		AgentID: p.AgentID, SessionID: p.SessionID, SessionKey: p.SessionKey,
		RunID: p.RunID, SenderID: p.SenderID, ChannelID: p.ChannelID, DisableTools: p.DisableTools, Raw: p.NoTools,
		Hooks: codemode.Hooks{
			BeforeToolCall: func(ctx context.Context, e codemode.HookEvent) (codemode.HookDecision, error) {
				b, err := json.Marshal(e)
				if err != nil {
					return codemode.HookDecision{}, err
				}
				d, err := host.BeforeToolCall(ctx, b)
				if err != nil {
					return codemode.HookDecision{}, err
				}
				return codemode.HookDecision{Block: d.Block, Reason: d.Reason, Params: d.Params}, nil
			},
			Approve: func(ctx context.Context, r codemode.ApprovalRequest) (bool, error) {
				return host.Approve(ctx, r.ToolName)
			},
		},
	}
	if !p.NoTools {
		opts.Tools = make([]codemode.Tool, 0, len(p.Tools))
		for i, spec := range p.Tools {
			opts.Tools = append(opts.Tools, Tool(i, spec, host))
		}
	}
	opts.Config = p.Config
	if s.mcp != nil {
		cfg, err := s.mcp(p.Config)
		if err != nil {
			return nil, err
		}
		opts.Config = cfg
	}
	ct, err := s.rt.StartTurn(ctx, opts)
	if err != nil {
		return nil, err
	}
	tu := &Turn{t: ct}
	s.mu.Lock()
	s.turns = append(s.turns, tu)
	s.mu.Unlock()
	return tu, nil
}

// A Turn is one agent run.
type Turn struct{ t *codemode.Turn }

// Tools returns the model-visible tools, in provider order.
func (tu *Turn) Tools() []protocol.ToolDefinition {
	defs := tu.t.Tools()
	out := make([]protocol.ToolDefinition, len(defs))
	for i, d := range defs {
		out[i] = protocol.ToolDefinition{Name: d.Name, Label: d.Label, Description: d.Description, Parameters: d.Parameters}
	}
	return out
}

// Call makes one model tool call and returns what the model receives: the
// text blocks joined with "\n", the details and the error flag.
func (tu *Turn) Call(ctx context.Context, id, name string, args json.RawMessage) (protocol.CallResult, error) {
	res, err := tu.t.Call(ctx, id, name, args)
	if err != nil {
		return protocol.CallResult{}, err
	}
	var text []string
	for _, b := range res.Content {
		if b.Type == "text" {
			text = append(text, b.Text)
		}
	}
	return protocol.CallResult{Text: strings.Join(text, "\n"), Details: res.Details, IsError: res.IsError}, nil
}

// Abort aborts the agent run.
func (tu *Turn) Abort() { tu.t.Abort() }

// End ends the agent run normally.
func (tu *Turn) End() { tu.t.End() }

// Trajectory returns the turn's trajectory events.
func (tu *Turn) Trajectory() ([]json.RawMessage, error) {
	return marshalEach(tu.t.Trajectory())
}
