package cell

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkers_reuse: a worker that ran a leg waits for the next one, and
// close ends it.
func TestWorkers_reuse(t *testing.T) {
	w := newWorkers()
	done := make(chan struct{})
	w.run(func() { close(done) })
	<-done
	// The worker is idle now, or about to be: a direct send reaches it.
	reused := make(chan struct{})
	deadline := time.Now().Add(5 * time.Second)
	for sent := false; !sent; {
		select {
		case w.idle <- func() { close(reused) }:
			sent = true
		default:
			if time.Now().After(deadline) {
				t.Fatal("no idle worker took a leg after the first one ended")
			}
			time.Sleep(time.Millisecond)
		}
	}
	<-reused
	w.close()
	w.close() // twice is fine
	// After close no worker waits, and run still runs legs (on new ones).
	ran := make(chan struct{})
	w.run(func() { close(ran) })
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("run after close did not run the leg")
	}
}

// TestWorkers_hammer: legs run from many goroutines at once all run, once.
func TestWorkers_hammer(t *testing.T) {
	w := newWorkers()
	defer w.close()
	var n atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var legs sync.WaitGroup
			for i := 0; i < 200; i++ {
				legs.Add(1)
				w.run(func() { n.Add(1); legs.Done() })
			}
			legs.Wait()
		}()
	}
	wg.Wait()
	if got := n.Load(); got != 8*200 {
		t.Fatalf("%d legs ran, want %d", got, 8*200)
	}
}
