package cell

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// storeRun is a run the store can hold: an id and a bridge to dispose.
func storeRun(id string) *run {
	ctx, cancel := context.WithCancel(context.Background())
	return &run{id: id, bridge: &bridge{ctx: ctx, cancel: cancel}}
}

// TestStore_reserve: the cap counts stored runs and reserved slots
// (CM-8.31); storing a run that reserved turns its slot into the entry, and
// removing a run gives its slot back.
func TestStore_reserve(t *testing.T) {
	s := newStore(2)
	a, b, c := storeRun("a"), storeRun("b"), storeRun("")
	if !s.put(a, time.Hour) {
		t.Fatal("put a: refused below the cap")
	}
	if !s.reserve(b) || !s.reserve(b) {
		t.Fatal("reserve b: refused below the cap, or twice")
	}
	if s.reserve(c) {
		t.Fatal("reserve c: granted past the cap (one stored, one reserved)")
	}
	if s.put(storeRun("d"), time.Hour) {
		t.Fatal("put d: stored past the cap")
	}
	if !s.reserve(a) {
		t.Fatal("reserve a: a stored run has its slot")
	}
	if !s.put(b, time.Hour) {
		t.Fatal("put b: its reservation did not become its entry")
	}
	if s.reserved != 0 || len(s.runs) != 2 {
		t.Fatalf("after put b: %d reserved, %d stored; want 0 and 2", s.reserved, len(s.runs))
	}
	s.remove(a)
	if !s.reserve(c) {
		t.Fatal("reserve c: refused after a was removed")
	}
	s.remove(c) // never stored: only its slot goes back
	if s.reserved != 0 || len(s.runs) != 1 {
		t.Fatalf("after remove c: %d reserved, %d stored; want 0 and 1", s.reserved, len(s.runs))
	}
}

// TestStore_reserveHammer: runs reserving, storing and removing at once
// never hold more than the cap.
func TestStore_reserveHammer(t *testing.T) {
	const max = 8
	s := newStore(max)
	var held, peak atomic.Int32
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				r := storeRun(strconv.Itoa(g) + "-" + strconv.Itoa(i))
				if !s.reserve(r) {
					continue
				}
				n := held.Add(1)
				for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
				}
				if i%2 == 0 && !s.put(r, time.Hour) {
					t.Errorf("put %s: a reserved run was refused", r.id)
				}
				held.Add(-1)
				s.remove(r)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > max {
		t.Errorf("%d runs held a slot at once, cap %d", p, max)
	}
	if s.reserved != 0 || len(s.runs) != 0 {
		t.Errorf("after the hammer: %d reserved, %d stored; want none", s.reserved, len(s.runs))
	}
}
