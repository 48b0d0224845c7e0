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

	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/engine"
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
}

// A Runtime hosts code mode for a process: the compiled engine, the VM pool
// and the in-process map of suspended runs.
type Runtime struct {
	runner *cell.Runner
	engErr error
}

// New returns a runtime. It never fails because of the engine: when the
// quickjs-wasi binary cannot be loaded, code mode still activates and every
// exec fails closed with runtime_unavailable (see Available).
func New(ctx context.Context, opts Options) *Runtime {
	eng, err := engine.Shared(ctx, engine.Options{WasmPath: opts.WasmPath, Digest: opts.WasmDigest, CacheDir: opts.CacheDir})
	return &Runtime{runner: cell.NewRunner(eng, err), engErr: err}
}

// Available reports why the engine cannot run code, or nil.
func (rt *Runtime) Available() error { return rt.engErr }

// Suspended reports how many code-mode runs are suspended in this process.
func (rt *Runtime) Suspended() int { return rt.runner.Suspended() }

// Close discards every suspended run: nothing survives a shutdown.
func (rt *Runtime) Close() { rt.runner.Close() }
