// Package cell executes code-mode cells: exec and wait, the guest legs
// between them, inline resolution of ready bridge requests, suspension into
// snapshots and resumption (SPEC.md chapters 5, 7, 8, 9 and 17).
package cell

// This file holds the Runner's lifecycle: making and closing it, its
// resource counts, and the suspended runs it keeps or drops.

import (
	"context"
	"sync/atomic"

	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// Runner executes cells: it is the host half of every run, and keeps the
// process's suspended runs. The guest halves of its legs come from a
// sandbox.Provider: in this process or in worker processes. It is safe
// for concurrent use; each leg runs on its own goroutine.
type Runner struct {
	guests  sandbox.Provider
	engErr  error
	store   *store
	sealer  *sealer
	workers *workers
	legs    atomic.Int64 // legs whose goroutine has not ended
	// shared, when set, is the store the replicas of a clustered gateway
	// share (Share).
	shared    Shared
	lastSweep atomic.Int64 // unix nanoseconds of the latest shared sweep
	// Events, when set, receives one debug line per run lifecycle event
	// (suspension, resume, expiry, disposal); never source or inputs.
	Events func(format string, args ...any)
}

func (rn *Runner) event(format string, args ...any) {
	if rn.Events != nil {
		rn.Events(format, args...)
	}
}

// NewRunner returns a runner whose legs run in guests. When the engine
// could not be loaded, pass its error (and nil guests): every exec then
// fails closed with runtime_unavailable.
func NewRunner(guests sandbox.Provider, engErr error) *Runner {
	r := &Runner{guests: guests, engErr: engErr, store: newStore(MaxSuspendedRuns), workers: newWorkers()}
	r.store.gone = func(id, why string) { r.event("%s runId=%s", why, id) }
	if guests != nil && engErr == nil {
		r.sealer = newSealer(guests.Digest())
	}
	return r
}

// Close discards every suspended run and what the guests keep warm.
func (rn *Runner) Close() {
	rn.store.removeWhere("disposed", func(*run) bool { return true })
	if rn.guests != nil {
		rn.guests.Close()
	}
	rn.workers.close()
}

// Suspended reports how many runs are suspended.
func (rn *Runner) Suspended() int { return rn.store.len() }

// Stats are the runner's resource counts, for leak checks and metrics.
type Stats struct {
	// LiveVMs counts the guest VMs not closed yet: in this process, every
	// runner's that shares the engine (pooled, running and abandoned); in
	// worker processes, the runner's legs in progress.
	LiveVMs int
	// PooledVMs counts this runner's ready VMs: fresh, hot (a catalog
	// installed) and blank (for resumes); in worker processes, those of
	// the idle workers.
	PooledVMs int
	// Workers counts this runner's worker processes (0 in process).
	Workers int
	// Legs counts this runner's legs still running, including legs the
	// watchdog abandoned that have not ended yet.
	Legs int
	// Suspended counts this runner's stored runs.
	Suspended int
	// Warming is set while the guests make VMs or workers ahead.
	Warming bool
}

// Stats reports the runner's resource counts.
func (rn *Runner) Stats() Stats {
	st := Stats{Legs: int(rn.legs.Load()), Suspended: rn.store.len()}
	if rn.guests != nil {
		g := rn.guests.Stats()
		st.LiveVMs, st.PooledVMs, st.Workers, st.Warming = g.LiveVMs, g.PooledVMs, g.Workers, g.Warming
	}
	return st
}

// Drop discards the suspended runs of an agent run (abort, end of turn).
func (rn *Runner) Drop(agentRunID string) int {
	rn.dropShared(func(sc Scope) bool { return sc.AgentRunID == agentRunID })
	return rn.store.removeWhere("disposed", func(r *run) bool { return r.scope.AgentRunID == agentRunID })
}

// DropSession discards the suspended runs of a session (its end): their
// snapshots and pending host work go, and a later wait finds no run.
func (rn *Runner) DropSession(sessionKey string) int {
	rn.dropShared(func(sc Scope) bool { return sc.SessionKey == sessionKey })
	return rn.store.removeWhere("disposed", func(r *run) bool { return r.scope.SessionKey == sessionKey })
}

// removeRun drops r from this process and, when it is there, from the
// shared store.
func (rn *Runner) removeRun(r *run) {
	rn.store.remove(r)
	if r.shared && rn.shared != nil && r.id != "" {
		ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
		defer cancel()
		_ = rn.shared.Remove(ctx, r.id)
	}
}

// Has reports whether a suspended run with id exists: in this process, or
// in the store the replicas of a clustered gateway share.
func (rn *Runner) Has(id string) bool {
	if rn.store.has(id) {
		return true
	}
	if rn.shared == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	ok, err := rn.shared.Stored(ctx, id)
	return ok && err == nil
}
