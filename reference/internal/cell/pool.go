package cell

import (
	"context"
	"crypto/rand"
	mrand "math/rand/v2"
	"sync"

	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// poolSize is how many ready VMs are kept. A fresh VM costs about a
// millisecond to make; taking a ready one costs nothing.
const poolSize = 2

// pool keeps fresh VMs with the controller loaded, so a cell starts at once.
// A VM leaves the pool once and is never returned: runs never share a VM.
// pooled is a fresh VM and its controller.
type pooled struct {
	vm  *engine.VM
	ctl engine.Handle
}

type pool struct {
	eng   *engine.Engine
	ready chan pooled

	mu      sync.Mutex
	filling bool // a refill goroutine is at work
	closed  bool
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
	return pooled{vm: vm, ctl: ctl}, nil
}

// get takes a ready VM or makes one. It does not start the replacement: on
// a small machine building a VM alongside the cell that just took one
// doubles the cell's latency (BENCHMARKS.md, P1), so the runner refills
// the pool once the cell's leg has ended.
func (p *pool) get() (pooled, error) {
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

func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
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
