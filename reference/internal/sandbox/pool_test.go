package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// readyCount waits (bounded) until no refill is at work and returns how
// many VMs the pool holds.
func readyCount(t *testing.T, p *pool) int {
	t.Helper()
	return idleCount(t, p, func() (bool, int) { return p.filling, len(p.ready) })
}

// idleCount waits (bounded) until state, read under the pool's lock, says
// no filler is at work, and returns the count it reports.
func idleCount(t *testing.T, p *pool, state func() (filling bool, n int)) int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		filling, n := state()
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
		t.Fatalf("engine unavailable: %v", err)
	}
	p := newPool(eng, nil)
	if got := readyCount(t, p); got != poolSize {
		t.Fatalf("after start: %d ready VMs, want %d", got, poolSize)
	}
	var taken []pooled
	for i := 0; i < poolSize+1; i++ { // the last one is made inline
		pv, err := p.get(catalog.GuestCatalog{}, nil)
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
		t.Fatalf("engine unavailable: %v", err)
	}
	p := newPool(eng, nil)
	defer p.close()
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 5; i++ {
				p.refill()
				pv, err := p.get(catalog.GuestCatalog{}, nil)
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

// bigCatalog is a catalog of n tools (1500 make about 300 KB of guest
// JSON); tag makes catalogs of the same size differ.
func bigCatalog(t *testing.T, tag string, n int) catalog.GuestCatalog {
	t.Helper()
	tools := make([]catalog.Tool, n)
	for i := range tools {
		tools[i] = catalog.Tool{Name: fmt.Sprintf("%s_tool_%d", tag, i), Kind: catalog.Core,
			Description: strings.Repeat("A tool of the hot-pool test. ", 4),
			Parameters:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}
	}
	return catalog.Build(tools).Guest()
}

// guestConfig is a guest configuration with one namespace: a global
// cfg_<tag> whose value is tag.
func guestConfig(t *testing.T, tag string) []byte {
	t.Helper()
	raw, err := json.Marshal(guest.Config{MaxOutputBytes: 1000, APIFiles: []guest.APIFile{},
		Namespaces: []guest.Namespace{{ID: "cfg", GlobalName: "cfg_" + tag, Root: guest.Node{Kind: "value", Value: tag}}}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// hasConfig checks whether vm ran configure with guestConfig(tag).
func hasConfig(vm *engine.VM, tag string) error {
	return vm.Eval(fmt.Sprintf(`if (typeof API !== "object") throw new Error("not configured");
if (globalThis[%q] !== %q) throw new Error("configured otherwise")`, "cfg_"+tag, tag), "check.js")
}

// hotCount waits (bounded) until no hot refill is at work and returns how
// many hot VMs the pool holds.
func hotCount(t *testing.T, p *pool) int {
	t.Helper()
	return idleCount(t, p, func() (bool, int) { return p.hotFilling, len(p.hot) })
}

// hasCatalog checks that vm's ALL_TOOLS is the catalog of g (by length and
// first id).
func hasCatalog(vm *engine.VM, g catalog.GuestCatalog) error {
	var cat struct{ Tools []catalog.Compact }
	if err := json.Unmarshal(g.JSON, &cat); err != nil {
		return err
	}
	entries := cat.Tools
	return vm.Eval(fmt.Sprintf(`if (ALL_TOOLS.length !== %d || ALL_TOOLS[0].id !== %q || !Object.isFrozen(ALL_TOOLS[0])) throw new Error("wrong ALL_TOOLS")`,
		len(entries), entries[0].ID), "check.js")
}

// TestPool_hot: warm fills poolSize hot VMs for a catalog and a
// configuration, of any size; only a get for both takes them; warming
// another catalog replaces them; a configuration that changes for the same
// catalog leaves hot VMs with the catalog only, which serve any
// configuration; close closes them.
func TestPool_hot(t *testing.T) {
	eng, err := engine.Shared(context.Background(), engine.Options{})
	if err != nil {
		t.Fatalf("engine unavailable: %v", err)
	}
	// The VM count of the process once stable: an earlier test's leg may
	// still be closing its VM.
	live := -1
	settle(t, func() bool {
		n := eng.LiveVMs()
		stable := n == live
		live = n
		time.Sleep(20 * time.Millisecond)
		return stable
	})
	a, b := bigCatalog(t, "a", 1500), bigCatalog(t, "b", 1500)
	small := catalog.Build([]catalog.Tool{{Name: "echo", Kind: catalog.Core, Parameters: json.RawMessage(`{"type":"object"}`)}}).Guest()
	cfg1, cfg2 := guestConfig(t, "one"), guestConfig(t, "two")
	p := newPool(eng, nil)
	readyCount(t, p)

	take := func(cat catalog.GuestCatalog, cfg []byte) pooled {
		t.Helper()
		pv, err := p.get(cat, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return pv
	}
	p.warm(small, cfg1)
	if got := hotCount(t, p); got != poolSize {
		t.Fatalf("after warm(small, 1): %d hot VMs, want %d", got, poolSize)
	}
	pv := take(small, cfg1)
	if !pv.hot || !pv.configured {
		t.Errorf("get(small, 1): hot %v, configured %v; want both", pv.hot, pv.configured)
	} else if err := hasConfig(pv.vm, "one"); err != nil {
		t.Errorf("hot VM of (small, 1): %v", err)
	}
	pv.vm.Close()
	if pv = take(small, cfg2); pv.hot {
		t.Error("get(small, 2) took a VM configured with 1")
	}
	pv.vm.Close()

	p.warm(a, cfg1)
	if got := hotCount(t, p); got != poolSize {
		t.Fatalf("after warm(a, 1): %d hot VMs, want %d", got, poolSize)
	}
	if pv = take(b, cfg1); pv.hot {
		t.Error("get(b, 1) took a hot VM of a")
	}
	pv.vm.Close()
	pv = take(a, cfg1)
	if !pv.hot || !pv.configured {
		t.Errorf("get(a, 1): hot %v, configured %v; want both", pv.hot, pv.configured)
	} else if err := hasCatalog(pv.vm, a); err != nil {
		t.Errorf("hot VM of a: %v", err)
	}
	pv.vm.Close()

	// The configuration of a changes: its hot VMs keep the catalog only.
	p.warm(a, cfg2)
	if got := hotCount(t, p); got != poolSize {
		t.Fatalf("after warm(a, 2): %d hot VMs, want %d", got, poolSize)
	}
	for _, cfg := range [][]byte{cfg1, cfg2} {
		pv = take(a, cfg)
		if !pv.hot || pv.configured {
			t.Errorf("get(a, %s) after two configurations: hot %v, configured %v; want the catalog only", cfg, pv.hot, pv.configured)
		} else if err := hasCatalog(pv.vm, a); err != nil {
			t.Errorf("hot VM of a: %v", err)
		} else if err := hasConfig(pv.vm, "one"); err == nil {
			t.Error("a VM with the catalog only was configured")
		}
		pv.vm.Close()
	}

	p.warm(b, cfg1)
	if got := hotCount(t, p); got != poolSize {
		t.Fatalf("after warm(b, 1): %d hot VMs, want %d", got, poolSize)
	}
	if pv = take(a, cfg1); pv.hot {
		t.Errorf("get(a) after warm(b): hot %v; want a plain VM", pv.hot)
	}
	pv.vm.Close()
	p.close()
	readyCount(t, p)
	if got := eng.LiveVMs(); got != live {
		t.Errorf("after close: %d live VMs, want %d", got, live)
	}
}

// TestPool_hotNewCatalogWhileFilling: a warm for another catalog while the
// filler is making a VM for the first one is not lost: the filler drops
// that VM and fills the pool for the new catalog.
func TestPool_hotNewCatalogWhileFilling(t *testing.T) {
	eng, err := engine.Shared(context.Background(), engine.Options{})
	if err != nil {
		t.Fatalf("engine unavailable: %v", err)
	}
	a, b := bigCatalog(t, "a", 3000), bigCatalog(t, "b", 1500)
	cfg := guestConfig(t, "one")
	p := newPool(eng, nil)
	defer p.close()
	readyCount(t, p)
	p.warm(a, cfg)
	// The filler is at work on a: making a VM for 3,000 tools takes tens
	// of milliseconds, far longer than the next call.
	p.mu.Lock()
	filling := p.hotFilling
	p.mu.Unlock()
	if !filling {
		t.Fatal("warm(a) started no filler")
	}
	p.warm(b, cfg)
	if got := hotCount(t, p); got != poolSize {
		t.Fatalf("after warm(b) during warm(a): %d hot VMs, want %d", got, poolSize)
	}
	pv, err := p.get(b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pv.vm.Close()
	if !pv.hot || !pv.configured {
		t.Fatalf("get(b): hot %v, configured %v; want both", pv.hot, pv.configured)
	}
	if err := hasCatalog(pv.vm, b); err != nil {
		t.Errorf("hot VM after warm(b): %v", err)
	}
}

// TestPool_hotHammer: concurrent warms of two catalogs and two
// configurations and gets never hand out a hot VM of the wrong catalog or
// configuration and never keep more than poolSize.
func TestPool_hotHammer(t *testing.T) {
	eng, err := engine.Shared(context.Background(), engine.Options{})
	if err != nil {
		t.Fatalf("engine unavailable: %v", err)
	}
	cats := []catalog.GuestCatalog{bigCatalog(t, "a", 1500), bigCatalog(t, "b", 1500)}
	cfgs := [][]byte{guestConfig(t, "one"), guestConfig(t, "two")}
	p := newPool(eng, nil)
	defer p.close()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				c, cfg := cats[(g+i)%2], (g+i/2)%2
				p.warm(c, cfgs[cfg])
				pv, err := p.get(c, cfgs[cfg])
				if err != nil {
					t.Error(err)
					return
				}
				if pv.hot {
					if err := hasCatalog(pv.vm, c); err != nil {
						t.Errorf("hot VM handed out for the wrong catalog: %v", err)
					}
					if pv.configured {
						if err := hasConfig(pv.vm, []string{"one", "two"}[cfg]); err != nil {
							t.Errorf("hot VM handed out for the wrong configuration: %v", err)
						}
					}
				}
				pv.vm.Close()
				p.mu.Lock()
				n := len(p.hot)
				p.mu.Unlock()
				if n > poolSize {
					t.Errorf("%d hot VMs, want at most %d", n, poolSize)
				}
			}
		}()
	}
	wg.Wait()
}

// settle polls cond until it holds, for at most 10 s.
func settle(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition did not settle within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
