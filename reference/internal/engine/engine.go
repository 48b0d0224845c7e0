package engine

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// CacheDirEnv names the environment variable that overrides the directory of
// the on-disk compilation cache. The value "off" disables the cache.
const CacheDirEnv = "CODEMODE_CACHE_DIR"

// maxMemoryPages caps every instance's linear memory: the largest
// memoryLimitBytes (1 GiB) plus room for the shadow stack, static data and
// allocator slack. QuickJS's own limit is the primary bound; this is the
// backstop that turns runaway growth into a failed memory.grow.
const maxMemoryPages = (1<<30)/65536 + 256

// Options configure New. The zero value locates the pinned binary, checks the
// pinned digest and uses the default compilation cache.
type Options struct {
	// WasmPath is the binary to load; empty means LocateWasm (the
	// WasmEnv variable, else the embedded binary).
	WasmPath string
	// Digest is the expected sha256 (hex); empty means PinnedDigest.
	Digest string
	// CacheDir is the compilation cache directory; empty means the
	// CacheDirEnv variable or the user cache directory, "off" disables it.
	CacheDir string
	// Interpreter selects wazero's interpreter engine. It is 40x slower and
	// exists only for differential tests; never use it in production.
	Interpreter bool
	// StrictPreemption compiles wazero's termination checks into every
	// wasm loop and function, so a guest reaches a safepoint even inside a
	// long built-in call (preempt.go). CPU-heavy guests run 3-4x slower.
	StrictPreemption bool
}

// An Engine is the compiled quickjs-wasi module, shared by every VM of a
// process. It is safe for concurrent use.
type Engine struct {
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	digest   [32]byte
	path     string
	live     atomic.Int64 // instances not yet closed (LiveVMs)
	preempt  *preempter
	strict   bool // StrictPreemption: VM.Kill closes an instance mid-call
}

// New loads, verifies and compiles the binary. Every failure to obtain a
// usable module is an *UnavailableError.
func New(ctx context.Context, opts Options) (*Engine, error) {
	path := opts.WasmPath
	if path == "" {
		path = LocateWasm()
	}
	digest := opts.Digest
	if digest == "" {
		digest = PinnedDigest
	}
	bin, err := loadVerified(path, digest)
	if err != nil {
		return nil, err
	}
	var cfg wazero.RuntimeConfig
	if opts.Interpreter {
		cfg = wazero.NewRuntimeConfigInterpreter()
	} else {
		cfg = wazero.NewRuntimeConfigCompiler()
	}
	// With StrictPreemption every check exits to Go, a safepoint; a VM's
	// context is cancelled only by VM.Kill, which closes its instance.
	cfg = cfg.WithMemoryLimitPages(maxMemoryPages).WithCloseOnContextDone(opts.StrictPreemption)
	if cache := compilationCache(opts.CacheDir); cache != nil {
		cfg = cfg.WithCompilationCache(cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if err := instantiateHostModules(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("engine: host modules: %w", err)
	}
	compiled, err := rt.CompileModule(ctx, bin)
	if err != nil {
		_ = rt.Close(ctx)
		return nil, &UnavailableError{Reason: "quickjs-wasi wasm does not compile", Err: err}
	}
	for _, name := range requiredExports {
		if _, ok := compiled.ExportedFunctions()[name]; !ok {
			_ = rt.Close(ctx)
			return nil, &UnavailableError{Reason: "quickjs-wasi wasm lacks export " + name}
		}
	}
	e := &Engine{runtime: rt, compiled: compiled, path: path, preempt: newPreempter(), strict: opts.StrictPreemption}
	b, _ := hex.DecodeString(digest)
	copy(e.digest[:], b)
	if err := e.probePreemption(ctx); err != nil {
		_ = rt.Close(ctx)
		return nil, err
	}
	return e, nil
}

// Digest returns the sha256 of the loaded binary. Snapshots are only valid
// for the binary that made them.
func (e *Engine) Digest() [32]byte { return e.digest }

// Path returns the path the binary was loaded from, "" for the embedded
// binary.
func (e *Engine) Path() string { return e.path }

// LiveVMs reports how many VMs of e (fresh or restored) are not closed yet.
// Leak checks compare it before and after a workload.
func (e *Engine) LiveVMs() int { return int(e.live.Load()) }

// Preemptive reports whether the engine bounds the time between interrupt
// polls (preempt.go); it does for the pinned binary.
func (e *Engine) Preemptive() bool { return e.preempt.enabled }

// Close releases the runtime and every VM still open.
func (e *Engine) Close(ctx context.Context) error { return e.runtime.Close(ctx) }

var (
	sharedMu sync.Mutex
	shared   = map[Options]*Engine{}
)

// Shared returns a process-wide Engine for opts, compiling it on first use.
// Shared engines are never closed. Failures are not cached, so a binary
// installed later is picked up by the next call.
func Shared(ctx context.Context, opts Options) (*Engine, error) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if e, ok := shared[opts]; ok {
		return e, nil
	}
	e, err := New(ctx, opts)
	if err != nil {
		return nil, err
	}
	shared[opts] = e
	return e, nil
}

// CacheDir resolves Options.CacheDir as New does: dir itself, else the
// CacheDirEnv variable, else a directory under the user cache directory;
// "off" when there is none.
func CacheDir(dir string) string {
	if dir == "" {
		dir = os.Getenv(CacheDirEnv)
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "off"
		}
		dir = filepath.Join(base, "codemodekit", "wazero")
	}
	return dir
}

func compilationCache(dir string) wazero.CompilationCache {
	dir = CacheDir(dir)
	if dir == "off" {
		return nil
	}
	cache, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cache
}

// instantiateHostModules registers the env and wasi_snapshot_preview1
// imports once per runtime. Each host function finds its VM through the call
// context.
func instantiateHostModules(ctx context.Context, rt wazero.Runtime) error {
	i32 := api.ValueTypeI32
	i64 := api.ValueTypeI64
	env := rt.NewHostModuleBuilder("env")
	fn := func(name string, f api.GoModuleFunc, params, results []api.ValueType) {
		env.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	fn("host_call", hostCall, []api.ValueType{i32, i32, i32, i32, i32}, []api.ValueType{i32})
	fn("host_interrupt", hostInterrupt, nil, []api.ValueType{i32})
	fn("host_promise_rejection", hostPromiseRejection, []api.ValueType{i32, i32, i32}, nil)
	fn("host_module_normalize", hostModuleRefused, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("host_module_load", hostModuleRefused, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn("host_get_timezone_offset", hostTimezoneOffset, []api.ValueType{i32, i32}, []api.ValueType{i32})
	if _, err := env.Instantiate(ctx); err != nil {
		return err
	}
	wasi := rt.NewHostModuleBuilder("wasi_snapshot_preview1")
	wfn := func(name string, f api.GoModuleFunc, params, results []api.ValueType) {
		wasi.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	wfn("clock_time_get", wasiClockTimeGet, []api.ValueType{i32, i64, i32}, []api.ValueType{i32})
	wfn("fd_close", wasiNoSys, []api.ValueType{i32}, []api.ValueType{i32})
	wfn("fd_fdstat_get", wasiFdstatGet, []api.ValueType{i32, i32}, []api.ValueType{i32})
	wfn("fd_seek", wasiNoSys, []api.ValueType{i32, i64, i32, i32}, []api.ValueType{i32})
	wfn("fd_write", wasiFdWrite, []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32})
	wfn("random_get", wasiRandomGet, []api.ValueType{i32, i32}, []api.ValueType{i32})
	_, err := wasi.Instantiate(ctx)
	return err
}
