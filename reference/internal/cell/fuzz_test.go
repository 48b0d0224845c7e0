package cell

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/google/go-cmp/cmp"
)

// execSeeds are exec arguments of every shape the input check knows.
var execSeeds = []string{
	`{"code":"return 1"}`,
	`{"command":"return 1"}`,
	`{"code":"return 1","command":"return 1"}`,
	`{"code":"a","command":"b"}`,
	`{"code":"return 1","language":"typescript"}`,
	`{"code":"return 1","language":"bash"}`,
	`{"code":"return 1","language":null,"restartSafe":null}`,
	`{"code":"return 1","restartSafe":"yes"}`,
	`{"code":"  \n\t"}`,
	`{"code":1}`,
	`{"code":null,"command":"ls -la"}`,
	`[]`, `null`, `"code"`, `{`, ``,
	`{"code":"\ud800","__proto__":{"code":"x"}}`,
	`{"code":"return 1","code":"return 2"}`,
}

var execMessages = []string{MsgCodeRequired, MsgCodeCommandMismatch, MsgLanguage, MsgRestartSafe}

// FuzzParseExec checks exec argument parsing (SPEC.md 5.1): every input is
// accepted or refused with one of the exact input messages; an accepted
// input has non-blank code and a known language, and parses back to itself
// through either alias.
func FuzzParseExec(f *testing.F) {
	for _, s := range execSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		in, fail := ParseExec(json.RawMessage(args))
		in2, fail2 := ParseExec(json.RawMessage(args))
		if in != in2 || (fail == nil) != (fail2 == nil) {
			t.Fatalf("ParseExec(%q) is not deterministic", args)
		}
		if fail != nil {
			want := Result{Status: "failed", Code: CodeInvalidInput, FailurePhase: PhaseInput, Error: fail.Error}
			if diff := cmp.Diff(want, *fail); diff != "" || !slices.Contains(execMessages, fail.Error) {
				t.Fatalf("ParseExec(%q) failure mismatch (-want +got):\n%s", args, diff)
			}
			if in != (ExecInput{}) {
				t.Fatalf("ParseExec(%q) = %+v with a failure", args, in)
			}
			return
		}
		if strings.TrimSpace(in.Code) == "" || (in.Language != "javascript" && in.Language != "typescript") {
			t.Fatalf("ParseExec(%q) accepted %+v", args, in)
		}
		for _, key := range []string{"code", "command"} {
			b, _ := json.Marshal(map[string]any{key: in.Code, "language": in.Language, "restartSafe": in.RestartSafe})
			again, fail := ParseExec(b)
			if fail != nil || again != in {
				t.Fatalf("ParseExec(%s) = %+v %v, want %+v (from %q)", b, again, fail, in, args)
			}
		}
	})
}

// FuzzParseWait checks wait argument parsing (CM-8.17, CM-8.18) and the
// admission of a wait on an empty store: either runId must be a non-empty
// string, or the run is unavailable; never anything else.
func FuzzParseWait(f *testing.F) {
	for _, s := range []string{`{"runId":"cm_1"}`, `{"run_id":" cm_1 "}`, `{"runId":"","run_id":"x"}`, `{"runId":null,"run_id":"y"}`,
		`{"runId":1}`, `{"runId":" \t"}`, `[]`, `null`, ``, `{"runId":"\u2028cm\u0000"}`} {
		f.Add(s)
	}
	rn := NewRunner(nil, nil) // no engine: the store alone answers
	turn := turnOf(newFakeHost(config.Defaults()), Scope{AgentRunID: "r"})
	f.Fuzz(func(t *testing.T, args string) {
		id, fail := ParseWait(json.RawMessage(args))
		if fail != nil {
			want := Result{Status: "failed", Code: CodeInvalidInput, FailurePhase: PhaseInput, Error: MsgRunIDRequired}
			if diff := cmp.Diff(want, *fail); diff != "" || id != "" {
				t.Fatalf("ParseWait(%q) failure mismatch (-want +got):\n%s", args, diff)
			}
		} else {
			if id == "" || id != strings.TrimSpace(id) {
				t.Fatalf("ParseWait(%q) = %q", args, id)
			}
			for _, key := range []string{"runId", "run_id"} {
				b, _ := json.Marshal(map[string]string{key: id})
				if again, fail := ParseWait(b); fail != nil || again != id {
					t.Fatalf("ParseWait(%s) = %q %v, want %q", b, again, fail, id)
				}
			}
		}
		res := rn.Wait(context.Background(), turn, "call_w", json.RawMessage(args))
		wantMsg := MsgRunUnavailable
		if fail != nil {
			wantMsg = MsgRunIDRequired
		}
		want := Result{Status: "failed", Code: CodeInvalidInput, FailurePhase: PhaseInput, Error: wantMsg,
			Telemetry: turn.telemetry()}
		if diff := cmp.Diff(want, res); diff != "" {
			t.Fatalf("Wait(%q) mismatch (-want +got):\n%s", args, diff)
		}
	})
}

var (
	runIDRE     = regexp.MustCompile(`^cm_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	codes       = []string{CodeInvalidInput, CodeRuntimeUnavailable, CodeTimeout, CodeOutputLimit, CodeSnapshotLimit, CodeInternal}
	phases      = []string{PhaseInput, PhaseGuest, PhaseHost, PhaseBridge}
	pendingIDRE = regexp.MustCompile(`^bridge:[a-zA-Z]+:[1-9][0-9]*$`)
)

// checkPayload checks the SPEC invariants of any exec or wait result: a
// known status; for failed a code of the six and a phase of the four; for
// waiting a well-formed run id and pending list; compact JSON within
// bounds for completed.
func checkPayload(t *testing.T, what string, res Result, maxOutput int) {
	t.Helper()
	b, err := res.MarshalJSON()
	if err != nil || !json.Valid(b) {
		t.Fatalf("%s: payload does not marshal: %v", what, err)
	}
	switch res.Status {
	case "completed":
		if !json.Valid(res.Value) && len(res.Value) != 0 {
			t.Fatalf("%s: completed with invalid value %q", what, res.Value)
		}
		if len(res.Value) > maxOutput {
			t.Fatalf("%s: value of %d bytes over maxOutputBytes %d", what, len(res.Value), maxOutput)
		}
	case "waiting":
		if !runIDRE.MatchString(res.RunID) {
			t.Fatalf("%s: waiting with run id %q", what, res.RunID)
		}
		if res.Reason != "yield" && res.Reason != "pending_tools" {
			t.Fatalf("%s: waiting with reason %q", what, res.Reason)
		}
		for _, p := range res.Pending {
			if !pendingIDRE.MatchString(p.ID) || !strings.HasPrefix(p.ID, "bridge:"+p.Method+":") {
				t.Fatalf("%s: pending call %+v", what, p)
			}
		}
	case "failed":
		if !slices.Contains(codes, res.Code) || !slices.Contains(phases, res.FailurePhase) || res.Error == "" {
			t.Fatalf("%s: failed with code %q phase %q error %q", what, res.Code, res.FailurePhase, res.Error)
		}
	default:
		t.Fatalf("%s: status %q", what, res.Status)
	}
}

// FuzzExec runs arbitrary model code through exec and, when it suspends,
// wait: every result is a well-formed payload, and once the agent run is
// dropped no run, leg or VM of it survives.
func FuzzExec(f *testing.F) {
	for _, s := range []string{
		`return 1`, `await yield_control("x"); return 2`, `text("a".repeat(100)); return [1, {b: 2}]`,
		`while (true) {}`, `throw new Error("interrupted")`, `return await tools.callValue("openclaw:core:echo", {x: 1})`,
		`tools.callValue("openclaw:core:echo", {}); return 1`, `await new Promise(() => {})`, `require("fs")`, `ls -la`,
		`const f = () => f(); f()`, `let a = []; while (true) a.push("x".repeat(1e5))`, `return 10n`,
		`interface A { x: number }; return 1 as number`, `})(); (async () => {`,
	} {
		f.Add(s, false, false)
	}
	f.Add(`return 1 as number`, true, false)
	f.Add(`return await tools.callValue("openclaw:core:echo", {})`, false, true)
	rn := testRunner(f)
	s := config.Defaults()
	s.TimeoutMs = 100
	s.MemoryLimitBytes = 16 << 20
	s.MaxOutputBytes = 4096
	h := newFakeHost(s)
	scope := Scope{AgentRunID: "fuzz"}
	f.Fuzz(func(t *testing.T, code string, ts, restartSafe bool) {
		lang := "javascript"
		if ts {
			lang = "typescript"
		}
		args, _ := json.Marshal(map[string]any{"code": code, "language": lang, "restartSafe": restartSafe})
		res := rn.Exec(context.Background(), turnOf(h, scope), "call_f", args)
		checkPayload(t, "exec", res, s.MaxOutputBytes)
		for i := 0; res.Status == "waiting" && i < 3; i++ {
			wargs, _ := json.Marshal(map[string]string{"runId": res.RunID})
			res = rn.Wait(context.Background(), turnOf(h, scope), "call_w", wargs)
			checkPayload(t, "wait", res, s.MaxOutputBytes)
		}
		rn.Drop(scope.AgentRunID)
		settle(t, func() bool { st := rn.Stats(); return st.Suspended == 0 && st.Legs == 0 })
	})
}

// settle polls cond until it holds, for at most ten seconds.
func settle(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition did not settle within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
