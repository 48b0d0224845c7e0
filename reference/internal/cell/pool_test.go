package cell

import (
	"context"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/engine"
)

// readyCount waits (bounded) until no refill is at work and returns how
// many VMs the pool holds.
func readyCount(t *testing.T, p *pool) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		filling, n := p.filling, len(p.ready)
		p.mu.Unlock()
		if !filling {
			return n
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the pool never finished filling")
	return 0
}

// TestPool: the pool fills to poolSize at start; get never starts a
// replacement (the runner refills after the cell); refill tops it up to
// poolSize again; after close nothing is filled and nothing is left.
func TestPool(t *testing.T) {
	eng, err := engine.Shared(context.Background(), engine.Options{})
	if err != nil {
		t.Fatalf("engine unavailable (run `npm ci` in reference/): %v", err)
	}
	p := newPool(eng)
	if got := readyCount(t, p); got != poolSize {
		t.Fatalf("after start: %d ready VMs, want %d", got, poolSize)
	}
	var taken []pooled
	for i := 0; i < poolSize+1; i++ { // the last one is made inline
		pv, err := p.get()
		if err != nil {
			t.Fatal(err)
		}
		taken = append(taken, pv)
	}
	if got := readyCount(t, p); got != 0 {
		t.Errorf("after %d gets: %d ready VMs, want 0 (get must not refill)", poolSize+1, got)
	}
	p.refill()
	if got := readyCount(t, p); got != poolSize {
		t.Errorf("after refill: %d ready VMs, want %d", got, poolSize)
	}
	p.close()
	p.refill()
	if got := readyCount(t, p); got != 0 {
		t.Errorf("after close: %d ready VMs, want 0", got)
	}
	for _, pv := range taken {
		pv.vm.Close()
	}
}

// TestPool_refillHammer: many concurrent refills and gets never leave more
// than poolSize VMs ready, and never run two fillers at once.
func TestPool_refillHammer(t *testing.T) {
	eng, err := engine.Shared(context.Background(), engine.Options{})
	if err != nil {
		t.Fatalf("engine unavailable (run `npm ci` in reference/): %v", err)
	}
	p := newPool(eng)
	defer p.close()
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 5; i++ {
				p.refill()
				pv, err := p.get()
				if err != nil {
					t.Error(err)
					return
				}
				pv.vm.Close()
			}
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	p.refill()
	if got := readyCount(t, p); got != poolSize {
		t.Errorf("after the hammer: %d ready VMs, want %d", got, poolSize)
	}
}
