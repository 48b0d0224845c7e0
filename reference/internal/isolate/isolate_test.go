package isolate

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/prepare"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// The test binary is a worker too: the package's init serves when the
// worker variable is set, so these tests start their own executable.

func testPool(t *testing.T, opts Options) *Pool {
	t.Helper()
	p, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	t.Cleanup(p.Close)
	return p
}

// recorder is a sandbox.Handler that records what reaches the host.
type recorder struct {
	mu       sync.Mutex
	requests []string
	notes    []string
}

func (r *recorder) Request(method, id string, args []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, method+" "+id+" "+string(args))
}

func (r *recorder) Note(kind, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes = append(r.notes, kind+" "+text)
}

var testCatalog = catalog.Build([]catalog.Tool{{Name: "echo", Kind: catalog.Core,
	Parameters: json.RawMessage(`{"type":"object"}`)}}).Guest()

func testConfig(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(guest.Config{MaxOutputBytes: 65536, APIFiles: []guest.APIFile{}, Namespaces: []guest.Namespace{}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var testLimits = sandbox.Limits{MemoryBytes: 64 << 20, MaxOutputBytes: 65536}

// start prepares and starts code on a new leg of p.
func start(t *testing.T, p *Pool, h sandbox.Handler, code string, timeout time.Duration) (sandbox.Half, sandbox.Report) {
	t.Helper()
	half, err := p.Begin(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(timeout)
	pf, f := half.Prepare(code, prepare.JavaScript, deadline)
	if pf != nil || f != nil {
		t.Fatalf("prepare: %v %v", pf, f)
	}
	return half, half.Start(sandbox.Start{Deadline: deadline, Limits: testLimits, Catalog: testCatalog,
		Config: testConfig(t), MaxPending: 16})
}

// TestPool_leg: a leg in a worker reports like one in this process: output,
// value, bridge requests streamed to the handler while the guest runs,
// and a second leg on the same worker reuses its catalog.
func TestPool_leg(t *testing.T) {
	p := testPool(t, Options{})
	for i := range 2 {
		rec := &recorder{}
		leg, rep := start(t, p, rec, `text("a"); tools.search("echo"); return [1, "two"]`, 10*time.Second)
		if rep.Fault != nil {
			t.Fatalf("leg %d: fault %+v", i, rep.Fault)
		}
		got := struct {
			Items []string
			Done  bool
		}{Done: rep.Done}
		for _, it := range rep.Items {
			got.Items = append(got.Items, string(it))
		}
		want := struct {
			Items []string
			Done  bool
		}{Items: []string{`{"type":"text","text":"a"}`}, Done: true}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("leg %d report (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff([]string{`search bridge:search:1 {"query":"echo","limit":null}`}, rec.requests); diff != "" {
			t.Errorf("leg %d requests (-want +got):\n%s", i, diff)
		}
		// The search is unsettled: the outcome is not read yet.
		rep = leg.Step([]sandbox.Settlement{{ID: "bridge:search:1", OK: true, Payload: `[]`}})
		if rep.Fault != nil || !rep.OK || string(rep.Value) != `[1,"two"]` {
			t.Errorf("leg %d after the settlement: %+v", i, rep)
		}
		leg.Close()
	}
	if st := p.Stats(); st.Workers < 1 || st.LiveVMs != 0 {
		t.Errorf("stats after the legs: %+v", st)
	}
}

// TestPool_killedPastTheGrace: a guest in one long built-in call, which
// never polls its interrupt handler, has its worker killed by the
// watchdog; the fault says so, and the next leg runs on a live worker.
func TestPool_killedPastTheGrace(t *testing.T) {
	p := testPool(t, Options{Grace: 200 * time.Millisecond})
	leg, err := p.Begin(context.Background(), &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	// The deadline leaves the strings time to be built, even under the
	// race detector: the search alone, quadratic, runs for minutes.
	deadline := time.Now().Add(2 * time.Second)
	if pf, f := leg.Prepare(`const h = "a".repeat(4e6); return h.indexOf("a".repeat(2e6) + "b")`, prepare.JavaScript, deadline); pf != nil || f != nil {
		t.Fatal(pf, f)
	}
	timer := time.AfterFunc(time.Until(deadline)+p.Grace(), leg.Kill)
	defer timer.Stop()
	rep := leg.Start(sandbox.Start{Deadline: deadline, Limits: testLimits, Catalog: testCatalog, Config: testConfig(t), MaxPending: 16})
	late := time.Since(deadline)
	leg.Close()
	if rep.Fault == nil || rep.Fault.Kind != sandbox.FaultWatchdog {
		t.Fatalf("fault = %+v, want FaultWatchdog", rep.Fault)
	}
	if late > p.Grace()+time.Second {
		t.Errorf("the leg answered %v past its deadline; the grace is %v", late, p.Grace())
	}
	next, rep := start(t, p, &recorder{}, `return 6 * 7`, 10*time.Second)
	defer next.Close()
	if rep.Fault != nil || string(rep.Value) != "42" {
		t.Errorf("the next leg = %+v", rep)
	}
}

// TestPool_workerCrash: a worker that dies in the middle of a leg (killed
// from outside) fails that leg with FaultRuntime naming how it ended; an
// idle worker that died is passed over; the pool goes on.
func TestPool_workerCrash(t *testing.T) {
	p := testPool(t, Options{})
	leg, err := p.Begin(context.Background(), &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	pid := leg.(*half).w.pid
	deadline := time.Now().Add(20 * time.Second)
	if pf, f := leg.Prepare(`for (;;) {}`, prepare.JavaScript, deadline); pf != nil || f != nil {
		t.Fatal(pf, f)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}()
	rep := leg.Start(sandbox.Start{Deadline: deadline, Limits: testLimits, Catalog: testCatalog, Config: testConfig(t), MaxPending: 16})
	leg.Close()
	if rep.Fault == nil || rep.Fault.Kind != sandbox.FaultRuntime || !strings.Contains(rep.Fault.Text, "signal: killed") {
		t.Fatalf("fault = %+v, want FaultRuntime naming the signal", rep.Fault)
	}
	// Kill an idle worker too: once the pool has reaped it, the next leg
	// must not notice. (A worker killed at the very moment a leg takes it
	// cannot be told from a live one: that leg fails as above.)
	p.mu.Lock()
	idle := slices.Clone(p.idle)
	p.mu.Unlock()
	for _, w := range idle {
		_ = syscall.Kill(w.pid, syscall.SIGKILL)
	}
	for _, w := range idle {
		select {
		case <-w.exited:
		case <-time.After(10 * time.Second):
			t.Fatalf("worker %d was not reaped 10 s after SIGKILL", w.pid)
		}
	}
	next, rep := start(t, p, &recorder{}, `return "alive"`, 10*time.Second)
	defer next.Close()
	if rep.Fault != nil || string(rep.Value) != `"alive"` {
		t.Errorf("the next leg = %+v", rep)
	}
}

// TestPool_snapshotAcrossWorkers: a run suspended on one worker resumes on
// another: every worker restores against the pool's base image.
func TestPool_snapshotAcrossWorkers(t *testing.T) {
	p := testPool(t, Options{IdleWorkers: 2})
	leg, rep := start(t, p, &recorder{}, `const r = await yield_control("pause"); return [r.status, r.reason]`, 10*time.Second)
	if rep.Fault != nil || rep.Done {
		t.Fatalf("start: %+v", rep)
	}
	first := leg.(*half).w.pid
	stored, f := leg.Snapshot()
	if f != nil {
		t.Fatal(f)
	}
	leg.Kill() // the run lives on in stored, never in the worker
	leg.Close()
	resumed, err := p.Begin(context.Background(), &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	if resumed.(*half).w.pid == first {
		t.Fatal("the killed worker served the resume")
	}
	ledger := guest.NewLedger(16)
	if msg := ledger.Check("yield", "bridge:yield:1", []byte(`{"reason":"pause"}`), false); msg != "" {
		t.Fatal(msg)
	}
	lb, _ := ledger.MarshalBinary()
	rep = resumed.Resume(sandbox.Resume{Deadline: time.Now().Add(10 * time.Second), Limits: testLimits, Stored: stored,
		Ledger: lb, Output: sandbox.Output{Bytes: 2}, Settle: []sandbox.Settlement{{ID: "bridge:yield:1", OK: true,
			Payload: `{"status":"yielded","reason":"pause"}`}}})
	if rep.Fault != nil || string(rep.Value) != `["yielded","pause"]` {
		t.Errorf("resume on another worker = %+v", rep)
	}
}

// TestPool_waitsForAWorker: with MaxWorkers busy, Begin waits for one to
// free up, and gives up when its context ends.
func TestPool_waitsForAWorker(t *testing.T) {
	p := testPool(t, Options{MaxWorkers: 1, IdleWorkers: 1})
	busy, err := p.Begin(context.Background(), &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := p.Begin(ctx, &recorder{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Begin with every worker busy = %v, want the context's end", err)
	}
	got := make(chan error, 1)
	go func() {
		h, err := p.Begin(context.Background(), &recorder{})
		if err == nil {
			h.Close()
		}
		got <- err
	}()
	time.Sleep(50 * time.Millisecond)
	busy.Close()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Begin did not get the worker that freed up")
	}
}

// TestPool_unavailable: a pool over a missing binary fails at New with the
// engine's reason, as an in-process engine does.
func TestPool_unavailable(t *testing.T) {
	_, err := New(context.Background(), Options{WasmPath: t.TempDir() + "/missing.wasm"})
	if err == nil || !strings.Contains(err.Error(), "quickjs-wasi wasm is missing") {
		t.Fatalf("New over a missing binary = %v", err)
	}
	bad := t.TempDir() + "/quickjs.wasm"
	if err := os.WriteFile(bad, []byte("\x00asm not really"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = New(context.Background(), Options{WasmPath: bad})
	if err == nil || !strings.Contains(err.Error(), "digest mismatch") {
		t.Fatalf("New over a corrupt binary = %v", err)
	}
}

// TestPool_executable: Options.Executable starts workers from another
// program (a copy of this test binary serves like the original), and a
// program that is missing, not executable or no worker at all makes the
// pool unavailable with the reason.
func TestPool_executable(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	copied := write("copy", b, 0o755)
	for _, tc := range []struct {
		name, exe, wantErr string
	}{
		{"a copy of this binary", copied, ""},
		{"missing", filepath.Join(dir, "missing"), "no such file"},
		{"not executable", write("plain", b, 0o644), "is not an executable file"},
		{"a directory", dir, "is not an executable file"},
		{"no worker", write("true.sh", []byte("#!/bin/sh\nexit 0\n"), 0o755), "a worker process did not start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(context.Background(), Options{Executable: tc.exe})
			if tc.wantErr != "" {
				if err == nil {
					p.Close()
					t.Fatalf("New = a pool, want an error with %q", tc.wantErr)
				}
				var ue *engine.UnavailableError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("New = %v, want an UnavailableError with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			defer p.Close()
			leg, rep := start(t, p, &recorder{}, `return 6 * 7`, 10*time.Second)
			defer leg.Close()
			if rep.Fault != nil || !rep.OK || string(rep.Value) != "42" {
				t.Errorf("leg on a worker of the copy: %+v", rep)
			}
		})
	}
}

// TestServe_refusesOtherProtocols: a worker started for another protocol
// version ends at once with exitProtocol.
func TestServe_refusesOtherProtocols(t *testing.T) {
	var e encoder
	initMsg{Version: protocolVersion + 1}.encode(&e)
	var in strings.Builder
	if err := writeFrame(&in, msgInit, &e); err != nil {
		t.Fatal(err)
	}
	if got := serve(strings.NewReader(in.String()), &strings.Builder{}); got != exitProtocol {
		t.Errorf("serve = %d, want %d", got, exitProtocol)
	}
}

// TestWire_roundTrip: every message decodes to what was encoded.
func TestWire_roundTrip(t *testing.T) {
	deadline := time.Unix(0, 1_700_000_000_123_456_789)
	resume := sandbox.Resume{Deadline: deadline, Limits: testLimits,
		Stored: sandbox.Stored{Delta: []byte("delta"), RawSize: 99, Control: 4096, Rejections: []byte{1, 2}},
		Ledger: []byte("ledger"), Output: sandbox.Output{Bytes: 30, Count: 2},
		Settle: []sandbox.Settlement{{ID: "bridge:call:1", OK: true, Payload: `{"a":1}`}, {ID: "bridge:call:2", Payload: "nope"}}}
	var e encoder
	encodeResume(&e, resume)
	d := decoder{b: e.b}
	if diff := cmp.Diff(resume, decodeResume(&d)); diff != "" || d.done() != nil {
		t.Errorf("resume round trip (-want +got):\n%s %v", diff, d.done())
	}
	report := sandbox.Report{Items: []json.RawMessage{json.RawMessage(`{"type":"text","text":"x"}`)}, Done: true, OK: true,
		Value: json.RawMessage(`[1]`), Unhandled: &sandbox.GuestError{Text: "Error: x"}, Interrupted: true,
		Fault: &sandbox.Fault{Kind: sandbox.FaultTimeout}, MemoryBytes: 1 << 20}
	e = encoder{}
	encodeReport(&e, report)
	d = decoder{b: e.b}
	if diff := cmp.Diff(report, decodeReport(&d)); diff != "" || d.done() != nil {
		t.Errorf("report round trip (-want +got):\n%s %v", diff, d.done())
	}
	start := startMsg{Start: sandbox.Start{Deadline: deadline, Limits: testLimits, Config: []byte("{}"), MaxPending: 3,
		Catalog: catalog.GuestCatalog{JSON: []byte("cat")}}, CatalogKey: [32]byte{7}, HasJSON: true}
	e = encoder{}
	start.encode(&e)
	var got startMsg
	d = decoder{b: e.b}
	got.decode(&d)
	if diff := cmp.Diff(start, got); diff != "" || d.done() != nil {
		t.Errorf("start round trip (-want +got):\n%s %v", diff, d.done())
	}
}

// FuzzDecode: no frame a worker can write makes the host's decoders panic
// or read past it.
func FuzzDecode(f *testing.F) {
	var e encoder
	encodeReport(&e, sandbox.Report{Items: []json.RawMessage{json.RawMessage(`{}`)}, Fault: &sandbox.Fault{Kind: 1, Text: "x"}})
	f.Add(e.b)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, dec := range []func(*decoder){
			func(d *decoder) { decodeReport(d) },
			func(d *decoder) { decodeStored(d); decodeFault(d) },
			func(d *decoder) { var m helloMsg; m.decode(d) },
			func(d *decoder) { var m preparedMsg; m.decode(d) },
		} {
			d := decoder{b: b}
			dec(&d)
			_ = d.done()
		}
	})
}

// TestCatalogMirror: the host's mirror and a worker's cache agree on
// every start of a random sequence, so the JSON travels exactly when the
// worker lacks it.
func TestCatalogMirror(t *testing.T) {
	mirror, cache := newCatalogMirror(), newCatalogCache()
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		key := [32]byte{byte(r.IntN(7))}
		send := !mirror.touch(key, nil)
		var json []byte
		if send {
			json = []byte{key[0]}
		}
		had := cache.touch(key, json)
		if !send && !had {
			t.Fatalf("start %d: the host left the JSON out, the worker lacks it", i)
		}
		if send && had {
			t.Fatalf("start %d: the host sent the JSON of a catalog the worker had", i)
		}
		if got := cache.json(key); len(got) != 1 || got[0] != key[0] {
			t.Fatalf("start %d: the worker holds %v for key %d", i, got, key[0])
		}
	}
}
