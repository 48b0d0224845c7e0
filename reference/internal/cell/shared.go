package cell

// This file holds the runner's side of a clustered gateway (SPEC.md
// Appendix G): suspended runs also go to a store every replica shares, a
// wait claims its run there first, and a run whose holder is gone resumes
// from the store in the replica that claimed it.

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// Shared is the store of suspended runs that the replicas of a clustered
// gateway share, as the runner needs it. Its implementation decides where
// the runs live (internal/cluster: NATS JetStream).
type Shared interface {
	// Replica names this process among the gateway's replicas.
	Replica() string
	// Put stores a new suspended run; it returns ErrSharedFull at the
	// cluster-wide cap.
	Put(ctx context.Context, id string, sc Scope, generation uint64, parts map[string][]byte, ttl time.Duration) error
	// Claim marks a run as being resumed, for resumer, after the checks of
	// CM-8.19; msg is the refusal's message, "" once claimed.
	Claim(ctx context.Context, id string, sc Scope, resumer string, lease time.Duration) (c SharedClaim, msg string, err error)
	// Resuspend stores the next suspension of a run this replica claimed.
	Resuspend(ctx context.Context, id string, generation uint64, parts map[string][]byte, ttl time.Duration) error
	// Release ends this replica's claim on a run that stays as it was.
	Release(ctx context.Context, id string) error
	// Stored reports whether the store holds run id.
	Stored(ctx context.Context, id string) (bool, error)
	// Remove drops a run; RemoveWhere drops the runs whose scope matches
	// and returns their ids; Sweep drops the expired ones, returns theirs,
	// and the generation of every run that stays.
	Remove(ctx context.Context, id string) error
	RemoveWhere(ctx context.Context, match func(Scope) bool) ([]string, error)
	Sweep(ctx context.Context) (expired []string, live map[string]uint64, err error)
	// Alive reports whether a replica is running.
	Alive(replica string) bool
	// Forward has a live holder resume a run this replica claimed for it,
	// and returns the holder's result. It returns ErrHolderGone, with the
	// claim this replica's again, when the holder is gone after all: it
	// cannot have received the wait.
	Forward(ctx context.Context, holder, id string, sc Scope) (Result, error)
	// Forget tells a holder this replica took for gone that its copy of
	// run id is stale (Runner.Forget); best effort.
	Forget(holder, id string)
}

// A SharedClaim is a claimed run as the store has it.
type SharedClaim struct {
	Holder     string
	Generation uint64
	Expires    time.Time
	// Load reads the run's parts.
	Load func(ctx context.Context) (map[string][]byte, error)
}

// ErrSharedFull is Shared.Put's answer at the cluster-wide cap.
var ErrSharedFull = errors.New("cell: the suspended-run cap of the cluster is reached")

// ErrHolderGone is Shared.Forward's answer when the holder, still present
// in the store, no longer listens: a replica killed with no goodbye.
var ErrHolderGone = errors.New("cell: the run's holder is gone")

// MsgRunStoreFailed is the failure of a run the shared store could not
// take or give back (SPEC.md Appendix G).
const MsgRunStoreFailed = "code mode run store is unavailable."

// MsgHostWorkLost rejects a nested call whose host work ran in a replica
// that stopped before it settled (SPEC.md Appendix G).
const MsgHostWorkLost = "code mode host work was lost with the gateway replica that ran it."

// sharedTimeout bounds one exchange with the shared store.
const sharedTimeout = 10 * time.Second

// Share makes the runner one replica of a clustered gateway: suspended
// runs also go to s, and snapshots are sealed with sealKey, which every
// replica shares. Call it before the first exec.
func (rn *Runner) Share(s Shared, sealKey []byte) {
	rn.shared = s
	if rn.sealer != nil {
		rn.sealer.key = sha256.Sum256(sealKey)
	}
}

// sharedState is a suspended run's state beside its image, as the shared
// store keeps it.
type sharedState struct {
	RawSize     int               `json:"rawSize"`
	Control     uint32            `json:"control"`
	Rejections  []byte            `json:"rejections,omitempty"`
	Seal        []byte            `json:"seal"`
	Generation  uint64            `json:"generation"`
	RestartSafe bool              `json:"restartSafe,omitempty"`
	Draining    bool              `json:"draining,omitempty"`
	Parent      string            `json:"parent"`
	Nested      int               `json:"nested"`
	Settled     int               `json:"settled"`
	Ledger      []byte            `json:"ledger"`
	Output      []json.RawMessage `json:"output,omitempty"`
	Delivered   int               `json:"delivered"`
	Skip        int               `json:"skip,omitempty"`
	Requests    []sharedRequest   `json:"requests,omitempty"`
}

type sharedRequest struct {
	ID          string          `json:"id"`
	Method      string          `json:"method"`
	Dispatched  bool            `json:"dispatched,omitempty"`
	Settled     bool            `json:"settled,omitempty"`
	OK          bool            `json:"ok,omitempty"`
	Payload     string          `json:"payload,omitempty"`
	Order       int             `json:"order,omitempty"`
	ReplaySafe  bool            `json:"replaySafe,omitempty"`
	YieldReason json.RawMessage `json:"yieldReason,omitempty"`
}

// Part names of a shared run.
const (
	partImage = "image"
	partState = "state"
)

// sharedParts encodes r for the shared store.
func sharedParts(r *run) (map[string][]byte, error) {
	b := r.bridge
	b.mu.Lock()
	ledger, err := b.ledger.MarshalBinary()
	st := sharedState{RawSize: r.stored.RawSize, Control: r.stored.Control, Rejections: r.stored.Rejections,
		Seal: r.seal, Generation: r.generation, RestartSafe: r.restartSafe, Draining: r.draining,
		Parent: b.parent, Nested: b.nested, Settled: b.settled, Ledger: ledger}
	for _, q := range b.reqs {
		st.Requests = append(st.Requests, sharedRequest{ID: q.id, Method: q.method, Dispatched: q.dispatched,
			Settled: q.settled, OK: q.ok, Payload: q.payload, Order: q.order, ReplaySafe: q.replaySafe,
			YieldReason: q.yieldReason})
	}
	b.mu.Unlock()
	if err != nil {
		return nil, err
	}
	o := &r.output
	o.mu.Lock()
	st.Output, st.Delivered, st.Skip = o.items, o.delivered, o.skip
	state, err := json.Marshal(st)
	o.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{partImage: r.stored.Delta, partState: state}, nil
}

// runFromShared rebuilds a run that another replica suspended, to resume
// it with t, the turn of the wait (the same agent run, session and agent:
// CM-8.19). Host work that was unsettled in the stored run ran in a
// replica that is gone: it is settled as rejected (MsgHostWorkLost).
func runFromShared(id string, t *Turn, parts map[string][]byte) (*run, error) {
	var st sharedState
	if err := json.Unmarshal(parts[partState], &st); err != nil {
		return nil, fmt.Errorf("cell: shared run %s: %w", id, err)
	}
	r := &run{id: id, scope: t.Scope, turn: t, restartSafe: st.RestartSafe, draining: st.Draining,
		seal: st.Seal, generation: st.Generation,
		stored: sandbox.Stored{Delta: parts[partImage], RawSize: st.RawSize, Control: st.Control, Rejections: st.Rejections}}
	r.output.items, r.output.delivered, r.output.skip = st.Output, st.Delivered, st.Skip
	b := newBridge(t, st.Parent, st.RestartSafe)
	if err := b.ledger.UnmarshalBinary(st.Ledger); err != nil {
		return nil, fmt.Errorf("cell: shared run %s: ledger: %w", id, err)
	}
	b.nested, b.settled, b.dispatched = st.Nested, st.Settled, true
	for _, q := range st.Requests {
		rq := &request{id: q.ID, method: q.Method, dispatched: q.Dispatched, settled: q.Settled, ok: q.OK,
			payload: q.Payload, order: q.Order, replaySafe: q.ReplaySafe, yieldReason: q.YieldReason}
		b.reqs = append(b.reqs, rq)
	}
	for _, q := range b.reqs {
		if !q.settled && q.method != guest.MethodYield {
			b.settleLocked(q, false, MsgHostWorkLost)
		}
	}
	r.bridge = b
	return r, nil
}

// shareSuspension stores r's suspension in the shared store: a new run,
// or the next suspension of one this replica claimed. It reports false,
// and the message to fail the run with, when the store would not take it.
func (rn *Runner) shareSuspension(r *run, ttl time.Duration) (ok bool, msg string) {
	parts, err := sharedParts(r)
	if err != nil {
		return false, MsgRunStoreFailed
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	if r.shared {
		err = rn.shared.Resuspend(ctx, r.id, r.generation, parts, ttl)
	} else {
		err = rn.shared.Put(ctx, r.id, r.scope, r.generation, parts, ttl)
	}
	switch {
	case errors.Is(err, ErrSharedFull):
		return false, MsgTooManyRuns
	case err != nil:
		rn.event("store failed runId=%s", r.id)
		return false, MsgRunStoreFailed
	}
	rn.store.markShared(r)
	return true, ""
}

// claimShared claims run id for a wait of t in the shared store. It
// returns the run to resume here, or a result that ends the wait: a
// refusal, or the result of the live holder that resumed it.
func (rn *Runner) claimShared(ctx context.Context, t *Turn, id string) (*run, *Result) {
	sctx, cancel := context.WithTimeout(ctx, sharedTimeout)
	defer cancel()
	lease := time.Duration(t.Settings.TimeoutMs)*time.Millisecond + rn.grace() + sharedTimeout
	c, msg, err := rn.shared.Claim(sctx, id, t.Scope, rn.shared.Replica(), lease)
	if err != nil {
		res := Failed(CodeInvalidInput, PhaseInput, MsgRunUnavailable)
		return nil, &res
	}
	if msg != "" {
		res := Failed(CodeInvalidInput, PhaseInput, msg)
		return nil, &res
	}
	// The holder resumes its own run: its host work and its turn are there.
	// A holder that no longer listens is gone before its presence lapses
	// (killed): the run is restored here, as for any gone holder.
	if c.Holder != rn.shared.Replica() && rn.shared.Alive(c.Holder) {
		if res, done := rn.forward(ctx, c.Holder, id, t.Scope, lease); done {
			return nil, &res
		}
	}
	if r, msg := rn.store.acquire(id, t.Scope); msg == "" {
		if r.generation == c.Generation {
			return r, nil
		}
		// Resumed and suspended elsewhere since: this copy is stale.
		rn.store.remove(r)
	}
	if c.Holder != rn.shared.Replica() {
		// A holder taken for gone may be alive but unreachable: its copy
		// of the run, and the host work it holds, go.
		rn.shared.Forget(c.Holder, id)
	}
	parts, err := c.Load(sctx)
	var r *run
	if err == nil {
		r, err = runFromShared(id, t, parts)
	}
	if err != nil {
		rn.event("refused runId=%s reason=store", id)
		_ = rn.shared.Remove(sctx, id)
		res := Failed(CodeInvalidInput, PhaseInput, MsgRunUnavailable)
		return nil, &res
	}
	r.shared, r.resuming, r.expires = true, true, c.Expires
	return r, nil
}

// forward has the live holder resume run id, and reports false when the
// holder turned out to be gone.
func (rn *Runner) forward(ctx context.Context, holder, id string, sc Scope, lease time.Duration) (Result, bool) {
	fctx, cancel := context.WithTimeout(ctx, lease)
	defer cancel()
	res, err := rn.shared.Forward(fctx, holder, id, sc)
	if errors.Is(err, ErrHolderGone) {
		rn.event("holder gone runId=%s holder=%s", id, holder)
		return Result{}, false
	}
	if err != nil {
		res = Failed(CodeInternal, PhaseBridge, MsgRunStoreFailed)
		res.BridgeDispatchStarted = true
	}
	return res, true
}

// ResumeForwarded resumes a run this replica holds for a wait that another
// replica received and claimed for it (Shared.Forward).
func (rn *Runner) ResumeForwarded(ctx context.Context, id string, sc Scope) Result {
	r, msg := rn.store.acquire(id, sc)
	if msg != "" {
		return Failed(CodeInvalidInput, PhaseInput, msg)
	}
	return rn.resume(ctx, r)
}

// Forget drops this process's copy of run id, which another replica
// resumed from the shared store, with its host work. The shared store is
// left as it is.
func (rn *Runner) Forget(id string) {
	rn.store.removeWhere("disposed", func(r *run) bool { return r.id == id && !r.resuming && r.shared })
}

// dropShared removes run ids from the shared store, when there is one.
func (rn *Runner) dropShared(match func(Scope) bool) {
	if rn.shared == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sharedTimeout)
	defer cancel()
	_, _ = rn.shared.RemoveWhere(ctx, match)
}
