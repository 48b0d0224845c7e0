package cell

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/sandbox"
	"github.com/google/go-cmp/cmp"
)

// envelope is what a stored run keeps of its snapshot at rest: the sealed
// guest half and the seal.
type envelope struct {
	stored sandbox.Stored
	seal   []byte
}

func cloneStored(s sandbox.Stored) sandbox.Stored {
	s.Delta, s.Rejections = bytes.Clone(s.Delta), bytes.Clone(s.Rejections)
	return s
}

func (rn *Runner) envelopeOf(t *testing.T, id string) envelope {
	t.Helper()
	rn.store.mu.Lock()
	defer rn.store.mu.Unlock()
	r, ok := rn.store.runs[id]
	if !ok {
		t.Fatalf("run %s is not stored", id)
	}
	return envelope{cloneStored(r.stored), bytes.Clone(r.seal)}
}

// tamper changes the stored run id under the store's lock.
func (rn *Runner) tamper(t *testing.T, id string, f func(r *run)) {
	t.Helper()
	rn.store.mu.Lock()
	defer rn.store.mu.Unlock()
	r, ok := rn.store.runs[id]
	if !ok {
		t.Fatalf("run %s is not stored", id)
	}
	f(r)
}

func (e envelope) install(r *run) {
	r.stored, r.seal = cloneStored(e.stored), bytes.Clone(e.seal)
}

// refused is the payload of a wait whose snapshot fails its seal (CM-18.19).
var refused = Result{Status: "failed", Code: CodeInvalidInput, FailurePhase: PhaseInput, Error: MsgRunUnavailable}

// payloadOf keeps the payload members of r that tests compare; an empty
// output reads as nil.
func payloadOf(r Result) Result {
	if len(r.Output) == 0 {
		r.Output = nil
	}
	return Result{Status: r.Status, Code: r.Code, FailurePhase: r.FailurePhase, Error: r.Error,
		BridgeDispatchStarted: r.BridgeDispatchStarted, Output: r.Output, ReplaySafe: r.ReplaySafe, Value: r.Value}
}

func waitFor(rn *Runner, h testHost, scope Scope, id string) Result {
	args, _ := json.Marshal(map[string]string{"runId": id})
	return rn.Wait(context.Background(), turnOf(h, scope), "call_w", args)
}

// The program suspends twice; every resume past the first yield calls the
// echo tool, so a resumed snapshot shows in the host's call count.
const twoYields = `text("start"); await yield_control("one"); await tools.callValue("openclaw:core:echo", {n: 1}); await yield_control("two"); await tools.callValue("openclaw:core:echo", {n: 2}); return "resumed"`

// TestWait_SealRefusesTampering covers every kind of snapshot tampering of
// CM-18.19 at the store: each fails wait with invalid_input, never resumes
// (no tool call past the yield), disposes of the run, and leaves the other
// runs of the process alone.
func TestWait_SealRefusesTampering(t *testing.T) {
	scope := Scope{AgentRunID: "r", SessionID: "s1", SessionKey: "agent:main:main", AgentID: "main"}
	other := Scope{AgentRunID: "r", SessionID: "s2", SessionKey: "agent:main:other", AgentID: "main"}
	tests := []struct {
		name string
		// attack changes the runner after victim (and bystander, another
		// run of the same scope) suspended once; it returns the run id and
		// scope the attacker's wait uses.
		attack func(t *testing.T, rn *Runner, h *fakeHost, victim, bystander string) (string, Scope)
	}{
		{name: "flipped snapshot bit", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) {
				r.stored.Delta = bytes.Clone(r.stored.Delta)
				r.stored.Delta[len(r.stored.Delta)/2] ^= 0x01
			})
			return victim, scope
		}},
		{name: "truncated snapshot", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) { r.stored.Delta = bytes.Clone(r.stored.Delta[:len(r.stored.Delta)-1]) })
			return victim, scope
		}},
		{name: "changed raw size", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) { r.stored.RawSize += 65536 })
			return victim, scope
		}},
		{name: "changed controller handle", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) { r.stored.Control += 8 })
			return victim, scope
		}},
		{name: "injected unhandled rejection", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) {
				// One forged unhandled rejection: a promise at 8, its reason box at 16.
				r.stored.Rejections = []byte{2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0}
			})
			return victim, scope
		}},
		{name: "forged seal", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) { r.seal = bytes.Clone(r.seal); r.seal[0] ^= 0x80 })
			return victim, scope
		}},
		{name: "missing seal", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) { r.seal = nil })
			return victim, scope
		}},
		{name: "swapped: another run's sealed snapshot under this run id", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, bystander string) (string, Scope) {
			e := rn.envelopeOf(t, bystander)
			rn.tamper(t, victim, e.install)
			return victim, scope
		}},
		{name: "relabelled to another session", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.tamper(t, victim, func(r *run) { r.scope = other })
			return victim, other
		}},
		{name: "relabelled to another run id", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			const forged = "cm_00000000-0000-4000-8000-000000000000"
			rn.store.mu.Lock()
			r := rn.store.runs[victim]
			delete(rn.store.runs, victim)
			r.id = forged
			rn.store.runs[forged] = r
			rn.store.mu.Unlock()
			return forged, scope
		}},
		{name: "replayed: an older snapshot of the same run after it moved on", attack: func(t *testing.T, rn *Runner, h *fakeHost, victim, _ string) (string, Scope) {
			old := rn.envelopeOf(t, victim)
			moved := waitFor(rn, h, scope, victim)
			if moved.Status != "waiting" || moved.Reason != "yield" {
				t.Fatalf("first wait = %+v, want waiting/yield", moved)
			}
			rn.tamper(t, victim, old.install)
			return victim, scope
		}},
		{name: "foreign process key", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			rn.sealer = newSealer(rn.guests.Digest()) // same binary, another process's key
			return victim, scope
		}},
		{name: "foreign engine binary", attack: func(t *testing.T, rn *Runner, _ *fakeHost, victim, _ string) (string, Scope) {
			digest := rn.guests.Digest()
			digest[31] ^= 0xff
			rn.sealer = &sealer{key: rn.sealer.key, digest: digest}
			return victim, scope
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rn := testRunner(t)
			h := newFakeHost(config.Defaults())
			args, _ := json.Marshal(map[string]string{"code": twoYields})
			suspend := func() string {
				res := rn.Exec(context.Background(), turnOf(h, scope), "call_x", args)
				if res.Status != "waiting" {
					t.Fatalf("exec = %s %s %s", res.Status, res.Code, res.Error)
				}
				return res.RunID
			}
			victim, bystander := suspend(), suspend()
			id, sc := tt.attack(t, rn, h, victim, bystander)
			h.mu.Lock()
			callsBefore := h.calls
			h.mu.Unlock()

			got := waitFor(rn, h, sc, id)
			if diff := cmp.Diff(refused, payloadOf(got)); diff != "" {
				t.Errorf("wait on a tampered snapshot mismatch (-want +got):\n%s", diff)
			}
			h.mu.Lock()
			if h.calls != callsBefore {
				t.Errorf("the tampered run resumed: %d tool calls after the wait, want %d", h.calls, callsBefore)
			}
			h.mu.Unlock()
			if rn.Has(id) || rn.Has(victim) {
				t.Errorf("the tampered run is still stored")
			}
			if again := waitFor(rn, h, sc, id); again.Error != MsgRunUnavailable {
				t.Errorf("second wait = %q, want %q", again.Error, MsgRunUnavailable)
			}
			// The bystander is untouched unless the attack replaced the
			// process's key or binary, which invalidates every seal.
			want := "waiting"
			if tt.name == "foreign process key" || tt.name == "foreign engine binary" {
				want = "failed"
			}
			if res := waitFor(rn, h, scope, bystander); res.Status != want {
				t.Errorf("wait on the bystander = %s %s, want %s", res.Status, res.Error, want)
			}
			rn.Drop(scope.AgentRunID)
			if n := rn.Suspended(); n != 0 {
				t.Errorf("%d runs still suspended", n)
			}
		})
	}
}

// TestWait_SealIntactResumesEveryGeneration: the seal moves with the run,
// so an untouched run resumes through every suspension.
func TestWait_SealIntactResumesEveryGeneration(t *testing.T) {
	rn := testRunner(t)
	h := newFakeHost(config.Defaults())
	scope := Scope{AgentRunID: "r"}
	args, _ := json.Marshal(map[string]string{"code": twoYields})
	res := rn.Exec(context.Background(), turnOf(h, scope), "call_x", args)
	var gens []uint64
	for res.Status == "waiting" {
		rn.store.mu.Lock()
		gens = append(gens, rn.store.runs[res.RunID].generation)
		rn.store.mu.Unlock()
		res = waitFor(rn, h, scope, res.RunID)
	}
	if res.Status != "completed" || string(res.Value) != `"resumed"` {
		t.Fatalf("final result = %s %s %s", res.Status, res.Value, res.Error)
	}
	if diff := cmp.Diff([]uint64{1, 2}, gens); diff != "" {
		t.Errorf("seal generations mismatch (-want +got):\n%s", diff)
	}
}

// gatedHost holds every tool call until gate is closed.
type gatedHost struct {
	*fakeHost
	gate chan struct{}
}

func (h *gatedHost) Call(ctx context.Context, e catalog.Entry, input json.RawMessage, n Nested) (ToolResult, error) {
	select {
	case <-h.gate:
	case <-ctx.Done():
		return ToolResult{}, ctx.Err()
	}
	return h.fakeHost.Call(ctx, e, input, n)
}

// TestWait_SealCheckedAgainBeforeRestore: a snapshot altered after an
// admitted wait passed the first check, while it waits for host work, is
// refused when the run becomes ready, not restored.
func TestWait_SealCheckedAgainBeforeRestore(t *testing.T) {
	rn := testRunner(t)
	s := config.Defaults()
	s.TimeoutMs = 1000
	h := &gatedHost{fakeHost: newFakeHost(s), gate: make(chan struct{})}
	scope := Scope{AgentRunID: "r"}
	args, _ := json.Marshal(map[string]string{"code": `const v = await tools.callValue("openclaw:core:echo", {a: 1}); await tools.callValue("openclaw:core:echo", {b: 2}); return v`})
	res := rn.Exec(context.Background(), turnOf(h, scope), "call_x", args)
	if res.Status != "waiting" || res.Reason != "pending_tools" {
		t.Fatalf("exec = %+v, want waiting/pending_tools", res)
	}
	// The hook runs on the wait's goroutine between admission and restore.
	testHookWaitAdmitted = func() {
		testHookWaitAdmitted = nil
		rn.tamper(t, res.RunID, func(r *run) {
			if !r.resuming {
				t.Error("the hook ran before the wait admitted the run")
			}
			r.stored.Delta = bytes.Clone(r.stored.Delta)
			r.stored.Delta[len(r.stored.Delta)-1] ^= 0x01
		})
		close(h.gate) // the tool ends: the run becomes ready
	}
	t.Cleanup(func() { testHookWaitAdmitted = nil })
	got := waitFor(rn, h, scope, res.RunID)
	if diff := cmp.Diff(refused, payloadOf(got)); diff != "" {
		t.Errorf("wait mismatch (-want +got):\n%s", diff)
	}
	h.mu.Lock()
	if h.calls != 1 {
		t.Errorf("%d tool calls, want 1: the second call would mean the run resumed", h.calls)
	}
	h.mu.Unlock()
	if rn.Suspended() != 0 {
		t.Errorf("%d runs still suspended", rn.Suspended())
	}
}

// FuzzSeal changes one byte of a sealed run's snapshot, seal or identity,
// chosen by the fuzzer: the seal verifies exactly when nothing changed.
func FuzzSeal(f *testing.F) {
	f.Add(uint8(0), uint32(0), uint8(1))
	f.Add(uint8(1), uint32(5), uint8(0x80))
	f.Add(uint8(2), uint32(3), uint8(1))
	f.Add(uint8(7), uint32(100), uint8(0))
	var digest [32]byte
	digest[0] = 1
	s := newSealer(digest)
	mk := func() *run {
		return &run{id: "cm_1", scope: Scope{AgentRunID: "r", SessionID: "s", SessionKey: "k", AgentID: "a"},
			stored: sandbox.Stored{Delta: []byte("QJSD-compressed-image-bytes"), RawSize: 1 << 20, Control: 40,
				Rejections: []byte("rejection-table")}}
	}
	base := mk()
	s.seal(base)
	f.Fuzz(func(t *testing.T, field uint8, at uint32, xor uint8) {
		r := mk()
		r.generation, r.seal = base.generation, bytes.Clone(base.seal)
		r.stored = cloneStored(r.stored)
		flip := func(b string) string {
			if len(b) == 0 {
				return string([]byte{xor})
			}
			x := []byte(b)
			x[int(at)%len(x)] ^= xor
			return string(x)
		}
		switch field % 11 {
		case 0:
			r.stored.Delta[int(at)%len(r.stored.Delta)] ^= xor
		case 1:
			r.seal[int(at)%len(r.seal)] ^= xor
		case 2:
			r.id = flip(r.id)
		case 3:
			r.scope.AgentRunID = flip(r.scope.AgentRunID)
		case 4:
			r.scope.SessionID = flip(r.scope.SessionID)
		case 5:
			r.scope.SessionKey = flip(r.scope.SessionKey)
		case 6:
			r.scope.AgentID = flip(r.scope.AgentID)
		case 7:
			r.stored.RawSize ^= int(xor)
		case 8:
			r.stored.Control ^= uint32(xor)
		case 9:
			r.generation ^= uint64(xor)
		case 10:
			r.stored.Rejections[int(at)%len(r.stored.Rejections)] ^= xor
		}
		b, g := base.stored, r.stored
		changed := !bytes.Equal(g.Delta, b.Delta) || !bytes.Equal(g.Rejections, b.Rejections) || !bytes.Equal(r.seal, base.seal) ||
			r.id != base.id || r.scope != base.scope || g.RawSize != b.RawSize || g.Control != b.Control || r.generation != base.generation
		if got := s.verify(r); got == changed {
			t.Errorf("verify after changing field %d at %d by %#x = %v, want %v", field%11, at, xor, got, !changed)
		}
	})
}
