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
	"fmt"
	"io"

	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/isolate"
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
	// switches of SPEC.md chapter 21 (OPENCLAW_DEBUG_CODE_MODE and
	// OPENCLAW_DEBUG_MODEL_PAYLOAD).
	Env map[string]string
	// Log receives the debug lines those switches turn on, one Write per
	// line; nil discards them.
	Log io.Writer
	// SubAgents runs a spawned Swarm sub-agent turn and returns its final
	// text; nil makes agents.run fail.
	SubAgents func(ctx context.Context, r SubAgentRequest) (string, error)
	// Isolation says where guest code runs: the zero value is worker
	// processes the host can kill (ProcessIsolation).
	Isolation Isolation
	// StrictPreemption makes every wasm loop of the engine a safepoint, so
	// that a guest inside one long built-in call (a JSON.parse of a large
	// text) reaches its interrupt poll. CPU-heavy cells run several times
	// slower. With InProcess it is what keeps such a guest from holding up
	// the host's garbage collector; worker processes do not need it
	// (SECURITY.md, RATIONALE.md).
	StrictPreemption bool
	// WorkerExecutable is the program worker processes are started from
	// (ProcessIsolation); empty means the host's own executable. Any
	// binary that links this module's runtime serves, such as the codemode
	// command: a host whose own binary is heavy to start (one built with
	// the race detector) can point it at a lean one. A worker built from
	// another version is refused when it starts, and the runtime is then
	// unavailable (Available).
	WorkerExecutable string
}

// Isolation says where guest code, and the preparation of its source, runs.
type Isolation int

const (
	// ProcessIsolation runs every leg in a worker process: the host's own
	// executable, started with a clean environment and under operating
	// system limits, pre-started and pooled. A leg that passes its
	// deadline and a short grace has its worker killed, and a worker that
	// crashes fails only its own leg; the guest's memory and garbage
	// collection are the worker's, never the host's. The default.
	ProcessIsolation Isolation = iota
	// InProcess runs legs on goroutines of the host process, for trusted
	// embedding where a process per leg is not wanted. The host is then
	// exposed to what one built-in call of a guest can do: hold the
	// garbage collector of the whole process until it returns, and keep
	// its memory until it does (SECURITY.md lists the bounds).
	InProcess
)

// ParseIsolation reads "process" (or "") and "in-process", the names the
// commands' -isolation flags take.
func ParseIsolation(s string) (Isolation, error) {
	switch s {
	case "process", "":
		return ProcessIsolation, nil
	case "in-process":
		return InProcess, nil
	}
	return 0, fmt.Errorf("isolation %q is neither process nor in-process", s)
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
	subAgents   func(ctx context.Context, r SubAgentRequest) (string, error)
	mcp         mcpManager
}

// New returns a runtime. It never fails because of the engine: when the
// quickjs-wasi binary cannot be loaded, code mode still activates and every
// exec fails closed with runtime_unavailable (see Available).
func New(ctx context.Context, opts Options) *Runtime {
	guests, err := newGuests(ctx, opts)
	runner := cell.NewRunner(guests, err)
	debug := newDebugLog(opts.Env, opts.Log)
	runner.Events = debug.event
	tr := opts.Transcripts
	if tr == nil {
		tr = NewMemoryTranscripts()
	}
	return &Runtime{runner: runner, engErr: err, transcripts: tr, boot: newBootID(), namespaces: opts.Namespaces, debug: debug, subAgents: opts.SubAgents}
}

// newGuests starts what runs the guest halves of legs: a process-wide
// pool of workers, or a sandbox in this process.
func newGuests(ctx context.Context, opts Options) (sandbox.Provider, error) {
	if opts.Isolation == InProcess {
		sb, err := sandbox.New(ctx, sandbox.Options{WasmPath: opts.WasmPath, Digest: opts.WasmDigest,
			CacheDir: opts.CacheDir, StrictPreemption: opts.StrictPreemption})
		if err != nil {
			return nil, err
		}
		return sb, nil
	}
	p, err := isolate.Shared(ctx, isolate.Options{WasmPath: opts.WasmPath, Digest: opts.WasmDigest,
		CacheDir: opts.CacheDir, StrictPreemption: opts.StrictPreemption, Executable: opts.WorkerExecutable})
	if err != nil {
		return nil, err
	}
	return sharedGuests{p}, nil
}

// sharedGuests is a process-wide pool as one runtime's guests: the
// runtime's Close leaves the pool to the others.
type sharedGuests struct{ *isolate.Pool }

func (sharedGuests) Close() {}

// Available reports why the engine cannot run code, or nil.
func (rt *Runtime) Available() error { return rt.engErr }

// EndSession ends a session, as a host does when it resets or deletes it:
// the session's suspended runs are disposed with their snapshots, and their
// pending host work is cancelled (CM-8.40, CM-18.11). It returns how many
// runs it disposed. Turns of the session in progress are not affected.
func (rt *Runtime) EndSession(sessionKey string) int { return rt.runner.DropSession(sessionKey) }

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

// Close discards every suspended run and closes the MCP sessions: nothing
// survives a shutdown.
func (rt *Runtime) Close() {
	rt.runner.Close()
	rt.mcp.close()
}
