// Package codemode is the reference implementation of code mode: a model sees
// two tools, exec and wait (plus direct-only tools), and writes short
// JavaScript or TypeScript programs that search and call a hidden tool
// catalog inside a QuickJS-WASI VM (SPEC.md).
//
// A [Runtime] is created once per process. Each agent run is a [Turn]: it
// resolves the configuration, applies the tool policy, decides whether code
// mode activates, builds the run-scoped catalog and answers the model's tool
// calls.
//
// Guest failures are data: they come back as failed results with stable
// codes. A Go error from this package means the host could not do its job.
package codemode

import (
	"context"
	"io"

	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// Options configure a Runtime.
type Options struct {
	// WasmPath is the quickjs-wasi binary; empty means the npm-installed one.
	WasmPath string
	// WasmDigest is the binary's expected sha256; empty means the pinned one.
	WasmDigest string
	// CacheDir is the wazero compilation cache; empty means the default,
	// "off" disables it.
	CacheDir string
	// Transcripts keeps session transcripts; nil means an in-memory store
	// owned by the runtime. Pass the same store to a restarted runtime to
	// recover restart-safe runs (SPEC.md chapter 9).
	Transcripts TranscriptStore
	// Namespaces is the internal namespace registry; nil means none.
	Namespaces *NamespaceRegistry
	// Env, when set, replaces the process environment for the debug
	// switches of SPEC.md chapter 21.
	Env map[string]string
	// Log receives debug lines; they are also kept for DebugLog.
	Log io.Writer
	// SubAgents runs Swarm sub-agents; nil makes agents.run fail.
	SubAgents SubAgentRunner
	// StrictPreemption makes every wasm loop of the engine a safepoint, so
	// even a guest inside one long built-in call (a JSON.parse of a large
	// text) cannot hold up the process's garbage collector. CPU-heavy cells
	// run several times slower; without it the hold-up is bounded by one
	// built-in call (SECURITY.md, RATIONALE.md).
	StrictPreemption bool
}

// A Runtime hosts code mode for a process: the compiled engine, the VM pool
// and the in-process map of suspended runs.
type Runtime struct {
	runner      *cell.Runner
	engErr      error
	transcripts TranscriptStore
	boot        string
	namespaces  *NamespaceRegistry
	debug       *debugLog
	subAgents   SubAgentRunner
	mcp         mcpManager
}

// New returns a runtime. It never fails because of the engine: when the
// quickjs-wasi binary cannot be loaded, code mode still activates and every
// exec fails closed with runtime_unavailable (see Available).
func New(ctx context.Context, opts Options) *Runtime {
	var guests sandbox.Provider
	sb, err := sandbox.New(ctx, sandbox.Options{WasmPath: opts.WasmPath, Digest: opts.WasmDigest, CacheDir: opts.CacheDir, StrictPreemption: opts.StrictPreemption})
	if err == nil {
		guests = sb
	}
	runner := cell.NewRunner(guests, err)
	debug := newDebugLog(opts.Env, opts.Log)
	runner.Events = debug.event
	tr := opts.Transcripts
	if tr == nil {
		tr = NewMemoryTranscripts()
	}
	return &Runtime{runner: runner, engErr: err, transcripts: tr, boot: newBootID(), namespaces: opts.Namespaces, debug: debug, subAgents: opts.SubAgents}
}

// Available reports why the engine cannot run code, or nil.
func (rt *Runtime) Available() error { return rt.engErr }

// Suspended reports how many code-mode runs are suspended in this process.
func (rt *Runtime) Suspended() int { return rt.runner.Suspended() }

// Stats are a runtime's resource counts, for leak checks and metrics.
type Stats struct {
	// LiveVMs counts the VMs not closed yet, across every runtime of the
	// process (they share one compiled engine): pooled, running and
	// abandoned ones.
	LiveVMs int
	// PooledVMs counts this runtime's warm VMs waiting for a cell.
	PooledVMs int
	// Legs counts this runtime's stretches of guest execution in progress,
	// including any the watchdog abandoned that have not ended yet.
	Legs int
	// Suspended counts this runtime's stored runs.
	Suspended int
}

// Stats reports the runtime's resource counts.
func (rt *Runtime) Stats() Stats {
	s := rt.runner.Stats()
	return Stats{LiveVMs: s.LiveVMs, PooledVMs: s.PooledVMs, Legs: s.Legs, Suspended: s.Suspended}
}

// DebugLog returns the debug lines written so far (SPEC.md chapter 21).
func (rt *Runtime) DebugLog() string { return rt.debug.text() }

// Transcripts returns the runtime's transcript store.
func (rt *Runtime) Transcripts() TranscriptStore { return rt.transcripts }

// Close discards every suspended run and closes the MCP sessions: nothing
// survives a shutdown.
func (rt *Runtime) Close() {
	rt.runner.Close()
	rt.mcp.close()
}
