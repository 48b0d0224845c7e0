package codemode

// End-to-end benchmarks through the public API (New, StartTurn, Turn.Call).
// Run with
//
//	go test . -run '^$' -bench . -count 10
//
// and summarise with benchstat; see BENCHMARKS.md.

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

// poolSettle is how long a "warm" benchmark waits, timer stopped, before
// each exec so the VM pool's background refill (one pooled VM, about 2-3 ms
// on the reference machine; see BenchmarkPoolFresh in internal/cell) has
// finished and the exec takes a warm VM with no refill competing.
const poolSettle = 10 * time.Millisecond

func benchRuntime(b *testing.B) *Runtime {
	b.Helper()
	return benchRuntimeWith(b, ProcessIsolation)
}

func benchRuntimeWith(b *testing.B, iso Isolation) *Runtime {
	b.Helper()
	rt := New(context.Background(), Options{Isolation: iso})
	if err := rt.Available(); err != nil {
		b.Fatalf("runtime unavailable: %v", err)
	}
	b.Cleanup(rt.Close)
	return rt
}

// noopTool is a core tool that returns at once.
func noopTool() Tool {
	return Tool{
		Name: "noop", Description: "Returns at once.", Source: SourceCore,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Execute: func(context.Context, ToolCall) (ToolResult, error) {
			r := TextResult("ok")
			r.Details = json.RawMessage(`{"ok":true}`)
			return r, nil
		},
	}
}

func benchTurn(b *testing.B, rt *Runtime, runID string) *Turn {
	b.Helper()
	turn, err := rt.StartTurn(context.Background(), TurnOptions{Config: json.RawMessage(`{"tools":{"codeMode":true}}`),
		AgentID: "main", SessionID: "s1", SessionKey: "agent:main:main", RunID: runID, Tools: []Tool{noopTool()}})
	if err != nil {
		b.Fatal(err)
	}
	if !turn.Active() {
		b.Fatal("code mode is not active")
	}
	return turn
}

type benchPayload struct {
	Status string          `json:"status"`
	Value  json.RawMessage `json:"value"`
	RunID  string          `json:"runId"`
	Error  string          `json:"error"`
}

func benchCall(b *testing.B, turn *Turn, id, name string, args json.RawMessage) benchPayload {
	res, err := turn.Call(context.Background(), id, name, args)
	if err != nil {
		b.Fatal(err)
	}
	var p benchPayload
	if err := json.Unmarshal(res.Details, &p); err != nil {
		b.Fatalf("details %s: %v", res.Details, err)
	}
	return p
}

func benchExecArgs(code, lang string) json.RawMessage {
	m := map[string]any{"code": code}
	if lang != "" {
		m["language"] = lang
	}
	raw, _ := json.Marshal(m)
	return raw
}

func benchNested(n int) string {
	return `let s = 0
for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) s += (await tools.callValue("openclaw:core:noop", {})).ok ? 1 : 0
return s`
}

var turnExecCases = []struct {
	name, code, lang, want string
}{
	{"trivial", "return 1+2", "", "3"},
	{"nested1", benchNested(1), "", "1"},
	{"nested10", benchNested(10), "", "10"},
	{"nested100", benchNested(100), "", "100"},
	{"typescript", "const x: number = 1;\nconst y: number = 2;\nreturn x + y;", "typescript", "3"},
	{"fib20", "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }\nreturn fib(20)", "", "6765"},
}

// BenchmarkTurnExec measures one exec call through Turn.Call: transcript,
// trajectory, hooks, the cell runner and the result payload, with guests in
// worker processes (process) and in this process (in-process). "warm" waits
// poolSettle (timer stopped) before each call; "cold" also evicts the CPU
// caches then (evictCaches), as cmbench's alternation with the Node side
// does and as a gateway's model turn between two calls does; "sustained"
// calls back to back, so pool refills compete with the calls.
func BenchmarkTurnExec(b *testing.B) {
	for _, tc := range turnExecCases {
		for _, mode := range []string{"warm", "cold", "sustained"} {
			if (mode == "sustained" || mode == "cold") && tc.name != "trivial" {
				continue
			}
			for _, iso := range []Isolation{ProcessIsolation, InProcess} {
				b.Run(tc.name+"/"+mode+"/"+isolationName(iso), func(b *testing.B) { benchTurnExec(b, tc.code, tc.lang, tc.want, mode, iso) })
			}
		}
	}
}

func benchTurnExec(b *testing.B, code, lang, want, mode string, iso Isolation) {
	rt := benchRuntimeWith(b, iso)
	turn := benchTurn(b, rt, "r1")
	defer turn.End()
	args := benchExecArgs(code, lang)
	time.Sleep(poolSettle)
	b.ReportAllocs()
	b.ResetTimer()
	m := cpumeter.New(b)
	defer m.Report()
	for i := 0; i < b.N; i++ {
		if mode == "warm" || mode == "cold" {
			m.Stop()
			time.Sleep(poolSettle)
			if mode == "cold" {
				evictCaches()
			}
			m.Start()
		}
		p := benchCall(b, turn, "call_"+strconv.Itoa(i), "exec", args)
		if p.Status != "completed" || string(p.Value) != want {
			b.Fatalf("exec = %+v, want completed %s", p, want)
		}
	}
}

// evictBuffer is larger than the last-level cache of the reference
// machine's share of its processor.
var evictBuffer []byte

// evictCaches writes one byte of every cache line of evictBuffer, so the
// next call finds none of its code or data in the CPU caches.
func evictCaches() {
	if evictBuffer == nil {
		evictBuffer = make([]byte, 64<<20)
	}
	for i := 0; i < len(evictBuffer); i += 64 {
		evictBuffer[i]++
	}
}

const benchYield = `const r = await yield_control("pause"); return r.status`

// BenchmarkTurnYieldWait measures `await yield_control()` end to end:
// "suspend" the exec that returns waiting, "resume" the wait that completes
// it, "roundtrip" both back to back. The pool settles before each exec (and,
// for "resume", before the wait).
func BenchmarkTurnYieldWait(b *testing.B) {
	args := benchExecArgs(benchYield, "")
	for _, part := range []string{"suspend", "resume", "roundtrip"} {
		b.Run(part, func(b *testing.B) {
			rt := benchRuntime(b)
			turn := benchTurn(b, rt, "r1")
			defer turn.End()
			b.ReportAllocs()
			b.ResetTimer()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				m.Stop()
				time.Sleep(poolSettle)
				if part != "resume" {
					m.Start()
				}
				p := benchCall(b, turn, "call_"+strconv.Itoa(i), "exec", args)
				m.Stop()
				if p.Status != "waiting" {
					b.Fatalf("exec = %+v, want waiting", p)
				}
				if part == "resume" {
					time.Sleep(poolSettle)
				}
				if part != "suspend" {
					m.Start()
				}
				w := benchCall(b, turn, "wait_"+strconv.Itoa(i), "wait", json.RawMessage(`{"runId":"`+p.RunID+`"}`))
				m.Stop()
				if w.Status != "completed" || string(w.Value) != `"yielded"` {
					b.Fatalf("wait = %+v, want completed \"yielded\"", w)
				}
			}
		})
	}
}

func benchRSS(b *testing.B) uint64 {
	b.Helper()
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		b.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(raw))
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

func benchHeap() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkTurnSuspended64 holds 64 suspended runs (the per-process cap) at
// once and reports what each costs the host process: Go heap after GC and
// RSS after returning free memory to the OS, both as deltas over the
// baseline, with guests in worker processes and in process. ns/op is the
// time to suspend all 64 back to back.
func BenchmarkTurnSuspended64(b *testing.B) {
	for _, iso := range []Isolation{ProcessIsolation, InProcess} {
		b.Run(isolationName(iso), func(b *testing.B) { benchSuspended64(b, iso) })
	}
}

// isolationName names iso in benchmark names, as ParseIsolation reads it.
func isolationName(iso Isolation) string {
	if iso == InProcess {
		return "in-process"
	}
	return "process"
}

func benchSuspended64(b *testing.B, iso Isolation) {
	const runs = 64
	rt := benchRuntimeWith(b, iso)
	args := benchExecArgs(benchYield, "")
	var heap, rss float64
	m := cpumeter.New(b)
	defer m.Report()
	for i := 0; i < b.N; i++ {
		m.Stop()
		turn := benchTurn(b, rt, "r"+strconv.Itoa(i))
		time.Sleep(poolSettle)
		debug.FreeOSMemory()
		h0, r0 := benchHeap(), benchRSS(b)
		m.Start()
		for j := 0; j < runs; j++ {
			p := benchCall(b, turn, "call_"+strconv.Itoa(j), "exec", args)
			if p.Status != "waiting" {
				b.Fatalf("exec %d = %+v, want waiting", j, p)
			}
		}
		m.Stop()
		time.Sleep(poolSettle) // the pool's own VM is in both readings
		debug.FreeOSMemory()
		h1, r1 := benchHeap(), benchRSS(b)
		heap += float64(int64(h1 - h0))
		rss += float64(int64(r1 - r0))
		if n := rt.Stats().Suspended; n != runs {
			b.Fatalf("%d runs suspended, want %d", n, runs)
		}
		turn.Abort()
		m.Start()
	}
	b.ReportMetric(heap/float64(b.N*runs), "heap-B/run")
	b.ReportMetric(rss/float64(b.N*runs), "rss-B/run")
}
