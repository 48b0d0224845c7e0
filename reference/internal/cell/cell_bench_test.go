package cell

// Benchmarks of the cell runner with a minimal in-package Host. Run with
//
//	go test ./internal/cell -run '^$' -bench . -count 10
//
// and summarise with benchstat; see ../../BENCHMARKS.md.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/sandbox"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

// benchHost is a Host over a catalog of one core tool, noop, that
// returns at once.
type benchHost struct{}

// newBenchTurn is a turn of benchScope with benchHost as its host.
func newBenchTurn(b *testing.B) *Turn {
	b.Helper()
	cat := catalog.Build([]catalog.Tool{{Name: "noop", Description: "Returns at once.", Kind: catalog.Core,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}})
	s := config.Resolve(json.RawMessage(`{"tools":{"codeMode":true}}`), "main").Settings
	return &Turn{Scope: benchScope, Settings: s, Catalog: cat, Host: benchHost{}}
}

var errBenchUnsupported = errors.New("not supported by the benchmark host")

func (benchHost) Note(string, string)                      {}
func (benchHost) Aborted() bool                            { return false }
func (benchHost) Scoped() bool                             { return false }
func (benchHost) Scopes(string) ([]guest.Namespace, error) { return nil, nil }
func (benchHost) WaitAgent(context.Context, json.RawMessage) (json.RawMessage, error) {
	return nil, errBenchUnsupported
}
func (benchHost) SpawnAgent(context.Context, json.RawMessage, Nested) (json.RawMessage, error) {
	return nil, errBenchUnsupported
}
func (benchHost) Namespace(context.Context, json.RawMessage, Nested) (json.RawMessage, error) {
	return nil, errBenchUnsupported
}
func (benchHost) Call(context.Context, catalog.Entry, json.RawMessage, Nested) (ToolResult, error) {
	return ToolResult{Content: json.RawMessage(`[{"type":"text","text":"ok"}]`), Details: json.RawMessage(`{"ok":true}`)}, nil
}

var benchScope = Scope{AgentRunID: "r1", SessionID: "s1", SessionKey: "agent:main:main", AgentID: "main"}

func newBenchRunner(b *testing.B) *Runner {
	b.Helper()
	sb, err := sandbox.New(context.Background(), sandbox.Options{})
	if err != nil {
		b.Fatalf("engine unavailable: %v", err)
	}
	rn := NewRunner(sb, nil)
	b.Cleanup(rn.Close)
	waitPoolFull(rn)
	return rn
}

// waitPoolFull blocks until the runner's guests hold a ready VM and make
// none, so the next exec takes a warm VM and no background VM creation
// competes with it.
func waitPoolFull(rn *Runner) {
	for {
		if st := rn.Stats(); !st.Warming && st.PooledVMs > 0 {
			return
		}
		time.Sleep(50 * time.Microsecond)
	}
}

func execArgs(code, lang string) json.RawMessage {
	m := map[string]any{"code": code}
	if lang != "" {
		m["language"] = lang
	}
	b, _ := json.Marshal(m)
	return b
}

func mustStatus(b *testing.B, res Result, status string) {
	b.Helper()
	if res.Status != status {
		b.Fatalf("status %q, want %q: %+v", res.Status, status, res)
	}
}

const fibSource = `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
return fib(20)`

func nestedSource(n int) string {
	return `let s = 0
for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) s += (await tools.callValue("openclaw:core:noop", {})).ok ? 1 : 0
return s`
}

var execCases = []struct {
	name, code, lang, want string
}{
	{"trivial", "return 1+2", "", "3"},
	{"nested1", nestedSource(1), "", "1"},
	{"nested10", nestedSource(10), "", "10"},
	{"nested100", nestedSource(100), "", "100"},
	{"typescript", "const x: number = 1;\nconst y: number = 2;\nreturn x + y;", "typescript", "3"},
	{"fib20", fibSource, "", "6765"},
}

// BenchmarkExec measures Runner.Exec end to end (parse, prepare, pool, bind,
// configure, run, drive, complete, close). "warm": before each exec the
// timer stops until the pool is full and idle; the exec's own pool.get
// starts a refill that runs beside it. "sustained": back to back, so
// refills compete with the execs. (sandbox's BenchmarkLeg measures a leg
// with nothing beside it, on a fresh and on a hot VM.)
func BenchmarkExec(b *testing.B) {
	for _, tc := range execCases {
		for _, mode := range []string{"warm", "sustained"} {
			if mode == "sustained" && tc.name != "trivial" {
				continue
			}
			b.Run(tc.name+"/"+mode, func(b *testing.B) {
				rn := newBenchRunner(b)
				turn := newBenchTurn(b)
				args := execArgs(tc.code, tc.lang)
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				m := cpumeter.New(b)
				defer m.Report()
				for i := 0; i < b.N; i++ {
					if mode == "warm" {
						m.Stop()
						waitPoolFull(rn)
						m.Start()
					}
					res := rn.Exec(ctx, turn, "call_"+strconv.Itoa(i), args)
					if res.Status != "completed" || string(res.Value) != tc.want {
						b.Fatalf("exec = %+v, want completed %s", res, tc.want)
					}
				}
			})
		}
	}
}

const yieldSource = `const r = await yield_control("pause"); return r.status`

// suspendOne runs an exec that suspends on yield_control and returns its id.
func suspendOne(b *testing.B, rn *Runner, turn *Turn, callID string, args json.RawMessage) string {
	res := rn.Exec(context.Background(), turn, callID, args)
	mustStatus(b, res, "waiting")
	return res.RunID
}

func resumeOne(b *testing.B, rn *Runner, turn *Turn, runID string) {
	res := rn.Wait(context.Background(), turn, "wait_"+runID, json.RawMessage(`{"runId":"`+runID+`"}`))
	if res.Status != "completed" || string(res.Value) != `"yielded"` {
		b.Fatalf("wait = %+v, want completed \"yielded\"", res)
	}
}

// BenchmarkSuspendResume measures `await yield_control()`: "suspend" is the
// exec that ends waiting (snapshot, marshal, compress, store); "resume" the
// wait that completes it (decompress, restore, re-bind, settle, drain,
// complete); "roundtrip" both. Each exec starts with a full, idle pool.
// The suspended run's sizes are reported: raw-B (serialized image) and
// zstd-B (what the store keeps).
func BenchmarkSuspendResume(b *testing.B) {
	args := execArgs(yieldSource, "")
	for _, part := range []string{"suspend", "resume", "roundtrip"} {
		b.Run(part, func(b *testing.B) {
			rn := newBenchRunner(b)
			turn := newBenchTurn(b)
			var raw, z int
			b.ReportAllocs()
			b.ResetTimer()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				m.Stop()
				waitPoolFull(rn)
				if part != "resume" {
					m.Start()
				}
				id := suspendOne(b, rn, turn, "call_"+strconv.Itoa(i), args)
				m.Stop()
				rn.store.mu.Lock()
				r := rn.store.runs[id]
				raw, z = r.stored.RawSize, len(r.stored.Delta)
				rn.store.mu.Unlock()
				if part == "resume" {
					waitPoolFull(rn)
				}
				if part != "suspend" {
					m.Start()
				}
				resumeOne(b, rn, turn, id)
				m.Stop()
			}
			b.ReportMetric(float64(raw), "raw-B")
			b.ReportMetric(float64(z), "zstd-B")
		})
	}
}

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

// BenchmarkSuspended64 suspends MaxSuspendedRuns (64) runs at once and
// reports the Go heap (after GC) and RSS (after returning free memory to
// the OS) they hold per run, and their compressed snapshot bytes per run.
// ns/op is the time to suspend all 64.
func BenchmarkSuspended64(b *testing.B) {
	rn := newBenchRunner(b)
	turn := newBenchTurn(b)
	args := execArgs(yieldSource, "")
	var heap, rss, z float64
	m := cpumeter.New(b)
	defer m.Report()
	for i := 0; i < b.N; i++ {
		m.Stop()
		waitPoolFull(rn)
		debug.FreeOSMemory()
		h0, r0 := heapBytes(), rssBytes(b)
		m.Start()
		for j := 0; j < MaxSuspendedRuns; j++ {
			suspendOne(b, rn, turn, "call_"+strconv.Itoa(j), args)
		}
		m.Stop()
		waitPoolFull(rn) // the pool's own VM is in both readings
		debug.FreeOSMemory()
		h1, r1 := heapBytes(), rssBytes(b)
		heap += float64(int64(h1 - h0))
		rss += float64(int64(r1 - r0))
		rn.store.mu.Lock()
		if len(rn.store.runs) != MaxSuspendedRuns {
			b.Fatalf("%d runs suspended, want %d", len(rn.store.runs), MaxSuspendedRuns)
		}
		for _, r := range rn.store.runs {
			z += float64(len(r.stored.Delta))
		}
		rn.store.mu.Unlock()
		rn.Drop(benchScope.AgentRunID)
		m.Start()
	}
	n := float64(b.N * MaxSuspendedRuns)
	b.ReportMetric(heap/n, "heap-B/run")
	b.ReportMetric(rss/n, "rss-B/run")
	b.ReportMetric(z/n, "zstd-B/run")
}
