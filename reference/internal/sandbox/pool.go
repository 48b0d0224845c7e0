package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	mrand "math/rand/v2"
	"sync"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// poolSize is how many ready VMs are kept. A fresh VM costs about a
// millisecond to make; taking a ready one costs nothing.
const poolSize = 2

// pool keeps fresh VMs with the controller loaded, so a cell starts at once.
// A VM leaves the pool once and is never returned: runs never share a VM.
//
// It also keeps up to poolSize hot VMs for the catalog and configuration
// used last: a hot VM is a fresh VM whose controller ran catalog() with
// that catalog's JSON and configure() with that configuration, which is
// the first thing a cell does with a fresh VM anyway. Parsing and freezing
// ALL_TOOLS of 10,000 tools costs a cell hundreds of milliseconds, and even
// a catalog of one tool and an empty configuration cost a trivial cell
// about a fifth of its time; a turn runs many cells over one catalog and
// one configuration. A hot VM is matched by the catalog JSON's sha256 and
// the configuration's bytes, so it only ever serves a run whose ALL_TOOLS
// and other globals are made from the same text. When the configuration
// of one catalog changes from cell to cell (a namespace scope made anew per
// run), the hot VMs of that catalog keep the catalog only and the cell
// configures its VM itself.
type pooled struct {
	vm  *engine.VM
	ctl engine.Handle
	// hot is set when the controller has a catalog installed already,
	// configured when it ran configure too.
	hot, configured bool
	// allocated is a hot VM's heap once its catalog (and configuration)
	// are installed, in bytes.
	allocated int
}

type pool struct {
	eng   *engine.Engine
	ready chan pooled

	mu         sync.Mutex
	filling    bool // a refill goroutine is at work
	closed     bool
	hotCatalog catalog.GuestCatalog // the catalog of the hot VMs
	// hotConfig is the configuration the hot VMs ran, when configAhead.
	hotConfig   []byte
	configAhead bool
	hotGen      int // changes whenever the hot VMs' catalog or configuration does
	hot         []pooled
	hotFilling  bool // a hot refill goroutine is at work

	// base is the image suspended runs are stored against: a fresh
	// VM's, taken once, never changed (engine.Base).
	baseOnce sync.Once
	base     *engine.Base

	// blanks are instances made ahead for the next resumes, holding the
	// base image already (engine.NewBlankOf).
	blanks       []*engine.Blank
	blankFilling bool
}

// newPool starts a pool of eng's VMs. base is the image suspended runs are
// stored against; nil makes one from a fresh VM on first use.
func newPool(eng *engine.Engine, base *engine.Base) *pool {
	p := &pool{eng: eng, ready: make(chan pooled, poolSize)}
	if base != nil {
		p.baseOnce.Do(func() { p.base = base })
	}
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
	// poll only reads, and there is no job to drain.
	for _, method := range []string{guest.Poll} {
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

// get takes a hot VM of cat and cfg, or a ready VM, or makes one. It does
// not start the replacement: on a small machine building a VM alongside the
// cell that just took one doubles the cell's latency (BENCHMARKS.md, P1),
// so the runner refills the pool once the cell's leg has ended.
func (p *pool) get(cat catalog.GuestCatalog, cfg []byte) (pooled, error) {
	p.mu.Lock()
	if n := len(p.hot); n > 0 && p.hotCatalog.Key == cat.Key && (!p.configAhead || bytes.Equal(p.hotConfig, cfg)) {
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

// warm keeps hot VMs for cat and cfg: it replaces the hot VMs of another
// catalog, drops configured ones when cfg differs from theirs (the hot VMs
// of cat then keep the catalog only), and fills up to poolSize in the
// background (see fillHot), unless a filler is already at work: that one
// makes the next VMs for cat and cfg.
func (p *pool) warm(cat catalog.GuestCatalog, cfg []byte) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	var stale []pooled
	switch {
	case p.hotCatalog.Key != cat.Key:
		stale, p.hot, p.hotCatalog = p.hot, nil, cat
		p.hotConfig, p.configAhead = bytes.Clone(cfg), true
		p.hotGen++
	case p.configAhead && !bytes.Equal(p.hotConfig, cfg):
		stale, p.hot = p.hot, nil
		p.hotConfig, p.configAhead = nil, false
		p.hotGen++
	}
	start := !p.hotFilling && len(p.hot) < poolSize
	if start {
		p.hotFilling = true
	}
	p.mu.Unlock()
	for _, pv := range stale {
		pv.vm.Close()
	}
	if start {
		go p.fillHot()
	}
}

// fillHot makes hot VMs, one after the other, for the hot catalog and
// configuration of the moment: when they change while a VM is being made,
// that VM is dropped and the next one is made for the new ones.
func (p *pool) fillHot() {
	for {
		p.mu.Lock()
		if p.closed || len(p.hot) >= poolSize {
			p.hotFilling = false
			p.mu.Unlock()
			return
		}
		cat, cfg, configAhead, gen := p.hotCatalog, p.hotConfig, p.configAhead, p.hotGen
		p.mu.Unlock()
		pv, err := p.hotVM(cat, cfg, configAhead)
		p.mu.Lock()
		if err != nil {
			p.hotFilling = false
			p.mu.Unlock()
			return
		}
		if p.closed || p.hotGen != gen {
			p.mu.Unlock()
			pv.vm.Close()
			continue // the loop head stops, or takes the new generation
		}
		p.hot = append(p.hot, pv)
		p.mu.Unlock()
	}
}

// hotVM makes a fresh VM with cat installed and, when configure is set,
// cfg configured.
func (p *pool) hotVM(cat catalog.GuestCatalog, cfg []byte, configure bool) (pooled, error) {
	pv, err := p.fresh()
	if err != nil {
		return pooled{}, err
	}
	if _, err := pv.vm.CallMethod(pv.ctl, guest.Catalog, string(cat.JSON)); err != nil {
		pv.vm.Close()
		return pooled{}, err
	}
	pv.hot = true
	if configure {
		if _, err := pv.vm.CallMethod(pv.ctl, guest.Configure, string(cfg)); err != nil {
			pv.vm.Close()
			return pooled{}, err
		}
		pv.configured = true
	}
	if pv.allocated, err = pv.vm.AllocatedBytes(); err != nil {
		pv.vm.Close()
		return pooled{}, err
	}
	return pv, nil
}

// baseImage returns the pool's Base, made on first use; nil when that
// failed (deltas are then taken against nothing, for good). It is the
// common base of two fresh VMs (engine.CommonBase): every process with
// the same engine binary makes the same one, so a stored run restores in
// any of them (the replicas of a clustered gateway). Two suffice: a block
// with random bytes in it matches only if every one of them does (the
// fewest found in a block are three, 2^-24); the second VM is made past
// the clocks' resolution, so that the time each VM keeps in its image
// (performance.timeOrigin) differs too.
func (p *pool) baseImage() *engine.Base {
	p.baseOnce.Do(func() {
		var images [][]byte
		for i := range 2 {
			if i > 0 {
				time.Sleep(2 * time.Millisecond)
			}
			pv, err := p.fresh()
			if err != nil {
				return
			}
			b, err := pv.vm.NewBase()
			pv.vm.Close()
			if err != nil {
				return
			}
			images = append(images, b.Image())
		}
		if b, err := engine.CommonBase(images...); err == nil {
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
			b, err := p.eng.NewBlankOf(context.Background(), p.baseImage())
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

// busy reports whether a refill goroutine is at work.
func (p *pool) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.filling || p.hotFilling || p.blankFilling
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
