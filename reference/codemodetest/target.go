// Package codemodetest adapts the reference implementation to the
// conformance suite: NewTarget returns a conformance.Target that runs every
// scenario in process, with the scenario's tools executed by the suite's
// fake tool host.
package codemodetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/fakes/fakemcp"
	"github.com/codemodekit/kit/fakes/faketools"
	codemode "github.com/codemodekit/kit/reference"
)

// Name is the target's name; its baseline is conformance/baselines/reference.txt.
const Name = "reference"

// NewTarget returns a fresh in-process target.
func NewTarget() (conformance.Target, error) { return &target{}, nil }

// Options configure NewTargetWith.
type Options struct {
	// MCPHosting hosts the real MCP server fixtures; nil runs each as a
	// child process.
	MCPHosting MCPHosting
}

// NewTargetWith returns a fresh in-process target configured by o.
func NewTargetWith(o Options) (conformance.Target, error) {
	return &target{realMCP: realMCP{hosting: o.MCPHosting}}, nil
}

type target struct {
	setup       *conformance.Setup
	rt          *codemode.Runtime
	tmp         string
	transcripts *codemode.MemoryTranscripts
	regErrs     []error
	mcpServers  []*fakemcp.Server
	mcpNames    []string
	realMCP     realMCP

	mu    sync.Mutex
	turns []*turn
}

func (t *target) Start(ctx context.Context, s *conformance.Setup) error {
	t.setup = s
	return t.boot(ctx)
}

// boot creates the runtime for the current setup.
func (t *target) boot(ctx context.Context) error {
	opts := codemode.Options{}
	switch t.setup.Runtime {
	case "missing":
		opts.WasmPath = filepath.Join(os.TempDir(), "codemodekit-missing", "quickjs.wasm")
	case "corrupt":
		dir, err := os.MkdirTemp("", "codemodekit-corrupt-")
		if err != nil {
			return err
		}
		t.tmp = dir
		opts.WasmPath = filepath.Join(dir, "quickjs.wasm")
		if err := os.WriteFile(opts.WasmPath, []byte("\x00asm not really"), 0o600); err != nil {
			return err
		}
	}
	if err := t.startMCP(); err != nil {
		return err
	}
	reg, regErrs, err := registry(t.setup)
	if err != nil {
		return err
	}
	t.regErrs = regErrs
	opts.Namespaces = reg
	opts.Env = t.setup.Env
	opts.SubAgents = func(ctx context.Context, r codemode.SubAgentRequest) (string, error) {
		return t.setup.SubAgentAnswer, nil
	}
	if t.transcripts == nil {
		t.transcripts = codemode.NewMemoryTranscripts()
	}
	opts.Transcripts = t.transcripts
	t.rt = codemode.New(ctx, opts)
	return nil
}

func (t *target) Close() error {
	t.mu.Lock()
	turns := t.turns
	t.turns = nil
	t.mu.Unlock()
	for _, tu := range turns {
		tu.t.End()
	}
	if t.rt != nil {
		t.rt.Close()
	}
	for _, s := range t.mcpServers {
		s.Close()
	}
	t.mcpServers, t.mcpNames = nil, nil
	if t.tmp != "" {
		_ = os.RemoveAll(t.tmp)
	}
	t.realMCP.cleanup()
	return nil
}

// Restart drops everything in memory and boots a new runtime.
func (t *target) Restart(ctx context.Context) error {
	if err := t.Close(); err != nil {
		return err
	}
	return t.boot(ctx)
}

// startMCP starts the setup's fake MCP servers on loopback.
func (t *target) startMCP() error {
	for _, srv := range t.setup.MCPServers {
		if srv.Fixture != "" {
			continue // real servers are configured by t.realMCP
		}
		fs, err := fakemcp.Start(srv.Name, srv.Tools, srv.Resources, srv.Prompts, t.setup.Host)
		if err != nil {
			return fmt.Errorf("start fake MCP server %q: %w", srv.Name, err)
		}
		t.mcpServers = append(t.mcpServers, fs)
		t.mcpNames = append(t.mcpNames, srv.Name)
	}
	return nil
}

// configWithMCP is the setup's current configuration with the fake MCP
// servers added as mcp.servers.<name>.url, keeping any other member the
// scenario configured for a server (timeoutMs, headers).
func (t *target) configWithMCP() (json.RawMessage, error) {
	if len(t.setup.MCPServers) == 0 {
		return t.setup.Config, nil
	}
	var cfg map[string]any
	if err := json.Unmarshal(t.setup.Config, &cfg); err != nil || cfg == nil {
		cfg = map[string]any{}
	}
	mcp, _ := cfg["mcp"].(map[string]any)
	if mcp == nil {
		mcp = map[string]any{}
		cfg["mcp"] = mcp
	}
	servers, _ := mcp["servers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
		mcp["servers"] = servers
	}
	for i, fs := range t.mcpServers {
		entry, _ := servers[t.mcpNames[i]].(map[string]any)
		if entry == nil {
			entry = map[string]any{}
		}
		entry["url"] = fs.URL()
		servers[t.mcpNames[i]] = entry
	}
	for _, srv := range t.setup.MCPServers {
		if srv.Fixture == "" {
			continue
		}
		entry, err := t.realMCP.config(srv.Fixture)
		if err != nil {
			return nil, err
		}
		if prev, ok := servers[srv.Name].(map[string]any); ok {
			for k, v := range prev {
				entry[k] = v
			}
		}
		servers[srv.Name] = entry
	}
	return json.Marshal(cfg)
}

// RegistrationErrors implements conformance.RegistrationReporter.
func (t *target) RegistrationErrors() []error { return t.regErrs }

// Log implements conformance.LogReader: the runtime's debug log.
func (t *target) Log() string { return t.rt.DebugLog() }

// Transcript returns a session's transcript records (conformance.Transcripter).
func (t *target) Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error) {
	recs, err := t.transcripts.Records(sessionKey)
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(recs))
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func (t *target) tools() []codemode.Tool {
	host := t.setup.Host
	out := make([]codemode.Tool, 0, len(t.setup.Tools))
	for _, s := range t.setup.Tools {
		out = append(out, toolOf(s, host))
	}
	return out
}

func toolOf(s faketools.Spec, host *faketools.Host) codemode.Tool {
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
		res, err := host.Invoke(ctx, s, c.Input)
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

func (t *target) StartTurn(ctx context.Context, spec conformance.TurnSpec) (conformance.Turn, error) {
	host := t.setup.Host
	opts := codemode.TurnOptions{
		Config: t.setup.Config, AgentID: spec.AgentID, SessionID: spec.SessionID, SessionKey: spec.SessionKey,
		RunID: spec.RunID, DisableTools: spec.DisableTools,
		Hooks: codemode.Hooks{
			BeforeToolCall: func(ctx context.Context, e codemode.HookEvent) (codemode.HookDecision, error) {
				b, err := json.Marshal(e)
				if err != nil {
					return codemode.HookDecision{}, err
				}
				d := host.BeforeToolCall(b)
				return codemode.HookDecision{Block: d.Block, Reason: d.Reason, Params: d.Params}, nil
			},
			Approve: func(ctx context.Context, r codemode.ApprovalRequest) (bool, error) {
				return host.Approve(ctx, r.ToolName)
			},
		},
	}
	if !spec.NoTools {
		opts.Tools = t.tools()
	}
	cfg, err := t.configWithMCP()
	if err != nil {
		return nil, err
	}
	opts.Config = cfg
	opts.Raw = spec.NoTools
	ct, err := t.rt.StartTurn(ctx, opts)
	if errors.Is(err, codemode.ErrSurface) {
		return nil, &conformance.TurnFailure{Message: err.Error()}
	}
	if err != nil {
		return nil, err
	}
	tu := &turn{t: ct}
	t.mu.Lock()
	t.turns = append(t.turns, tu)
	t.mu.Unlock()
	return tu, nil
}

type turn struct{ t *codemode.Turn }

func (tu *turn) Tools() []conformance.ToolDefinition {
	defs := tu.t.Tools()
	out := make([]conformance.ToolDefinition, len(defs))
	for i, d := range defs {
		out[i] = conformance.ToolDefinition{Name: d.Name, Label: d.Label, Description: d.Description, Parameters: d.Parameters}
	}
	return out
}

func (tu *turn) Call(ctx context.Context, id, name string, args json.RawMessage) (conformance.Outcome, error) {
	res, err := tu.t.Call(ctx, id, name, args)
	if err != nil {
		return conformance.Outcome{}, err
	}
	var text []string
	for _, b := range res.Content {
		if b.Type == "text" {
			text = append(text, b.Text)
		}
	}
	return conformance.Outcome{Text: strings.Join(text, "\n"), Details: res.Details, IsError: res.IsError}, nil
}

func (tu *turn) Abort(ctx context.Context) error { tu.t.Abort(); return nil }
func (tu *turn) End(ctx context.Context) error   { tu.t.End(); return nil }

func (tu *turn) Trajectory(ctx context.Context) ([]json.RawMessage, error) {
	events := tu.t.Trajectory()
	out := make([]json.RawMessage, 0, len(events))
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
