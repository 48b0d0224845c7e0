package cluster

// This file holds a gateway replica's membership of the cluster: the
// shared run store as the cell uses it (cell.Shared), the replica's
// presence, and the subject on which other replicas forward it the waits
// for runs it holds.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/codemodekit/kit/reference/internal/cell"
)

// Presence timing: a replica writes its presence every Heartbeat, and one
// whose latest write is older than Lapse counts as gone.
const (
	Heartbeat = time.Second
	Lapse     = 3 * time.Second
)

// A Replica is this process's membership of a clustered gateway. It
// implements cell.Shared.
type Replica struct {
	runs      *Runs
	nc        *nats.Conn
	sub       *nats.Subscription
	forget    *nats.Subscription
	forgetAll *nats.Subscription
	stop      chan struct{}
	wg        sync.WaitGroup
	mu        sync.Mutex
	halted    bool
	runner    Runner
}

// Runner is what a replica asks of its cell runner (cell.Runner).
type Runner interface {
	// ResumeForwarded resumes a run this replica holds for a wait another
	// replica claimed for it.
	ResumeForwarded(ctx context.Context, id string, sc cell.Scope) cell.Result
	// Forget drops the replica's copy of a run another replica resumed.
	Forget(id string)
}

var _ cell.Shared = (*Replica)(nil)

func presenceKey(name string) string   { return "replica." + name }
func resumeSubject(name string) string { return "codemode.replica." + name + ".resume" }
func forgetSubject(name string) string { return "codemode.replica." + name + ".forget" }

// forgetAllSubject reaches every replica: runs an abort or a session's end
// removed, whose holder must drop its copy and cancel its host work.
const forgetAllSubject = "codemode.replicas.forget"

// Join makes this process a replica: it opens the shared run store,
// announces the replica's presence, and serves the waits other replicas
// forward to it, and their word that a copy it holds is stale, with rn.
func Join(ctx context.Context, nc *nats.Conn, cfg Config, rn Runner) (*Replica, error) {
	if !runIDPattern.MatchString(cfg.Replica) {
		return nil, fmt.Errorf("cluster: replica name %q: letters, digits, - and _ only", cfg.Replica)
	}
	runs, err := Open(ctx, nc, cfg)
	if err != nil {
		return nil, err
	}
	rp := &Replica{runs: runs, nc: nc, stop: make(chan struct{}), runner: rn}
	if _, err := idempotent(ctx, func(ctx context.Context) (struct{}, error) { return struct{}{}, rp.beat(ctx) }); err != nil {
		return nil, err
	}
	// Each forwarded wait is served on its own goroutine: a resume can
	// take the whole timeoutMs, and the subscription's own goroutine
	// would serve them one at a time.
	rp.sub, err = nc.Subscribe(resumeSubject(cfg.Replica), func(m *nats.Msg) {
		rp.mu.Lock()
		defer rp.mu.Unlock()
		if !rp.halted {
			rp.wg.Go(func() { rp.serveResume(m) })
		}
	})
	if err != nil {
		return nil, err
	}
	forget := func(m *nats.Msg) {
		if id := string(m.Data); runIDPattern.MatchString(id) {
			rn.Forget(id)
		}
	}
	rp.forget, err = nc.Subscribe(forgetSubject(cfg.Replica), forget)
	if err == nil {
		rp.forgetAll, err = nc.Subscribe(forgetAllSubject, forget)
	}
	if err != nil {
		_ = rp.sub.Unsubscribe()
		if rp.forget != nil {
			_ = rp.forget.Unsubscribe()
		}
		return nil, err
	}
	rp.wg.Go(rp.heartbeat)
	return rp, nil
}

// Runs is the replica's handle on the shared run store.
func (rp *Replica) Runs() *Runs { return rp.runs }

func (rp *Replica) beat(ctx context.Context) error {
	now := strconv.FormatInt(rp.runs.now().UnixNano(), 10)
	_, err := rp.runs.kv.Put(ctx, presenceKey(rp.runs.cfg.Replica), []byte(now))
	return err
}

func (rp *Replica) heartbeat() {
	t := time.NewTicker(Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-rp.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), Heartbeat)
			_ = rp.beat(ctx)
			cancel()
		}
	}
}

// Leave ends the replica's membership: it stops serving forwarded waits
// and withdraws its presence, so that other replicas resume its runs from
// the store at once. When it was the last replica, the gateway shuts down
// with it, and every stored run is removed (SPEC.md CM-8.28, Appendix G).
func (rp *Replica) Leave(ctx context.Context) error {
	err := rp.halt()
	err = errors.Join(err, rp.runs.kv.Purge(ctx, presenceKey(rp.runs.cfg.Replica)))
	others, lerr := rp.alive(ctx)
	if lerr == nil && len(others) == 0 {
		_, rerr := rp.runs.RemoveWhere(ctx, func(*Record) bool { return true })
		err = errors.Join(err, rerr)
	}
	return errors.Join(err, lerr)
}

// halt stops serving forwarded waits, once those in progress are answered,
// and stops the heartbeat.
func (rp *Replica) halt() error {
	rp.mu.Lock()
	rp.halted = true
	rp.mu.Unlock()
	err := errors.Join(rp.sub.Unsubscribe(), rp.forget.Unsubscribe(), rp.forgetAll.Unsubscribe())
	close(rp.stop)
	rp.wg.Wait()
	return err
}

// Members lists the replicas present now, this one included.
func (rp *Replica) Members(ctx context.Context) ([]string, error) { return rp.alive(ctx) }

// alive lists the replicas present now.
func (rp *Replica) alive(ctx context.Context) ([]string, error) {
	keys, err := rp.runs.keys(ctx, "replica.*")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, k := range keys {
		if name := k[len("replica."):]; rp.present(ctx, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

func (rp *Replica) present(ctx context.Context, name string) bool {
	e, err := rp.runs.kv.Get(ctx, presenceKey(name))
	if err != nil {
		return false
	}
	ns, err := strconv.ParseInt(string(e.Value()), 10, 64)
	return err == nil && rp.runs.now().Sub(time.Unix(0, ns)) < Lapse
}

// Replica implements cell.Shared.
func (rp *Replica) Replica() string { return rp.runs.cfg.Replica }

// Alive implements cell.Shared.
func (rp *Replica) Alive(name string) bool {
	if !runIDPattern.MatchString(name) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), Heartbeat)
	defer cancel()
	return rp.present(ctx, name)
}

func scopeOf(sc cell.Scope) Scope {
	return Scope{AgentRunID: sc.AgentRunID, SessionID: sc.SessionID, SessionKey: sc.SessionKey, AgentID: sc.AgentID}
}

func cellScope(sc Scope) cell.Scope {
	return cell.Scope{AgentRunID: sc.AgentRunID, SessionID: sc.SessionID, SessionKey: sc.SessionKey, AgentID: sc.AgentID}
}

// Put implements cell.Shared.
func (rp *Replica) Put(ctx context.Context, id string, sc cell.Scope, generation uint64, parts map[string][]byte, ttl time.Duration) error {
	err := rp.runs.Put(ctx, &Record{ID: id, Scope: scopeOf(sc), Generation: generation}, parts, ttl)
	if errors.Is(err, ErrFull) {
		return cell.ErrSharedFull
	}
	return err
}

// Claim implements cell.Shared.
func (rp *Replica) Claim(ctx context.Context, id string, sc cell.Scope, resumer string, lease time.Duration) (cell.SharedClaim, string, error) {
	r, refusal, err := rp.runs.Claim(ctx, id, scopeOf(sc), lease)
	if err != nil {
		return cell.SharedClaim{}, "", err
	}
	switch refusal {
	case Unavailable:
		return cell.SharedClaim{}, cell.MsgRunUnavailable, nil
	case OtherAgentRun:
		return cell.SharedClaim{}, cell.MsgRunOtherAgentRun, nil
	case OtherSession:
		return cell.SharedClaim{}, cell.MsgRunOtherSession, nil
	case Resuming:
		return cell.SharedClaim{}, cell.MsgRunResuming, nil
	}
	return cell.SharedClaim{Holder: r.Holder, Generation: r.Generation, Expires: r.Expires,
		Load: func(ctx context.Context) (map[string][]byte, error) { return rp.runs.ReadParts(ctx, r) }}, "", nil
}

// Resuspend implements cell.Shared.
func (rp *Replica) Resuspend(ctx context.Context, id string, generation uint64, parts map[string][]byte, ttl time.Duration) error {
	_, err := rp.runs.Resuspend(ctx, id, generation, parts, ttl)
	return err
}

// Release implements cell.Shared.
func (rp *Replica) Release(ctx context.Context, id string) error { return rp.runs.Release(ctx, id) }

// Stored implements cell.Shared.
func (rp *Replica) Stored(ctx context.Context, id string) (bool, error) {
	r, err := rp.runs.Get(ctx, id)
	return r != nil, err
}

// Remove implements cell.Shared.
func (rp *Replica) Remove(ctx context.Context, id string) error { return rp.runs.Remove(ctx, id) }

// RemoveWhere implements cell.Shared: the runs go from the store, and
// every replica learns of them, so that their holder drops its copy and
// cancels the host work it runs for them (an abort, the end of a session).
func (rp *Replica) RemoveWhere(ctx context.Context, match func(cell.Scope) bool) ([]string, error) {
	gone, err := rp.runs.RemoveWhere(ctx, func(r *Record) bool { return match(cellScope(r.Scope)) })
	for _, id := range gone {
		_ = rp.nc.Publish(forgetAllSubject, []byte(id))
	}
	return gone, err
}

// Sweep implements cell.Shared.
func (rp *Replica) Sweep(ctx context.Context) ([]string, map[string]uint64, error) {
	return rp.runs.Sweep(ctx, Lapse)
}

// forwarded is a wait forwarded to the holder of its run.
type forwarded struct {
	ID    string `json:"id"`
	Scope Scope  `json:"scope"`
}

// plainResult is cell.Result in encoding/json's own form, for the reply
// of a forwarded wait.
type plainResult cell.Result

// AcceptWait is how long a replica that forwarded a wait gives the holder
// to accept it (acceptForwarded) before it takes the claim back and
// restores the run itself. A killed holder's subscription can outlive it
// for a moment on the servers of a cluster: a request sent then is lost,
// and nobody answers "no responders".
const AcceptWait = 2 * time.Second

// Forward implements cell.Shared: the claim passes to the holder, which
// accepts it by writing the record, resumes the run and answers with its
// result. A claim the holder has not accepted within AcceptWait (or that
// nobody listens for) comes back with a compare-and-set on the revision
// that passed it: exactly one of the two writes wins, so the run is never
// resumed twice.
func (rp *Replica) Forward(ctx context.Context, holder, id string, sc cell.Scope) (cell.Result, error) {
	me := rp.Replica()
	passed, err := rp.runs.Modify(ctx, id, func(r *Record) error {
		if r.Resumer != me {
			return errNotMine
		}
		r.Resumer = holder
		return nil
	})
	if err != nil {
		return cell.Result{}, err
	}
	if passed == nil {
		return cell.Failed(cell.CodeInvalidInput, cell.PhaseInput, cell.MsgRunUnavailable), nil
	}
	body, err := json.Marshal(forwarded{ID: id, Scope: scopeOf(sc)})
	if err != nil {
		return cell.Result{}, err
	}
	type reply struct {
		msg *nats.Msg
		err error
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	replies := make(chan reply, 1)
	go func() {
		msg, err := rp.nc.RequestWithContext(rctx, resumeSubject(holder), body)
		replies <- reply{msg, err}
	}()
	accept := time.NewTimer(AcceptWait)
	defer accept.Stop()
	for {
		select {
		case <-accept.C:
			if rp.takeBack(ctx, passed) {
				return cell.Result{}, cell.ErrHolderGone
			}
			// The holder accepted: its answer comes within the lease.
		case r := <-replies:
			if errors.Is(r.err, nats.ErrNoResponders) {
				if rp.takeBack(ctx, passed) {
					return cell.Result{}, cell.ErrHolderGone
				}
				return cell.Result{}, fmt.Errorf("cluster: nobody answers for %s, and the claim on %s did not come back", holder, id)
			}
			if r.err != nil {
				return cell.Result{}, fmt.Errorf("cluster: forwarding the wait for %s to %s: %w", id, holder, r.err)
			}
			var res plainResult
			if err := json.Unmarshal(r.msg.Data, &res); err != nil {
				return cell.Result{}, fmt.Errorf("cluster: the reply of %s: %w", holder, err)
			}
			return cell.Result(res), nil
		}
	}
}

// takeBack makes this replica the resumer of the run again, if the record
// is still as passed left it: the holder never accepted the wait.
func (rp *Replica) takeBack(ctx context.Context, passed *Record) bool {
	r := *passed
	r.Resumer = rp.Replica()
	return rp.runs.update(ctx, &r) == nil
}

// acceptForwarded is the holder's side of Forward: it writes the record it
// was passed, unchanged, so that the forwarding replica can no longer take
// the claim back. It fails when the claim came back first.
func (rp *Replica) acceptForwarded(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), AcceptWait)
	defer cancel()
	me := rp.Replica()
	r, err := rp.runs.Modify(ctx, id, func(r *Record) error {
		if r.Resumer != me {
			return errNotMine
		}
		return nil
	})
	if err == nil && r == nil {
		err = errNotMine
	}
	return err
}

// Forget implements cell.Shared.
func (rp *Replica) Forget(holder, id string) {
	if runIDPattern.MatchString(holder) {
		_ = rp.nc.Publish(forgetSubject(holder), []byte(id))
	}
}

// serveResume answers a wait another replica forwarded.
func (rp *Replica) serveResume(m *nats.Msg) {
	var f forwarded
	var res cell.Result
	if err := json.Unmarshal(m.Data, &f); err != nil {
		res = cell.Failed(cell.CodeInvalidInput, cell.PhaseInput, cell.MsgRunUnavailable)
	} else if err := rp.acceptForwarded(f.ID); err != nil {
		// The forwarding replica took the claim back: it resumes the run.
		res = cell.Failed(cell.CodeInvalidInput, cell.PhaseInput, cell.MsgRunResuming)
	} else {
		res = rp.runner.ResumeForwarded(context.Background(), f.ID, cellScope(f.Scope))
	}
	b, err := json.Marshal(plainResult(res))
	if err != nil {
		b, _ = json.Marshal(plainResult(cell.Failed(cell.CodeInternal, cell.PhaseBridge, cell.MsgRunStoreFailed)))
	}
	_ = m.Respond(b)
}
