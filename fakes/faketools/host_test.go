package faketools_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
)

// heldReaches waits through WatchHeld, with no polling, until tool name has
// want held calls, and returns the last count it read.
func heldReaches(h *faketools.Host, name string, want int) int {
	timeout := time.After(10 * time.Second)
	for {
		n, changed := h.WatchHeld(name)
		if n == want {
			return n
		}
		select {
		case <-changed:
		case <-timeout:
			return n
		}
	}
}

func awaitHeld(t *testing.T, h *faketools.Host, name string, want int) {
	t.Helper()
	if n := heldReaches(h, name, want); n != want {
		t.Fatalf("tool %q has %d held call(s), want %d", name, n, want)
	}
}

// TestWatchHeld checks that WatchHeld's channel wakes a watcher on every
// change of a held count: a call arriving at its gate, a call cancelled
// there, and calls released.
func TestWatchHeld(t *testing.T) {
	h := faketools.NewHost()
	h.Hold("weather")
	spec := wire.Spec{Name: "weather"}
	invoke := func(ctx context.Context) <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := h.Invoke(ctx, 0, spec, json.RawMessage(`{}`))
			done <- err
		}()
		return done
	}

	n, changed := h.WatchHeld("weather")
	if n != 0 {
		t.Fatalf("held before any call = %d, want 0", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := invoke(ctx)
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("a call reaching its gate did not close the watch channel")
	}
	awaitHeld(t, h, "weather", 1)

	released := []<-chan error{invoke(context.Background()), invoke(context.Background())}
	awaitHeld(t, h, "weather", 3)
	cancel()
	if err := <-cancelled; err != context.Canceled {
		t.Fatalf("cancelled call returned %v, want %v", err, context.Canceled)
	}
	awaitHeld(t, h, "weather", 2)

	h.Release("weather")
	for _, done := range released {
		if err := <-done; err != nil {
			t.Fatalf("released call returned %v", err)
		}
	}
	awaitHeld(t, h, "weather", 0)
	if got := len(h.Calls("weather")); got != 2 {
		t.Errorf("calls that reached the tool = %d, want 2 (the cancelled one did not)", got)
	}
}

// TestWatchHeldHammer has many calls arrive at and leave one gate while
// watchers wait for counts: every watcher sees its count, under -race.
func TestWatchHeldHammer(t *testing.T) {
	const calls = 64
	h := faketools.NewHost()
	h.Hold("slow")
	spec := wire.Spec{Name: "slow"}
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			if _, err := h.Invoke(context.Background(), 0, spec, nil); err != nil {
				t.Errorf("Invoke: %v", err)
			}
		})
	}
	var watchers sync.WaitGroup
	for range 8 {
		watchers.Go(func() {
			if n := heldReaches(h, "slow", calls); n != calls {
				t.Errorf("a watcher saw %d held call(s), want %d", n, calls)
			}
		})
	}
	watchers.Wait()
	h.Release("slow")
	wg.Wait()
	awaitHeld(t, h, "slow", 0)
	if got := len(h.Calls("slow")); got != calls {
		t.Errorf("calls that reached the tool = %d, want %d", got, calls)
	}
}
