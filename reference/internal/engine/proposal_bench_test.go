package engine

// Prototypes of proposed optimisations, benchmarked side by side with the
// current code in one run. Nothing here is used outside benchmarks; each
// prototype reproduces the engine's own steps with one change, so the
// difference is the change. See ../../BENCHMARKS.md.

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/klauspost/compress/zstd"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/codemodekit/kit/reference/internal/guest"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

// ---- Linear memory allocators ----------------------------------------------
//
// wazero's default linear memory is a Go slice whose capacity equals its
// length, and MemoryInstance.Grow appends one delta at a time: every
// memory.grow reallocates and copies the whole memory. quickjs-wasi grows
// 18 -> 22 pages while it initialises and loads the controller, and Restore
// grows 18 -> N pages in one step. experimental.WithMemoryAllocator on the
// context given to InstantiateModule (engine.instantiate derives the
// instance context from the ctx passed to NewVM and Restore) replaces it.

// headroomAlloc backs memory with a Go slice that has at least initial
// bytes of capacity and doubles when it must move.
type headroomAlloc struct{ initial uint64 }

type heapMem struct {
	buf []byte
	max uint64
}

func (a headroomAlloc) Allocate(capBytes, maxBytes uint64) experimental.LinearMemory {
	c := min(max(capBytes, a.initial), maxBytes)
	return &heapMem{buf: make([]byte, 0, c), max: maxBytes}
}

func (m *heapMem) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	nb := make([]byte, size, min(max(size, 2*uint64(cap(m.buf))), m.max))
	copy(nb, m.buf)
	m.buf = nb
	return nb
}

func (m *heapMem) Free() { m.buf = nil }

// mmapAlloc reserves the maximum as PROT_NONE anonymous memory outside the
// Go heap and makes pages readable and writable as the memory grows:
// growing never moves or copies, the GC never sees the bytes, and Free
// returns them to the OS at once. populate pre-faults grown pages with one
// madvise(MADV_POPULATE_WRITE) instead of one fault per page.
type mmapAlloc struct{ populate bool }

type mmapMem struct {
	buf       []byte
	committed int
	populate  bool
}

const madvPopulateWrite = 23 // MADV_POPULATE_WRITE, Linux 5.14+

func (a mmapAlloc) Allocate(_, maxBytes uint64) experimental.LinearMemory {
	b, err := syscall.Mmap(-1, 0, int(maxBytes), syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		panic(err)
	}
	return &mmapMem{buf: b, populate: a.populate}
}

func (m *mmapMem) Reallocate(size uint64) []byte {
	n := int(size)
	if n > len(m.buf) {
		return nil
	}
	if n > m.committed {
		grown := m.buf[m.committed:n]
		if err := syscall.Mprotect(grown, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			return nil
		}
		if m.populate {
			_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&grown[0])), uintptr(len(grown)), madvPopulateWrite)
		}
		m.committed = n
	}
	return m.buf[:n:n]
}

func (m *mmapMem) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf)
		m.buf = nil
	}
}

var allocators = []struct {
	name  string
	alloc experimental.MemoryAllocator
}{
	{"default", nil},
	{"headroom2MiB", headroomAlloc{initial: 2 << 20}},
	{"mmap", mmapAlloc{}},
	{"mmap-populate", mmapAlloc{populate: true}},
}

func allocCtx(a experimental.MemoryAllocator) context.Context {
	return experimental.WithMemoryAllocator(context.Background(), a)
}

// pooledVM mirrors cell's pool.fresh: a VM with the three bridge host
// functions and the controller evaluated.
func pooledVM(e *Engine, ctx context.Context) (*VM, error) {
	vm, err := e.NewVM(ctx, Limits{MemoryBytes: 1 << 30})
	if err != nil {
		return nil, err
	}
	for _, name := range []string{guest.HostRequest, guest.HostRandom, guest.HostNote} {
		if err := vm.DefineHostFunction(name, name, 3); err != nil {
			vm.Close()
			return nil, err
		}
	}
	vm.Bind(guest.HostRandom, func(*HostCall) (any, error) { return 0.5, nil })
	if _, err := vm.EvalHandle(guest.Controller, guest.ControllerFile); err != nil {
		vm.Close()
		return nil, err
	}
	return vm, nil
}

// BenchmarkProposalAllocator compares linear memory allocators on NewVM,
// on a pooled VM (NewVM + host functions + controller, what a pool refill
// does) and on Restore of the data2000 image. Closing is excluded.
func BenchmarkProposalAllocator(b *testing.B) {
	e := benchEng(b)
	z, raw := suspended(b, benchDataProgram)
	bin, err := Decompress(z, raw)
	if err != nil {
		b.Fatal(err)
	}
	var snap Snapshot
	if err := snap.UnmarshalBinary(bin); err != nil {
		b.Fatal(err)
	}
	ops := []struct {
		name string
		op   func(ctx context.Context) (*VM, error)
	}{
		{"NewVM", func(ctx context.Context) (*VM, error) { return e.NewVM(ctx, Limits{MemoryBytes: 64 << 20}) }},
		{"pooledVM", func(ctx context.Context) (*VM, error) { return pooledVM(e, ctx) }},
		{"Restore-data2000", func(ctx context.Context) (*VM, error) { return e.Restore(ctx, &snap, Limits{MemoryBytes: 64 << 20}) }},
	}
	for _, op := range ops {
		for _, a := range allocators {
			b.Run(op.name+"/"+a.name, func(b *testing.B) {
				ctx := allocCtx(a.alloc)
				var batch vmBatch
				defer batch.close()
				b.ReportAllocs()
				m := cpumeter.New(b)
				defer m.Report()
				for i := 0; i < b.N; i++ {
					vm, err := op.op(ctx)
					if err != nil {
						b.Fatal(err)
					}
					batch.add(m, vm)
				}
			})
		}
	}
}

// BenchmarkProposalAllocatorMemory reports heap and RSS per live pooled VM
// for each allocator, as BenchmarkMemoryPerVM does.
func BenchmarkProposalAllocatorMemory(b *testing.B) {
	e := benchEng(b)
	for _, a := range allocators {
		b.Run(a.name, func(b *testing.B) {
			ctx := allocCtx(a.alloc)
			var heap, rss float64
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				m.Stop()
				debug.FreeOSMemory()
				h0, r0 := heapBytes(), rssBytes(b)
				m.Start()
				vms := make([]*VM, 0, memPerVM)
				for j := 0; j < memPerVM; j++ {
					vm, err := pooledVM(e, ctx)
					if err != nil {
						b.Fatal(err)
					}
					vms = append(vms, vm)
				}
				m.Stop()
				debug.FreeOSMemory()
				h1, r1 := heapBytes(), rssBytes(b)
				heap += float64(int64(h1 - h0))
				rss += float64(int64(r1 - r0))
				runtime.KeepAlive(vms)
				for _, vm := range vms {
					vm.Close()
				}
				m.Start()
			}
			b.ReportMetric(heap/float64(b.N*memPerVM), "heap-B/VM")
			b.ReportMetric(rss/float64(b.N*memPerVM), "rss-B/VM")
		})
	}
}

// ---- Suspend: compress straight from linear memory --------------------------

// The prototypes' codecs, made on first use so that plain `go test` runs
// of this package never create them.
var (
	noCRCEncoder = sync.OnceValue(func() *zstd.Encoder {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
		if err != nil {
			panic(err)
		}
		return enc
	})
	capDecoder = sync.OnceValue(func() *zstd.Decoder {
		dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true))
		if err != nil {
			panic(err)
		}
		return dec
	})
)

// BenchmarkProposalSuspendEncode compares what suspend does today
// (Snapshot copies memory, MarshalBinary copies it again with the header,
// Compress) with compressing the live memory view directly (the VM is
// quiescent at depth zero; the 28-byte header would be kept beside the
// compressed bytes, which never leave the process), with and without the
// zstd frame checksum (the cell already seals snapshots with an HMAC).
func BenchmarkProposalSuspendEncode(b *testing.B) {
	for _, st := range benchStates {
		vm := benchStateVM(b, st.src)
		b.Run(st.name+"/current", func(b *testing.B) {
			b.ReportAllocs()
			var n int
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				s, err := vm.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				bin, _ := s.MarshalBinary()
				z, err := Compress(bin)
				if err != nil {
					b.Fatal(err)
				}
				n = len(z)
			}
			b.ReportMetric(float64(n), "zstd-B")
		})
		direct := func(enc *zstd.Encoder) func(b *testing.B) {
			return func(b *testing.B) {
				b.ReportAllocs()
				var n int
				m := cpumeter.New(b)
				defer m.Report()
				for i := 0; i < b.N; i++ {
					if err := vm.enter(); err != nil {
						b.Fatal(err)
					}
					if _, err := vm.call(xGetRuntimePtr); err != nil {
						b.Fatal(err)
					}
					if _, err := vm.call(xGetContextPtr); err != nil {
						b.Fatal(err)
					}
					if _, err := vm.stackPointer(); err != nil {
						b.Fatal(err)
					}
					view, _ := vm.mem.Read(0, vm.mem.Size())
					z := enc.EncodeAll(view, make([]byte, 0, len(view)/8))
					vm.exit()
					n = len(z)
				}
				b.ReportMetric(float64(n), "zstd-B")
			}
		}
		enc, _, err := zstdCodec()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(st.name+"/direct", direct(enc))
		b.Run(st.name+"/direct-nocrc", direct(noCRCEncoder()))
	}
}

// ---- Resume: decompress straight into linear memory -------------------------

// restoreDirect is Restore with the image decoded by zstd straight into the
// grown linear memory: no intermediate buffer, no second copy. z must hold
// the memory only (see BenchmarkProposalSuspendEncode); the pointers come
// from the header kept beside it.
func restoreDirect(e *Engine, ctx context.Context, z []byte, size int, sp, rt, cx uint32, limits Limits) (*VM, error) {
	vm, err := e.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	pages := uint32(size / 65536)
	if cur := vm.mem.Size() / 65536; pages > cur {
		if _, ok := vm.mem.Grow(pages - cur); !ok {
			vm.Close()
			return nil, errors.New("grow failed")
		}
	}
	view, _ := vm.mem.Read(0, uint32(size))
	out, err := capDecoder().DecodeAll(z, view[:0])
	if err != nil || len(out) != size || &out[0] != &view[0] {
		vm.Close()
		return nil, errors.New("direct decode failed")
	}
	if _, err := vm.call(xSetRuntimeAndContext, uint64(rt), uint64(cx)); err != nil {
		vm.Close()
		return nil, err
	}
	vm.mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal).Set(uint64(sp))
	if err := vm.setup(limits); err != nil {
		vm.Close()
		return nil, err
	}
	return vm, nil
}

// BenchmarkProposalResume compares restore+resume from the stored bytes as
// wait does it today (Decompress, UnmarshalBinary, Restore, bind, settle,
// drain) with restoreDirect, on the default allocator and on the headroom
// and mmap allocators.
func BenchmarkProposalResume(b *testing.B) {
	e := benchEng(b)
	for _, st := range benchStates {
		vm := benchStateVM(b, st.src)
		s, err := vm.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		bin, _ := s.MarshalBinary()
		zFull, err := Compress(bin)
		if err != nil {
			b.Fatal(err)
		}
		zMem := noCRCEncoder().EncodeAll(s.Memory, nil)
		settle := func(b *testing.B, vm *VM) {
			bindTag(vm, "restored")
			if _, err := vm.Call("settle", "v"); err != nil {
				b.Fatal(err)
			}
			if err := vm.DrainJobs(); err != nil {
				b.Fatal(err)
			}
		}
		variants := []struct {
			name string
			ctx  context.Context
			op   func(ctx context.Context) (*VM, error)
		}{
			{"current", context.Background(), func(ctx context.Context) (*VM, error) {
				bin, err := Decompress(zFull, len(bin))
				if err != nil {
					return nil, err
				}
				var s Snapshot
				if err := s.UnmarshalBinary(bin); err != nil {
					return nil, err
				}
				return e.Restore(ctx, &s, Limits{MemoryBytes: 64 << 20})
			}},
		}
		for _, a := range allocators {
			variants = append(variants, struct {
				name string
				ctx  context.Context
				op   func(ctx context.Context) (*VM, error)
			}{"direct/" + a.name, allocCtx(a.alloc), func(ctx context.Context) (*VM, error) {
				return restoreDirect(e, ctx, zMem, len(s.Memory), s.StackPointer, s.RuntimePtr, s.ContextPtr, Limits{MemoryBytes: 64 << 20})
			}})
		}
		for _, v := range variants {
			b.Run(st.name+"/"+v.name, func(b *testing.B) {
				first, err := v.op(v.ctx)
				if err != nil {
					b.Fatal(err)
				}
				settle(b, first)
				out, err := first.EvalCall("out", "o.js", "String")
				first.Close()
				if err != nil || len(out) < 18 || out[:18] != "got v via restored" {
					b.Fatalf("restored out = %q, %v", out, err)
				}
				var batch vmBatch
				defer batch.close()
				b.ReportAllocs()
				b.ResetTimer()
				m := cpumeter.New(b)
				defer m.Report()
				for i := 0; i < b.N; i++ {
					vm, err := v.op(v.ctx)
					if err != nil {
						b.Fatal(err)
					}
					settle(b, vm)
					batch.add(m, vm)
				}
				if v.name == "current" {
					b.ReportMetric(float64(len(zFull)), "zstd-B")
				} else {
					b.ReportMetric(float64(len(zMem)), "zstd-B")
				}
			})
		}
	}
}

// ---- Cold compile with parallel compilation workers --------------------------

// BenchmarkProposalCompileWorkers compares a cold compile (no cache) with
// wazero's default single compilation worker and with two workers
// (experimental.WithCompilationWorkers on the ctx given to New, which New
// passes to CompileModule). The machine has two cores.
func BenchmarkProposalCompileWorkers(b *testing.B) {
	for _, w := range []int{1, 2} {
		b.Run("workers="+strconv.Itoa(w), func(b *testing.B) {
			ctx := experimental.WithCompilationWorkers(context.Background(), w)
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				e, err := New(ctx, Options{CacheDir: "off"})
				if err != nil {
					b.Fatal(err)
				}
				m.Stop()
				_ = e.Close(ctx)
				m.Start()
			}
		})
	}
}
