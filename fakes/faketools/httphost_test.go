package faketools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
)

var (
	_ wire.ToolHost = (*faketools.Host)(nil)
	_ wire.ToolHost = (*wire.HTTPClient)(nil)
)

func strp(s string) *string { return &s }

func startHTTP(t *testing.T, h *faketools.Host, specs []wire.Spec) (*wire.HTTPHost, *wire.HTTPClient) {
	t.Helper()
	s, err := wire.NewHTTPHost(h, specs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	c := wire.NewHTTPClient(s.URL() + "/")
	t.Cleanup(c.Close)
	return s, c
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitActive waits until n handlers are running on s.
func waitActive(t *testing.T, s *wire.HTTPHost, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for int64(s.Pending()) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d handlers running, want %d", int64(s.Pending()), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// errText is an error's text, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestHTTPRoundTrip checks that every behaviour answers the same through
// HTTP as in process.
func TestHTTPRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		behavior *wire.Behavior
		override *wire.Behavior // SetBehavior on both hosts
		input    string
	}{
		{name: "default", input: `{"a":1}`},
		{name: "default empty input", input: ``},
		{name: "returns", behavior: &wire.Behavior{Returns: json.RawMessage(`{"items": [1, 2, 3]}`)}, input: `{}`},
		{name: "text", behavior: &wire.Behavior{Text: strp("plain text")}, input: `{}`},
		{name: "echo", behavior: &wire.Behavior{Echo: true}, input: `{"nested":{"x":[true,null,"ü"]}}`},
		{name: "fails", behavior: &wire.Behavior{Fails: strp("disk full: quota exceeded")}, input: `{}`},
		{name: "delay", behavior: &wire.Behavior{DelayMs: 20, Text: strp("late")}, input: `{}`},
		{name: "override", behavior: &wire.Behavior{Text: strp("spec")}, override: &wire.Behavior{Fails: strp("overridden")}, input: `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := wire.Spec{Name: "tool_" + strings.ReplaceAll(tt.name, " ", "_"), Behavior: tt.behavior}
			local, remote := faketools.NewHost(), faketools.NewHost()
			if tt.override != nil {
				local.SetBehavior(spec.Name, *tt.override)
				remote.SetBehavior(spec.Name, *tt.override)
			}
			_, c := startHTTP(t, remote, []wire.Spec{{Name: "other"}, spec})
			ctx := testContext(t)
			var input json.RawMessage
			if tt.input != "" {
				input = json.RawMessage(tt.input)
			}
			want, wantErr := local.Invoke(ctx, 1, spec, input)
			got, gotErr := c.Invoke(ctx, 1, spec, input)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Invoke result mismatch, in process (-want) and through HTTP (+got):\n%s", diff)
			}
			if errText(gotErr) != errText(wantErr) {
				t.Errorf("Invoke error = %q, want %q", errText(gotErr), errText(wantErr))
			}
			if diff := cmp.Diff(local.Calls(spec.Name), remote.Calls(spec.Name)); diff != "" {
				t.Errorf("recorded calls mismatch (-want +got):\n%s", diff)
			}
			if len(remote.Calls(spec.Name)) != 1 {
				t.Errorf("remote host recorded %d calls, want 1", len(remote.Calls(spec.Name)))
			}
		})
	}
}

func TestHTTPLookup(t *testing.T) {
	a := wire.Spec{Name: "a", Behavior: &wire.Behavior{Text: strp("from a")}}
	b := wire.Spec{Name: "b", Behavior: &wire.Behavior{Text: strp("from b")}}
	b2 := wire.Spec{Name: "b", Behavior: &wire.Behavior{Text: strp("from second b")}}
	tests := []struct {
		name     string
		index    int
		tool     string
		want     string
		wantCode string
	}{
		{"by index", 2, "b", "from second b", ""},
		{"first by name when the index is wrong", 0, "b", "from b", ""},
		{"by name when the index is out of range", 7, "a", "from a", ""},
		{"negative index", -1, "a", "from a", ""},
		{"unknown", 0, "zzz", "", wire.CodeUnknownTool},
	}
	h := faketools.NewHost()
	_, c := startHTTP(t, h, []wire.Spec{a, b, b2})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Invoke(testContext(t), tt.index, wire.Spec{Name: tt.tool}, nil)
			var re *wire.RemoteError
			code := ""
			if errors.As(err, &re) {
				code = re.Code
			} else if err != nil {
				t.Fatalf("Invoke error %v is not a wire.RemoteError", err)
			}
			text := ""
			if len(res.Content) == 1 {
				text = res.Content[0].Text
			}
			if text != tt.want || code != tt.wantCode {
				t.Errorf("Invoke(%d, %q) = %q, code %q, want %q, code %q", tt.index, tt.tool, text, code, tt.want, tt.wantCode)
			}
		})
	}
	if len(h.Calls("zzz")) != 0 {
		t.Error("an unknown tool reached the host")
	}
}

func TestHTTPUnknownToolStatus(t *testing.T) {
	s, _ := startHTTP(t, faketools.NewHost(), nil)
	resp, err := http.Post(s.URL()+"/invoke", "application/json", strings.NewReader(`{"index":0,"name":"nope","input":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error wire.RemoteError `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNotFound || body.Error.Code != wire.CodeUnknownTool {
		t.Errorf("unknown tool: HTTP %d code %q, want 404 %q", resp.StatusCode, body.Error.Code, wire.CodeUnknownTool)
	}
}

func TestHTTPSetSpecs(t *testing.T) {
	s, c := startHTTP(t, faketools.NewHost(), []wire.Spec{{Name: "a"}})
	ctx := testContext(t)
	late := wire.Spec{Name: "late", Behavior: &wire.Behavior{Text: strp("added")}}
	if _, err := c.Invoke(ctx, 1, late, nil); err == nil {
		t.Fatal("Invoke of a tool not yet added: got nil error")
	}
	s.SetSpecs([]wire.Spec{{Name: "a"}, late})
	res, err := c.Invoke(ctx, 1, late, nil)
	if err != nil || len(res.Content) != 1 || res.Content[0].Text != "added" {
		t.Errorf("Invoke after SetSpecs = %+v, %v, want the added tool's text", res, err)
	}
}

func TestHTTPHoldRelease(t *testing.T) {
	for _, how := range []string{"Host.Hold", "hold behaviour"} {
		t.Run(how, func(t *testing.T) {
			h := faketools.NewHost()
			spec := wire.Spec{Name: "slow", Behavior: &wire.Behavior{Text: strp("released")}}
			if how == "Host.Hold" {
				h.Hold("slow")
			} else {
				spec.Behavior.Hold = true
			}
			s, c := startHTTP(t, h, []wire.Spec{spec})
			ctx := testContext(t)
			done := make(chan error, 1)
			go func() {
				res, err := c.Invoke(ctx, 0, spec, json.RawMessage(`{"n":1}`))
				if err == nil && (len(res.Content) != 1 || res.Content[0].Text != "released") {
					err = fmt.Errorf("result %+v", res)
				}
				done <- err
			}()
			waitActive(t, s, 1)
			select {
			case err := <-done:
				t.Fatalf("held call returned before Release: %v", err)
			case <-time.After(50 * time.Millisecond):
			}
			if n := len(h.Calls("slow")); n != 0 {
				t.Fatalf("%d calls recorded while held, want 0", n)
			}
			h.Release("slow")
			if err := <-done; err != nil {
				t.Fatalf("released call: %v", err)
			}
			if n := len(h.Calls("slow")); n != 1 {
				t.Errorf("%d calls recorded after Release, want 1", n)
			}
		})
	}
}

func TestHTTPCancel(t *testing.T) {
	h := faketools.NewHost()
	h.Hold("slow")
	spec := wire.Spec{Name: "slow"}
	s, c := startHTTP(t, h, []wire.Spec{spec})
	ctx, cancel := context.WithCancel(testContext(t))
	done := make(chan error, 1)
	go func() {
		_, err := c.Invoke(ctx, 0, spec, nil)
		done <- err
	}()
	waitActive(t, s, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Invoke = %v, want context.Canceled", err)
	}
	// The host's call ends with the request: the handler returns while the
	// tool is still held, and releasing it later records nothing.
	waitActive(t, s, 0)
	h.Release("slow")
	if n := len(h.Calls("slow")); n != 0 {
		t.Errorf("%d calls recorded for a cancelled call, want 0", n)
	}

	// A deadline works the same way.
	h.Hold("slow2")
	s.SetSpecs([]wire.Spec{{Name: "slow2"}})
	dctx, dcancel := context.WithTimeout(testContext(t), 30*time.Millisecond)
	defer dcancel()
	if _, err := c.Invoke(dctx, 0, wire.Spec{Name: "slow2"}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Invoke past its deadline = %v, want context.DeadlineExceeded", err)
	}
	waitActive(t, s, 0)
}

func TestHTTPCloseEndsHeldCalls(t *testing.T) {
	h := faketools.NewHost()
	h.Hold("slow")
	h.SetApproval("slow", wire.Held)
	s, err := wire.NewHTTPHost(h, []wire.Spec{{Name: "slow"}})
	if err != nil {
		t.Fatal(err)
	}
	c := wire.NewHTTPClient(s.URL())
	defer c.Close()
	ctx := testContext(t)
	errs := make(chan error, 2)
	go func() { _, err := c.Invoke(ctx, 0, wire.Spec{Name: "slow"}, nil); errs <- err }()
	go func() { _, err := c.Approve(ctx, "slow"); errs <- err }()
	waitActive(t, s, 2)
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("Close did not return with held calls")
	}
	for range 2 {
		if err := <-errs; err == nil {
			t.Error("a held call returned no error after Close")
		}
	}
}

func TestHTTPApprove(t *testing.T) {
	tests := []struct {
		name     string
		decision string
		want     bool
	}{
		{"granted", wire.Granted, true},
		{"denied", wire.Denied, false},
		{"unscripted", "", false},
	}
	h := faketools.NewHost()
	_, c := startHTTP(t, h, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.decision != "" {
				h.SetApproval(tt.name, tt.decision)
			}
			got, err := c.Approve(testContext(t), tt.name)
			if err != nil || got != tt.want {
				t.Errorf("Approve(%q) = %v, %v, want %v, nil", tt.name, got, err, tt.want)
			}
		})
	}
	t.Run("held then decided", func(t *testing.T) {
		for _, granted := range []bool{true, false} {
			name := fmt.Sprintf("held_%v", granted)
			h.SetApproval(name, wire.Held)
			done := make(chan bool, 1)
			go func() {
				ok, err := c.Approve(testContext(t), name)
				if err != nil {
					t.Errorf("Approve(%q): %v", name, err)
				}
				done <- ok
			}()
			select {
			case <-done:
				t.Fatal("held approval answered before Decide")
			case <-time.After(30 * time.Millisecond):
			}
			h.Decide(name, granted)
			if got := <-done; got != granted {
				t.Errorf("Approve(%q) after Decide(%v) = %v", name, granted, got)
			}
		}
	})
	t.Run("held then cancelled", func(t *testing.T) {
		h.SetApproval("never", wire.Held)
		ctx, cancel := context.WithTimeout(testContext(t), 30*time.Millisecond)
		defer cancel()
		if _, err := c.Approve(ctx, "never"); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("held Approve past its deadline = %v, want context.DeadlineExceeded", err)
		}
	})
}

func TestHTTPHook(t *testing.T) {
	h := faketools.NewHost()
	h.BlockHook("rm", "not allowed")
	h.RewriteHook("search", json.RawMessage(`{"q":"rewritten"}`))
	_, c := startHTTP(t, h, nil)
	tests := []struct {
		event string
		want  wire.Decision
	}{
		{`{"toolName":"rm","params":{"path":"/"}}`, wire.Decision{Block: true, Reason: "not allowed"}},
		{`{"toolName":"search","params":{"q":"x"}}`, wire.Decision{Params: json.RawMessage(`{"q":"rewritten"}`)}},
		{`{"toolName":"read","params":{}}`, wire.Decision{}},
	}
	var sent []json.RawMessage
	for _, tt := range tests {
		got, err := c.BeforeToolCall(testContext(t), json.RawMessage(tt.event))
		if err != nil {
			t.Fatalf("BeforeToolCall(%s): %v", tt.event, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("BeforeToolCall(%s) mismatch (-want +got):\n%s", tt.event, diff)
		}
		sent = append(sent, json.RawMessage(tt.event))
	}
	if diff := cmp.Diff(sent, h.HookEvents()); diff != "" {
		t.Errorf("HookEvents mismatch (-want +got):\n%s", diff)
	}
	if _, err := c.BeforeToolCall(testContext(t), nil); err == nil {
		t.Error("BeforeToolCall without an event: got nil error")
	}
}

func TestHTTPUnreachable(t *testing.T) {
	s, err := wire.NewHTTPHost(faketools.NewHost(), nil)
	if err != nil {
		t.Fatal(err)
	}
	url := s.URL()
	s.Close()
	c := wire.NewHTTPClient(url)
	if _, err := c.Invoke(testContext(t), 0, wire.Spec{Name: "a"}, nil); err == nil || !strings.HasPrefix(err.Error(), "wire: /invoke:") {
		t.Errorf("Invoke on a closed host = %v, want a faketools: /invoke: error", err)
	}
}

// TestHTTPHammer runs many calls, hooks and approvals at once, some held.
// Run it with -race.
func TestHTTPHammer(t *testing.T) {
	const workers, rounds = 16, 10
	h := faketools.NewHost()
	h.SetApproval("echo", wire.Granted)
	h.Hold("gate")
	specs := []wire.Spec{{Name: "echo", Behavior: &wire.Behavior{Echo: true}}, {Name: "gate", Behavior: &wire.Behavior{Text: strp("open")}}}
	s, c := startHTTP(t, h, specs)
	ctx := testContext(t)
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*3)
	gated := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			res, err := c.Invoke(ctx, 1, specs[1], nil)
			if err == nil && res.Content[0].Text != "open" {
				err = fmt.Errorf("gate result %+v", res)
			}
			gated <- err
		}()
		go func() {
			defer wg.Done()
			for r := range rounds {
				in := fmt.Sprintf(`{"w":%d,"r":%d}`, w, r)
				res, err := c.Invoke(ctx, 0, specs[0], json.RawMessage(in))
				if err != nil || string(res.Details) != in {
					errs <- fmt.Errorf("echo %s = %s, %v", in, res.Details, err)
				}
				if ok, err := c.Approve(ctx, "echo"); !ok || err != nil {
					errs <- fmt.Errorf("approve = %v, %v", ok, err)
				}
				if _, err := c.BeforeToolCall(ctx, json.RawMessage(`{"toolName":"echo"}`)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	h.Release("gate")
	for range workers {
		if err := <-gated; err != nil {
			t.Error(err)
		}
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(h.Calls("echo")); n != workers*rounds {
		t.Errorf("%d echo calls recorded, want %d", n, workers*rounds)
	}
	if n := len(h.HookEvents()); n != workers*rounds {
		t.Errorf("%d hook events recorded, want %d", n, workers*rounds)
	}
	waitActive(t, s, 0)
}
