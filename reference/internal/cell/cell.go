// Package cell executes code-mode cells: exec and wait, the guest legs
// between them, inline resolution of ready bridge requests, suspension into
// snapshots and resumption (SPEC.md chapters 5, 7, 8, 9 and 17).
package cell

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/prepare"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// WatchdogGrace is how long past its deadline a leg may run before the host
// gives up on it and reports a watchdog timeout (SPEC.md CM-18.3).
const WatchdogGrace = 2 * time.Second

// maxSavingGraces bounds how many more WatchdogGrace periods a leg gets
// while it is storing its snapshot: host work, not guest code, which a
// large heap on a loaded machine can stretch past one grace.
const maxSavingGraces = 10

// snapshotHeaderBytes is the size of a serialized snapshot beyond memory:
// the QJSS version 2 header and its extension count.
const snapshotHeaderBytes = 28

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
	rn.store.removeWhere(func(*run) bool { return true })
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
	return rn.store.removeWhere(func(r *run) bool { return r.scope.AgentRunID == agentRunID })
}

// DropSession discards the suspended runs of a session (its end): their
// snapshots and pending host work go, and a later wait finds no run.
func (rn *Runner) DropSession(sessionKey string) int {
	return rn.store.removeWhere(func(r *run) bool { return r.scope.SessionKey == sessionKey })
}

func newRunID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("cm_%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// resumeMin is the time a leg needs left to resume inline (CM-8.14).
func resumeMin(timeoutMs int) time.Duration {
	return time.Duration(min(250, max(1, timeoutMs/2))) * time.Millisecond
}

// Exec runs one exec call. toolCallID is the model's id for the call.
func (rn *Runner) Exec(ctx context.Context, host Host, scope Scope, toolCallID string, args json.RawMessage) Result {
	res := rn.exec(ctx, host, scope, toolCallID, args, Rebuild{})
	res.Telemetry = host.Telemetry()
	return res
}

// Rebuild describes a restart-safe run rebuilt from a transcript after a
// restart (SPEC.md CM-9.10 to CM-9.12): it keeps its run id and skips the
// output entries the transcript shows as delivered.
type Rebuild struct {
	RunID      string
	SkipOutput int
}

// ExecRebuilt re-runs a recorded restart-safe exec as the answer to a wait
// for a run lost in a restart. args are the recorded exec arguments.
func (rn *Runner) ExecRebuilt(ctx context.Context, host Host, scope Scope, execToolCallID string, args json.RawMessage, rb Rebuild) Result {
	res := rn.exec(ctx, host, scope, execToolCallID, args, rb)
	res.Telemetry = host.Telemetry()
	return res
}

// Has reports whether a suspended run with id exists.
func (rn *Runner) Has(id string) bool { return rn.store.has(id) }

// unavailable is the fail-closed result when the engine cannot run code.
func unavailable(reason string) Result {
	return Failed(CodeRuntimeUnavailable, PhaseHost, MsgRuntimeUnavailable+reason)
}

func (rn *Runner) exec(ctx context.Context, host Host, scope Scope, toolCallID string, args json.RawMessage, rb Rebuild) Result {
	in, fail := ParseExec(args)
	if fail != nil {
		return *fail
	}
	if rb.RunID != "" {
		in.RestartSafe = true
	}
	s := host.Settings()
	rn.store.sweep()
	if !s.RuntimeSupported() {
		return unavailable("unsupported runtime " + s.RuntimeJSON + ".")
	}
	if rn.engErr != nil || rn.guests == nil {
		reason := "quickjs-wasi is not loaded"
		var ue *engine.UnavailableError
		if errors.As(rn.engErr, &ue) {
			reason = ue.Reason
		}
		return unavailable(reason)
	}
	if !s.LanguageEnabled(in.Language) {
		return Failed(CodeInvalidInput, PhaseInput, LanguageDisabled(in.Language))
	}
	deadline := time.Now().Add(time.Duration(s.TimeoutMs) * time.Millisecond)
	r := &run{id: rb.RunID, scope: scope, host: host,
		bridge: newBridge(host, s.MaxPendingToolCalls, toolCallID, in.RestartSafe), restartSafe: in.RestartSafe}
	r.output.skip = rb.SkipOutput
	return rn.supervise(ctx, r, deadline, true, func(l *leg) Result {
		if res, ok := l.begin(); !ok {
			return res
		}
		start := sandbox.Start{Deadline: deadline, Limits: limitsOf(s), Catalog: host.Catalog().Guest(),
			MaxPending: s.MaxPendingToolCalls}
		// The source is prepared by the guest half: it is untrusted input,
		// and esbuild and the lexers are code a hostile source could hold.
		// When the guest configuration is the turn's own, preparation and
		// start are one operation; else the configuration (a namespace
		// scope made for the cell) waits for a source that prepared.
		if pc, ok := host.(plainConfiger); ok {
			if cfg, ok := pc.PlainGuestConfig(); ok {
				start.Config = cfg
				pf, rep := l.g.Exec(in.Code, prepare.Language(in.Language), start)
				if pf != nil {
					return prepareFailure(pf)
				}
				return l.drive(rep)
			}
		}
		pf, f := l.g.Prepare(in.Code, prepare.Language(in.Language), deadline)
		if f != nil {
			return l.faultResult(f)
		}
		if pf != nil {
			return prepareFailure(pf)
		}
		if time.Now().After(deadline) {
			return Failed(CodeTimeout, PhaseHost, MsgTimeout)
		}
		guestConfig, err := host.GuestConfig(toolCallID)
		if err != nil {
			return Failed(CodeInvalidInput, PhaseInput, err.Error())
		}
		start.Config = guestConfig
		return l.drive(l.g.Start(start))
	})
}

// plainConfiger is a Host that can tell the guest configuration without
// per-cell work (no namespace scope to make): the cell then prepares and
// starts its guest in one operation.
type plainConfiger interface {
	PlainGuestConfig() ([]byte, bool)
}

// prepareFailure is the result of a source that did not prepare.
func prepareFailure(pf *prepare.Failure) Result {
	if pf.Syntax {
		// A cell that breaks out of its wrapper is a guest SyntaxError
		// (CM-5.24); it never reaches the VM.
		return Failed(CodeInternal, PhaseGuest, pf.Message)
	}
	return Failed(CodeInvalidInput, PhaseInput, pf.Message)
}

// limitsOf is the part of a run's settings the guest half enforces.
func limitsOf(s config.Settings) sandbox.Limits {
	return sandbox.Limits{MemoryBytes: s.MemoryLimitBytes, MaxOutputBytes: s.MaxOutputBytes}
}

// Wait runs one wait call.
func (rn *Runner) Wait(ctx context.Context, host Host, scope Scope, toolCallID string, args json.RawMessage) Result {
	res := rn.wait(ctx, scope, args)
	res.Telemetry = host.Telemetry()
	return res
}

func (rn *Runner) wait(ctx context.Context, scope Scope, args json.RawMessage) Result {
	id, fail := ParseWait(args)
	if fail != nil {
		return *fail
	}
	rn.store.sweep()
	r, msg := rn.store.acquire(id, scope)
	if msg != "" {
		return Failed(CodeInvalidInput, PhaseInput, msg)
	}
	if !rn.sealer.verify(r) {
		return rn.refuseUnsealed(r)
	}
	s := r.host.Settings()
	deadline := time.Now().Add(time.Duration(s.TimeoutMs) * time.Millisecond)
	r.bridge.resolveYields()
	if !r.awaitReady(ctx, deadline.Add(-resumeMin(s.TimeoutMs))) {
		if ctx.Err() != nil {
			rn.store.remove(r)
			res := Failed(CodeTimeout, PhaseBridge, MsgAborted)
			res.BridgeDispatchStarted, res.ReplaySafe = true, r.restartSafe
			return res
		}
		_, pending := r.bridge.state()
		rn.store.release(r)
		return Result{Status: "waiting", RunID: r.id, Reason: reasonOf(pending), Pending: pendingCalls(pending), ReplaySafe: r.restartSafe && allReplaySafe(pending)}
	}
	return rn.supervise(ctx, r, deadline, false, func(l *leg) Result {
		if !rn.sealer.verify(r) {
			// Altered while the run waited for its host work: it never
			// resumes, and the leg's end disposes of the run.
			return rn.refuseUnsealed(r)
		}
		if res, ok := l.begin(); !ok {
			return res
		}
		// The results that made the run ready are delivered as the VM is
		// restored, in settlement order (CM-8.8, CM-8.24).
		ready, _ := r.bridge.state()
		settle := r.bridge.deliver(ready)
		l.redeliver = false
		rn.event("resumed runId=%s", r.id)
		rep := l.g.Resume(sandbox.Resume{Deadline: deadline, Limits: limitsOf(s), Stored: r.stored,
			Ledger: r.bridge.ledgerBytes(), Output: r.output.state(), Settle: settle})
		return l.drive(rep)
	})
}

// refuseUnsealed ends a wait whose stored snapshot fails its seal (SPEC.md
// CM-18.19): tampered, swapped, replayed or foreign. The run is disposed,
// its host work cancelled, and the snapshot is never decompressed, parsed
// or restored.
func (rn *Runner) refuseUnsealed(r *run) Result {
	rn.store.remove(r)
	rn.event("refused runId=%s reason=seal", r.id)
	return Failed(CodeInvalidInput, PhaseInput, MsgRunUnavailable)
}

// awaitReady waits until the run is ready: in awaiting mode until a request
// has settled, in draining mode until all have (CM-8.22). The mode is that
// of the run when it was stored.
func (r *run) awaitReady(ctx context.Context, until time.Time) bool {
	for {
		ready, pending := r.bridge.state()
		if len(ready) > 0 && (!r.draining || len(pending) == 0) {
			return true
		}
		wait := time.Until(until)
		if wait <= 0 {
			return false
		}
		t := time.NewTimer(wait)
		select {
		case <-r.bridge.notify:
			t.Stop()
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false
		}
	}
}

// A leg is the host half of one stretch of guest execution of a run: the
// guest half (g) runs the VM, in this process or in a worker.
type leg struct {
	ctx      context.Context
	run      *run
	g        sandbox.Half
	deadline time.Time
	fresh    bool // the run is not stored yet
	rn       *Runner
	// redeliver lets a wait leg of a restart-safe run deliver the results
	// that made it ready; such runs never deliver inline otherwise.
	redeliver bool
	// saving is set while the leg snapshots and stores its run: the guest
	// no longer runs, so the watchdog waits (maxSavingGraces).
	saving atomic.Bool

	mu     sync.Mutex // guards g against the supervisor's reads
	killed bool       // the watchdog gave up on g
	// beginCtx ends when the watchdog gives up before the leg has a guest
	// half: a leg that waits for a worker waits no longer.
	beginCtx context.Context
	stop     context.CancelFunc
}

// aborted reports an abort of the agent run or of this call.
func (l *leg) aborted() bool { return l.ctx.Err() != nil || l.run.host.Aborted() }

// begin takes the leg's guest half from the runner's guests. ok is false
// when there is none: res then ends the leg.
func (l *leg) begin() (res Result, ok bool) {
	g, err := l.rn.guests.Begin(l.beginCtx, l.run.bridge)
	if err != nil {
		if l.aborted() {
			return l.fail(failAbort, CodeTimeout, MsgAborted), false
		}
		return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+err.Error()), false
	}
	l.mu.Lock()
	l.g = g
	killed := l.killed
	l.mu.Unlock()
	if killed {
		g.Kill()
	}
	return Result{}, true
}

// half returns the leg's guest half, or nil before begin.
func (l *leg) half() sandbox.Half {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g
}

// abort interrupts the leg's guest, if it has one yet.
func (l *leg) abort() {
	if g := l.half(); g != nil {
		g.Abort()
	}
}

// kill stops the leg's guest half where it can be (the watchdog).
func (l *leg) kill() {
	l.mu.Lock()
	l.killed = true
	g := l.g
	l.mu.Unlock()
	l.stop()
	if g != nil {
		g.Kill()
	}
}

// supervise runs body on its own goroutine and enforces the abort signal and
// the host watchdog: a leg that outlives its deadline by the guests' grace
// is stopped (its worker killed, or in this process abandoned) with a
// watchdog timeout, and the host never blocks on it.
func (rn *Runner) supervise(ctx context.Context, r *run, deadline time.Time, fresh bool, body func(*leg) Result) Result {
	l := &leg{ctx: ctx, run: r, deadline: deadline, fresh: fresh, rn: rn, redeliver: !fresh}
	l.beginCtx, l.stop = context.WithCancel(ctx)
	defer l.stop()
	var once sync.Once
	result := make(chan Result, 1)
	finish := func(res Result) bool {
		delivered := false
		once.Do(func() { result <- res; delivered = true })
		return delivered
	}
	rn.legs.Add(1)
	rn.workers.run(func() {
		defer rn.legs.Add(-1)
		res := body(l)
		if res.Status != "waiting" {
			rn.store.remove(r)
		}
		if !finish(res) {
			// The watchdog answered already: nothing of this leg survives.
			rn.store.remove(r)
		}
		// The caller waiting for the answer was just made this P's next
		// goroutine: let it run now rather than after the VM's close and
		// the pool's refill (on a loaded 2-core machine that wait was
		// most of a trivial cell). The VM is closed after the answer for
		// the same reason: nothing of it is needed once the leg has its
		// result.
		runtime.Gosched()
		if g := l.half(); g != nil {
			g.Close()
		}
	})
	watchdog := time.NewTimer(time.Until(deadline) + rn.grace())
	defer watchdog.Stop()
	done := ctx.Done()
	savingGraces := 0
	for {
		select {
		case res := <-result:
			return res
		case <-done:
			l.abort()
			done = nil // the leg ends itself and reports the abort
		case <-watchdog.C:
			if l.saving.Load() && savingGraces < maxSavingGraces {
				savingGraces++
				watchdog.Reset(WatchdogGrace)
				continue
			}
			l.kill()
			if finish(l.fail(failWatchdog, CodeTimeout, MsgWatchdog)) {
				return <-result
			}
		}
	}
}

// grace is how long past its deadline a leg may run before the watchdog
// stops it: the guests' own, when they can stop a leg at once, else
// WatchdogGrace.
func (rn *Runner) grace() time.Duration {
	if g, ok := rn.guests.(interface{ Grace() time.Duration }); ok {
		return g.Grace()
	}
	return WatchdogGrace
}

// drive takes the guest half's report of the leg's first operation and
// runs the guest until it completes, fails or must suspend, settling ready
// bridge requests inline while the deadline allows.
func (l *leg) drive(rep sandbox.Report) Result {
	r := l.run
	s := r.host.Settings()
	for {
		if l.aborted() {
			return l.fail(failAbort, CodeTimeout, MsgAborted)
		}
		r.output.add(rep.Items)
		if r.bridge.broken() {
			return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+msgBrokenBridge)
		}
		if rep.Fault != nil {
			return l.faultResult(rep.Fault)
		}
		if l.outputBytes() > s.MaxOutputBytes {
			return l.fail(failGuest, CodeOutputLimit, MsgOutputLimit)
		}
		ready, pending := r.bridge.state()
		r.draining = rep.Done
		if len(ready) == 0 && len(pending) == 0 {
			if !rep.Done {
				// An interrupt can break a promise chain (an async
				// generator's) and leave the VM idle: that is the
				// deadline or the abort, not a guest that waits on nothing.
				if rep.Interrupted {
					if l.aborted() || rep.Aborted {
						return l.fail(failAbort, CodeTimeout, MsgAborted)
					}
					return l.fail(failGuest, CodeTimeout, MsgTimeout)
				}
				return l.fail(failGuest, CodeInternal, MsgPendingNoWork)
			}
			return l.complete(rep)
		}
		if r.restartSafe && !l.redeliver {
			return l.suspendRestartSafe(ready, pending, rep)
		}
		if hasYield(pending) {
			return l.suspend(pending, rep)
		}
		if len(ready) > 0 && (!rep.Done || len(pending) == 0) {
			// Inline resolution: the snapshot limit must hold before it.
			if snapshotHeaderBytes+rep.MemoryBytes > s.MaxSnapshotBytes {
				return l.fail(failHost, CodeSnapshotLimit, MsgSnapshotLimit)
			}
			l.redeliver = false
			rep = l.g.Step(r.bridge.deliver(ready))
			continue
		}
		if r.restartSafe {
			return l.suspendRestartSafe(ready, pending, rep)
		}
		if !r.awaitReady(l.ctx, l.deadline.Add(-resumeMin(s.TimeoutMs))) {
			if l.aborted() {
				return l.fail(failAbort, CodeTimeout, MsgAborted)
			}
			_, pending = r.bridge.state()
			return l.suspend(pending, rep)
		}
		rep = sandbox.Report{Done: rep.Done, OK: rep.OK, MemoryBytes: rep.MemoryBytes}
	}
}

// msgBrokenBridge is the reason of a leg whose guest half accepted a
// bridge request that the host's ledger refuses.
const msgBrokenBridge = "the guest half sent a bridge request its ledger should have refused"

func hasYield(reqs []*request) bool {
	for _, q := range reqs {
		if q.method == guest.MethodYield {
			return true
		}
	}
	return false
}

func reasonOf(pending []*request) string {
	if len(pending) == 0 {
		return "pending_tools"
	}
	for _, q := range pending {
		if q.method != guest.MethodYield {
			return "pending_tools"
		}
	}
	return "yield"
}

func pendingCalls(pending []*request) []PendingCall {
	out := make([]PendingCall, len(pending))
	for i, q := range pending {
		out[i] = PendingCall{ID: q.id, Method: q.method}
	}
	return out
}

func allReplaySafe(reqs []*request) bool {
	for _, q := range reqs {
		if !q.replaySafe {
			return false
		}
	}
	return true
}

// undelivered returns the output not yet reported to the model.
func (l *leg) undelivered() []json.RawMessage { return l.run.output.take() }

// outputBytes is the byte length of the cumulative output array as compact JSON.
func (l *leg) outputBytes() int { return l.run.output.bytes() }

// Failure kinds, which decide failurePhase (CM-7.6) together with whether a
// bridge request was ever dispatched.
type failKind int

const (
	failGuest    failKind = iota // raised while guest code ran
	failHost                     // host-side limit or failure
	failAbort                    // the agent run was aborted
	failWatchdog                 // the host watchdog expired
	failRuntime                  // the engine is unavailable or trapped
	failRestore                  // restoring the snapshot failed
	failInput                    // invalid_input raised while running
)

// fail ends the run with a failed payload.
func (l *leg) fail(kind failKind, code, msg string) Result {
	if kind == failGuest && code == CodeInternal && len(msg) > l.run.host.Settings().MaxOutputBytes {
		// A guest error text is guest output too: never returned past the
		// limit, never truncated (CM-7.28).
		code, msg = CodeOutputLimit, MsgOutputLimit
	}
	res := Failed(code, PhaseHost, msg)
	dispatched := l.run.bridge.dispatchStarted() || !l.fresh
	res.BridgeDispatchStarted = dispatched
	switch {
	case dispatched || kind == failRestore:
		res.FailurePhase = PhaseBridge
	case kind == failGuest:
		res.FailurePhase = PhaseGuest
	case code == CodeInvalidInput:
		res.FailurePhase = PhaseInput
	default:
		res.FailurePhase = PhaseHost
	}
	res.ReplaySafe = l.run.restartSafe
	if l.outputBytes() <= l.run.host.Settings().MaxOutputBytes {
		res.Output = l.undelivered()
	} else {
		l.run.output.drop()
	}
	return res
}

// complete ends a run whose async function settled and has no host work.
func (l *leg) complete(rep sandbox.Report) Result {
	if l.aborted() {
		return l.fail(failAbort, CodeTimeout, MsgAborted)
	}
	if !rep.OK {
		e := rep.Error
		switch {
		case e == nil:
			return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+msgNoOutcome)
		case e.Module:
			return l.fail(failGuest, CodeInvalidInput, MsgModuleAccess)
		case e.TooLong:
			return l.fail(failGuest, CodeOutputLimit, MsgOutputLimit)
		}
		return l.fail(failGuest, CodeInternal, e.Text)
	}
	if e := rep.Unhandled; e != nil {
		if e.TooLong {
			return l.fail(failGuest, CodeOutputLimit, MsgOutputLimit)
		}
		return l.fail(failGuest, CodeInternal, e.Text)
	}
	if rep.ValueTooLarge {
		return l.fail(failGuest, CodeOutputLimit, MsgOutputLimit)
	}
	value := []byte(rep.Value)
	if len(value) == 0 {
		return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+msgNoOutcome)
	}
	size := len(value)
	if l.run.output.len() > 0 {
		size += l.outputBytes()
	}
	if size > l.run.host.Settings().MaxOutputBytes {
		return l.fail(failGuest, CodeOutputLimit, MsgOutputLimit)
	}
	return Result{Status: "completed", Value: value, Output: l.undelivered(), ReplaySafe: l.run.restartSafe}
}

// msgNoOutcome is the reason of a leg whose guest half settled the model's
// function without reporting its value or error.
const msgNoOutcome = "the guest half reported no outcome"

// faultResult ends the run for a fault of the guest half.
func (l *leg) faultResult(f *sandbox.Fault) Result {
	switch f.Kind {
	case sandbox.FaultGuest:
		return l.fail(failGuest, CodeInternal, f.Text)
	case sandbox.FaultModule:
		return l.fail(failGuest, CodeInvalidInput, MsgModuleAccess)
	case sandbox.FaultTimeout:
		if l.aborted() {
			return l.fail(failAbort, CodeTimeout, MsgAborted)
		}
		return l.fail(failGuest, CodeTimeout, MsgTimeout)
	case sandbox.FaultAborted:
		return l.fail(failAbort, CodeTimeout, MsgAborted)
	case sandbox.FaultOutputLimit:
		return l.fail(failGuest, CodeOutputLimit, MsgOutputLimit)
	case sandbox.FaultController:
		return l.fail(failGuest, CodeInternal, MsgInvalidGuestOutput)
	case sandbox.FaultRestore:
		return l.fail(failRestore, CodeInternal, MsgRestoreFailed)
	case sandbox.FaultWatchdog:
		return l.fail(failWatchdog, CodeTimeout, MsgWatchdog)
	case sandbox.FaultPrepareTimeout:
		return Failed(CodeTimeout, PhaseHost, MsgTimeout)
	}
	return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+f.Text)
}

// suspend snapshots the VM and stores the run, reporting waiting.
func (l *leg) suspend(pending []*request, rep sandbox.Report) Result {
	r := l.run
	s := r.host.Settings()
	l.saving.Store(true)
	defer l.saving.Store(false)
	// The limit is on the whole image (header and memory), whatever the
	// stored delta's size.
	imageBytes := snapshotHeaderBytes + rep.MemoryBytes
	if imageBytes > s.MaxSnapshotBytes {
		return l.fail(failHost, CodeSnapshotLimit, MsgSnapshotLimit)
	}
	stored, f := l.g.Snapshot()
	if f != nil {
		return l.faultResult(f)
	}
	r.stored = stored
	if r.id == "" {
		r.id = newRunID()
	}
	l.rn.sealer.seal(r)
	if !l.rn.store.put(r, time.Duration(s.SnapshotTTLSeconds)*time.Second) {
		r.id = ""
		return l.fail(failHost, CodeInvalidInput, MsgTooManyRuns)
	}
	if !l.fresh {
		l.rn.store.release(r)
	}
	l.rn.event("suspended runId=%s pending=%d snapshotBytes=%d", r.id, len(pending), imageBytes)
	return Result{Status: "waiting", RunID: r.id, Reason: reasonOf(pending), Pending: pendingCalls(pending),
		Output: l.undelivered(), ReplaySafe: r.restartSafe && allReplaySafe(pending)}
}

// suspendRestartSafe ends a leg of a restart-safe run that has host work:
// refused requests fail the run; otherwise it suspends (CM-9.1 to CM-9.4).
func (l *leg) suspendRestartSafe(ready, pending []*request, rep sandbox.Report) Result {
	work := append(append([]*request(nil), ready...), pending...)
	allNS := len(work) > 0
	for _, q := range work {
		allNS = allNS && q.method == guest.MethodNamespace
	}
	if allNS {
		return l.fail(failInput, CodeInvalidInput, MsgRestartSafeNS)
	}
	for _, q := range work {
		if !q.dispatched || !q.replaySafe {
			return l.fail(failInput, CodeInvalidInput, MsgRestartSafeEffects)
		}
	}
	// Nothing is delivered inline, so every undelivered request is still
	// pending from the guest's point of view.
	return l.suspend(work, rep)
}
