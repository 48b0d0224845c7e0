package engine

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"testing"
	"time"
)

func TestPreemptive(t *testing.T) {
	if !testEngine(t).Preemptive() {
		t.Fatalf("the pinned binary's interrupt counter is not at offset %d: the probe failed", interruptCounterOffset)
	}
}

// holdBound is the longest a collection may wait for a guest that loops
// over body: 128 calls of it (maxPaced as designed, written out so that
// raising maxPaced fails here; a call is at least one count) and a second
// for the rest, with each call allowed twice the time it took when timed:
// one call is timed on vm, the slowest of three, so the bound follows the
// machine's speed, but load can change between the timing and the run (a
// make test on two cores once doubled it). With QuickJS's count of 10000
// the waits were 5-15 times even this bound.
func holdBound(t *testing.T, vm *VM, body string) time.Duration {
	t.Helper()
	var slowest time.Duration
	for i := 0; i < 3; i++ {
		start := time.Now()
		if _, err := eval(t, vm, body); err != nil {
			t.Fatalf("timing %s: %v", body, err)
		}
		slowest = max(slowest, time.Since(start))
	}
	return 2*128*slowest + time.Second
}

// gcDuring runs a collection on another goroutine after delay, sends how
// long it took, then calls then if it is not nil.
func gcDuring(delay time.Duration, then func()) <-chan time.Duration {
	took := make(chan time.Duration, 1)
	go func() {
		time.Sleep(delay)
		start := time.Now()
		runtime.GC()
		took <- time.Since(start)
		if then != nil {
			then()
		}
	}()
	return took
}

// A loop whose body is one long built-in call reaches QuickJS's own poll
// only every 10000 iterations: with a JSON.parse of about 10 ms per
// iteration, minutes. The preempter makes it poll within milliseconds, so
// the deadline stops it and a garbage collection started meanwhile does not
// wait for it. The setup runs in the same call, so the guest turns from
// fast counts to slow ones there.
func TestPreemption_LongBuiltinsInALoop(t *testing.T) {
	tests := []struct{ name, setup, body string }{
		{name: "JSON.parse", setup: `globalThis.s = "[" + "1,".repeat(200000) + "1]"`, body: `JSON.parse(s)`},
		{name: "JSON.stringify", setup: `globalThis.a = Array.from({length: 200000}, (_, i) => i)`, body: `JSON.stringify(a)`},
		{name: "default sort", setup: `globalThis.a = Array.from({length: 300000}, (_, i) => -i)`, body: `a.slice().sort()`},
		{name: "string repeat", setup: `0`, body: `"ab".repeat(4e6).indexOf("c")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm := showVM(t, Limits{})
			if _, err := eval(t, vm, tt.setup); err != nil {
				t.Fatal(err)
			}
			bound := holdBound(t, vm, tt.body)
			const deadline = 300 * time.Millisecond
			vm.SetDeadline(time.Now().Add(deadline))
			gcTook := gcDuring(100*time.Millisecond, nil)
			start := time.Now()
			_, err := eval(t, vm, tt.setup+"; for (;;) "+tt.body)
			took := time.Since(start)
			var ge *GuestError
			if !errors.As(err, &ge) || !ge.Interrupted {
				t.Fatalf("eval error = %v, want interrupted by the deadline", err)
			}
			if took > deadline+bound {
				t.Errorf("the deadline of %v stopped the guest after %v (bound %v)", deadline, took, bound)
			}
			if gc := <-gcTook; gc > bound {
				t.Errorf("runtime.GC took %v while the guest ran (bound %v)", gc, bound)
			}
		})
	}
}

// A guest call starts with its interrupt counter at 1, whatever count an
// earlier call left: before that, a collection that started within the
// timer's first interval waited for up to 10000 long built-ins (a loop of
// 8 MB string builds held the process for 18 minutes, and did so in three
// runs out of four). Here the leftover count is forced to 10000 and the
// collection is requested as the loop starts.
func TestPreemption_StartPollsAtOnce(t *testing.T) {
	e := testEngine(t)
	vm := showVM(t, Limits{})
	at := vm.ctxPtr + interruptCounterOffset
	vm.linear.store32(at, counterInit)
	e.preempt.start(vm)
	got, _ := vm.mem.ReadUint32Le(at)
	e.preempt.stop(vm)
	if got != 1 {
		t.Fatalf("interrupt counter after start = %d, want 1", got)
	}
	const body = `"ab".repeat(4e6).indexOf("c")`
	bound := holdBound(t, vm, body)
	for i := 0; i < 3; i++ {
		vm.linear.store32(at, counterInit)
		vm.SetDeadline(time.Now().Add(300 * time.Millisecond))
		gcTook := gcDuring(0, nil)
		_, err := eval(t, vm, `for (;;) `+body)
		var ge *GuestError
		if !errors.As(err, &ge) || !ge.Interrupted {
			t.Fatalf("round %d: eval error = %v, want interrupted by the deadline", i, err)
		}
		if gc := <-gcTook; gc > bound {
			t.Errorf("round %d: runtime.GC took %v while the guest ran (bound %v)", i, gc, bound)
		}
	}
}

// A guest whose counts turn slow right after a run of fast ones, just as a
// collection starts: the collection stops the timer, so only the count the
// pacing left decides how long it waits. go() marks the turn: it takes the
// VM off the timer's list, as a stopped timer would leave it, starts a
// collection, and sets a deadline that has already passed, so the guest's
// next poll ends the eval. The guest counts its slow
// calls in k, and the bound is on that count, maxPaced, not on a time: the
// time of a call varies with the machine's load, the count does not. With
// QuickJS's count of 10000 as the pacing's ceiling the guest made thousands
// of calls before it polled (a collection waited 37 s to 3 min under -race).
func TestPreemption_FastThenSlow(t *testing.T) {
	e := testEngine(t)
	for i := 0; i < 3; i++ {
		vm := showVM(t, Limits{})
		if _, err := eval(t, vm, `globalThis.a = Array.from({length: 20000}, (_, i) => i); globalThis.k = 0`); err != nil {
			t.Fatal(err)
		}
		var gcTook <-chan time.Duration
		var pacedAtTurn uint32
		vm.Bind("go", func(*HostCall) (any, error) {
			pacedAtTurn = vm.paced
			e.preempt.mu.Lock()
			delete(e.preempt.running, vm)
			e.preempt.mu.Unlock()
			gcTook = gcDuring(0, nil)
			vm.SetDeadline(time.Now())
			return nil, nil
		})
		if err := vm.DefineHostFunction("go", "go", 0); err != nil {
			t.Fatal(err)
		}
		vm.SetDeadline(time.Now().Add(time.Minute)) // until go() sets the real one
		_, err := eval(t, vm, `let n = 0; for (let i = 0; i < 300000; i++) n += i;
			globalThis.go();
			for (;;) { JSON.stringify(a); k++ }`)
		var ge *GuestError
		if !errors.As(err, &ge) || !ge.Interrupted {
			t.Fatalf("round %d: eval error = %v, want interrupted by the deadline", i, err)
		}
		if gcTook == nil {
			t.Fatalf("round %d: the guest was interrupted before it called go()", i)
		}
		vm.ClearInterrupts()
		shown, err := eval(t, vm, `k`)
		if err != nil {
			t.Fatal(err)
		}
		calls, err := strconv.Atoi(shown)
		if err != nil || calls > maxPaced {
			t.Errorf("round %d: the guest made %s slow calls before it polled, want at most %d", i, shown, maxPaced)
		}
		t.Logf("round %d: count at the turn %d, %s slow calls, runtime.GC took %v", i, pacedAtTurn, shown, <-gcTook)
	}
}

// A VM that is not running guest code is not poked, and the timer disarms
// once no VM runs.
func TestPreemption_OnlyWhileRunning(t *testing.T) {
	e := testEngine(t)
	vm := showVM(t, Limits{})
	if _, err := eval(t, vm, `let n = 0; for (let i = 0; i < 3e6; i++) n += i; n`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.preempt.mu.Lock()
		running, armed := len(e.preempt.running), e.preempt.armed
		e.preempt.mu.Unlock()
		if running == 0 && !armed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the eval: %d VMs registered, timer armed %v", running, armed)
		}
		time.Sleep(preemptInterval)
	}
}

// One built-in call is the bound left by the default engine: a garbage
// collection waits for the rest of a long JSON.parse. StrictPreemption
// removes it (wazero's termination checks are safepoints).
func TestPreemption_StrictInsideABuiltin(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a second engine")
	}
	strict, err := New(context.Background(), Options{StrictPreemption: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = strict.Close(context.Background()) })
	const src = `const s = "[" + "1,".repeat(3e6) + "1]"; globalThis.go(); JSON.parse(s).length`
	measure := func(e *Engine) (parse, gc time.Duration) {
		vm, err := e.NewVM(context.Background(), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		defer vm.Close()
		started := make(chan struct{})
		gcTook := make(chan time.Duration, 1)
		vm.Bind("go", func(*HostCall) (any, error) {
			close(started)
			return nil, nil
		})
		if err := vm.DefineHostFunction("go", "go", 0); err != nil {
			t.Fatal(err)
		}
		go func() {
			<-started
			time.Sleep(20 * time.Millisecond)
			s := time.Now()
			runtime.GC()
			gcTook <- time.Since(s)
		}()
		s := time.Now()
		if err := vm.Eval(src, "parse.js"); err != nil {
			t.Fatal(err)
		}
		return time.Since(s), <-gcTook
	}
	parse, gc := measure(testEngine(t))
	t.Logf("default engine: parse %v, GC during it %v", parse, gc)
	sparse, sgc := measure(strict)
	t.Logf("strict engine: parse %v, GC during it %v", sparse, sgc)
	if sgc > sparse/4 {
		t.Errorf("strict engine: GC took %v during a parse of %v: it waited for the built-in", sgc, sparse)
	}
}
