package engine

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

func TestPreemptive(t *testing.T) {
	if !testEngine(t).Preemptive() {
		t.Fatalf("the pinned binary's interrupt counter is not at offset %d: the probe failed", interruptCounterOffset)
	}
}

// A loop whose body is one long built-in call reaches QuickJS's own poll
// only every 10000 iterations: with a JSON.parse of about 10 ms per
// iteration, minutes. The preempter makes it poll within milliseconds, so
// the deadline stops it and a garbage collection started meanwhile does not
// wait for it. The bounds are loose (seconds against minutes).
func TestPreemption_LongBuiltinsInALoop(t *testing.T) {
	tests := []struct{ name, src string }{
		{name: "JSON.parse", src: `const s = "[" + "1,".repeat(200000) + "1]"; for (;;) JSON.parse(s)`},
		{name: "JSON.stringify", src: `const a = Array.from({length: 200000}, (_, i) => i); for (;;) JSON.stringify(a)`},
		{name: "default sort", src: `const a = Array.from({length: 300000}, (_, i) => -i); for (;;) a.slice().sort()`},
		{name: "string repeat", src: `for (;;) "ab".repeat(4e6).indexOf("c")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm := showVM(t, Limits{})
			vm.SetDeadline(time.Now().Add(300 * time.Millisecond))
			gcTook := make(chan time.Duration, 1)
			go func() {
				time.Sleep(100 * time.Millisecond)
				start := time.Now()
				runtime.GC()
				gcTook <- time.Since(start)
			}()
			start := time.Now()
			_, err := eval(t, vm, tt.src)
			took := time.Since(start)
			var ge *GuestError
			if !errors.As(err, &ge) || !ge.Interrupted {
				t.Fatalf("eval error = %v, want interrupted by the deadline", err)
			}
			if took > 10*time.Second {
				t.Errorf("the deadline of 300 ms stopped the guest after %v", took)
			}
			if gc := <-gcTook; gc > 5*time.Second {
				t.Errorf("runtime.GC took %v while the guest ran", gc)
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
	for i := 0; i < 3; i++ {
		vm.linear.store32(at, counterInit)
		vm.SetDeadline(time.Now().Add(300 * time.Millisecond))
		gcTook := make(chan time.Duration, 1)
		go func() {
			start := time.Now()
			runtime.GC()
			gcTook <- time.Since(start)
		}()
		_, err := eval(t, vm, `for (;;) "ab".repeat(4e6).indexOf("c")`)
		var ge *GuestError
		if !errors.As(err, &ge) || !ge.Interrupted {
			t.Fatalf("round %d: eval error = %v, want interrupted by the deadline", i, err)
		}
		if gc := <-gcTook; gc > 5*time.Second {
			t.Errorf("round %d: runtime.GC took %v while the guest ran", i, gc)
		}
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
