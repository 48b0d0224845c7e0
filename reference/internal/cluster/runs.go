package cluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Bucket names of the shared run store.
const (
	RunsBucket  = "codemode-runs"
	PartsBucket = "codemode-run-parts"
)

// Config configures a replica's view of the shared run store.
type Config struct {
	// Replica names this process among the gateway's replicas; it is
	// recorded as the holder and resumer of runs.
	Replica string
	// MaxRuns is the cluster-wide cap on suspended runs (SPEC.md CM-8.29).
	MaxRuns int
	// MaxAge bounds how long the store keeps anything at all: the longest
	// run TTL a configuration may set. A record's own Expires decides its
	// expiry; MaxAge only collects what no replica swept.
	MaxAge time.Duration
	// StreamReplicas is how many JetStream servers hold each bucket (1 or
	// 3 in practice; 0 means 1).
	StreamReplicas int
}

// Runs is one replica's handle on the shared run store. It is safe for
// concurrent use.
type Runs struct {
	cfg   Config
	kv    jetstream.KeyValue
	parts jetstream.ObjectStore
	now   func() time.Time

	// known holds the record of each run as this replica last read or
	// wrote it. A claim or a removal first tries the known revision, one
	// round trip instead of a read and a write; a compare-and-set that
	// fails means another replica wrote since, and the record is read
	// again. A refusal is never decided on a known record.
	known sync.Map // run id -> Record
}

// remember keeps r as the known record of its run.
func (rs *Runs) remember(r *Record) { rs.known.Store(r.ID, *r) }

// recall returns a copy of the known record of run id.
func (rs *Runs) recall(id string) (*Record, bool) {
	v, ok := rs.known.Load(id)
	if !ok {
		return nil, false
	}
	r := v.(Record)
	r.Parts = maps.Clone(r.Parts)
	return &r, true
}

// Open binds to the shared run store over nc, creating its buckets when
// they are missing.
func Open(ctx context.Context, nc *nats.Conn, cfg Config) (*Runs, error) {
	if cfg.Replica == "" || cfg.MaxRuns <= 0 || cfg.MaxAge <= 0 {
		return nil, fmt.Errorf("cluster: a replica name, MaxRuns and MaxAge are required")
	}
	if cfg.StreamReplicas == 0 {
		cfg.StreamReplicas = 1
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	// The buckets' streams are made here rather than by nats.go's bucket
	// helpers, which allow direct gets: on replicated streams those may be
	// served by a follower that has not applied the latest write yet, and
	// a wait sent right after its run was stored would find no run.
	// Without them every read goes to the stream's leader.
	dup := min(2*time.Minute, cfg.MaxAge)
	err = ensureStream(ctx, js, jetstream.StreamConfig{
		Name: "KV_" + RunsBucket, Description: "suspended code-mode runs",
		Subjects: []string{"$KV." + RunsBucket + ".>"}, MaxMsgsPerSubject: 1, MaxBytes: -1, MaxMsgs: -1,
		MaxConsumers: -1, MaxAge: cfg.MaxAge, MaxMsgSize: MaxKeyPart, Storage: jetstream.MemoryStorage,
		Replicas: cfg.StreamReplicas, AllowRollup: true, DenyDelete: true, Duplicates: dup,
		Discard: jetstream.DiscardNew,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: run bucket: %w", err)
	}
	err = ensureStream(ctx, js, jetstream.StreamConfig{
		Name: "OBJ_" + PartsBucket, Description: "state of suspended code-mode runs",
		Subjects: []string{"$O." + PartsBucket + ".C.>", "$O." + PartsBucket + ".M.>"}, MaxBytes: -1,
		MaxAge: cfg.MaxAge, Storage: jetstream.MemoryStorage, Replicas: cfg.StreamReplicas,
		AllowRollup: true, Discard: jetstream.DiscardNew,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: parts bucket: %w", err)
	}
	kv, err := idempotent(ctx, func(ctx context.Context) (jetstream.KeyValue, error) { return js.KeyValue(ctx, RunsBucket) })
	if err != nil {
		return nil, fmt.Errorf("cluster: run bucket: %w", err)
	}
	parts, err := idempotent(ctx, func(ctx context.Context) (jetstream.ObjectStore, error) { return js.ObjectStore(ctx, PartsBucket) })
	if err != nil {
		return nil, fmt.Errorf("cluster: parts bucket: %w", err)
	}
	return &Runs{cfg: cfg, kv: steadyKV{kv}, parts: parts, now: time.Now}, nil
}

// ensureStream creates a stream unless it exists: the first replica to
// start makes the buckets, and the others use them as they are. A cluster
// electing its leader may drop the request; creating is idempotent, so an
// attempt that times out is made again until ctx ends.
func ensureStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) error {
	_, err := idempotent(ctx, func(ctx context.Context) (jetstream.Stream, error) {
		st, err := js.CreateStream(ctx, cfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			st, err = js.Stream(ctx, cfg.Name)
		}
		if noPeersYet(err) {
			// A server the meta leader has not seen yet: like no
			// responder, nothing was made.
			err = fmt.Errorf("%w: %w", jetstream.ErrNoStreamResponse, err)
		}
		return st, err
	})
	return err
}

// errCodeNoPeers is JetStream's "no suitable peers for placement": a
// replicated stream asked of a cluster whose servers are not all known to
// its meta leader yet, as right after the cluster forms.
const errCodeNoPeers jetstream.ErrorCode = 10005

func noPeersYet(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == errCodeNoPeers
}

// A Refusal is why a claim did not take a run. The cell words each one
// as SPEC.md orders them (CM-8.3).
type Refusal int

const (
	Claimed       Refusal = iota
	Unavailable           // no such run, or it expired
	OtherAgentRun         // the run belongs to another agent run
	OtherSession          // the run belongs to another session or agent
	Resuming              // another wait is resuming the run
)

// ErrFull is returned by Put when the cluster holds MaxRuns runs.
var ErrFull = errors.New("cluster: the suspended-run cap is reached")

// errNotMine ends a change to a record the replica no longer owns.
var errNotMine = errors.New("cluster: the run is claimed by another replica")

// casRetries bounds the retries of one compare-and-set loop; each retry
// means another replica changed the record meanwhile.
const casRetries = 64

func runKey(id string) string    { return "run." + id }
func slotKey(n int) string       { return "slot." + strconv.Itoa(n) }
func idOfRunKey(k string) string { return strings.TrimPrefix(k, "run.") }

// lostRace reports whether err is a compare-and-set that another writer
// won: a create of a key that exists, or a write at a stale revision. A
// replicated stream reports it with another code than a single server,
// and a create racing over a deleted key reports it unwrapped, so the API
// error codes are checked too.
func lostRace(err error) bool {
	if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return true
	}
	var api *jetstream.APIError
	return errors.As(err, &api) && (api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// Put stores a new suspended run: its parts, then a slot of the cap, then
// its record, with Holder set to this replica and Expires now+ttl. It
// returns ErrFull when no slot is free.
func (rs *Runs) Put(ctx context.Context, rec *Record, parts map[string][]byte, ttl time.Duration) error {
	if !runIDPattern.MatchString(rec.ID) {
		return fmt.Errorf("cluster: run id %q", rec.ID)
	}
	// The slot is taken while the parts are written.
	var slot int
	var slotErr error
	var wg sync.WaitGroup
	wg.Go(func() { slot, slotErr = rs.takeSlot(ctx, rec.ID) })
	refs, err := rs.writeParts(ctx, rec.ID, parts)
	wg.Wait()
	if err != nil || slotErr != nil {
		if slotErr == nil {
			rs.freeSlot(ctx, slot, rec.ID)
		}
		rs.deleteStored(ctx, refs, nil)
		return errors.Join(err, slotErr)
	}
	r := *rec
	r.Slot, r.Parts, r.Holder = slot, refs, rs.cfg.Replica
	r.Resumer, r.ResumeUntil = "", time.Time{}
	r.Expires = rs.now().Add(ttl)
	b, err := encodeRecord(&r)
	if err == nil {
		r.revision, err = rs.kv.Create(ctx, runKey(r.ID), b)
	}
	if err != nil {
		rs.freeSlot(ctx, slot, r.ID)
		rs.deleteStored(ctx, refs, nil)
		return fmt.Errorf("cluster: storing run %s: %w", r.ID, err)
	}
	rs.remember(&r)
	*rec = r
	return nil
}

// Get reads a run's record; a missing run is (nil, nil).
func (rs *Runs) Get(ctx context.Context, id string) (*Record, error) {
	if !runIDPattern.MatchString(id) {
		return nil, nil
	}
	e, err := rs.kv.Get(ctx, runKey(id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		rs.known.Delete(id)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r, err := decodeRecord(id, e.Value(), rs.cfg.MaxRuns)
	if err != nil {
		return nil, err
	}
	r.revision = e.Revision()
	rs.remember(r)
	return r, nil
}

// Claim takes a run for this replica to resume, checking it against the
// waiter's scope in SPEC order. The claim lapses after lease unless
// Resuspend, Release or Remove ends it first. Two replicas claiming the
// same run concurrently: exactly one gets Claimed, the other Resuming.
func (rs *Runs) Claim(ctx context.Context, id string, sc Scope, lease time.Duration) (*Record, Refusal, error) {
	if r, ok := rs.recall(id); ok && r.claimable(rs.now(), sc) {
		r.Resumer, r.ResumeUntil = rs.cfg.Replica, rs.now().Add(lease)
		if err := rs.update(ctx, r); err == nil {
			return r, Claimed, nil
		} else if !lostRace(err) {
			return nil, Unavailable, err
		}
	}
	for range casRetries {
		r, err := rs.Get(ctx, id)
		if err != nil {
			return nil, Unavailable, err
		}
		now := rs.now()
		switch {
		case r == nil || !now.Before(r.Expires):
			return nil, Unavailable, nil
		case r.Scope.AgentRunID != sc.AgentRunID:
			return nil, OtherAgentRun, nil
		case r.Scope.SessionID != sc.SessionID || r.Scope.SessionKey != sc.SessionKey || r.Scope.AgentID != sc.AgentID:
			return nil, OtherSession, nil
		case r.resuming(now):
			return nil, Resuming, nil
		}
		r.Resumer, r.ResumeUntil = rs.cfg.Replica, now.Add(lease)
		err = rs.update(ctx, r)
		if lostRace(err) {
			continue // changed meanwhile: look again
		}
		if err != nil {
			return nil, Unavailable, err
		}
		return r, Claimed, nil
	}
	return nil, Resuming, nil
}

// update writes r at the revision it was read at, and records the new one.
func (rs *Runs) update(ctx context.Context, r *Record) error {
	b, err := encodeRecord(r)
	if err != nil {
		return err
	}
	rev, err := rs.kv.Update(ctx, runKey(r.ID), b, r.revision)
	if err != nil {
		return err
	}
	r.revision = rev
	rs.remember(r)
	return nil
}

// Modify applies change to the current record of id and writes it with a
// compare-and-set, reading again and reapplying the change when another
// replica wrote first. change returning an error ends Modify with it. A
// missing run is (nil, nil).
func (rs *Runs) Modify(ctx context.Context, id string, change func(*Record) error) (*Record, error) {
	// The known record first: a change it refuses is decided on a fresh
	// read, never on it.
	if r, ok := rs.recall(id); ok && change(r) == nil {
		if err := rs.update(ctx, r); err == nil {
			return r, nil
		} else if !lostRace(err) {
			return nil, err
		}
	}
	for range casRetries {
		r, err := rs.Get(ctx, id)
		if err != nil || r == nil {
			return nil, err
		}
		if err := change(r); err != nil {
			return nil, err
		}
		err = rs.update(ctx, r)
		if lostRace(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, fmt.Errorf("cluster: run %s changed %d times during one update", id, casRetries)
}

// Release ends this replica's claim on a run that stays suspended as it
// was (a wait that found it not ready).
func (rs *Runs) Release(ctx context.Context, id string) error {
	_, err := rs.Modify(ctx, id, func(r *Record) error {
		if r.Resumer != rs.cfg.Replica {
			return errNotMine
		}
		r.Resumer, r.ResumeUntil = "", time.Time{}
		return nil
	})
	return err
}

// Resuspend stores the next suspension of a run this replica claimed:
// its new generation and parts, with this replica as the holder and
// Expires now+ttl (the expiry counts from the latest suspension). Parts
// of the earlier generation that are no longer named are deleted.
func (rs *Runs) Resuspend(ctx context.Context, id string, generation uint64, parts map[string][]byte, ttl time.Duration) (*Record, error) {
	refs, err := rs.writeParts(ctx, id, parts)
	if err != nil {
		return nil, err
	}
	var old map[string]Part
	r, err := rs.Modify(ctx, id, func(r *Record) error {
		if r.Resumer != rs.cfg.Replica {
			return errNotMine
		}
		old = r.Parts
		r.Generation, r.Parts, r.Holder = generation, refs, rs.cfg.Replica
		r.Resumer, r.ResumeUntil = "", time.Time{}
		r.Expires = rs.now().Add(ttl)
		return nil
	})
	if err != nil || r == nil {
		rs.deleteStored(ctx, refs, keepOf(old))
		if err == nil {
			err = fmt.Errorf("cluster: run %s was removed while it was resumed", id)
		}
		return nil, err
	}
	rs.deleteStored(ctx, old, keepOf(refs))
	return r, nil
}

// keepOf is the set of keys and object names refs use.
func keepOf(refs map[string]Part) map[string]bool {
	keep := map[string]bool{}
	for _, p := range refs {
		if p.Key != "" {
			keep[p.Key] = true
		}
		if p.Object != "" {
			keep[p.Object] = true
		}
	}
	return keep
}

// Remove drops a run: its record, its slot and its parts. Removing a
// missing run is not an error.
func (rs *Runs) Remove(ctx context.Context, id string) error {
	if r, ok := rs.recall(id); ok {
		if err := rs.removeAt(ctx, r); err == nil || !lostRace(err) {
			return err
		}
	}
	r, err := rs.Get(ctx, id)
	if err != nil || r == nil {
		return err
	}
	return rs.removeAt(ctx, r)
}

// removeAt drops r if its record is still at r's revision.
func (rs *Runs) removeAt(ctx context.Context, r *Record) error {
	err := rs.kv.Purge(ctx, runKey(r.ID), jetstream.LastRevision(r.revision))
	if err != nil {
		return err
	}
	rs.known.Delete(r.ID)
	// The slot and the parts go at once: nothing reads them any more.
	var wg sync.WaitGroup
	wg.Go(func() { rs.freeSlot(ctx, r.Slot, r.ID) })
	rs.deleteStored(ctx, r.Parts, nil)
	wg.Wait()
	return nil
}

// List reads every stored record. A record that will not decode is
// skipped and reported in the error, after the others are read.
func (rs *Runs) List(ctx context.Context) ([]*Record, error) {
	keys, err := rs.keys(ctx, "run.*")
	if err != nil {
		return nil, err
	}
	var out []*Record
	var errs []error
	for _, k := range keys {
		r, err := rs.Get(ctx, idOfRunKey(k))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", k, err))
			continue
		}
		if r != nil {
			out = append(out, r)
		}
	}
	return out, errors.Join(errs...)
}

// keys lists the bucket's keys matching filter.
func (rs *Runs) keys(ctx context.Context, filter string) ([]string, error) {
	l, err := rs.kv.ListKeysFiltered(ctx, filter)
	if err != nil {
		return nil, err
	}
	var keys []string
	for k := range l.Keys() {
		keys = append(keys, k)
	}
	return keys, nil
}

// RemoveWhere drops every run whose record matches (abort, the end of a
// session) and returns their ids.
func (rs *Runs) RemoveWhere(ctx context.Context, match func(*Record) bool) ([]string, error) {
	recs, err := rs.List(ctx)
	var gone []string
	for _, r := range recs {
		if !match(r) {
			continue
		}
		if rerr := rs.removeAt(ctx, r); rerr == nil {
			gone = append(gone, r.ID)
		} else if !lostRace(rerr) {
			err = errors.Join(err, rerr)
		} else if rerr := rs.Remove(ctx, r.ID); rerr != nil {
			err = errors.Join(err, rerr)
		} else {
			gone = append(gone, r.ID)
		}
	}
	return gone, err
}

// Sweep drops every expired run that no live claim holds, and frees the
// slots whose run never got a record (a replica that stopped between
// taking the slot and storing the run) once they are older than grace.
// It returns the ids of the expired runs it dropped, and the generation
// of every run that stays.
func (rs *Runs) Sweep(ctx context.Context, grace time.Duration) (gone []string, live map[string]uint64, err error) {
	now := rs.now()
	recs, err := rs.List(ctx)
	live = map[string]uint64{}
	for _, r := range recs {
		if now.Before(r.Expires) || r.resuming(now) {
			live[r.ID] = r.Generation
			continue
		}
		// At the revision read: a run resuspended meanwhile stays.
		if rerr := rs.removeAt(ctx, r); rerr == nil {
			gone = append(gone, r.ID)
		} else if !lostRace(rerr) {
			err = errors.Join(err, rerr)
		}
	}
	rs.known.Range(func(k, _ any) bool {
		if _, ok := live[k.(string)]; !ok {
			rs.known.Delete(k)
		}
		return true
	})
	return gone, live, errors.Join(err, rs.freeOrphanSlots(ctx, grace))
}

// Held counts the slots of the cap that are taken.
func (rs *Runs) Held(ctx context.Context) (int, error) {
	keys, err := rs.keys(ctx, "slot.*")
	return len(keys), err
}

// takeSlot creates the first free slot key, starting at a random one so
// that replicas rarely race for the same key.
func (rs *Runs) takeSlot(ctx context.Context, id string) (int, error) {
	start := rand.IntN(rs.cfg.MaxRuns)
	for i := range rs.cfg.MaxRuns {
		n := (start + i) % rs.cfg.MaxRuns
		_, err := rs.kv.Create(ctx, slotKey(n), []byte(id))
		if err == nil {
			return n, nil
		}
		if !lostRace(err) {
			return 0, fmt.Errorf("cluster: taking a slot: %w", err)
		}
	}
	return 0, ErrFull
}

// freeSlot deletes slot n if it is still id's.
func (rs *Runs) freeSlot(ctx context.Context, n int, id string) {
	e, err := rs.kv.Get(ctx, slotKey(n))
	if err != nil || string(e.Value()) != id {
		return
	}
	_ = rs.kv.Purge(ctx, slotKey(n), jetstream.LastRevision(e.Revision()))
}

// freeOrphanSlots frees the slots older than grace whose run has no
// record.
func (rs *Runs) freeOrphanSlots(ctx context.Context, grace time.Duration) error {
	keys, err := rs.keys(ctx, "slot.*")
	if err != nil {
		return err
	}
	for _, k := range keys {
		e, err := rs.kv.Get(ctx, k)
		if err != nil {
			continue
		}
		if rs.now().Sub(e.Created()) < grace {
			continue
		}
		id := string(e.Value())
		if _, err := rs.kv.Get(ctx, runKey(id)); runIDPattern.MatchString(id) && !errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		_ = rs.kv.Purge(ctx, k, jetstream.LastRevision(e.Revision()))
	}
	return nil
}
