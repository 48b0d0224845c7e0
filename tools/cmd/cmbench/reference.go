package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	codemode "github.com/codemodekit/kit/reference"
)

// refRunner drives the reference in process through its public API
// (codemode.New, Runtime.StartTurn, Turn.Call): the figure is the time
// Turn.Call takes, measured around the call.
type refRunner struct {
	wasm  string
	rt    *codemode.Runtime
	turns map[int]*codemode.Turn // by catalog size
	calls atomic.Int64
	// concurrency is how many cells kindThroughput runs at once; cells is
	// how many it runs in all.
	concurrency, cells int
	self               string // this executable, for the memory child
	lastCPU            time.Duration
}

func newRefRunner(wasm string, concurrency, cells int) (*refRunner, error) {
	return newRefRunnerWith(wasm, concurrency, cells, codemode.ProcessIsolation)
}

func newRefRunnerWith(wasm string, concurrency, cells int, iso codemode.Isolation) (*refRunner, error) {
	rt := codemode.New(context.Background(), codemode.Options{WasmPath: wasm, Isolation: iso})
	if err := rt.Available(); err != nil {
		return nil, fmt.Errorf("reference runtime unavailable (run make deps): %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return &refRunner{wasm: wasm, rt: rt, turns: map[int]*codemode.Turn{}, concurrency: concurrency, cells: cells, self: self}, nil
}

func (r *refRunner) close() {
	for _, t := range r.turns {
		t.End()
	}
	r.rt.Close()
}

// noopTool returns at once; every nested call calls it.
func noopTool() codemode.Tool {
	return codemode.Tool{
		Name: "noop", Description: "Returns at once.", Source: codemode.SourceCore,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Execute: func(context.Context, codemode.ToolCall) (codemode.ToolResult, error) {
			res := codemode.TextResult("ok")
			res.Details = json.RawMessage(`{"ok":true}`)
			return res, nil
		},
	}
}

// catalogTools is the generated catalog of n tools plus noop, as reference tools.
func catalogTools(n int) []codemode.Tool {
	tools := []codemode.Tool{noopTool()}
	for _, g := range genCatalog(n) {
		tools = append(tools, codemode.Tool{Name: g.Name, Label: g.Label, Description: g.Description, Source: codemode.SourceCore,
			Parameters: json.RawMessage(g.Parameters), Execute: noopTool().Execute})
	}
	return tools
}

// turnConfig raises maxSnapshotBytes from 10 MiB to 64 MiB on both sides:
// with 10,000 tools in ALL_TOOLS the VM's memory passes 10 MiB, and both
// the reference and OpenClaw check the limit before resolving a bridge
// request (the reference inline, OpenClaw when it snapshots the leg).
var turnConfig = json.RawMessage(`{"tools":{"codeMode":{"enabled":true,"maxSnapshotBytes":` + strconv.Itoa(maxSnapshotBytes) + `}}}`)

const maxSnapshotBytes = 64 << 20

func startTurn(rt *codemode.Runtime, runID string, tools []codemode.Tool) (*codemode.Turn, error) {
	turn, err := rt.StartTurn(context.Background(), codemode.TurnOptions{Config: turnConfig,
		AgentID: "main", SessionID: "s1", SessionKey: "agent:main:main", RunID: runID, Tools: tools})
	if err != nil {
		return nil, err
	}
	if !turn.Active() {
		return nil, fmt.Errorf("code mode is not active")
	}
	return turn, nil
}

func (r *refRunner) turn(catalog int) (*codemode.Turn, error) {
	if t, ok := r.turns[catalog]; ok {
		return t, nil
	}
	t, err := startTurn(r.rt, "r"+strconv.Itoa(catalog), catalogTools(catalog))
	if err != nil {
		return nil, err
	}
	r.turns[catalog] = t
	return t, nil
}

type payload struct {
	Status string          `json:"status"`
	Value  json.RawMessage `json:"value"`
	RunID  string          `json:"runId"`
	Error  string          `json:"error"`
}

func execArgs(code, lang string) json.RawMessage {
	m := map[string]any{"code": code}
	if lang != "" {
		m["language"] = lang
	}
	raw, _ := json.Marshal(m)
	return raw
}

// call runs one exec or wait and returns its payload and duration; the
// process CPU time it took is in r.lastCPU.
func (r *refRunner) call(t *codemode.Turn, name string, args json.RawMessage) (payload, time.Duration, error) {
	id := name + "_" + strconv.FormatInt(r.calls.Add(1), 10)
	c0 := procCPU()
	t0 := time.Now()
	res, err := t.Call(context.Background(), id, name, args)
	d := time.Since(t0)
	r.lastCPU = procCPU() - c0
	if err != nil {
		return payload{}, d, err
	}
	var p payload
	if err := json.Unmarshal(res.Details, &p); err != nil {
		return p, d, fmt.Errorf("details %s: %w", res.Details, err)
	}
	return p, d, nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func want(p payload, status, value string) error {
	if p.Status != status || (value != "" && string(p.Value) != value) {
		return fmt.Errorf("got %s %s (error %q), want %s %s", p.Status, p.Value, p.Error, status, value)
	}
	return nil
}

func (r *refRunner) run(w *workload) (map[string]float64, error) {
	switch w.Kind {
	case kindExec, kindCompute:
		t, err := r.turn(w.Catalog)
		if err != nil {
			return nil, err
		}
		p, d, err := r.call(t, "exec", execArgs(w.Code, w.Lang))
		if err != nil {
			return nil, err
		}
		if err := want(p, "completed", w.Want); err != nil {
			return nil, err
		}
		out := map[string]float64{"ms": ms(d), "ms_cpu": ms(r.lastCPU)}
		if w.Kind == kindCompute {
			out["vm"] = ms(d) // the cell is the VM's time plus well under a millisecond
		}
		return out, nil
	case kindYieldWait:
		t, err := r.turn(0)
		if err != nil {
			return nil, err
		}
		p, d1, err := r.call(t, "exec", execArgs(w.Code, ""))
		if err != nil {
			return nil, err
		}
		if err := want(p, "waiting", ""); err != nil {
			return nil, err
		}
		c1 := r.lastCPU
		settle() // the wait comes from a later model turn, not back to back
		q, d2, err := r.call(t, "wait", json.RawMessage(`{"runId":"`+p.RunID+`"}`))
		if err != nil {
			return nil, err
		}
		if err := want(q, "completed", w.Want); err != nil {
			return nil, err
		}
		return map[string]float64{"suspend": ms(d1), "resume": ms(d2), "suspend_cpu": ms(c1), "resume_cpu": ms(r.lastCPU)}, nil
	case kindThroughput:
		return r.throughput(w)
	case kindMemory:
		return r.memoryChild()
	}
	return nil, fmt.Errorf("unknown workload kind %d", w.Kind)
}

func (r *refRunner) throughput(w *workload) (map[string]float64, error) {
	t, err := r.turn(0)
	if err != nil {
		return nil, err
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, r.concurrency)
	args := execArgs(w.Code, "")
	t0 := time.Now()
	for range r.concurrency {
		wg.Go(func() {
			for next.Add(1) <= int64(r.cells) {
				p, _, err := r.call(t, "exec", args)
				if err == nil {
					err = want(p, "completed", w.Want)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	d := time.Since(t0)
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return map[string]float64{"cps": float64(r.cells) / d.Seconds()}, nil
}

// memoryChild runs the memory workload in a fresh child process (this
// executable with -child-suspended), so the reading is not mixed with this
// process's other runtimes, turns and garbage.
func (r *refRunner) memoryChild() (map[string]float64, error) {
	cmd := exec.Command(r.self, "-child-suspended", strconv.Itoa(suspendedRuns), "-wasm", r.wasm)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("memory child: %w", err)
	}
	var m map[string]float64
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("memory child said %q: %w", out, err)
	}
	return m, nil
}

// childSuspended is the memory child: it holds n suspended runs at once and
// prints the resident-memory delta (MiB), the delta per run (KiB) and the
// Go heap per run (KiB: the stored compressed snapshot and its run), as
// JSON. Both readings are taken after a settle pause and
// debug.FreeOSMemory; the pool's ready VMs are in both.
func childSuspended(wasm string, n int) error {
	rt := codemode.New(context.Background(), codemode.Options{WasmPath: wasm})
	defer rt.Close()
	if err := rt.Available(); err != nil {
		return err
	}
	t, err := startTurn(rt, "mem", []codemode.Tool{noopTool()})
	if err != nil {
		return err
	}
	defer t.Abort()
	r := &refRunner{rt: rt}
	// One cell first, so the engine, the pool and the turn are warm.
	if p, _, err := r.call(t, "exec", execArgs("return 1", "")); err != nil || p.Status != "completed" {
		return fmt.Errorf("warm-up cell: %v %+v", err, p)
	}
	quiesce()
	r0, h0 := rss(), heap()
	m := map[string]float64{}
	for i := 1; i <= n; i++ {
		p, _, err := r.call(t, "exec", execArgs(yieldCode, ""))
		if err != nil {
			return err
		}
		if err := want(p, "waiting", ""); err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
		if slices.Contains(checkpoints, i) {
			quiesce()
			m["curve"+strconv.Itoa(i)] = float64(int64(rss()-r0)) / (1 << 20)
		}
	}
	quiesce()
	r1, h1 := rss(), heap()
	if got := rt.Stats().Suspended; got != n {
		return fmt.Errorf("%d runs suspended, want %d", got, n)
	}
	dr, dh := float64(int64(r1-r0)), float64(int64(h1-h0))
	m["rss"], m["perRun"], m["stored"] = dr/(1<<20), dr/float64(n)/1024, dh/float64(n)/1024
	out, _ := json.Marshal(m)
	_, err = os.Stdout.Write(append(out, '\n'))
	return err
}

// quiesce lets the pool refill finish and returns free memory to the OS.
func quiesce() {
	time.Sleep(50 * time.Millisecond)
	debug.FreeOSMemory()
}

// rss reads this process's resident set from /proc/self/statm.
func rss() uint64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// procCPU is this process's CPU time, user plus system, over all threads:
// it counts background work that overlaps a call (GC, a pool refill), and
// not the time spent waiting for a core on a loaded machine.
func procCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heap() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// checkpoints are the run counts at which the memory workload reads the
// resident set, for the memory plot.
var checkpoints = []int{1, 8, 16, 32, 48, 64}

// settle is the pause before every timed step on either side: background
// work of the previous step (the reference's pool refill, Node's worker
// teardown) finishes first, as it would between two model turns.
func settle() { time.Sleep(settlePause) }

var settlePause = 10 * time.Millisecond

// wasmPath is the npm-installed binary both sides run.
func wasmPath(root string) string {
	return filepath.Join(root, "reference", "node_modules", "quickjs-wasi", "quickjs.wasm")
}
