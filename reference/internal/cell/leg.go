package cell

// This file holds the legs of a run: the stretches of guest execution
// between suspensions, their supervision by the watchdog, inline
// resolution of bridge requests, and how a leg ends (completed, failed
// or suspended into a snapshot).

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemodekit/kit/reference/internal/guest"
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
func (l *leg) aborted() bool { return l.ctx.Err() != nil || l.run.turn.Host.Aborted() }

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
			rn.removeRun(r)
		}
		if !finish(res) {
			// The watchdog answered already: nothing of this leg survives.
			rn.removeRun(r)
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
	s := r.turn.Settings
	for {
		if l.aborted() {
			return l.fail(failAbort, CodeTimeout, MsgAborted)
		}
		r.output.add(rep.Items)
		if r.bridge.broken() {
			return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+msgBrokenBridge)
		}
		if r.bridge.overLimit() {
			return l.fail(failHost, CodeInvalidInput, MsgTooManyRuns)
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
	if kind == failGuest && code == CodeInternal && len(msg) > l.run.turn.Settings.MaxOutputBytes {
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
	if l.outputBytes() <= l.run.turn.Settings.MaxOutputBytes {
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
	if size > l.run.turn.Settings.MaxOutputBytes {
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
	s := r.turn.Settings
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
	ttl := time.Duration(s.SnapshotTTLSeconds) * time.Second
	if !l.rn.store.put(r, ttl) {
		r.id = ""
		return l.fail(failHost, CodeInvalidInput, MsgTooManyRuns)
	}
	if l.rn.shared != nil {
		if ok, msg := l.rn.shareSuspension(r, ttl); !ok {
			if msg == MsgTooManyRuns {
				return l.fail(failHost, CodeInvalidInput, msg)
			}
			return l.fail(failHost, CodeInternal, msg)
		}
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
