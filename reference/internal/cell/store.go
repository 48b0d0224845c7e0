package cell

import (
	"sync"
	"time"

	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// MaxSuspendedRuns is the per-process cap on suspended runs.
const MaxSuspendedRuns = 64

// Scope is who a suspended run belongs to.
type Scope struct {
	AgentRunID string
	SessionID  string
	SessionKey string
	AgentID    string
}

// A run is the host state of one suspended code-mode run.
type run struct {
	id     string
	scope  Scope
	turn   *Turn // of the exec that started the run
	bridge *bridge
	stored sandbox.Stored // the guest half: the VM's image and what goes with it
	seal   []byte         // HMAC binding the snapshot to this run (seal.go)
	// generation counts the run's suspensions; the seal covers it, so only
	// the latest snapshot verifies.
	generation uint64
	draining   bool // the top-level promise settled with work left

	output outputLog

	restartSafe bool
	expires     time.Time
	timer       *time.Timer
	resuming    bool
	// shared is set once the run is in the shared store of a clustered
	// gateway (shared.go), at sharedAt.
	shared   bool
	sharedAt time.Time
	// reserved is set while the run holds a slot of the store's cap that
	// is not a stored entry: a run not yet stored whose host work is being
	// resolved inline (CM-8.31). put and remove give the slot back.
	reserved bool
}

// store is the in-process map of suspended runs, keyed by run id. Nothing in
// it is ever written to disk. Its cap counts the stored runs and the slots
// reserved by runs being resolved inline (SPEC.md CM-8.31).
type store struct {
	mu       sync.Mutex
	runs     map[string]*run
	reserved int
	max      int
	// gone, when set, learns of every run removed: "expired" or "disposed".
	gone func(id, why string)
}

func newStore(max int) *store { return &store{runs: map[string]*run{}, max: max} }

// put stores r unless the process is at its cap; a run stored already, or
// one that reserved its slot, always has room (the reservation becomes the
// stored entry). It arms r's expiry.
func (s *store) put(r *run, ttl time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch _, ok := s.runs[r.id]; {
	case r.reserved:
		s.reserved--
		r.reserved = false
	case !ok && len(s.runs)+s.reserved >= s.max:
		return false
	}
	s.runs[r.id] = r
	r.expires = time.Now().Add(ttl)
	if r.timer != nil {
		r.timer.Stop()
	}
	id := r.id
	r.timer = time.AfterFunc(ttl, func() { s.expire(id) })
	return true
}

// reserve takes a slot of the cap for r, which is about to have host work
// resolved inline, unless it holds one already or is stored; it reports
// false when the process is at its cap.
func (s *store) reserve(r *run) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.reserved || (r.id != "" && s.runs[r.id] == r) {
		return true
	}
	if len(s.runs)+s.reserved >= s.max {
		return false
	}
	s.reserved++
	r.reserved = true
	return true
}

func (s *store) expire(id string) {
	s.mu.Lock()
	r, ok := s.runs[id]
	// A run being resumed, or whose TTL a later put extended, stays.
	expired := ok && !r.resuming && !time.Now().Before(r.expires)
	if expired {
		delete(s.runs, id)
	}
	s.mu.Unlock()
	if expired {
		r.bridge.dispose()
		if s.gone != nil {
			s.gone(id, "expired")
		}
	}
}

// sweep removes every expired run (CM-8.30).
func (s *store) sweep() {
	now := time.Now()
	s.removeWhere("expired", func(r *run) bool { return !r.resuming && !now.Before(r.expires) })
}

// acquire checks a wait against the run's scope, in SPEC order, and marks
// the run as being resumed. The message is empty on success.
func (s *store) acquire(id string, sc Scope) (*run, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[id]
	if !ok || !time.Now().Before(r.expires) {
		return nil, MsgRunUnavailable
	}
	if r.scope.AgentRunID != sc.AgentRunID {
		return nil, MsgRunOtherAgentRun
	}
	if r.scope.SessionID != sc.SessionID || r.scope.SessionKey != sc.SessionKey || r.scope.AgentID != sc.AgentID {
		return nil, MsgRunOtherSession
	}
	if r.resuming {
		return nil, MsgRunResuming
	}
	r.resuming = true
	return r, ""
}

// release ends a resume that left the run suspended.
func (s *store) release(r *run) {
	s.mu.Lock()
	r.resuming = false
	s.mu.Unlock()
}

// remove drops r, gives back its reserved slot and cancels its outstanding
// work.
func (s *store) remove(r *run) {
	s.mu.Lock()
	stored := s.runs[r.id] == r && r.id != ""
	if stored {
		delete(s.runs, r.id)
	}
	if r.reserved {
		s.reserved--
		r.reserved = false
	}
	if r.timer != nil {
		r.timer.Stop()
	}
	s.mu.Unlock()
	r.bridge.dispose()
	if stored && s.gone != nil {
		s.gone(r.id, "disposed")
	}
}

// removeWhere drops every run that matches, logging why it went.
func (s *store) removeWhere(why string, match func(*run) bool) int {
	s.mu.Lock()
	var gone []*run
	for id, r := range s.runs {
		if match(r) {
			delete(s.runs, id)
			if r.timer != nil {
				r.timer.Stop()
			}
			gone = append(gone, r)
		}
	}
	s.mu.Unlock()
	for _, r := range gone {
		r.bridge.dispose()
		if s.gone != nil {
			s.gone(r.id, why)
		}
	}
	return len(gone)
}

// markShared records that r is in the shared store, from now: under the
// store's lock, since the sweep that reconciles this process's copies with
// the shared store reads it (Runner.sweepShared).
func (s *store) markShared(r *run) {
	s.mu.Lock()
	r.shared, r.sharedAt = true, time.Now()
	s.mu.Unlock()
}

// has reports whether id is stored and unexpired.
func (s *store) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[id]
	return ok && time.Now().Before(r.expires)
}

// len reports how many runs are suspended.
func (s *store) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs)
}
