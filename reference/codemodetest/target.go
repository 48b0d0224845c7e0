// Package codemodetest adapts the reference implementation to the
// conformance suite. NewTarget returns a conformance.Target that runs every
// scenario in process, with the scenario's tools executed by the suite's
// fake tool host. The adaptation itself is in the harness subpackage,
// which codemode serve-driver serves over the driver protocol
// (SPEC.md Appendix D).
package codemodetest

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/harness"
)

// Name is the target's name; its baseline is conformance/baselines/reference.txt.
const Name = harness.Name

// NewTarget returns a fresh in-process target.
func NewTarget() (conformance.Target, error) { return &target{}, nil }

// Options configure NewTargetWith.
type Options struct {
	// MCPHosting hosts the real MCP server fixtures; nil runs each as a
	// child process.
	MCPHosting MCPHosting
	// Isolation is where the runtime runs guest code
	// (codemode.Options.Isolation): worker processes by default.
	Isolation codemode.Isolation
	// StrictPreemption is codemode.Options.StrictPreemption.
	StrictPreemption bool
	// WorkerExecutable is codemode.Options.WorkerExecutable.
	WorkerExecutable string
}

// NewTargetWith returns a fresh in-process target configured by o.
func NewTargetWith(o Options) (conformance.Target, error) {
	return &target{realMCP: realMCP{hosting: o.MCPHosting}, isolation: o.Isolation, strict: o.StrictPreemption, workerExe: o.WorkerExecutable}, nil
}

// target runs one scenario in process: a harness.System whose host is the
// setup's.
type target struct {
	setup *conformance.Setup
	sys   *harness.System
	// transcripts is the durable state, shared by the systems of a restart.
	transcripts codemode.TranscriptStore
	fakeMCP     driver.FakeMCP
	realMCP     realMCP
	isolation   codemode.Isolation
	strict      bool
	workerExe   string
}

func (t *target) Start(ctx context.Context, s *conformance.Setup) error {
	t.setup = s
	return t.boot(ctx)
}

// boot creates the system for the current setup.
func (t *target) boot(ctx context.Context) error {
	if err := t.fakeMCP.Start(t.setup); err != nil {
		return err
	}
	if t.transcripts == nil {
		t.transcripts = codemode.NewMemoryTranscripts()
	}
	o := harness.Options{RolledBack: t.setup.RolledBack, Disabled: t.setup.Disabled, Uninstalled: t.setup.Uninstalled, Runtime: t.setup.Runtime, Env: t.setup.Env,
		Transcripts: t.transcripts, MCP: t.configWithMCP, Isolation: t.isolation, StrictPreemption: t.strict, WorkerExecutable: t.workerExe,
		SubAgents: func(ctx context.Context, r codemode.SubAgentRequest) (string, error) {
			return t.setup.SubAgentAnswer, nil
		}}
	for _, ns := range t.setup.Namespaces {
		o.Namespaces = append(o.Namespaces, protocol.Namespace{PluginID: ns.PluginID, Registration: ns.Registration})
	}
	sys, err := harness.Boot(ctx, o)
	if err != nil {
		return err
	}
	t.sys = sys
	return nil
}

func (t *target) Close() error {
	if t.sys != nil {
		t.sys.Close()
	}
	t.fakeMCP.Close()
	t.realMCP.cleanup()
	return nil
}

// Restart drops everything in memory and boots a new system.
func (t *target) Restart(ctx context.Context) error {
	if err := t.Close(); err != nil {
		return err
	}
	return t.boot(ctx)
}

// configWithMCP returns cfg with the setup's MCP servers added as
// mcp.servers.<name>: the fake servers' urls, and the stdio entries of the
// real server fixtures, keeping every member the scenario configured for a
// server (timeoutMs, headers).
func (t *target) configWithMCP(cfg json.RawMessage) (json.RawMessage, error) {
	if len(t.setup.MCPServers) == 0 {
		return cfg, nil
	}
	entries := t.fakeMCP.Entries()
	for _, srv := range t.setup.MCPServers {
		if srv.Fixture == "" {
			continue
		}
		entry, err := t.realMCP.config(srv.Fixture)
		if err != nil {
			return nil, err
		}
		entries[srv.Name] = entry
	}
	return driver.MergeMCPServers(cfg, entries)
}

// RegistrationErrors implements conformance.RegistrationReporter.
func (t *target) RegistrationErrors() []error { return t.sys.RegistrationErrors() }

// Log implements conformance.LogReader: the runtime's debug log.
func (t *target) Log() string { return t.sys.Log() }

// EndSession implements conformance.SessionEnder.
func (t *target) EndSession(ctx context.Context, sessionKey string, how conformance.SessionEnd) error {
	t.sys.EndSession(sessionKey)
	return nil
}

// Transcript returns a session's transcript records (conformance.Transcripter).
func (t *target) Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error) {
	return t.sys.Transcript(sessionKey)
}

func (t *target) StartTurn(ctx context.Context, spec conformance.TurnSpec) (conformance.Turn, error) {
	p := &protocol.TurnStartParams{AgentID: spec.AgentID, SessionID: spec.SessionID, SessionKey: spec.SessionKey,
		RunID: spec.RunID, SenderID: spec.SenderID, ChannelID: spec.ChannelID, DisableTools: spec.DisableTools, NoTools: spec.NoTools,
		Config: t.setup.Config, Tools: spec.TurnTools(t.setup.Tools)}
	tu, err := t.sys.StartTurn(ctx, p, t.setup.Host)
	if errors.Is(err, codemode.ErrSurface) {
		return nil, &conformance.TurnFailure{Message: err.Error()}
	}
	if err != nil {
		return nil, err
	}
	return turn{tu}, nil
}

// turn is a harness turn as a conformance.Turn.
type turn struct{ t *harness.Turn }

func (tu turn) Tools() []conformance.ToolDefinition {
	defs := tu.t.Tools()
	out := make([]conformance.ToolDefinition, len(defs))
	for i, d := range defs {
		out[i] = conformance.ToolDefinition{Name: d.Name, Label: d.Label, Description: d.Description, Parameters: d.Parameters}
	}
	return out
}

func (tu turn) Call(ctx context.Context, id, name string, args json.RawMessage) (conformance.Outcome, error) {
	res, err := tu.t.Call(ctx, id, name, args)
	if err != nil {
		return conformance.Outcome{}, err
	}
	return conformance.Outcome{Text: res.Text, Details: res.Details, IsError: res.IsError}, nil
}

func (tu turn) Abort(ctx context.Context) error { tu.t.Abort(); return nil }
func (tu turn) End(ctx context.Context) error   { tu.t.End(); return nil }

func (tu turn) Trajectory(ctx context.Context) ([]json.RawMessage, error) { return tu.t.Trajectory() }
