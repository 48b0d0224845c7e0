package cell

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// fakeHost is a minimal Host over a catalog of one "echo" core tool that
// returns its input as details.
type fakeHost struct {
	settings config.Settings
	cat      *catalog.Catalog
	mu       sync.Mutex
	calls    int
}

func newFakeHost(settings config.Settings) *fakeHost {
	return &fakeHost{settings: settings, cat: catalog.Build([]catalog.Tool{{Name: "echo", Kind: catalog.Core,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}})}
}

func (h *fakeHost) Call(ctx context.Context, e catalog.Entry, input json.RawMessage, n Nested) (ToolResult, error) {
	h.mu.Lock()
	h.calls++
	h.mu.Unlock()
	return ToolResult{Content: json.RawMessage(`[]`), Details: input}, nil
}
func (h *fakeHost) Namespace(context.Context, json.RawMessage, Nested) (json.RawMessage, error) {
	return nil, nil
}
func (h *fakeHost) SpawnAgent(context.Context, json.RawMessage, Nested) (json.RawMessage, error) {
	return nil, nil
}
func (h *fakeHost) WaitAgent(context.Context, json.RawMessage) (json.RawMessage, error) {
	return nil, nil
}
func (h *fakeHost) Note(string, string)                      {}
func (h *fakeHost) Aborted() bool                            { return false }
func (h *fakeHost) Scoped() bool                             { return false }
func (h *fakeHost) Scopes(string) ([]guest.Namespace, error) { return nil, nil }
func (h *fakeHost) fake() *fakeHost                          { return h }

// testHost is a fakeHost, or a host that embeds one and overrides some of
// its methods.
type testHost interface {
	Host
	fake() *fakeHost
}

// turnOf is a Turn of scope with h as its host, and h's settings and
// catalog.
func turnOf(h testHost, scope Scope) *Turn {
	return &Turn{Scope: scope, Settings: h.fake().settings, Catalog: h.fake().cat, Host: h}
}

func testRunner(t testing.TB) *Runner {
	t.Helper()
	sb, err := sandbox.New(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatalf("engine unavailable: %v", err)
	}
	rn := NewRunner(sb, nil)
	t.Cleanup(rn.Close)
	return rn
}

func exec(t testing.TB, rn *Runner, h testHost, code string) Result {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"code": code})
	return rn.Exec(context.Background(), turnOf(h, Scope{AgentRunID: "r"}), "call_1", args)
}

func TestExec_ValuesAndOutput(t *testing.T) {
	rn := testRunner(t)
	h := newFakeHost(config.Defaults())
	tests := []struct {
		code, value, output string
	}{
		{code: `return 1+2`, value: `3`, output: `[]`},
		{code: `1+2`, value: `null`, output: `[]`},
		{code: `text("a"); json({b: 1}); return undefined`, value: `null`, output: `[{"type":"text","text":"a"},{"type":"json","value":{"b":1}}]`},
		{code: `return await tools.callValue("openclaw:core:echo", {x: [1, "y"]})`, value: `{"x":[1,"y"]}`, output: `[]`},
		{code: `return 10n`, value: `"10"`, output: `[]`},
		{code: `const o = {}; o.o = o; return o`, value: `"[object Object]"`, output: `[]`},
		{code: `return [NaN, -0, 1e21]`, value: `[null,0,1e+21]`, output: `[]`},
		// Numbers, booleans and null as the final value skip JSON.stringify
		// in the controller: the same text as JSON.stringify's.
		{code: `return NaN`, value: `null`, output: `[]`},
		{code: `return -Infinity`, value: `null`, output: `[]`},
		{code: `return -0`, value: `0`, output: `[]`},
		{code: `return 1e21`, value: `1e+21`, output: `[]`},
		{code: `return 5e-7`, value: `5e-7`, output: `[]`},
		{code: `return 0.1 + 0.2`, value: `0.30000000000000004`, output: `[]`},
		{code: `return -(2 ** 53)`, value: `-9007199254740992`, output: `[]`},
		{code: `return false`, value: `false`, output: `[]`},
		{code: `return null`, value: `null`, output: `[]`},
		{code: `return new Number(4)`, value: `4`, output: `[]`},
		{code: `return "a\u2028"`, value: "\"a\u2028\"", output: `[]`},
	}
	for _, tt := range tests {
		res := exec(t, rn, h, tt.code)
		if res.Status != "completed" {
			t.Errorf("exec(%q) = %s %s", tt.code, res.Status, res.Error)
			continue
		}
		if string(res.Value) != tt.value {
			t.Errorf("exec(%q) value = %s, want %s", tt.code, res.Value, tt.value)
		}
		out, _ := json.Marshal(res.Output)
		if string(out) != tt.output {
			t.Errorf("exec(%q) output = %s, want %s", tt.code, out, tt.output)
		}
	}
}

func TestExec_OutputLimitBoundary(t *testing.T) {
	rn := testRunner(t)
	s := config.Defaults()
	s.MaxOutputBytes = 1024
	h := newFakeHost(s)
	// The value "x...x" of n characters is n+2 bytes of JSON.
	if res := exec(t, rn, h, `return "x".repeat(1022)`); res.Status != "completed" {
		t.Errorf("value of exactly 1024 bytes: %s %s", res.Status, res.Error)
	}
	if res := exec(t, rn, h, `return "x".repeat(1023)`); res.Code != CodeOutputLimit {
		t.Errorf("value of 1025 bytes: %s %s, want %s", res.Status, res.Code, CodeOutputLimit)
	}
}

func TestWait_ResumesYield(t *testing.T) {
	rn := testRunner(t)
	h := newFakeHost(config.Defaults())
	res := exec(t, rn, h, `text("before"); const r = await yield_control("why"); text("after"); return r`)
	if res.Status != "waiting" || res.Reason != "yield" {
		t.Fatalf("exec = %+v, want waiting/yield", res)
	}
	args, _ := json.Marshal(map[string]string{"runId": res.RunID})
	got := rn.Wait(context.Background(), turnOf(h, Scope{AgentRunID: "r"}), "call_2", args)
	if got.Status != "completed" || string(got.Value) != `{"status":"yielded","reason":"why"}` {
		t.Errorf("wait = %s %s %s", got.Status, got.Value, got.Error)
	}
	if rn.Suspended() != 0 {
		t.Errorf("%d runs still suspended", rn.Suspended())
	}
	// A second wait finds nothing.
	again := rn.Wait(context.Background(), turnOf(h, Scope{AgentRunID: "r"}), "call_3", args)
	if again.Error != MsgRunUnavailable {
		t.Errorf("second wait = %q, want %q", again.Error, MsgRunUnavailable)
	}
}

func TestExec_TimeoutKeepsHostResponsive(t *testing.T) {
	rn := testRunner(t)
	s := config.Defaults()
	s.TimeoutMs = 200
	h := newFakeHost(s)
	start := time.Now()
	res := exec(t, rn, h, `while (true) {}`)
	if res.Code != CodeTimeout || res.Error != MsgTimeout {
		t.Errorf("infinite loop = %s %q", res.Code, res.Error)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timeout took %v", d)
	}
}

// FuzzBridgeRequest feeds arbitrary bridge requests to both halves of the
// bridge (CM-18.9): the guest half's ledger refuses each with one of the
// exact bridge messages or accepts it only when its method and id are
// valid; the host half takes every accepted request (its own ledger agrees)
// and refuses the same id as a duplicate the second time; catalog reads
// settle at once with JSON.
func FuzzBridgeRequest(f *testing.F) {
	f.Add("call", `{"id":"openclaw:core:echo","input":{}}`, "bridge:call:1")
	f.Add("search", `{"query":"echo","limit":3}`, "bridge:search:1")
	f.Add("search", `{"query":"echo","limit":-3}`, "bridge:search:2")
	f.Add("search", `{"query":"echo","limit":9223372036854775808}`, "bridge:search:3")
	f.Add("describe", `{"id":"echo"}`, "bridge:describe:7")
	f.Add("describe", `{"id":"nope"}`, "bridge:describe:8")
	f.Add("yield", `{"reason":null}`, "bridge:yield:1")
	f.Add("yield", `{"reason":{"__proto__":1}}`, "bridge:yield:2")
	f.Add("namespace", `{"namespace":"mcp","path":"a.b","args":[],"argc":0}`, "bridge:namespace:1")
	f.Add("bogus", `[]`, "bridge:bogus:01")
	f.Add("call", `not json`, "bridge:call:0")
	f.Add("call", strings.Repeat("[", 1001)+strings.Repeat("]", 1001), "bridge:call:4")
	f.Add("callValue", `{"id":"openclaw:core:echo","input":"\ud800"}`, "bridge:callValue:1\n")
	refusals := []string{MsgUnsupportedMethod, MsgInvalidBridgeID, MsgDuplicateBridgeID, MsgBridgeRequestTooLarge, MsgTooManyPending}
	s := config.Defaults()
	s.MaxPendingToolCalls = 4
	h := newFakeHost(s)
	f.Fuzz(func(t *testing.T, method, args, id string) {
		guestHalf := guest.NewLedger(4)
		b := newBridge(turnOf(h, Scope{AgentRunID: "r"}), "call_1", false)
		defer b.dispose()
		if msg := guestHalf.Check(method, id, []byte(args), false); msg != "" {
			if !slices.Contains(refusals, msg) {
				t.Fatalf("request (%q, %q) refused with %q", method, id, msg)
			}
			return
		}
		if !guest.Methods[method] || !strings.HasPrefix(id, "bridge:"+method+":") {
			t.Fatalf("accepted method %q id %q", method, id)
		}
		b.Request(method, id, []byte(args))
		if b.broken() {
			t.Fatalf("the host half refused (%q, %q), which the guest half accepted", method, id)
		}
		if msg := guestHalf.Check(method, id, []byte(args), false); msg != MsgDuplicateBridgeID {
			t.Fatalf("second request with id %q = %q, want %q", id, msg, MsgDuplicateBridgeID)
		}
		if method == guest.MethodSearch || method == guest.MethodDescribe {
			ready, _ := b.state()
			if len(ready) != 1 {
				t.Fatalf("%s request did not settle at once", method)
			}
			if q := ready[0]; q.ok && !json.Valid([]byte(q.payload)) || !q.ok && q.payload == "" {
				t.Fatalf("%s request settled with ok=%v payload %q", method, q.ok, q.payload)
			}
		}
	})
}

// FuzzAdapters runs arbitrary JSON through the guest and host adapters: the
// final value is JSON.stringify's text of the parsed input, byte for byte.
func FuzzAdapters(f *testing.F) {
	for _, s := range []string{`1`, `-0`, `1e21`, `"é\u0007"`, `{"a":[1,{"b":null}]}`, `[true,false,""]`, `0.000001`, `"\u2028"`} {
		f.Add(s)
	}
	rn := testRunner(f)
	h := newFakeHost(config.Defaults())
	f.Fuzz(func(t *testing.T, input string) {
		if !json.Valid([]byte(input)) || len(input) > 4096 {
			return
		}
		want, err := jsjson.Canonical([]byte(input))
		if err != nil || strings.Contains(input, `\u`) {
			return // lone surrogates and escapes are covered by table tests
		}
		lit, _ := json.Marshal(input)
		res := exec(t, rn, h, `const v = JSON.parse(`+string(lit)+`); json(v); return v`)
		if res.Status != "completed" {
			t.Fatalf("exec of %s: %s %s", input, res.Status, res.Error)
		}
		if string(res.Value) != want {
			t.Errorf("value of %s = %s, want %s", input, res.Value, want)
		}
	})
}

// TestWait_RefusesTamperedSnapshots: a snapshot changed or swapped after it
// was stored never resumes.
func TestWait_RefusesTamperedSnapshots(t *testing.T) {
	rn := testRunner(t)
	h := newFakeHost(config.Defaults())
	suspend := func() string {
		res := exec(t, rn, h, `await yield_control(); return "resumed"`)
		if res.Status != "waiting" {
			t.Fatalf("exec = %s %s", res.Status, res.Error)
		}
		return res.RunID
	}
	wait := func(id string) Result {
		args, _ := json.Marshal(map[string]string{"runId": id})
		return rn.Wait(context.Background(), turnOf(h, Scope{AgentRunID: "r"}), "call_w", args)
	}
	tamper := func(id string, f func(r *run)) {
		rn.store.mu.Lock()
		f(rn.store.runs[id])
		rn.store.mu.Unlock()
	}
	// A flipped bit.
	a := suspend()
	tamper(a, func(r *run) {
		r.stored.Delta = append([]byte(nil), r.stored.Delta...)
		r.stored.Delta[len(r.stored.Delta)/2] ^= 1
	})
	if res := wait(a); res.Code != CodeInvalidInput || res.Error != MsgRunUnavailable {
		t.Errorf("wait on a tampered snapshot = %s %q", res.Code, res.Error)
	}
	// Two snapshots swapped between runs.
	b, c := suspend(), suspend()
	tamper(b, func(rb *run) {
		rc := rn.store.runs[c]
		rb.stored, rc.stored = rc.stored, rb.stored
		rb.seal, rc.seal = rc.seal, rb.seal
	})
	for _, id := range []string{b, c} {
		if res := wait(id); res.Status != "failed" {
			t.Errorf("wait on a swapped snapshot = %s, want failed", res.Status)
		}
	}
	// An untouched one resumes.
	d := suspend()
	if res := wait(d); res.Status != "completed" || string(res.Value) != `"resumed"` {
		t.Errorf("wait on an intact snapshot = %s %s", res.Status, res.Error)
	}
}

// TestBridge_ForgetsDeliveredRequests keeps a long run's bridge state
// bounded by what is outstanding, not by what the run has ever asked: a
// delivered request is forgotten, and the ledger of 100000 consecutive
// ids is as small as that of one.
func TestBridge_ForgetsDeliveredRequests(t *testing.T) {
	s := config.Defaults()
	s.MaxPendingToolCalls = 4
	b := newBridge(turnOf(newFakeHost(s), Scope{AgentRunID: "r"}), "call_1", false)
	defer b.dispose()
	one := 0
	for i := 1; i <= 100000; i++ {
		b.Request(guest.MethodSearch, "bridge:"+guest.MethodSearch+":"+strconv.Itoa(i), []byte(`["echo",{}]`))
		if b.broken() {
			t.Fatalf("request %d refused", i)
		}
		ready, pending := b.state()
		if len(ready) != 1 || len(pending) != 0 {
			t.Fatalf("request %d: %d ready and %d pending, want 1 and 0", i, len(ready), len(pending))
		}
		b.deliver(ready)
		if i == 1 {
			one = len(b.ledgerBytes())
		}
	}
	b.mu.Lock()
	kept := len(b.reqs)
	b.mu.Unlock()
	if kept != 0 {
		t.Errorf("%d delivered requests kept, want 0", kept)
	}
	if n := len(b.ledgerBytes()); n > one+8 {
		t.Errorf("ledger of 100000 ids is %d bytes, that of one %d", n, one)
	}
}
