package driver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
	"github.com/codemodekit/kit/fakes/faketools"
)

func str(s string) *string { return &s }

// started returns a started target of a fake implementation with modes;
// t.Cleanup closes it.
func started(t *testing.T, modes string, s *conformance.Setup, opts ...Option) conformance.Target {
	t.Helper()
	tg, err := newFake(t, modes, opts...).MakeTarget()
	if err != nil {
		t.Fatalf("MakeTarget: %v", err)
	}
	t.Cleanup(func() { _ = tg.Close() })
	if s.Host == nil {
		s.Host = faketools.NewHost()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := tg.Start(ctx, s); err != nil {
		t.Fatalf("Start: %v", err)
	}
	return tg
}

// mustTurn starts a turn for agent main.
func mustTurn(t *testing.T, tg conformance.Target, agent string) conformance.Turn {
	t.Helper()
	tu, err := tg.StartTurn(context.Background(), conformance.TurnSpec{AgentID: agent, SessionID: "s1", SessionKey: "agent:main:main", RunID: "run-1"})
	if err != nil {
		t.Fatalf("StartTurn: %v", err)
	}
	return tu
}

// mustCall makes a call and decodes its details into v (when not nil).
func mustCall(t *testing.T, tu conformance.Turn, name string, args string, v any) conformance.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := tu.Call(ctx, "call-1", name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Call(%s): %v", name, err)
	}
	if v != nil {
		if err := json.Unmarshal(out.Details, v); err != nil {
			t.Fatalf("Call(%s) details %q: %v", name, out.Details, err)
		}
	}
	return out
}

// requireGone fails unless process pid has exited and been reaped.
func requireGone(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process %d still exists after Close (kill 0: %v)", pid, err)
	}
}

func TestTarget_scenario(t *testing.T) {
	host := faketools.NewHost()
	s := &conformance.Setup{
		Config: json.RawMessage(`{"tools":{"codeMode":true}}`),
		Tools:  []wire.Spec{spec("weather", &wire.Behavior{Returns: json.RawMessage(`{"sky": "blue"}`)})},
		Namespaces: []conformance.Namespace{
			{PluginID: "ok", Registration: json.RawMessage(`{"id":"a"}`)},
			{PluginID: "bad", Registration: json.RawMessage(`{"id":"refuse"}`)},
		},
		Env:            map[string]string{"FAKE_SCENARIO_VAR": "set-by-scenario"},
		SubAgentAnswer: "sub-agent says hi",
		Host:           host,
	}
	tg := started(t, "normal", s)

	rr, ok := tg.(conformance.RegistrationReporter)
	if !ok {
		t.Fatal("the target is no RegistrationReporter although the fake declares the capability")
	}
	var regs []string
	for _, err := range rr.RegistrationErrors() {
		if err == nil {
			regs = append(regs, "")
		} else {
			regs = append(regs, err.Error())
		}
	}
	if diff := cmp.Diff([]string{"", "refused bad"}, regs); diff != "" {
		t.Errorf("RegistrationErrors mismatch (-want +got):\n%s", diff)
	}

	tu := mustTurn(t, tg, "main")
	wantTools := []conformance.ToolDefinition{{Name: "weather", Description: "weather tool", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}}
	if diff := cmp.Diff(wantTools, tu.Tools()); diff != "" {
		t.Errorf("Tools mismatch (-want +got):\n%s", diff)
	}

	// What the implementation was told: no behaviour, the config.
	var setup struct {
		Start      protocol.StartParams `json:"start"`
		TurnConfig json.RawMessage      `json:"turnConfig"`
		TurnTools  []wire.Spec          `json:"turnTools"`
	}
	mustCall(t, tu, "setup", `{}`, &setup)
	if setup.Start.StateDir == "" || len(setup.Start.Namespaces) != 2 || setup.Start.Tools[0].Behavior != nil || setup.TurnTools[0].Behavior != nil {
		t.Errorf("start params = %+v, turn tools %+v: want a state dir, 2 namespaces and no behaviour", setup.Start, setup.TurnTools)
	}
	if string(setup.TurnConfig) != `{"tools":{"codeMode":true}}` {
		t.Errorf("turn config = %s", setup.TurnConfig)
	}

	tests := []struct {
		name    string
		prepare func()
		call    string
		args    string
		want    conformance.Outcome
		reason  string
	}{
		{name: "invoke", call: "invoke", args: `{"city":"Oslo"}`,
			want:   conformance.Outcome{Text: `{"sky":"blue"}`, Details: json.RawMessage(`{"sky":"blue"}`)},
			reason: "the suite's host runs the spec's behaviour, which never crossed the wire"},
		{name: "tool failure", prepare: func() { host.SetBehavior("weather", wire.Behavior{Fails: str("no sky today")}) },
			call: "invoke", want: conformance.Outcome{Text: "no sky today", IsError: true},
			reason: "tool_failed carries the failure text verbatim"},
		{name: "approval denied", call: "approve", want: conformance.Outcome{Text: "false", Details: json.RawMessage("false")}},
		{name: "approval granted", prepare: func() { host.SetApproval("weather", wire.Granted) },
			call: "approve", want: conformance.Outcome{Text: "true", Details: json.RawMessage("true")}},
		{name: "hook blocks", prepare: func() { host.BlockHook("weather", "not today") }, call: "hook", args: `{"x":1}`,
			want: conformance.Outcome{Text: `{"block":true,"reason":"not today"}`, Details: json.RawMessage(`{"block":true,"reason":"not today"}`)}},
		{name: "sub-agent", call: "subagent",
			want: conformance.Outcome{Text: `"sub-agent says hi"`, Details: json.RawMessage(`"sub-agent says hi"`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.prepare != nil {
				tt.prepare()
			}
			args := tt.args
			if args == "" {
				args = "{}"
			}
			got := mustCall(t, tu, tt.call, args, nil)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Call(%s) mismatch (-want +got):\n%s\nreason: %s", tt.call, diff, tt.reason)
			}
		})
	}
	wantCalls := []wire.Call{{Tool: "weather", Input: json.RawMessage(`{"city":"Oslo"}`)}, {Tool: "weather", Input: json.RawMessage(`{}`)}}
	if diff := cmp.Diff(wantCalls, host.Calls("weather")); diff != "" {
		t.Errorf("host calls mismatch (-want +got):\n%s", diff)
	}
	if got := len(host.HookEvents()); got != 1 {
		t.Errorf("hook events = %d, want 1", got)
	}

	events, err := tu.Trajectory(context.Background())
	if err != nil || len(events) != 1 || !strings.Contains(string(events[0]), `"turn":"t1"`) {
		t.Errorf("Trajectory = %s, %v; want one event of turn t1", events, err)
	}
	if err := tu.End(context.Background()); err != nil {
		t.Errorf("End: %v", err)
	}
	if log := tg.(conformance.LogReader).Log(); !strings.Contains(log, "start env=set-by-scenario") || !strings.Contains(log, "end t1") {
		t.Errorf("Log = %q, want the scenario's environment variable and the end of t1", log)
	}

	// A restart is a new process that keeps the state directory.
	var pid1, pid2, boots int
	mustCall(t, tu, "pid", `{}`, &pid1)
	if err := tg.(conformance.Restarter).Restart(context.Background()); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	requireGone(t, pid1)
	if err := tu.End(context.Background()); err != nil {
		t.Errorf("End of a turn of the process before the restart: %v, want nil", err)
	}
	if _, err := tu.Call(context.Background(), "c", "pid", json.RawMessage(`{}`)); err == nil {
		t.Error("Call on a turn of the process before the restart succeeded")
	}
	tu2 := mustTurn(t, tg, "main")
	mustCall(t, tu2, "pid", `{}`, &pid2)
	mustCall(t, tu2, "boots", `{}`, &boots)
	if pid2 == pid1 || boots != 2 {
		t.Errorf("after Restart: pid %d (before %d), boots %d; want a new process and 2 boots", pid2, pid1, boots)
	}
	recs, err := tg.(conformance.Transcripter).Transcript(context.Background(), "agent:main:main")
	if diff := cmp.Diff([]json.RawMessage{json.RawMessage(`{"session":"agent:main:main","boots":2}`)}, recs); diff != "" || err != nil {
		t.Errorf("Transcript mismatch (-want +got), err %v:\n%s", err, diff)
	}
	if err := tg.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	requireGone(t, pid2)
	if _, err := os.Stat(setup.Start.StateDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("state directory after Close: %v, want it removed", err)
	}
}

func TestTarget_turnFailure(t *testing.T) {
	tg := started(t, "normal", &conformance.Setup{})
	_, err := tg.StartTurn(context.Background(), conformance.TurnSpec{AgentID: "fail"})
	var tf *conformance.TurnFailure
	if !errors.As(err, &tf) || tf.Message != "the agent run failed" {
		t.Errorf("StartTurn error = %v, want *conformance.TurnFailure %q", err, "the agent run failed")
	}
}

func TestTarget_capabilities(t *testing.T) {
	tg := started(t, "no-caps", &conformance.Setup{})
	if _, ok := tg.(conformance.LogReader); ok {
		t.Error("target is a LogReader without the log capability")
	}
	if _, ok := tg.(conformance.RegistrationReporter); ok {
		t.Error("target is a RegistrationReporter without the capability")
	}
	if err := tg.(conformance.Restarter).Restart(context.Background()); !errors.Is(err, conformance.ErrNotApplicable) {
		t.Errorf("Restart without the capability = %v, want not applicable", err)
	}
	if _, err := tg.(conformance.Transcripter).Transcript(context.Background(), "k"); !errors.Is(err, conformance.ErrNotApplicable) {
		t.Errorf("Transcript without the capability = %v, want not applicable", err)
	}
}

func TestTarget_notApplicable(t *testing.T) {
	tg, err := newFake(t, "na-start").MakeTarget()
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	err = tg.Start(context.Background(), &conformance.Setup{Host: faketools.NewHost()})
	if !errors.Is(err, conformance.ErrNotApplicable) || !strings.Contains(err.Error(), "the fake cannot express this setup") {
		t.Errorf("Start = %v, want not applicable with the reason", err)
	}
}

func TestTarget_cancel(t *testing.T) {
	tg := started(t, "normal", &conformance.Setup{})
	tu := mustTurn(t, tg, "main")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := tu.Call(ctx, "c", "hang", json.RawMessage(`{}`))
	var e *Error
	if !errors.As(err, &e) || e.Code != FailureTimeout || e.Method != protocol.MethodTurnCall || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call(hang) = %v, want a %s error of %s that is context.DeadlineExceeded", err, FailureTimeout, protocol.MethodTurnCall)
	}
	// $/cancel reached the implementation, and the connection goes on.
	var n int
	for range 50 {
		if mustCall(t, tu, "cancelled", `{}`, &n); n == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n != 1 {
		t.Errorf("requests the implementation saw cancelled = %d, want 1", n)
	}
}

// TestTarget_failures checks that whatever an implementation does, the
// suite gets an *Error with a stable code, in bounded time, and no process
// is left behind.
func TestTarget_failures(t *testing.T) {
	tests := []struct {
		name       string
		modes      string
		call       string
		timeout    time.Duration
		wantCode   string
		wantStderr string
		reason     string
	}{
		{name: "crash", call: "crash", wantCode: FailureExited, wantStderr: "fake: crashing on purpose"},
		{name: "garbage", call: "garbage", wantCode: FailureProtocol, reason: "stdout carries protocol messages only; the process is killed"},
		{name: "internal error", call: "fail", wantCode: FailureRemote},
		{name: "hang ignoring cancel", call: "hang-hard", timeout: 300 * time.Millisecond, wantCode: FailureTimeout,
			reason: "Close kills it after the close timeout"},
		{name: "stderr flood", call: "flood", wantCode: FailureExited, wantStderr: "fake: flood end",
			reason: "only the end of stderr is kept"},
		{name: "result of the wrong shape", modes: "raw-bad-result", call: "x", wantCode: FailureProtocol},
		{name: "response to no request", modes: "raw-unknown-id", call: "x", wantCode: FailureProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			modes := tt.modes
			if modes == "" {
				modes = "normal"
			}
			d := newFake(t, modes, WithCloseTimeout(500*time.Millisecond, 500*time.Millisecond), WithStderrLimit(4096))
			tg, err := d.MakeTarget()
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if err := tg.Start(ctx, &conformance.Setup{Tools: []wire.Spec{spec("weather", nil)}, Host: faketools.NewHost()}); err != nil {
				t.Fatal(err)
			}
			tu := mustTurn(t, tg, "main")
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			cctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			begin := time.Now()
			_, err = tu.Call(cctx, "c", tt.call, json.RawMessage(`{}`))
			var e *Error
			if !errors.As(err, &e) || e.Code != tt.wantCode {
				t.Fatalf("Call(%s) = %v, want an *Error with code %s (%s)", tt.call, err, tt.wantCode, tt.reason)
			}
			if !strings.Contains(e.Stderr, tt.wantStderr) || len(e.Stderr) > 4096+len("[...]") {
				t.Errorf("error stderr (%d bytes) = %q..., want at most 4 KiB containing %q", len(e.Stderr), e.Stderr[:min(len(e.Stderr), 80)], tt.wantStderr)
			}
			if !strings.Contains(err.Error(), tt.wantCode) {
				t.Errorf("error text %q does not name the code %s", err.Error(), tt.wantCode)
			}
			_ = tg.Close()
			if elapsed := time.Since(begin); elapsed > 8*time.Second {
				t.Errorf("the call and Close took %v", elapsed)
			}
			requireGone(t, tg.(interface{ base() *target }).base().proc.cmd.Process.Pid)
		})
	}
}

func TestDriver_handshakeFailures(t *testing.T) {
	tests := []struct {
		name     string
		argv     []string
		modes    string
		wantCode string
	}{
		{name: "no such command", argv: []string{"/nonexistent/implementation"}, wantCode: FailureSpawn},
		{name: "exits at once", modes: "exit-at-once", wantCode: FailureExited},
		{name: "other protocol version", modes: "bad-version", wantCode: FailureHandshake},
		{name: "garbage before hello", modes: "garbage-hello", wantCode: FailureProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newFake(t, tt.modes)
			if tt.argv != nil {
				d = New(tt.argv)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := d.Hello(ctx)
			var e *Error
			if !errors.As(err, &e) || e.Code != tt.wantCode {
				t.Fatalf("Hello = %v, want an *Error with code %s", err, tt.wantCode)
			}
			if _, err2 := d.MakeTarget(); !errors.Is(err2, err) {
				t.Errorf("MakeTarget = %v, want the handshake's error %v", err2, err)
			}
		})
	}
}

func TestTarget_closeKills(t *testing.T) {
	tg := started(t, "no-exit", &conformance.Setup{}, WithCloseTimeout(300*time.Millisecond, 300*time.Millisecond))
	var pid int
	mustCall(t, mustTurn(t, tg, "main"), "pid", `{}`, &pid)
	begin := time.Now()
	err := tg.Close()
	var e *Error
	if !errors.As(err, &e) || e.Code != FailureExited || !strings.Contains(e.Stderr, "fake: not exiting") {
		t.Errorf("Close = %v, want an *Error %s with the stderr", err, FailureExited)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	requireGone(t, pid)
}

func TestMergeMCPServers(t *testing.T) {
	tests := []struct {
		name    string
		config  string
		entries map[string]map[string]any
		want    string
		reason  string
	}{
		{name: "no entries", config: `{"a": 1e400}`, want: `{"a": 1e400}`, reason: "returned unchanged"},
		{name: "new", config: `{"tools":{"codeMode":true}}`, entries: map[string]map[string]any{"docs": {"url": "http://127.0.0.1:1/mcp"}},
			want: `{"mcp":{"servers":{"docs":{"url":"http://127.0.0.1:1/mcp"}}},"tools":{"codeMode":true}}`},
		{name: "scenario members win", config: `{"mcp":{"servers":{"docs":{"timeoutMs":500,"command":"mine"}}},"n":12345678901234567890}`,
			entries: map[string]map[string]any{"docs": {"command": "node", "args": []any{"x"}}},
			want:    `{"mcp":{"servers":{"docs":{"args":["x"],"command":"mine","timeoutMs":500}}},"n":12345678901234567890}`,
			reason:  "what a scenario configures for a server wins; numbers keep their text"},
		{name: "not an object", config: `[1]`, entries: map[string]map[string]any{"d": {"url": "u"}},
			want: `{"mcp":{"servers":{"d":{"url":"u"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MergeMCPServers(json.RawMessage(tt.config), tt.entries)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("MergeMCPServers mismatch (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
		})
	}
}
