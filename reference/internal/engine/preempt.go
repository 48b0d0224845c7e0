package engine

import (
	"context"
	"sync"
	"time"
)

// QuickJS polls the interrupt handler when ctx->interrupt_counter, which
// every back-edge and call decrements, reaches zero; the poll resets it to
// 10000. Counting is not timing: 10000 iterations of a loop whose body is a
// long built-in (JSON.parse of a 4 MB text) take minutes, and compiled wasm
// is not preemptible by the Go runtime, so a garbage collection started
// meanwhile stops every goroutine of the process until the guest polls
// (SECURITY.md measured 27 s, and a loop that never recovered).
//
// The preempter bounds that time instead of the count: while a VM runs guest
// code, a timer stores 1 into its counter every preemptInterval, so the
// guest polls at its next back-edge or call, at most one interval plus one
// built-in call later. The poll is a Go host function call, hence a
// safepoint, and checks the deadline and abort flag as before. A guest that
// is already polling often is not slowed: one extra poll per interval.
//
// The timer alone leaves a window: a poll resets the counter to 10000, and
// a collection that starts before the next poke stops the timer too. So the
// poll itself paces the next one (VM.pace): when the last period was slow
// (half an interval or more), the counter is set to 1 and the guest polls
// at every count until its counts are fast again; fast periods double it
// back, up to maxPaced, never to QuickJS's 10000. A loop of long built-ins
// then polls every iteration without help, and a guest whose counts turn
// slow right after a run of fast polls, just as a collection stops the
// timer, runs at most maxPaced slow counts before it polls (with 10000 a
// JSON.stringify loop held a collection for 56 s in CI). What is left
// (maxPaced built-in calls then, and always the one in progress) is closed
// by Options.StrictPreemption, at a cost: wazero's termination checks on
// every wasm loop, 3-4x slower compute (engine-probe.md).

// interruptCounterOffset is the offset of interrupt_counter in JSContext in
// the pinned quickjs-wasi build (QuickJS-NG). New verifies it on every
// binary it loads (probePreemption) and leaves preemption off where it does
// not hold.
const interruptCounterOffset = 292

// counterInit is QuickJS's JS_INTERRUPT_COUNTER_INIT, the count a poll
// resets the counter to.
const counterInit = 10000

// maxPaced is the largest count pace gives a guest between polls, hence
// the most calls of a long built-in a collection can wait for. A poll is a
// host function call: measured side by side (BenchmarkPacing), the whole
// preempter costs a tight loop and fib(22) about 2% against QuickJS's own
// poll every 10000 counts; a ceiling of 64 cost 4%, one of 32 10%, and
// reading a tick count instead of the clock in each poll saved nothing.
const maxPaced = 128

// preemptInterval is the longest time a running guest goes between polls,
// plus the duration of one built-in call.
const preemptInterval = 2 * time.Millisecond

// preempter pokes the interrupt counters of the VMs that are running guest
// code. Its timer is armed only while at least one is.
type preempter struct {
	enabled bool // set by New before the engine is shared, then read-only

	mu      sync.Mutex
	running map[*VM]struct{}
	timer   *time.Timer
	armed   bool
}

func newPreempter() *preempter {
	p := &preempter{running: map[*VM]struct{}{}}
	p.timer = time.AfterFunc(time.Hour, p.tick)
	p.timer.Stop()
	return p
}

// start registers vm as running guest code. The counter is set to 1 so
// that the guest polls at its first back-edge or call and the pacing starts
// from what the guest does now: the count left by an earlier call can be up
// to 10000, and a collection that starts before the timer's first poke
// would wait for all of it (seen: a loop of 8 MB string builds that held
// the process for 18 minutes).
func (p *preempter) start(vm *VM) {
	if !p.enabled {
		return
	}
	vm.lastPoll = time.Now().UnixNano()
	vm.paced = 1
	if vm.ctxPtr != 0 && vm.linear != nil {
		vm.linear.store32(vm.ctxPtr+interruptCounterOffset, 1)
	}
	p.mu.Lock()
	{
		p.running[vm] = struct{}{}
		if !p.armed {
			p.armed = true
			p.timer.Reset(preemptInterval)
		}
	}
	p.mu.Unlock()
}

// stop unregisters vm. The timer disarms itself at its next tick.
func (p *preempter) stop(vm *VM) {
	p.mu.Lock()
	delete(p.running, vm)
	p.mu.Unlock()
}

func (p *preempter) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for vm := range p.running {
		if vm.ctxPtr != 0 && vm.linear != nil {
			vm.linear.store32(vm.ctxPtr+interruptCounterOffset, 1)
		}
	}
	if len(p.running) == 0 {
		p.armed = false
		return
	}
	p.timer.Reset(preemptInterval)
}

// probePreemption checks on a scratch VM that interruptCounterOffset holds
// the interrupt counter of the loaded binary: a counter set to 1000 must
// drop by a few per loop iteration. It enables the preempter if so. A Go
// error means the binary could not run the probe at all.
func (e *Engine) probePreemption(ctx context.Context) error {
	vm, err := e.NewVM(ctx, Limits{})
	if err != nil {
		return err
	}
	defer vm.Close()
	at := vm.ctxPtr + interruptCounterOffset
	if !vm.linear.store32(at, 1000) {
		return nil
	}
	if err := vm.Eval("for (let i = 0; i < 10; i++) {}", "<preemption probe>"); err != nil {
		return err
	}
	left, ok := vm.mem.ReadUint32Le(at)
	e.preempt.enabled = ok && left >= 1000-100 && left <= 1000-10
	return nil
}

// pace runs in every poll, on the VM's goroutine, after QuickJS reset the
// counter to 10000. A slow last period (half an interval or more) sets it
// to 1; each fast one doubles it back towards maxPaced. One fast period is
// not enough to trust: in `for (;;) JSON.parse(s)` the poll at the call
// follows the poll at the loop's back-edge immediately, and the parse comes
// next.
func (vm *VM) pace(now int64) {
	last := vm.lastPoll
	vm.lastPoll = now
	next := uint32(maxPaced)
	if now-last >= int64(preemptInterval/2) {
		next = 1
	} else if vm.paced < maxPaced/2 {
		next = 2 * vm.paced
	}
	vm.paced = next
	if vm.linear != nil {
		vm.linear.store32(vm.ctxPtr+interruptCounterOffset, next)
	}
}
