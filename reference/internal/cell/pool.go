package cell

import (
	"context"
	"crypto/rand"
	mrand "math/rand/v2"
	"sync"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// poolSize is how many ready VMs are kept. A fresh VM costs about a
// millisecond to make; taking a ready one costs nothing.
const poolSize = 2

// hotMinBytes is the size of catalog JSON from which a catalog gets VMs of
// its own (hot VMs, with ALL_TOOLS installed ahead of the cell). Below it,
// installing ALL_TOOLS in the cell costs a fraction of a millisecond
// (about 50 tools; 100 tools took 2 ms, BENCHMARKS.md).
const hotMinBytes = 16 << 10

// pool keeps fresh VMs with the controller loaded, so a cell starts at once.
// A VM leaves the pool once and is never returned: runs never share a VM.
//
// It also keeps up to poolSize hot VMs for the large catalog used last:
// parsing and freezing ALL_TOOLS of 10,000 tools costs a cell hundreds of
// milliseconds, and a turn runs many cells over one catalog. A hot VM is a
// fresh VM whose controller ran catalog() with that catalog's JSON, which
// is the first thing a cell does with a fresh VM anyway; it is matched by
// the JSON's sha256, so it only ever serves a run whose ALL_TOOLS is the
// same text.
type pooled struct {
	vm  *engine.VM
	ctl engine.Handle
	// hot is set when the controller has a catalog installed already.
	hot bool
}

type pool struct {
	eng   *engine.Engine
	ready chan pooled

	mu         sync.Mutex
	filling    bool // a refill goroutine is at work
	closed     bool
	hotCatalog catalog.GuestCatalog // the catalog of the hot VMs
	hot        []pooled
	hotFilling bool // a hot refill goroutine is at work

	// base is the image suspended runs are stored against: a fresh
	// VM's, taken once, never changed (engine.Base).
	baseOnce sync.Once
	base     *engine.Base

	// blanks are instances made ahead for the next resumes (engine.Blank).
	blanks       []*engine.Blank
	blankFilling bool
}

func newPool(eng *engine.Engine) *pool {
	p := &pool{eng: eng, ready: make(chan pooled, poolSize)}
	p.refill()
	return p
}

// fresh makes a VM with the host functions defined and the controller
// evaluated. Limits are applied when the VM is taken.
func (p *pool) fresh() (pooled, error) {
	vm, err := p.eng.NewVM(context.Background(), engine.Limits{MemoryBytes: uint32(config.MemoryLimitBytes.Range.Max)})
	if err != nil {
		return pooled{}, err
	}
	for _, name := range []string{guest.HostRequest, guest.HostRandom, guest.HostNote} {
		if err := vm.DefineHostFunction(name, name, 3); err != nil {
			vm.Close()
			return pooled{}, err
		}
	}
	bindRandom(vm)
	ctl, err := vm.EvalHandle(guest.Controller, guest.ControllerFile)
	if err != nil {
		vm.Close()
		return pooled{}, err
	}
	// Make the export functions every cell calls now, in the background:
	// each costs a machine stack and tens of microseconds on first use.
	// state and takeOutput only read, and there is no job to drain.
	for _, method := range []string{guest.StateFn, guest.TakeOutput} {
		if _, err := vm.CallMethod(ctl, method); err != nil {
			vm.Close()
			return pooled{}, err
		}
	}
	if err := vm.DrainJobs(); err != nil {
		vm.Close()
		return pooled{}, err
	}
	return pooled{vm: vm, ctl: ctl}, nil
}

// get takes a hot VM of cat, or a ready VM, or makes one. It does not start
// the replacement: on a small machine building a VM alongside the cell that
// just took one doubles the cell's latency (BENCHMARKS.md, P1), so the
// runner refills the pool once the cell's leg has ended.
func (p *pool) get(cat catalog.GuestCatalog) (pooled, error) {
	p.mu.Lock()
	if n := len(p.hot); n > 0 && p.hotCatalog.Key == cat.Key {
		pv := p.hot[n-1]
		p.hot = p.hot[:n-1]
		p.mu.Unlock()
		return pv, nil
	}
	p.mu.Unlock()
	select {
	case pv := <-p.ready:
		return pv, nil
	default:
		return p.fresh()
	}
}

// refill fills the pool up to poolSize in the background, one VM after the
// other, unless a filler is already at work.
func (p *pool) refill() {
	p.mu.Lock()
	if p.closed || p.filling {
		p.mu.Unlock()
		return
	}
	p.filling = true
	p.mu.Unlock()
	go func() {
		for {
			p.mu.Lock()
			if p.closed || len(p.ready) >= poolSize {
				p.filling = false
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
			pv, err := p.fresh()
			if err != nil {
				p.mu.Lock()
				p.filling = false
				p.mu.Unlock()
				return
			}
			p.mu.Lock()
			closed := p.closed
			p.mu.Unlock()
			if closed {
				pv.vm.Close()
				continue // the loop head sees closed and stops
			}
			select {
			case p.ready <- pv:
			default:
				pv.vm.Close()
			}
		}
	}()
}

// warm keeps hot VMs for cat when it is large: it replaces the hot VMs of
// another catalog and fills up to poolSize in the background, one VM after
// the other, unless a filler is already at work.
func (p *pool) warm(cat catalog.GuestCatalog) {
	if len(cat.JSON) < hotMinBytes {
		return
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	var stale []pooled
	if p.hotCatalog.Key != cat.Key {
		stale, p.hot, p.hotCatalog = p.hot, nil, cat
	}
	start := !p.hotFilling && len(p.hot) < poolSize
	if start {
		p.hotFilling = true
	}
	p.mu.Unlock()
	for _, pv := range stale {
		pv.vm.Close()
	}
	if !start {
		return
	}
	go func() {
		for {
			p.mu.Lock()
			if p.closed || p.hotCatalog.Key != cat.Key || len(p.hot) >= poolSize {
				p.hotFilling = false
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
			pv, err := p.fresh()
			if err == nil {
				if _, err = pv.vm.CallMethod(pv.ctl, guest.Catalog, string(cat.JSON)); err != nil {
					pv.vm.Close()
				}
			}
			p.mu.Lock()
			if err != nil {
				p.hotFilling = false
				p.mu.Unlock()
				return
			}
			if p.closed || p.hotCatalog.Key != cat.Key {
				p.mu.Unlock()
				pv.vm.Close()
				continue // the loop head sees it and stops
			}
			pv.hot = true
			p.hot = append(p.hot, pv)
			p.mu.Unlock()
		}
	}()
}

// fitsLimit reports whether vm's heap is within limit bytes.
func fitsLimit(vm *engine.VM, limit int) bool {
	n, err := vm.AllocatedBytes()
	return err == nil && n <= limit
}

// baseImage returns the pool's Base, made on first use from a fresh VM; nil
// when that failed (deltas are then taken against nothing, for good).
func (p *pool) baseImage() *engine.Base {
	p.baseOnce.Do(func() {
		pv, err := p.fresh()
		if err != nil {
			return
		}
		defer pv.vm.Close()
		if b, err := pv.vm.NewBase(); err == nil {
			p.base = b
		}
	})
	return p.base
}

// blank takes a Blank made ahead, or returns nil (the restore then makes
// its instance itself).
func (p *pool) blank() *engine.Blank {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.blanks)
	if n == 0 {
		return nil
	}
	b := p.blanks[n-1]
	p.blanks = p.blanks[:n-1]
	return b
}

// refillBlanks makes Blanks up to poolSize in the background, unless a
// filler is at work already. The runner calls it after a resume's leg.
func (p *pool) refillBlanks() {
	p.mu.Lock()
	if p.closed || p.blankFilling || len(p.blanks) >= poolSize {
		p.mu.Unlock()
		return
	}
	p.blankFilling = true
	p.mu.Unlock()
	go func() {
		for {
			b, err := p.eng.NewBlank(context.Background())
			p.mu.Lock()
			if err != nil || p.closed {
				p.blankFilling = false
				p.mu.Unlock()
				if b != nil {
					b.Close()
				}
				return
			}
			p.blanks = append(p.blanks, b)
			if len(p.blanks) >= poolSize {
				p.blankFilling = false
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
		}
	}()
}

// size counts the VMs waiting in the pool, hot ones and Blanks included.
func (p *pool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.ready) + len(p.hot) + len(p.blanks)
}

func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	hot, blanks := p.hot, p.blanks
	p.hot, p.blanks = nil, nil
	p.mu.Unlock()
	for _, pv := range hot {
		pv.vm.Close()
	}
	for _, b := range blanks {
		b.Close()
	}
	for {
		select {
		case pv := <-p.ready:
			pv.vm.Close()
		default:
			return
		}
	}
}

// bindRandom backs the guest's Math.random with a generator seeded from the
// host's entropy, so VMs restored from one snapshot never share a sequence.
func bindRandom(vm *engine.VM) {
	var seed [32]byte
	_, _ = rand.Read(seed[:])
	rng := mrand.New(mrand.NewChaCha8(seed))
	vm.Bind(guest.HostRandom, func(*engine.HostCall) (any, error) { return rng.Float64(), nil })
}
