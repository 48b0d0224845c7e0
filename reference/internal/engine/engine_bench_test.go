package engine

// Benchmarks of the engine layer. Run with
//
//	go test ./internal/engine -run '^$' -bench . -count 10
//
// and summarise with benchstat; see ../../BENCHMARKS.md.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

// benchSmallProgram leaves a VM with one pending promise whose continuation
// calls a host function: the smallest state that exercises restore+resume.
const benchSmallProgram = `
globalThis.out = "pending";
globalThis.p = new Promise(r => { globalThis.settle = r }).then(v => { out = "got " + v + " via " + hostTag() });
`

// benchDataProgram is a suspended run with data: 2000 small objects and a
// pending promise.
const benchDataProgram = `
globalThis.data = Array.from({length: 2000}, (_, i) => ({i, s: "item" + i}));
globalThis.out = "pending";
globalThis.p = new Promise(r => { globalThis.settle = r }).then(v => { out = "got " + v + " via " + hostTag() + " n=" + data.length });
`

var benchStates = []struct{ name, src string }{
	{"small", benchSmallProgram},
	{"data2000", benchDataProgram},
}

func benchEng(b *testing.B) *Engine {
	b.Helper()
	e, err := Shared(context.Background(), Options{})
	if err != nil {
		b.Fatalf("engine unavailable: %v", err)
	}
	return e
}

func benchVM(b *testing.B) *VM {
	b.Helper()
	vm, err := benchEng(b).NewVM(context.Background(), Limits{MemoryBytes: 64 << 20})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(vm.Close)
	return vm
}

func bindTag(vm *VM, tag string) {
	vm.Bind("tag", func(*HostCall) (any, error) { return tag, nil })
}

// benchStateVM returns a VM that ran src with hostTag defined.
func benchStateVM(b *testing.B, src string) *VM {
	b.Helper()
	vm := benchVM(b)
	bindTag(vm, "original")
	if err := vm.DefineHostFunction("hostTag", "tag", 0); err != nil {
		b.Fatal(err)
	}
	if err := vm.Eval(src, "state.js"); err != nil {
		b.Fatal(err)
	}
	return vm
}

func benchWasmBytes(b *testing.B) []byte {
	b.Helper()
	return EmbeddedWasm()
}

// BenchmarkCompile measures New: read + sha256 + host modules + compile.
// "off" uses no compilation cache; "freshdir" a new empty cache directory
// per iteration (a miss that also writes the cache); "cached" a directory
// filled beforehand, read through a new cache object as a new process would.
func BenchmarkCompile(b *testing.B) {
	ctx := context.Background()
	b.Run("cold/off", func(b *testing.B) {
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
	b.Run("cold/freshdir", func(b *testing.B) {
		root := b.TempDir()
		m := cpumeter.New(b)
		defer m.Report()
		for i := 0; i < b.N; i++ {
			m.Stop()
			dir := root + "/" + strconv.Itoa(i)
			m.Start()
			e, err := New(ctx, Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			m.Stop()
			_ = e.Close(ctx)
			_ = os.RemoveAll(dir)
			m.Start()
		}
	})
	b.Run("cached", func(b *testing.B) {
		dir := b.TempDir()
		e, err := New(ctx, Options{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		_ = e.Close(ctx)
		b.ResetTimer()
		m := cpumeter.New(b)
		defer m.Report()
		for i := 0; i < b.N; i++ {
			e, err := New(ctx, Options{CacheDir: dir})
			if err != nil {
				b.Fatal(err)
			}
			m.Stop()
			_ = e.Close(ctx)
			m.Start()
		}
	})
}

// BenchmarkVerifyWasm isolates the sha256 check New does on every start.
func BenchmarkVerifyWasm(b *testing.B) {
	p := filepath.Join(b.TempDir(), "quickjs.wasm")
	if err := os.WriteFile(p, benchWasmBytes(b), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(benchWasmBytes(b))))
	m := cpumeter.New(b)
	defer m.Report()
	for i := 0; i < b.N; i++ {
		if _, err := readVerified(p, PinnedDigest); err != nil {
			b.Fatal(err)
		}
	}
}

// closeBatch is how many VMs a benchmark keeps before closing them with the
// timer stopped.
const closeBatch = 64

// A vmBatch keeps the VMs a benchmark made and closes them closeBatch at a
// time with the timer and the CPU meter stopped, so closing is not
// measured.
type vmBatch []*VM

func (v *vmBatch) add(m *cpumeter.Meter, vm *VM) {
	*v = append(*v, vm)
	if len(*v) == closeBatch {
		m.Stop()
		v.close()
		m.Start()
	}
}

func (v *vmBatch) close() {
	for _, vm := range *v {
		vm.Close()
	}
	*v = (*v)[:0]
}

// BenchmarkNewVM measures instantiate + _initialize + qjs_init + limits.
// Closing is excluded (done in batches with the timer stopped).
func BenchmarkNewVM(b *testing.B) {
	e := benchEng(b)
	ctx := context.Background()
	var batch vmBatch
	defer batch.close()
	b.ReportAllocs()
	m := cpumeter.New(b)
	defer m.Report()
	for i := 0; i < b.N; i++ {
		vm, err := e.NewVM(ctx, Limits{MemoryBytes: 64 << 20})
		if err != nil {
			b.Fatal(err)
		}
		batch.add(m, vm)
	}
}

// BenchmarkNewVMClose measures a VM's whole life without guest work: NewVM
// then Close. Its difference from BenchmarkNewVM is the cost of Close, which
// the cell runner pays before it delivers a leg's result.
func BenchmarkNewVMClose(b *testing.B) {
	e := benchEng(b)
	ctx := context.Background()
	b.ReportAllocs()
	m := cpumeter.New(b)
	defer m.Report()
	for i := 0; i < b.N; i++ {
		vm, err := e.NewVM(ctx, Limits{MemoryBytes: 64 << 20})
		if err != nil {
			b.Fatal(err)
		}
		vm.Close()
	}
}

// BenchmarkEval measures evaluating `1+2`: "discard" is VM.Eval (copy in,
// qjs_eval, exception check, free); "read" also reads the result as a string
// like the probe's "eval + read + free".
func BenchmarkEval(b *testing.B) {
	b.Run("discard", func(b *testing.B) {
		vm := benchVM(b)
		b.ReportAllocs()
		m := cpumeter.New(b)
		defer m.Report()
		for i := 0; i < b.N; i++ {
			if err := vm.Eval("1+2", "bench.js"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		vm := benchVM(b)
		b.ReportAllocs()
		m := cpumeter.New(b)
		defer m.Report()
		for i := 0; i < b.N; i++ {
			if err := vm.enter(); err != nil {
				b.Fatal(err)
			}
			box, err := vm.eval("1+2", "bench.js")
			if err != nil {
				b.Fatal(err)
			}
			s, _, err := vm.readString(box)
			vm.free(box)
			vm.exit()
			if err != nil || s != "3" {
				b.Fatalf("1+2 = %q, %v", s, err)
			}
		}
	})
}

// BenchmarkHostCall measures guest -> host -> guest round trips. "eval" is one
// Eval of `hostAdd(1,2)`; "loop1000" evaluates a JS loop of 1000 calls and
// reports the cost per call.
func BenchmarkHostCall(b *testing.B) {
	setup := func(b *testing.B) *VM {
		vm := benchVM(b)
		vm.Bind("add", func(c *HostCall) (any, error) { return c.Args[0].Num + c.Args[1].Num, nil })
		if err := vm.DefineHostFunction("hostAdd", "add", 2); err != nil {
			b.Fatal(err)
		}
		return vm
	}
	b.Run("eval", func(b *testing.B) {
		vm := setup(b)
		b.ReportAllocs()
		m := cpumeter.New(b)
		defer m.Report()
		for i := 0; i < b.N; i++ {
			if err := vm.Eval("hostAdd(1,2)", "bench.js"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("loop1000", func(b *testing.B) {
		vm := setup(b)
		b.ReportAllocs()
		m := cpumeter.New(b)
		defer m.Report()
		for i := 0; i < b.N; i++ {
			if err := vm.Eval("for (let i = 0; i < 1000; i++) hostAdd(i, 1)", "bench.js"); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/call")
	})
}

// BenchmarkFib measures a compute-bound guest: fib(20) and fib(25).
func BenchmarkFib(b *testing.B) {
	for _, n := range []int{20, 25} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			vm := benchVM(b)
			if err := vm.Eval(`function fib(n){return n<2?n:fib(n-1)+fib(n-2)}`, "fib.js"); err != nil {
				b.Fatal(err)
			}
			src := "fib(" + strconv.Itoa(n) + ")"
			b.ResetTimer()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				if err := vm.Eval(src, "bench.js"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSnapshot measures capturing a VM's state (memory copy + pointers).
func BenchmarkSnapshot(b *testing.B) {
	for _, st := range benchStates {
		b.Run(st.name, func(b *testing.B) {
			vm := benchStateVM(b, st.src)
			b.ReportAllocs()
			var size int
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				s, err := vm.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				size = len(s.Memory)
			}
			b.ReportMetric(float64(size), "mem-B")
		})
	}
}

// BenchmarkMarshalCompress measures MarshalBinary + Compress and reports the
// compressed size of one snapshot.
func BenchmarkMarshalCompress(b *testing.B) {
	for _, st := range benchStates {
		b.Run(st.name, func(b *testing.B) {
			s, err := benchStateVM(b, st.src).Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var raw, z int
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				bin, err := s.MarshalBinary()
				if err != nil {
					b.Fatal(err)
				}
				out, err := Compress(bin)
				if err != nil {
					b.Fatal(err)
				}
				raw, z = len(bin), len(out)
			}
			b.ReportMetric(float64(raw), "raw-B")
			b.ReportMetric(float64(z), "zstd-B")
		})
	}
}

// suspended returns the compressed image of a VM in state src.
func suspended(b *testing.B, src string) (z []byte, raw int) {
	b.Helper()
	return compressed(b, imageOf(b, benchStateVM(b, src)))
}

// BenchmarkDecompressRestore measures Decompress + UnmarshalBinary + Restore
// (instantiate, grow, write, pointers, limits). Closing the restored VMs is
// excluded. The "decompress" and "restore" sub-benchmarks split the cost.
func BenchmarkDecompressRestore(b *testing.B) {
	e := benchEng(b)
	ctx := context.Background()
	for _, st := range benchStates {
		z, raw := suspended(b, st.src)
		b.Run(st.name+"/full", func(b *testing.B) {
			var batch vmBatch
			defer batch.close()
			b.ReportAllocs()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				bin, err := Decompress(z, raw)
				if err != nil {
					b.Fatal(err)
				}
				var s Snapshot
				if err := s.UnmarshalBinary(bin); err != nil {
					b.Fatal(err)
				}
				vm, err := e.Restore(ctx, &s, Limits{MemoryBytes: 64 << 20})
				if err != nil {
					b.Fatal(err)
				}
				batch.add(m, vm)
			}
		})
		b.Run(st.name+"/decompress", func(b *testing.B) {
			b.ReportAllocs()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				if _, err := Decompress(z, raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(st.name+"/restore", func(b *testing.B) {
			bin, err := Decompress(z, raw)
			if err != nil {
				b.Fatal(err)
			}
			var s Snapshot
			if err := s.UnmarshalBinary(bin); err != nil {
				b.Fatal(err)
			}
			var batch vmBatch
			defer batch.close()
			b.ReportAllocs()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				vm, err := e.Restore(ctx, &s, Limits{MemoryBytes: 64 << 20})
				if err != nil {
					b.Fatal(err)
				}
				batch.add(m, vm)
			}
		})
	}
}

// BenchmarkInstantiate isolates the first step of NewVM and Restore: a new
// anonymous instance of the compiled module.
func BenchmarkInstantiate(b *testing.B) {
	e := benchEng(b)
	ctx := context.Background()
	var batch vmBatch
	defer batch.close()
	b.ReportAllocs()
	m := cpumeter.New(b)
	defer m.Report()
	for i := 0; i < b.N; i++ {
		vm, err := e.instantiate(ctx)
		if err != nil {
			b.Fatal(err)
		}
		batch.add(m, vm)
	}
}

// BenchmarkRestoreResume measures what a wait does after decompression:
// Restore + re-bind the host function + settle the pending promise (a call
// into the guest) + drain the job queue, whose continuation calls the host.
// "compressed" adds Decompress + UnmarshalBinary in front.
func BenchmarkRestoreResume(b *testing.B) {
	e := benchEng(b)
	ctx := context.Background()
	for _, st := range benchStates {
		z, raw := suspended(b, st.src)
		bin, err := Decompress(z, raw)
		if err != nil {
			b.Fatal(err)
		}
		var snap Snapshot
		if err := snap.UnmarshalBinary(bytes.Clone(bin)); err != nil {
			b.Fatal(err)
		}
		resume := func(b *testing.B, s *Snapshot) *VM {
			vm, err := e.Restore(ctx, s, Limits{MemoryBytes: 64 << 20})
			if err != nil {
				b.Fatal(err)
			}
			bindTag(vm, "restored")
			if _, err := vm.Call("settle", "v"); err != nil {
				b.Fatal(err)
			}
			if err := vm.DrainJobs(); err != nil {
				b.Fatal(err)
			}
			return vm
		}
		run := func(b *testing.B, body func() *VM) {
			// The continuation ran in a restored VM.
			first := body()
			out, err := first.EvalCall("out", "o.js", "String")
			first.Close()
			if err != nil || !strings.HasPrefix(out, "got v via restored") {
				b.Fatalf("restored out = %q, %v", out, err)
			}
			b.ResetTimer()
			var batch vmBatch
			defer batch.close()
			b.ReportAllocs()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				batch.add(m, body())
			}
		}
		b.Run(st.name+"/image", func(b *testing.B) {
			run(b, func() *VM { return resume(b, &snap) })
		})
		b.Run(st.name+"/compressed", func(b *testing.B) {
			run(b, func() *VM {
				bin, err := Decompress(z, raw)
				if err != nil {
					b.Fatal(err)
				}
				var s Snapshot
				if err := s.UnmarshalBinary(bin); err != nil {
					b.Fatal(err)
				}
				return resume(b, &s)
			})
		})
	}
}

// rssBytes reads the resident set size from /proc/self/statm.
func rssBytes(b *testing.B) uint64 {
	b.Helper()
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		b.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(raw))
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

func heapBytes() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// memPerVM is how many live VMs each memory measurement holds.
const memPerVM = 50

// BenchmarkMemoryPerVM holds memPerVM live VMs and reports the Go heap and
// RSS growth per VM (both readings after a GC that also returns free memory
// to the OS). ns/op is the time to make the memPerVM VMs.
func BenchmarkMemoryPerVM(b *testing.B) {
	e := benchEng(b)
	ctx := context.Background()
	z, raw := suspended(b, benchDataProgram)
	bin, err := Decompress(z, raw)
	if err != nil {
		b.Fatal(err)
	}
	var snap Snapshot
	if err := snap.UnmarshalBinary(bin); err != nil {
		b.Fatal(err)
	}
	makers := []struct {
		name string
		make func() (*VM, error)
	}{
		{"fresh", func() (*VM, error) { return e.NewVM(ctx, Limits{MemoryBytes: 64 << 20}) }},
		{"restored-data2000", func() (*VM, error) { return e.Restore(ctx, &snap, Limits{MemoryBytes: 64 << 20}) }},
	}
	for _, mk := range makers {
		b.Run(mk.name, func(b *testing.B) {
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
					vm, err := mk.make()
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

// BenchmarkPacing measures what the preempter costs compute-bound guests:
// the same programs with it on and off (QuickJS's own poll every 10000
// counts only). The engine is shared, so the flag is restored after.
func BenchmarkPacing(b *testing.B) {
	progs := []struct{ name, src string }{
		{"loop", `(function () { let n = 0; for (let i = 0; i < 1e6; i++) n += i; return n })()`},
		{"fib22", `fib(22)`},
	}
	for _, p := range progs {
		for _, on := range []bool{true, false} {
			name := p.name + "/preempter=off"
			if on {
				name = p.name + "/preempter=on"
			}
			b.Run(name, func(b *testing.B) {
				e := benchEng(b)
				if !e.preempt.enabled {
					b.Skip("the preempter is off for this binary")
				}
				vm := benchVM(b)
				if err := vm.Eval(`function fib(n){return n<2?n:fib(n-1)+fib(n-2)}`, "fib.js"); err != nil {
					b.Fatal(err)
				}
				e.preempt.enabled = on
				defer func() { e.preempt.enabled = true }()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := vm.Eval(p.src, "bench.js"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
