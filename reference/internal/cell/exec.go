package cell

// This file holds the exec and wait calls: validating their arguments,
// starting a run's first leg or resuming a stored run in a new one.

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/prepare"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// Exec runs one exec call of t. toolCallID is the model's id for the call.
func (rn *Runner) Exec(ctx context.Context, t *Turn, toolCallID string, args json.RawMessage) Result {
	res := rn.exec(ctx, t, toolCallID, args, Rebuild{})
	res.Telemetry = t.telemetry()
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
func (rn *Runner) ExecRebuilt(ctx context.Context, t *Turn, execToolCallID string, args json.RawMessage, rb Rebuild) Result {
	res := rn.exec(ctx, t, execToolCallID, args, rb)
	res.Telemetry = t.telemetry()
	return res
}

// unavailable is the fail-closed result when the engine cannot run code.
func unavailable(reason string) Result {
	return Failed(CodeRuntimeUnavailable, PhaseHost, MsgRuntimeUnavailable+reason)
}

func (rn *Runner) exec(ctx context.Context, t *Turn, toolCallID string, args json.RawMessage, rb Rebuild) Result {
	in, fail := ParseExec(args)
	if fail != nil {
		return *fail
	}
	if rb.RunID != "" {
		in.RestartSafe = true
	}
	s := t.Settings
	rn.store.sweep()
	if rn.shared != nil {
		rn.sweepShared()
	}
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
	r := &run{id: rb.RunID, scope: t.Scope, turn: t, bridge: newBridge(t, toolCallID, in.RestartSafe), restartSafe: in.RestartSafe}
	r.output.skip = rb.SkipOutput
	r.bridge.reserve = func() bool { return rn.store.reserve(r) }
	return rn.supervise(ctx, r, deadline, true, func(l *leg) Result {
		if res, ok := l.begin(); !ok {
			return res
		}
		start := sandbox.Start{Deadline: deadline, Limits: limitsOf(s), Catalog: t.guestCatalog(),
			MaxPending: s.MaxPendingToolCalls}
		// The source is prepared by the guest half: it is untrusted input,
		// and esbuild and the lexers are code a hostile source could hold.
		// When the guest configuration is the turn's own, preparation and
		// start are one operation; else the configuration (a namespace
		// scope made for the cell) waits for a source that prepared.
		if !t.Host.Scoped() {
			if cfg, err := t.guestConfig(nil); err == nil {
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
		scopes, err := t.Host.Scopes(toolCallID)
		if err != nil {
			return Failed(CodeInvalidInput, PhaseInput, err.Error())
		}
		guestConfig, err := t.guestConfig(scopes)
		if err != nil {
			return Failed(CodeInvalidInput, PhaseInput, err.Error())
		}
		start.Config = guestConfig
		return l.drive(l.g.Start(start))
	})
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

// Wait runs one wait call of t. The run it resumes keeps the Turn of the
// exec that started it; in a clustered gateway, a run resumed from the
// shared store takes t (shared.go).
func (rn *Runner) Wait(ctx context.Context, t *Turn, toolCallID string, args json.RawMessage) Result {
	res := rn.wait(ctx, t, args)
	res.Telemetry = t.telemetry()
	return res
}

// testHookWaitAdmitted, when a test sets it, runs on a wait's goroutine
// once the wait has admitted its run and checked its seal.
var testHookWaitAdmitted func()

func (rn *Runner) wait(ctx context.Context, t *Turn, args json.RawMessage) Result {
	id, fail := ParseWait(args)
	if fail != nil {
		return *fail
	}
	rn.store.sweep()
	if rn.shared != nil {
		rn.sweepShared()
		r, res := rn.claimShared(ctx, t, id)
		if res != nil {
			return *res
		}
		return rn.resume(ctx, r)
	}
	r, msg := rn.store.acquire(id, t.Scope)
	if msg != "" {
		return Failed(CodeInvalidInput, PhaseInput, msg)
	}
	return rn.resume(ctx, r)
}

// resume runs an admitted wait for r: it waits until r is ready and
// resumes it, or reports it waiting still.
func (rn *Runner) resume(ctx context.Context, r *run) Result {
	if !rn.sealer.verify(r) {
		return rn.refuseUnsealed(r)
	}
	if testHookWaitAdmitted != nil {
		testHookWaitAdmitted()
	}
	s := r.turn.Settings
	deadline := time.Now().Add(time.Duration(s.TimeoutMs) * time.Millisecond)
	r.bridge.resolveYields()
	if !r.awaitReady(ctx, deadline.Add(-resumeMin(s.TimeoutMs))) {
		if ctx.Err() != nil {
			rn.removeRun(r)
			res := Failed(CodeTimeout, PhaseBridge, MsgAborted)
			res.BridgeDispatchStarted, res.ReplaySafe = true, r.restartSafe
			return res
		}
		_, pending := r.bridge.state()
		rn.releaseRun(r)
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

// releaseRun ends a resume that left r suspended as it was.
func (rn *Runner) releaseRun(r *run) {
	if r.shared && rn.shared != nil {
		// A run rebuilt from the shared store becomes this replica's.
		if !rn.store.has(r.id) {
			rn.store.put(r, time.Until(r.expires))
		}
		ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
		defer cancel()
		_ = rn.shared.Release(ctx, r.id)
	}
	rn.store.release(r)
}

// sweepShared removes the expired runs of the shared store, at most once a
// second (every replica sweeps; expiry itself is checked on every claim).
func (rn *Runner) sweepShared() {
	now := time.Now().UnixNano()
	last := rn.lastSweep.Load()
	if now-last < int64(time.Second) || !rn.lastSweep.CompareAndSwap(last, now) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
		defer cancel()
		began := time.Now()
		ids, live, err := rn.shared.Sweep(ctx)
		for _, id := range ids {
			rn.event("expired runId=%s", id)
		}
		if err == nil {
			// This process's copies of runs that another replica resumed
			// since, or that went, are stale: their host work goes too.
			// A run being resumed is its leg's: nothing of it is read.
			rn.store.removeWhere("disposed", func(r *run) bool {
				if r.resuming || !r.shared || !r.sharedAt.Before(began) {
					return false
				}
				gen, ok := live[r.id]
				return !ok || gen != r.generation
			})
		}
	}()
}

// refuseUnsealed ends a wait whose stored snapshot fails its seal (SPEC.md
// CM-18.19): tampered, swapped, replayed or foreign. The run is disposed,
// its host work cancelled, and the snapshot is never decompressed, parsed
// or restored.
func (rn *Runner) refuseUnsealed(r *run) Result {
	rn.removeRun(r)
	rn.event("refused runId=%s reason=seal", r.id)
	return Failed(CodeInvalidInput, PhaseInput, MsgRunUnavailable)
}
