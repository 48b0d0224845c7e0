// Package sandbox is the guest half of code-mode legs: everything that
// touches untrusted source or a guest VM. It prepares the source (module
// and shell rules, TypeScript), keeps warm VMs, runs the guest between
// deliveries of bridge results, refuses bad bridge requests in the guest,
// checks and bounds everything the controller reports, and snapshots and
// restores idle VMs.
//
// It keeps no run state between legs: the host half (internal/cell) holds
// the runs, their stored snapshots, the bridge's work and the output, and
// hands the guest half what a leg needs. That is what lets the guest half
// run in the host process or in a worker process the host can kill
// (internal/isolate), behind the same operations.
package sandbox

import (
	"context"
	"time"

	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/prepare"
)

// Options configure New.
type Options struct {
	// WasmPath, Digest, CacheDir and StrictPreemption are the engine's
	// (engine.Options).
	WasmPath         string
	Digest           string
	CacheDir         string
	StrictPreemption bool
	// Base is the image suspended runs are stored against (engine.Base);
	// nil takes one from a fresh VM. Sandboxes whose stored runs move
	// between them share one.
	Base []byte
}

// A Sandbox runs legs on one compiled engine. It is safe for concurrent
// use; each Leg is used by one goroutine at a time.
type Sandbox struct {
	eng  *engine.Engine
	pool *pool
}

// New loads the engine (shared by the process) and starts the pool of warm
// VMs. Every failure to obtain a usable engine is an
// *engine.UnavailableError.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	eng, err := engine.Shared(ctx, engine.Options{WasmPath: opts.WasmPath, Digest: opts.Digest,
		CacheDir: opts.CacheDir, StrictPreemption: opts.StrictPreemption})
	if err != nil {
		return nil, err
	}
	var base *engine.Base
	if len(opts.Base) > 0 {
		base = engine.BaseOf(opts.Base)
	}
	return &Sandbox{eng: eng, pool: newPool(eng, base)}, nil
}

// Digest is the sha256 of the engine's binary: stored runs are only valid
// for it.
func (s *Sandbox) Digest() [32]byte { return s.eng.Digest() }

// Base returns the image stored runs are deltas against, made on first use;
// nil when no VM could be made.
func (s *Sandbox) Base() []byte {
	if b := s.pool.baseImage(); b != nil {
		return b.Image()
	}
	return nil
}

// Stats are a sandbox's resource counts, for leak checks.
type Stats struct {
	// LiveVMs counts the engine's VMs not closed yet, in every sandbox of
	// the process (they share the engine).
	LiveVMs int
	// PooledVMs counts this sandbox's warm VMs.
	PooledVMs int
	// Workers counts worker processes (isolate); 0 in process.
	Workers int
	// Warming is set while VMs are being made for the pool.
	Warming bool
}

// Stats reports the sandbox's resource counts.
func (s *Sandbox) Stats() Stats {
	return Stats{LiveVMs: s.eng.LiveVMs(), PooledVMs: s.pool.size(), Warming: s.pool.busy()}
}

// Close releases the pooled VMs. Legs in progress end on their own.
func (s *Sandbox) Close() { s.pool.close() }

// A Provider gives the guest halves of legs: a Sandbox in this process,
// or worker processes (internal/isolate). It is safe for concurrent use.
type Provider interface {
	// Digest is the sha256 of the engine binary: a stored run is only
	// valid for it.
	Digest() [32]byte
	// Begin starts the guest half of a leg whose bridge requests and notes
	// go to h. It may wait, until ctx ends, for room to run it.
	Begin(ctx context.Context, h Handler) (Half, error)
	// Stats reports the provider's resource counts.
	Stats() Stats
	// Close releases what the provider keeps warm; halves in progress end
	// on their own.
	Close()
}

// A Half is the guest half of one leg (see Leg, which is the one a
// Sandbox gives). Its methods are called by one goroutine at a time, in
// the order of Leg's, except Abort and Kill, which any goroutine may call.
type Half interface {
	// Prepare prepares an exec cell's source; deadline is the exec's.
	// A preparation failure is data (*prepare.Failure); a *Fault means the
	// guest half could not prepare it.
	Prepare(code string, lang prepare.Language, deadline time.Time) (*prepare.Failure, *Fault)
	Start(Start) Report
	// Exec is Prepare and then, unless it failed or the deadline passed
	// (FaultPrepareTimeout), Start: one operation for a cell whose guest
	// configuration the host has at hand.
	Exec(code string, lang prepare.Language, start Start) (*prepare.Failure, Report)
	Resume(Resume) Report
	Step([]Settlement) Report
	Snapshot() (Stored, *Fault)
	// Abort stops the guest at its next interrupt poll.
	Abort()
	// Kill stops the guest half now, where it can be: a worker process is
	// killed; a leg in this process can only be aborted and left behind.
	Kill()
	// Close ends the leg and releases its VM.
	Close()
}

// Begin implements Provider: a Leg of s.
func (s *Sandbox) Begin(_ context.Context, h Handler) (Half, error) { return s.NewLeg(h), nil }
