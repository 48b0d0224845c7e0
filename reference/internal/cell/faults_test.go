package cell

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/google/go-cmp/cmp"
)

// A leakCheck records a runner's resources at rest, so a fault test can
// check that nothing of its workload survives: no stored run, no running
// leg, no VM beyond the warm pool, no goroutine. Counts are polled until
// they settle (up to a bound), never read after a fixed sleep.
type leakCheck struct {
	rn         *Runner
	goroutines int
	// extraVMs counts live VMs that are not in rn's pool, other runners'
	// included; a VM of an earlier test's leg may still be closing (legs
	// close their VM after answering), so fewer later is not a leak.
	extraVMs int
}

func startLeakCheck(t *testing.T, rn *Runner) leakCheck {
	t.Helper()
	// At rest the pool is full and no leg runs.
	settle(t, func() bool { st := rn.Stats(); return st.PooledVMs >= 2 && st.Legs == 0 && !st.Warming })
	st := rn.Stats()
	return leakCheck{rn: rn, goroutines: runtime.NumGoroutine(), extraVMs: st.LiveVMs - st.PooledVMs}
}

func (c leakCheck) verify(t *testing.T) {
	t.Helper()
	var last Stats
	var goroutines int
	deadline := time.Now().Add(15 * time.Second)
	for {
		last, goroutines = c.rn.Stats(), runtime.NumGoroutine()
		if last.Suspended == 0 && last.Legs == 0 && last.LiveVMs-last.PooledVMs <= c.extraVMs &&
			!last.Warming && goroutines <= c.goroutines {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	t.Errorf("leak: %+v (want 0 suspended, 0 legs, at most %d VMs beyond the pool), %d goroutines (want at most %d)\n%s",
		last, c.extraVMs, goroutines, c.goroutines, buf)
}

// TestFault_GuestTrap: a WebAssembly trap while a run resumes (a sealed
// image whose shadow stack pointer is wrecked, as a corrupted VM would have)
// discards the VM and fails the run with runtime_unavailable (CM-17.12);
// the process keeps serving, and the next run works.
func TestFault_GuestTrap(t *testing.T) {
	rn := testRunner(t)
	h := newFakeHost(config.Defaults())
	leaks := startLeakCheck(t, rn)
	scope := Scope{AgentRunID: "r"}
	res := rn.Exec(context.Background(), turnOf(h, scope), "call_1", execArgs(`await yield_control(); return "resumed"`, ""))
	if res.Status != "waiting" {
		t.Fatalf("exec = %+v", res)
	}
	rn.tamper(t, res.RunID, func(r *run) {
		raw, err := engine.Decompress(r.stored.Delta, r.stored.RawSize)
		if err != nil {
			t.Fatal(err)
		}
		binary.LittleEndian.PutUint32(raw[12:], 16) // the stack pointer: the next frame wraps below address 0
		if r.stored.Delta, err = engine.Compress(raw); err != nil {
			t.Fatal(err)
		}
		rn.sealer.seal(r) // the fault is inside the engine, not at rest
	})
	got := waitFor(rn, h, scope, res.RunID)
	if got.Status != "failed" || got.Code != CodeRuntimeUnavailable || !strings.HasPrefix(got.Error, MsgRuntimeUnavailable) {
		t.Errorf("wait over a trapping image = %s %s %q, want failed %s %q...", got.Status, got.Code, got.Error, CodeRuntimeUnavailable, MsgRuntimeUnavailable)
	}
	if rn.Has(res.RunID) {
		t.Error("the trapped run is still stored")
	}
	for i := range 3 {
		if next := rn.Exec(context.Background(), turnOf(h, scope), "call_2", execArgs(`return 6*7`, "")); next.Status != "completed" || string(next.Value) != "42" {
			t.Errorf("exec %d after the trap = %s %s %s", i, next.Status, next.Value, next.Error)
		}
	}
	leaks.verify(t)
}

// TestFault_CapHammer drives the 64-run cap (CM-8.31, CM-8.32) from many
// goroutines at once: execs that suspend, waits that resume, and drops.
// The store never holds more than 64 runs; every exec past the cap fails
// with the exact message and is not stored; every wait either completes
// its own run or finds it gone; nothing leaks.
func TestFault_CapHammer(t *testing.T) {
	rn := testRunner(t)
	s := config.Defaults()
	s.TimeoutMs = 5000
	h := newFakeHost(s)
	leaks := startLeakCheck(t, rn)

	// Fill to the cap deterministically: the 65th suspension is refused.
	full := Scope{AgentRunID: "full"}
	for i := range MaxSuspendedRuns {
		if res := rn.Exec(context.Background(), turnOf(h, full), "call_f", execArgs(`await yield_control(); return 1`, "")); res.Status != "waiting" {
			t.Fatalf("exec %d below the cap = %s %s", i, res.Status, res.Error)
		}
	}
	over := rn.Exec(context.Background(), turnOf(h, full), "call_o", execArgs(`await yield_control(); return 1`, ""))
	want := Result{Status: "failed", Code: CodeInvalidInput, FailurePhase: PhaseBridge, Error: MsgTooManyRuns, BridgeDispatchStarted: true}
	if diff := cmp.Diff(want, payloadOf(over)); diff != "" {
		t.Errorf("exec over the cap mismatch (-want +got):\n%s", diff)
	}
	if rn.Suspended() != MaxSuspendedRuns {
		t.Errorf("%d runs stored at the cap, want %d", rn.Suspended(), MaxSuspendedRuns)
	}
	// A cell without bridge requests needs no slot (CM-8.33).
	if res := rn.Exec(context.Background(), turnOf(h, full), "call_p", execArgs(`return 1`, "")); res.Status != "completed" {
		t.Errorf("plain exec at the cap = %s %s", res.Status, res.Error)
	}
	// Keep most slots taken, so that the concurrent phase runs at the cap:
	// its execs take the last slots, its waits and drops free some.
	rn.Drop(full.AgentRunID)
	base := Scope{AgentRunID: "base"}
	for i := range MaxSuspendedRuns - 8 {
		if res := rn.Exec(context.Background(), turnOf(h, base), "call_f", execArgs(`await yield_control(); return 1`, "")); res.Status != "waiting" {
			t.Fatalf("exec %d below the cap = %s %s", i, res.Status, res.Error)
		}
	}

	workers, iterations := 8, 10
	if testing.Short() {
		workers, iterations = 4, 6
	}
	var (
		stop     atomic.Bool
		maxSeen  atomic.Int64
		refused  atomic.Int64
		resumed  atomic.Int64
		wg       sync.WaitGroup
		sampling sync.WaitGroup
	)
	sampling.Add(1)
	go func() {
		defer sampling.Done()
		for !stop.Load() {
			if n := int64(rn.Suspended()); n > maxSeen.Load() {
				maxSeen.Store(n)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	errs := make(chan string, workers*iterations*2)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scope := Scope{AgentRunID: fmt.Sprintf("agent-%d", w%3)}
			var mine []string
			for i := range iterations {
				res := rn.Exec(context.Background(), turnOf(h, scope), "call_x", execArgs(fmt.Sprintf(`await yield_control(); return %d`, i), ""))
				switch {
				case res.Status == "waiting":
					mine = append(mine, res.RunID)
				case res.Status == "failed" && res.Error == MsgTooManyRuns && res.Code == CodeInvalidInput:
					refused.Add(1)
				default:
					errs <- fmt.Sprintf("exec = %s %s %q", res.Status, res.Code, res.Error)
				}
				// Resume every other run; the rest pile up towards the cap.
				if i%2 == 1 && len(mine) > 0 {
					id := mine[0]
					mine = mine[1:]
					got := waitFor(rn, h, scope, id)
					switch {
					case got.Status == "completed":
						resumed.Add(1)
					case got.Status == "failed" && got.Error == MsgRunUnavailable:
						// dropped by another worker of the same agent run
					default:
						errs <- fmt.Sprintf("wait = %s %s %q", got.Status, got.Code, got.Error)
					}
				}
				if i%6 == 5 {
					rn.Drop(scope.AgentRunID)
					mine = nil
				}
			}
		}()
	}
	wg.Wait()
	stop.Store(true)
	sampling.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if m := maxSeen.Load(); m > MaxSuspendedRuns {
		t.Errorf("the store held %d runs, over the cap of %d", m, MaxSuspendedRuns)
	}
	t.Logf("hammer: %d resumed, %d refused at the cap, at most %d stored", resumed.Load(), refused.Load(), maxSeen.Load())
	if resumed.Load() == 0 || refused.Load() == 0 || maxSeen.Load() != MaxSuspendedRuns {
		t.Error("the hammer did not run at the cap: it must both resume runs and be refused")
	}
	for _, a := range []string{"base", "agent-0", "agent-1", "agent-2"} {
		rn.Drop(a)
	}
	leaks.verify(t)
}

// cancelCountingHost holds every tool call until its context ends and
// counts the calls that were cancelled.
type cancelCountingHost struct {
	*fakeHost
	started   atomic.Int64
	cancelled atomic.Int64
}

func (h *cancelCountingHost) Call(ctx context.Context, _ catalog.Entry, _ json.RawMessage, _ Nested) (ToolResult, error) {
	h.started.Add(1)
	<-ctx.Done()
	h.cancelled.Add(1)
	return ToolResult{}, ctx.Err()
}

// TestFault_TTLExpiryUnderLoad: runs whose TTL passes while other cells
// keep the runner busy are removed by the timer (CM-8.29, CM-8.30) with
// their pending host work cancelled, and a wait for them finds nothing.
func TestFault_TTLExpiryUnderLoad(t *testing.T) {
	rn := testRunner(t)
	s := config.Defaults()
	// The deadline parks each run with its call pending; it is only a
	// bound on reaching that call, which a loaded machine must meet. The
	// runs park at the same time.
	s.TimeoutMs = 2000
	s.SnapshotTTLSeconds = 1
	h := &cancelCountingHost{fakeHost: newFakeHost(s)}
	leaks := startLeakCheck(t, rn)
	scope := Scope{AgentRunID: "ttl"}
	const parked = 24
	ids := make([]string, parked)
	var parking sync.WaitGroup
	for i := range parked {
		parking.Go(func() {
			res := rn.Exec(context.Background(), turnOf(h, scope), fmt.Sprintf("call_t%d", i), execArgs(`return await tools.callValue("openclaw:core:echo", {})`, ""))
			if res.Status != "waiting" || res.Reason != "pending_tools" {
				t.Errorf("exec = %+v, want waiting/pending_tools", res)
			}
			ids[i] = res.RunID
		})
	}
	parking.Wait()
	if t.Failed() {
		t.FailNow()
	}
	// Load: plain cells on two goroutines until every parked run expired.
	var stop atomic.Bool
	var wg sync.WaitGroup
	busy := Scope{AgentRunID: "busy"}
	loaded := s
	loaded.TimeoutMs = 10000 // the load itself must not time out on a busy machine
	plain := newFakeHost(loaded)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if res := rn.Exec(context.Background(), turnOf(plain, busy), "call_b", execArgs(`let x = 0; for (let i = 0; i < 1e4; i++) x += i; return x`, "")); res.Status != "completed" {
					t.Errorf("exec under load = %s %s", res.Status, res.Error)
					return
				}
			}
		}()
	}
	start := time.Now()
	settle(t, func() bool { return rn.Suspended() == 0 })
	stop.Store(true)
	wg.Wait()
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Errorf("runs expired after %v, before their 1 s TTL", d)
	}
	settle(t, func() bool { return h.cancelled.Load() == parked })
	if h.started.Load() != parked {
		t.Errorf("%d tool calls started, want %d", h.started.Load(), parked)
	}
	for _, id := range ids {
		if got := waitFor(rn, h, scope, id); got.Error != MsgRunUnavailable {
			t.Errorf("wait for an expired run = %s %q", got.Status, got.Error)
		}
	}
	leaks.verify(t)
}

// TestFault_AbortMidDrain: an abort while a run drains unawaited host work
// (CM-8.7) ends the call with the abort failure (CM-8.38), disposes of the
// run and cancels the work, in exec and in wait.
func TestFault_AbortMidDrain(t *testing.T) {
	rn := testRunner(t)
	s := config.Defaults()
	s.TimeoutMs = 2000
	h := &cancelCountingHost{fakeHost: newFakeHost(s)}
	leaks := startLeakCheck(t, rn)
	scope := Scope{AgentRunID: "abort"}
	// The top-level promise settles at once; the call it did not await
	// keeps the run draining.
	const drain = `tools.callValue("openclaw:core:echo", {}); text("settled"); return 1`
	aborted := Result{Status: "failed", Code: CodeTimeout, FailurePhase: PhaseBridge, Error: MsgAborted, BridgeDispatchStarted: true}

	t.Run("exec", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		res := rn.Exec(ctx, turnOf(h, scope), "call_a", execArgs(drain, ""))
		got := payloadOf(res)
		got.Output = nil
		if diff := cmp.Diff(aborted, got); diff != "" {
			t.Errorf("exec aborted mid-drain mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("wait", func(t *testing.T) {
		// The wait's host-work window (timeoutMs less resumeMin, 750 ms)
		// must outlast the abort at 100 ms: with 200 ms the two raced.
		short := s
		short.TimeoutMs = 1000
		parkHost := &cancelCountingHost{fakeHost: newFakeHost(short)}
		res := rn.Exec(context.Background(), turnOf(parkHost, scope), "call_b", execArgs(drain, ""))
		if res.Status != "waiting" {
			t.Fatalf("exec = %+v, want waiting", res)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		got := payloadOf(rn.Wait(ctx, turnOf(parkHost, scope), "call_w", json.RawMessage(mustJSON(map[string]string{"runId": res.RunID}))))
		want := aborted
		want.FailurePhase = PhaseBridge
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("wait aborted mid-drain mismatch (-want +got):\n%s", diff)
		}
		if rn.Has(res.RunID) {
			t.Error("the aborted run is still stored")
		}
		settle(t, func() bool { return parkHost.cancelled.Load() == 1 })
	})
	settle(t, func() bool { return h.cancelled.Load() == 1 })
	leaks.verify(t)
}
