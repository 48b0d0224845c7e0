package cell

import (
	"sync"
	"time"
)

// workerIdle is how long a leg's goroutine waits for the next leg before
// it ends.
const workerIdle = time.Second

// workers runs legs on goroutines kept from earlier legs. A new goroutine
// starts with a small stack, and a leg grows it several times (wazero's
// calls and the host functions under them are deep), each time copying it
// with the stack maps of every frame. A kept goroutine has its grown
// stack, until a garbage collection shrinks it: a trivial cell answers 2-4 %
// sooner (reference/BENCHMARKS.md).
type workers struct {
	idle   chan func() // unbuffered: a send succeeds only to a waiting worker
	closed chan struct{}
	once   sync.Once
}

func newWorkers() *workers {
	return &workers{idle: make(chan func()), closed: make(chan struct{})}
}

// run runs f on an idle worker, or on a new one.
func (w *workers) run(f func()) {
	select {
	case w.idle <- f:
	default:
		go w.loop(f)
	}
}

func (w *workers) loop(f func()) {
	t := time.NewTimer(workerIdle)
	defer t.Stop()
	for {
		f()
		t.Reset(workerIdle)
		select {
		case f = <-w.idle:
		case <-t.C:
			return
		case <-w.closed:
			return
		}
	}
}

// close ends the idle workers; busy ones end after their leg.
func (w *workers) close() { w.once.Do(func() { close(w.closed) }) }
