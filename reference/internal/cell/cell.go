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
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/prepare"
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

// Runner executes cells. It owns the process's suspended runs. It is safe
// for concurrent use; each leg runs on its own goroutine.
type Runner struct {
	eng     *engine.Engine
	engErr  error
	pool    *pool
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

// NewRunner returns a runner on eng. When the engine could not be loaded,
// pass its error: every exec then fails closed with runtime_unavailable.
func NewRunner(eng *engine.Engine, engErr error) *Runner {
	r := &Runner{eng: eng, engErr: engErr, store: newStore(MaxSuspendedRuns), workers: newWorkers()}
	r.store.gone = func(id, why string) { r.event("%s runId=%s", why, id) }
	if eng != nil && engErr == nil {
		r.pool = newPool(eng)
		r.sealer = newSealer(eng.Digest())
	}
	return r
}

// Close discards every suspended run and pooled VM.
func (rn *Runner) Close() {
	rn.store.removeWhere(func(*run) bool { return true })
	if rn.pool != nil {
		rn.pool.close()
	}
	rn.workers.close()
}

// Suspended reports how many runs are suspended.
func (rn *Runner) Suspended() int { return rn.store.len() }

// Stats are the runner's resource counts, for leak checks and metrics.
type Stats struct {
	// LiveVMs counts the engine's VMs not yet closed, in every runner of
	// the process that shares the engine: pooled, running and abandoned.
	LiveVMs int
	// PooledVMs counts this runner's ready VMs: fresh, hot (a catalog
	// installed) and blank (for resumes).
	PooledVMs int
	// Legs counts this runner's legs still running, including legs the
	// watchdog abandoned that have not ended yet.
	Legs int
	// Suspended counts this runner's stored runs.
	Suspended int
}

// Stats reports the runner's resource counts.
func (rn *Runner) Stats() Stats {
	st := Stats{Legs: int(rn.legs.Load()), Suspended: rn.store.len()}
	if rn.eng != nil {
		st.LiveVMs = rn.eng.LiveVMs()
	}
	if rn.pool != nil {
		st.PooledVMs = rn.pool.size()
	}
	return st
}

// Drop discards the suspended runs of an agent run (abort, end of turn).
func (rn *Runner) Drop(agentRunID string) int {
	return rn.store.removeWhere(func(r *run) bool { return r.scope.AgentRunID == agentRunID })
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
	if rn.engErr != nil || rn.eng == nil {
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
	script, pf := prepare.Script(in.Code, prepare.Language(in.Language))
	if pf != nil {
		if pf.Syntax {
			// A cell that breaks out of its wrapper is a guest SyntaxError
			// (CM-5.24); it never reaches the VM.
			return Failed(CodeInternal, PhaseGuest, pf.Message)
		}
		return Failed(CodeInvalidInput, PhaseInput, pf.Message)
	}
	if time.Now().After(deadline) {
		return Failed(CodeTimeout, PhaseHost, MsgTimeout)
	}
	guestConfig, err := host.GuestConfig(toolCallID)
	if err != nil {
		return Failed(CodeInvalidInput, PhaseInput, err.Error())
	}
	cat := host.Catalog().Guest()
	r := &run{id: rb.RunID, scope: scope, host: host,
		bridge: newBridge(host, s.MaxPendingToolCalls, toolCallID, in.RestartSafe), restartSafe: in.RestartSafe}
	r.output.skip = rb.SkipOutput
	return rn.supervise(ctx, r, deadline, true, func(l *leg) Result {
		pv, err := rn.pool.get(cat, guestConfig)
		if err != nil {
			return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+err.Error())
		}
		if pv.hot && pv.allocated > s.MemoryLimitBytes {
			// ALL_TOOLS (and the configuration) alone pass this run's
			// memory limit: installing them in the cell fails as it
			// always did.
			pv.vm.Close()
			if pv, err = rn.pool.get(catalog.GuestCatalog{}, nil); err != nil {
				return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+err.Error())
			}
		}
		l.setVM(pv.vm)
		l.config = guestConfig
		r.ctl = pv.ctl
		if err := pv.vm.SetMemoryLimit(uint32(s.MemoryLimitBytes)); err != nil {
			return l.engineFailure(err)
		}
		pv.vm.Bind(guest.HostRequest, r.bridge.handle)
		pv.vm.Bind(guest.HostNote, noteFunc(host))
		if !pv.hot {
			if _, err := pv.vm.CallMethod(r.ctl, guest.Catalog, string(cat.JSON)); err != nil {
				return l.engineFailure(err)
			}
		}
		if !pv.configured {
			if _, err := pv.vm.CallMethod(r.ctl, guest.Configure, string(guestConfig)); err != nil {
				return l.engineFailure(err)
			}
		}
		pv.vm.SetDeadline(deadline)
		if _, err := pv.vm.EvalCallMethod(script, guest.UserFile, r.ctl, guest.Start); err != nil {
			return l.engineFailure(err)
		}
		return l.drive()
	})
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
		var blank *engine.Blank
		if rn.pool != nil {
			blank = rn.pool.blank()
		}
		vm, err := rn.eng.RestoreDelta(context.Background(), blank, rn.base(), r.snapshot, r.rawSize, engine.Limits{MemoryBytes: uint32(s.MemoryLimitBytes)})
		if err != nil {
			return l.fail(failRestore, CodeInternal, MsgRestoreFailed)
		}
		l.setVM(vm)
		rn.event("resumed runId=%s", r.id)
		vm.Bind(guest.HostRequest, r.bridge.handle)
		vm.Bind(guest.HostNote, noteFunc(r.host))
		bindRandom(vm)
		vm.SetUnhandledRejections(r.rejected)
		vm.SetDeadline(deadline)
		return l.drive()
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

// noteFunc is the host side of Swarm's phase and log.
func noteFunc(host Host) engine.HostFunc {
	return func(c *engine.HostCall) (any, error) {
		if len(c.Args) == 2 && c.Args[0].Kind == engine.String && c.Args[1].Kind == engine.String {
			host.Note(c.Args[0].Str, c.Args[1].Str)
		}
		return nil, nil
	}
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

// A leg is one stretch of guest execution of a run, on one VM.
type leg struct {
	ctx      context.Context
	run      *run
	vm       *engine.VM
	deadline time.Time
	fresh    bool // the run is not stored yet
	rn       *Runner
	// redeliver lets a wait leg of a restart-safe run deliver the results
	// that made it ready; such runs never deliver inline otherwise.
	redeliver bool
	// config is the guest configuration an exec leg ran with: the pool
	// makes the next hot VMs with it.
	config []byte
	// saving is set while the leg snapshots and stores its run: the guest
	// no longer runs, so the watchdog waits (maxSavingGraces).
	saving atomic.Bool

	mu sync.Mutex // guards vm against the supervisor's reads
}

// aborted reports an abort of the agent run or of this call.
func (l *leg) aborted() bool { return l.ctx.Err() != nil || l.run.host.Aborted() }

func (l *leg) setVM(vm *engine.VM) {
	l.mu.Lock()
	l.vm = vm
	l.mu.Unlock()
}

// abort interrupts the leg's VM, if it has one yet.
func (l *leg) abort() {
	l.mu.Lock()
	vm := l.vm
	l.mu.Unlock()
	if vm != nil {
		vm.Abort()
	}
}

// supervise runs body on its own goroutine and enforces the abort signal and
// the host watchdog: a leg that outlives its deadline by WatchdogGrace is
// abandoned with a watchdog timeout, and the host never blocks on it.
// base is the Base of the runner's stored runs (nil without a pool).
func (rn *Runner) base() *engine.Base {
	if rn.pool == nil {
		return nil
	}
	return rn.pool.baseImage()
}

func (rn *Runner) supervise(ctx context.Context, r *run, deadline time.Time, fresh bool, body func(*leg) Result) Result {
	l := &leg{ctx: ctx, run: r, deadline: deadline, fresh: fresh, rn: rn, redeliver: !fresh}
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
		l.mu.Lock()
		vm := l.vm
		l.mu.Unlock()
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
		if vm != nil {
			vm.Close()
		}
		if fresh && rn.pool != nil {
			// The leg took a pooled VM: replace it now that the cell has
			// its answer, not while it ran (BENCHMARKS.md, P1).
			rn.pool.refill()
			if l.config != nil {
				rn.pool.warm(r.host.Catalog().Guest(), l.config)
			}
		} else if rn.pool != nil {
			// A resume: make the instance of the next one ahead.
			rn.pool.refillBlanks()
		}
	})
	watchdog := time.NewTimer(time.Until(deadline) + WatchdogGrace)
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
			l.abort()
			if finish(l.fail(failWatchdog, CodeTimeout, MsgWatchdog)) {
				return <-result
			}
		}
	}
}

// drive runs the guest until it completes, fails or must suspend, settling
// ready bridge requests inline while the deadline allows.
func (l *leg) drive() Result {
	r, vm := l.run, l.vm
	s := r.host.Settings()
	for {
		if l.aborted() {
			return l.fail(failAbort, CodeTimeout, MsgAborted)
		}
		if err := vm.DrainJobs(); err != nil {
			return l.engineFailure(err)
		}
		st, res, bad := l.poll()
		if bad {
			return res
		}
		ready, pending := r.bridge.state()
		r.draining = st.Done
		if len(ready) == 0 && len(pending) == 0 {
			if !st.Done {
				// An interrupt can break a promise chain (an async
				// generator's) and leave the VM idle: that is the
				// deadline or the abort, not a guest that waits on nothing.
				if vm.Interrupted() {
					if l.aborted() || vm.Aborted() {
						return l.fail(failAbort, CodeTimeout, MsgAborted)
					}
					return l.fail(failGuest, CodeTimeout, MsgTimeout)
				}
				return l.fail(failGuest, CodeInternal, MsgPendingNoWork)
			}
			return l.complete(st)
		}
		if r.restartSafe && !l.redeliver {
			return l.suspendRestartSafe(ready, pending)
		}
		if hasYield(pending) {
			return l.suspend(pending)
		}
		if len(ready) > 0 && (!st.Done || len(pending) == 0) {
			// Inline resolution: the snapshot limit must hold before it.
			if snapshotHeaderBytes+vm.MemorySize() > s.MaxSnapshotBytes {
				return l.fail(failHost, CodeSnapshotLimit, MsgSnapshotLimit)
			}
			l.redeliver = false
			for _, q := range ready {
				ok := "0"
				if q.ok {
					ok = "1"
				}
				r.bridge.markDelivered(q)
				if _, err := vm.CallMethod(r.ctl, guest.Settle, q.id, ok, q.payload); err != nil {
					return l.engineFailure(err)
				}
			}
			continue
		}
		if r.restartSafe {
			return l.suspendRestartSafe(ready, pending)
		}
		if !r.awaitReady(l.ctx, l.deadline.Add(-resumeMin(s.TimeoutMs))) {
			if l.aborted() {
				return l.fail(failAbort, CodeTimeout, MsgAborted)
			}
			_, pending = r.bridge.state()
			return l.suspend(pending)
		}
	}
}

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

// poll moves new guest output to the run, enforces maxOutputBytes on it,
// and returns the guest's state: from the same guest call when the
// controller could give it, else from a call of its own, made once the
// output is safe in the run.
func (l *leg) poll() (guest.State, Result, bool) {
	raw, err := l.vm.CallMethod(l.run.ctl, guest.Poll)
	if err != nil {
		return guest.State{}, l.engineFailure(err), true
	}
	p, err := readPoll(raw)
	if err != nil {
		return guest.State{}, l.fail(failGuest, CodeInternal, "invalid code mode guest output"), true
	}
	l.run.output.add(p.Items)
	if p.Overflow || l.outputBytes() > l.run.host.Settings().MaxOutputBytes {
		return guest.State{}, l.fail(failGuest, CodeOutputLimit, MsgOutputLimit), true
	}
	if p.State != nil {
		return *p.State, Result{}, false
	}
	stateJSON, err := l.vm.CallMethod(l.run.ctl, guest.StateFn)
	if err != nil {
		return guest.State{}, l.engineFailure(err), true
	}
	var st guest.State
	if err := json.Unmarshal([]byte(stateJSON), &st); err != nil {
		return guest.State{}, l.fail(failGuest, CodeInternal, "invalid code mode guest state"), true
	}
	return st, Result{}, false
}

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

var moduleRefRE = regexp.MustCompile(`^(?:require|module|process) is not defined$`)

// complete ends a run whose async function settled and has no host work.
func (l *leg) complete(st guest.State) Result {
	if l.aborted() {
		return l.fail(failAbort, CodeTimeout, MsgAborted)
	}
	if !st.OK {
		e := st.Error
		if e == nil {
			return l.fail(failGuest, CodeInternal, "Error")
		}
		if e.IsError && e.Name == "ReferenceError" && moduleRefRE.MatchString(e.Message) {
			return l.fail(failGuest, CodeInvalidInput, MsgModuleAccess)
		}
		return l.fail(failGuest, CodeInternal, guestErrorText(e.IsError, e.Name, e.Message, e.Stack))
	}
	if reasons := l.vm.UnhandledRejections(); len(reasons) > 0 {
		first := ""
		for _, reason := range reasons {
			if first == "" || reason < first {
				first = reason
			}
		}
		return l.fail(failGuest, CodeInternal, first)
	}
	value := []byte(st.Value)
	if len(value) == 0 {
		value = []byte("null")
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

// guestErrorText formats a thrown value (CM-10.35): "Name: message", then
// the guest's own stack frames (frames of model code only, never host or
// controller frames).
func guestErrorText(isError bool, name, message, stack string) string {
	if !isError {
		return message
	}
	text := name
	if message != "" {
		if text != "" {
			text += ": "
		}
		text += message
	}
	var frames []string
	for _, line := range strings.Split(stack, "\n") {
		if strings.Contains(line, guest.UserFile) {
			frames = append(frames, strings.TrimRight(line, " "))
		}
	}
	if len(frames) > 0 {
		text += "\n" + strings.Join(frames, "\n")
	}
	return text
}

// engineFailure classifies an engine error ending a leg.
func (l *leg) engineFailure(err error) Result {
	var ge *engine.GuestError
	if errors.As(err, &ge) {
		switch {
		case ge.Interrupted && (l.aborted() || (l.vm != nil && l.vm.Aborted())):
			return l.fail(failAbort, CodeTimeout, MsgAborted)
		case ge.Interrupted:
			return l.fail(failGuest, CodeTimeout, MsgTimeout)
		case ge.Name == "ReferenceError" && moduleRefRE.MatchString(ge.Message):
			return l.fail(failGuest, CodeInvalidInput, MsgModuleAccess)
		default:
			return l.fail(failGuest, CodeInternal, guestErrorText(true, ge.Name, ge.Message, ge.Stack))
		}
	}
	return l.fail(failRuntime, CodeRuntimeUnavailable, MsgRuntimeUnavailable+err.Error())
}

// suspend snapshots the VM and stores the run, reporting waiting.
func (l *leg) suspend(pending []*request) Result {
	r := l.run
	s := r.host.Settings()
	l.saving.Store(true)
	defer l.saving.Store(false)
	// The limit is on the whole image (header and memory), whatever the
	// stored delta's size.
	imageBytes := snapshotHeaderBytes + l.vm.MemorySize()
	if imageBytes > s.MaxSnapshotBytes {
		return l.fail(failHost, CodeSnapshotLimit, MsgSnapshotLimit)
	}
	z, size, err := l.vm.SnapshotDelta(l.rn.base())
	if err != nil {
		return l.engineFailure(err)
	}
	r.snapshot, r.rawSize, r.rejected = z, size, l.vm.UnhandledRejections()
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
func (l *leg) suspendRestartSafe(ready, pending []*request) Result {
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
	return l.suspend(work)
}
