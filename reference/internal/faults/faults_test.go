package faults

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/fakemcp"
	"github.com/codemodekit/kit/fakes/faketools"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/engine"
)

// Stdio MCP servers are this test binary re-executed (the go-sdk fork-exec
// trick): with envServe set, TestMain writes its process id to the file
// "pid" of its working directory and serves the fakemcp definition file
// envServe names over stdin and stdout.
const envServe = "FAULTS_TEST_FAKEMCP"

func TestMain(m *testing.M) {
	if path := os.Getenv(envServe); path != "" {
		_ = os.WriteFile("pid", []byte(strconv.Itoa(os.Getpid())), 0o600)
		if err := fakemcp.ServeFile(context.Background(), path, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var warmOnce sync.Once

// warm runs one suspend and resume in a throwaway runtime, so that the
// process-wide workers started on first use (the compiled engine, the zstd
// codec) exist before a test counts goroutines.
func warm(t *testing.T) {
	t.Helper()
	warmOnce.Do(func() {
		rt := codemode.New(context.Background(), codemode.Options{})
		defer rt.Close()
		turn := start(t, rt, `{"tools":{"codeMode":true}}`, probe(new(atomic.Int64)))
		res := call(t, turn, "exec", map[string]any{"code": `await yield_control(); return 1`})
		call(t, turn, "wait", map[string]any{"runId": res["runId"]})
		turn.End()
	})
}

// A leakCheck holds the process's resources before a test's workload.
type leakCheck struct {
	goroutines int
}

func startLeakCheck(t *testing.T) leakCheck {
	t.Helper()
	warm(t)
	return leakCheck{goroutines: goroutines(t)}
}

// goroutines counts the process's goroutines but the two that each of the
// shared pool's worker processes has (the one that reaps it, and os/exec's
// copy of its standard error): how many workers the pool keeps varies with
// what ran before, and they are the pool's, not a test's.
func goroutines(t *testing.T) int {
	return runtime.NumGoroutine() - 2*sharedPool(t).Stats().Workers
}

// settle polls cond until it holds, for at most fifteen seconds.
func settle(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Errorf("%s did not settle within 15s", what)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// otherVMs returns the guest VMs in use in the process once their count is
// stable, before a test creates its runtime: with the default isolation,
// the legs in progress on the process's shared workers.
func otherVMs(t *testing.T) int {
	t.Helper()
	probe := codemode.New(context.Background(), codemode.Options{})
	defer probe.Close()
	prev := -1
	settle(t, "the VM count", func() bool {
		n := probe.Stats().LiveVMs
		stable := n == prev
		prev = n
		time.Sleep(20 * time.Millisecond)
		return stable
	})
	return prev
}

// atRest checks rt before it is closed: no suspended run, no leg, and no VM
// but its warm pool beyond the other VMs of the process.
func atRest(t *testing.T, rt *codemode.Runtime, other int) {
	t.Helper()
	var last codemode.Stats
	ok := false
	deadline := time.Now().Add(15 * time.Second)
	for !ok && time.Now().Before(deadline) {
		last = rt.Stats()
		ok = last.Suspended == 0 && last.Legs == 0 && last.LiveVMs-last.PooledVMs == other
		time.Sleep(10 * time.Millisecond)
	}
	if !ok {
		t.Errorf("runtime not at rest: %+v (want 0 suspended, 0 legs, %d VMs beyond its pool)", last, other)
	}
}

// closed closes rt and checks that none of its VMs survive: no leg of it
// is left on the shared workers.
func closed(t *testing.T, rt *codemode.Runtime, other int) {
	t.Helper()
	rt.Close()
	probe := codemode.New(context.Background(), codemode.Options{})
	defer probe.Close()
	settle(t, "closing the runtime", func() bool { return probe.Stats().LiveVMs == other })
	if n := probe.Stats().LiveVMs; n != other {
		t.Errorf("%d VMs live after Close, want %d", n, other)
	}
}

// verify checks, after every runtime and server of the test is closed, that
// the goroutines of the workload are gone.
func (c leakCheck) verify(t *testing.T) {
	t.Helper()
	n := 0
	settle(t, "the goroutine count", func() bool { n = goroutines(t); return n <= c.goroutines })
	if n > c.goroutines {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines, want at most %d:\n%s", n, c.goroutines, buf[:runtime.Stack(buf, true)])
	}
}

func start(t *testing.T, rt *codemode.Runtime, cfg string, tools ...codemode.Tool) *codemode.Turn {
	t.Helper()
	turn, err := rt.StartTurn(context.Background(), codemode.TurnOptions{Config: json.RawMessage(cfg), AgentID: "main",
		SessionID: "s1", SessionKey: "agent:main:main", RunID: "r1", Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(turn.End)
	return turn
}

func call(t *testing.T, turn *codemode.Turn, name string, args any) map[string]any {
	t.Helper()
	return callCtx(context.Background(), t, turn, name, args)
}

func callCtx(ctx context.Context, t *testing.T, turn *codemode.Turn, name string, args any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(args)
	res, err := turn.Call(ctx, "call_"+name, name, b)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(res.Details, &out); err != nil {
		t.Fatalf("details %s: %v", res.Details, err)
	}
	return out
}

// pick keeps the members of a payload that a test compares.
func pick(p map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := p[k]; ok {
			out[k] = v
		}
	}
	return out
}

// probe is a core tool that counts its calls: an engine that fails closed
// never runs it.
func probe(calls *atomic.Int64) codemode.Tool {
	return codemode.Tool{Name: "probe", Source: codemode.SourceCore, Description: "Counts calls.",
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Execute: func(context.Context, codemode.ToolCall) (codemode.ToolResult, error) {
			calls.Add(1)
			return codemode.TextResult("ran"), nil
		}}
}

// TestFault_EngineUnavailable: with the quickjs-wasi binary missing,
// truncated, or altered but carrying a matching digest, code mode still
// shows exactly exec and wait, and every exec fails closed with
// runtime_unavailable (CM-17.13): no guest code and no tool runs, nothing
// falls back to direct tools.
func TestFault_EngineUnavailable(t *testing.T) {
	bin := engine.EmbeddedWasm()
	dir := t.TempDir()
	truncated := filepath.Join(dir, "truncated.wasm")
	if err := os.WriteFile(truncated, bin[:len(bin)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	// A corrupt body with a matching digest: the digest check passes and
	// the module does not compile.
	corrupt := append([]byte(nil), bin...)
	for i := 8; i < len(corrupt); i += 97 {
		corrupt[i] ^= 0x5a
	}
	corruptPath := filepath.Join(dir, "corrupt.wasm")
	if err := os.WriteFile(corruptPath, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(corrupt)
	tests := []struct {
		name   string
		opts   codemode.Options
		reason string // a word the reason must contain
	}{
		{name: "missing", opts: codemode.Options{WasmPath: filepath.Join(dir, "absent.wasm")}},
		{name: "truncated", opts: codemode.Options{WasmPath: truncated}},
		{name: "corrupt with a matching digest", opts: codemode.Options{WasmPath: corruptPath, WasmDigest: hex.EncodeToString(sum[:])}, reason: "compile"},
	}
	leaks := startLeakCheck(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.CacheDir = "off"
			rt := codemode.New(context.Background(), tt.opts)
			defer rt.Close()
			if rt.Available() == nil {
				t.Fatal("Available() = nil, want an error")
			}
			var calls atomic.Int64
			turn := start(t, rt, `{"tools":{"codeMode":true}}`, probe(&calls))
			var names []string
			for _, d := range turn.Tools() {
				names = append(names, d.Name)
			}
			if diff := cmp.Diff([]string{"exec", "wait"}, names); diff != "" {
				t.Errorf("visible tools mismatch (-want +got):\n%s", diff)
			}
			for _, code := range []string{`return 1`, `return await tools.callValue("openclaw:core:probe", {})`, `await yield_control()`} {
				for _, lang := range []string{"javascript", "typescript"} {
					got := call(t, turn, "exec", map[string]any{"code": code, "language": lang})
					want := map[string]any{"status": "failed", "code": "runtime_unavailable", "failurePhase": "host", "bridgeDispatchStarted": false}
					if diff := cmp.Diff(want, pick(got, "status", "code", "failurePhase", "bridgeDispatchStarted")); diff != "" {
						t.Errorf("exec %q (%s) mismatch (-want +got):\n%s", code, lang, diff)
					}
					msg, _ := got["error"].(string)
					if !strings.HasPrefix(msg, "code mode runtime is unavailable: ") || !strings.Contains(msg, tt.reason) {
						t.Errorf("exec error = %q", msg)
					}
				}
			}
			if n := calls.Load(); n != 0 {
				t.Errorf("the probe tool ran %d times", n)
			}
			if st := rt.Stats(); st.Suspended != 0 || st.Legs != 0 || st.PooledVMs != 0 {
				t.Errorf("stats of a runtime without engine = %+v", st)
			}
		})
	}
	leaks.verify(t)
}

// mcpConfig is a code-mode configuration with one MCP server.
func mcpConfig(t *testing.T, timeoutMs int, server map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"tools": map[string]any{"codeMode": map[string]any{"enabled": true, "timeoutMs": timeoutMs}},
		"mcp":   map[string]any{"servers": map[string]any{"srv": server}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stdioServer writes def for a re-executed test binary and returns its
// server configuration and working directory.
func stdioServer(t *testing.T, def fakemcp.Definition, timeoutMs int) (map[string]any, string) {
	t.Helper()
	dir := t.TempDir()
	b, _ := json.Marshal(def)
	if err := os.WriteFile(filepath.Join(dir, "server.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"command": exe, "cwd": dir, "env": map[string]string{envServe: "server.json"}, "timeoutMs": timeoutMs}, dir
}

// caught calls a tool of the MCP server srv through the MCP namespace and
// returns what it answered or the message it was rejected with.
func caught(tool string) string {
	return `try { await MCP.srv.` + tool + `({}); return "answered" } catch (e) { return e.message }`
}

// TestFault_MCPServerKilledMidCall: the stdio server process dies while a
// parked run's call is in flight; the call rejects in the guest with the
// SPEC'd closed-connection message, the run completes through wait, later
// calls fail fast, and nothing leaks.
func TestFault_MCPServerKilledMidCall(t *testing.T) {
	leaks := startLeakCheck(t)
	def := fakemcp.Definition{Tools: []wire.Spec{{Name: "block"}},
		Replies: map[string]fakemcp.Reply{"block": {Kind: fakemcp.ReplyHang}}}
	server, dir := stdioServer(t, def, 30000)
	other := otherVMs(t)
	rt := codemode.New(context.Background(), codemode.Options{})
	// The deadline parks exec; it also bounds the leg wait restores, so it
	// leaves room for a restore on a loaded machine (600 ms did not).
	turn := start(t, rt, mcpConfig(t, 3000, server))
	got := call(t, turn, "exec", map[string]any{"code": caught("block")})
	if got["status"] != "waiting" || got["reason"] != "pending_tools" {
		t.Fatalf("exec = %v, want waiting/pending_tools", got)
	}
	pidText, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(pidText))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %d: %v", pid, err)
	}
	res := call(t, turn, "wait", map[string]any{"runId": got["runId"]})
	want := map[string]any{"status": "completed", "value": "MCP server srv closed the connection."}
	if diff := cmp.Diff(want, pick(res, "status", "value")); diff != "" {
		t.Errorf("wait after the kill mismatch (-want +got):\n%s\nresult: %v", diff, res)
	}
	// The dead server answers every later call at once.
	begin := time.Now()
	again := call(t, turn, "exec", map[string]any{"code": caught("block")})
	if again["status"] != "completed" || !strings.HasPrefix(fmt.Sprint(again["value"]), "MCP server srv ") {
		t.Errorf("exec after the kill = %v", again)
	}
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("a call to the dead server took %v", d)
	}
	turn.End()
	atRest(t, rt, other)
	closed(t, rt, other)
	leaks.verify(t)
}

// TestFault_MCPServerHangs: a server that never answers is cut off after
// its configured timeoutMs (CM-14.3) with "MCP server <name> timed out.",
// well before the cell's own deadline, over stdio and streamable HTTP.
func TestFault_MCPServerHangs(t *testing.T) {
	leaks := startLeakCheck(t)
	def := fakemcp.Definition{Tools: []wire.Spec{{Name: "hang"}},
		Replies: map[string]fakemcp.Reply{"hang": {Kind: fakemcp.ReplyHang}}}
	const timeoutMs = 300
	stdio, _ := stdioServer(t, def, timeoutMs)
	httpServer, err := fakemcp.StartDefinition(def, faketools.NewHost(), fakemcp.StreamableHTTP)
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]map[string]any{
		"stdio":           stdio,
		"streamable-http": {"url": httpServer.URL(), "timeoutMs": timeoutMs},
	}
	for name, server := range servers {
		t.Run(name, func(t *testing.T) {
			other := otherVMs(t)
			rt := codemode.New(context.Background(), codemode.Options{})
			turn := start(t, rt, mcpConfig(t, 20000, server))
			begin := time.Now()
			got := call(t, turn, "exec", map[string]any{"code": caught("hang")})
			elapsed := time.Since(begin)
			want := map[string]any{"status": "completed", "value": "MCP server srv timed out."}
			if diff := cmp.Diff(want, pick(got, "status", "value")); diff != "" {
				t.Errorf("exec mismatch (-want +got):\n%s", diff)
			}
			if elapsed < timeoutMs*time.Millisecond || elapsed > 5*time.Second {
				t.Errorf("the hung call ended after %v, want about %d ms", elapsed, timeoutMs)
			}
			turn.End()
			atRest(t, rt, other)
			closed(t, rt, other)
		})
	}
	httpServer.Close()
	leaks.verify(t)
}

// TestFault_SlowTool: a tool slower than the cell's deadline parks the run
// (CM-8.15) while its work continues; wait delivers its result. A tool that
// never ends is cancelled when the agent run is aborted (CM-8.37).
func TestFault_SlowTool(t *testing.T) {
	leaks := startLeakCheck(t)
	other := otherVMs(t)
	rt := codemode.New(context.Background(), codemode.Options{})
	var cancelled atomic.Int64
	slow := codemode.Tool{Name: "slow", Source: codemode.SourceCore, Description: "Takes its time.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"number"}}}`),
		Execute: func(ctx context.Context, c codemode.ToolCall) (codemode.ToolResult, error) {
			var in struct{ Ms int }
			_ = json.Unmarshal(c.Input, &in)
			wait := time.Duration(in.Ms) * time.Millisecond
			if in.Ms < 0 {
				wait = time.Hour
			}
			select {
			case <-time.After(wait):
				r := codemode.TextResult("done")
				r.Details = json.RawMessage(`{"slept":` + strconv.Itoa(in.Ms) + `}`)
				return r, nil
			case <-ctx.Done():
				cancelled.Add(1)
				return codemode.ToolResult{}, ctx.Err()
			}
		}}
	// The cell's deadline bounds the resumed run too: it must hold a snapshot
	// restore on a loaded machine under -race (a second was not always
	// enough on two busy cores), so it is three seconds, and the tool takes
	// seven.
	turn := start(t, rt, `{"tools":{"codeMode":{"enabled":true,"timeoutMs":3000}}}`, slow)
	got := call(t, turn, "exec", map[string]any{"code": `return await tools.callValue("openclaw:core:slow", {ms: 7000})`})
	if got["status"] != "waiting" || got["reason"] != "pending_tools" {
		t.Fatalf("exec = %v, want waiting/pending_tools", got)
	}
	var res map[string]any
	for range 10 {
		res = call(t, turn, "wait", map[string]any{"runId": got["runId"]})
		if res["status"] != "waiting" {
			break
		}
	}
	want := map[string]any{"status": "completed", "value": map[string]any{"slept": 7000.0}}
	if diff := cmp.Diff(want, pick(res, "status", "value", "error")); diff != "" {
		t.Errorf("wait mismatch (-want +got):\n%s", diff)
	}
	// A tool that never ends, then an abort of the agent run.
	stuck := call(t, turn, "exec", map[string]any{"code": `return await tools.callValue("openclaw:core:slow", {ms: -1})`})
	if stuck["status"] != "waiting" {
		t.Fatalf("exec = %v, want waiting", stuck)
	}
	turn.Abort()
	settle(t, "the cancellation of the stuck tool", func() bool { return cancelled.Load() == 1 })
	atRest(t, rt, other)
	closed(t, rt, other)
	leaks.verify(t)
}
