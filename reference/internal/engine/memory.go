package engine

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
)

// initialMemoryCapacity is the capacity a VM's linear memory starts with.
// quickjs-wasi grows from 18 to 22 pages while it initialises and loads the
// controller, and a restore grows it to the snapshot's size in one step;
// 2 MiB covers both for ordinary cells (BENCHMARKS.md, P2).
const initialMemoryCapacity = 2 << 20

// growthDivisor sets how much capacity a move adds: the old capacity
// divided by it (1: the capacity doubles). BenchmarkMemoryGrowth compares
// policies: a fresh VM loading a 10,000-entry catalog spends 19 % less CPU
// doubling than adding a quarter, one loading 1,000 entries 32 % less.
var growthDivisor uint64 = 1

// linearMemory allocates a VM's linear memory as a Go slice with spare
// capacity. wazero's default memory has no spare capacity, so every
// memory.grow reallocates and copies the whole memory; here growing within
// the capacity copies nothing, and moving doubles the capacity, so a guest
// that grows its heap step by step (a large ALL_TOOLS) costs amortized
// linear time with few copies. Capacity past the length is never touched
// by the guest, so it is not resident until memory.grow reaches it.
type linearMemory struct{ vm *VM }

func (l linearMemory) Allocate(capBytes, maxBytes uint64) experimental.LinearMemory {
	c := min(max(capBytes, initialMemoryCapacity), maxBytes)
	m := &sliceMemory{buf: make([]byte, 0, c), max: maxBytes, div: growthDivisor}
	if l.vm != nil {
		l.vm.linear = m
	}
	return m
}

// sliceMemory is one VM's linear memory. mu guards buf against the
// preempter, the one writer from another goroutine (store32).
type sliceMemory struct {
	mu  sync.Mutex
	buf []byte
	max uint64
	div uint64 // growthDivisor when allocated
}

// store32 stores v at off if off is in range, from any goroutine, and
// reports whether it did. Only the preempter uses it, on a word that the
// guest reads and writes (its interrupt counter); every other Go access to
// guest memory happens on the VM's own goroutine.
func (m *sliceMemory) store32(off uint32, v uint32) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if off%4 != 0 || uint64(off)+4 > uint64(len(m.buf)) {
		return false
	}
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&m.buf[off])), v)
	return true
}

// Reallocate returns the memory grown to size bytes, or nil past the
// maximum, as experimental.LinearMemory requires.
func (m *sliceMemory) Reallocate(size uint64) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if size > m.max {
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	grown := make([]byte, size, min(max(size, uint64(cap(m.buf))+uint64(cap(m.buf))/m.div), m.max))
	copy(grown, m.buf)
	m.buf = grown
	return grown
}

// Free drops the memory for the garbage collector.
func (m *sliceMemory) Free() {
	m.mu.Lock()
	m.buf = nil
	m.mu.Unlock()
}
