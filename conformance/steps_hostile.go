package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cucumber/godog"
)

// hostileRun is the state of one hostile-program scenario.
type hostileRun struct {
	prog     *HostileProgram
	waits    int      // wait calls made after the program's exec
	baseline []string // fingerprint of a fresh run taken before the program ran
}

// registerHostile binds the steps of the hostile-program corpus
// (STEPS.md, "Hostile programs").
func (w *world) registerHostile(sc *godog.ScenarioContext) {
	h := &hostileRun{}
	sc.Step(`^the model runs the hostile program "([^"]+)"$`, func(name string) error { return w.runHostile(h, name) })
	sc.Step(`^it ends as its header declares$`, func() error { return w.hostileEnds(h) })
	sc.Step(`^the host still runs a trivial exec$`, w.trivialExec)
	sc.Step(`^nothing leaked into a fresh run$`, func() error { return w.nothingLeaked(h) })
}

// runHostile applies the program's header to the setup, starts a turn,
// fingerprints a fresh run, execs the program and answers every waiting
// result with wait, as often as the header declares.
func (w *world) runHostile(h *hostileRun, name string) error {
	if w.started {
		return errors.New("a hostile program sets up the target: run it before any turn starts")
	}
	p, err := loadHostileProgram(name)
	if err != nil {
		return err
	}
	h.prog = &p
	if err := w.catalogFile(p.Tools); err != nil {
		return err
	}
	cm, ok := w.tools()["codeMode"].(map[string]any)
	if !ok {
		cm = map[string]any{"enabled": true}
	}
	if p.Config != nil {
		v, err := decodeJSON(p.Config)
		if err != nil {
			return err
		}
		deepMerge(cm, v.(map[string]any))
	}
	if err := w.setCodeMode(cm); err != nil {
		return err
	}
	for _, entry := range p.Deny {
		if err := w.policyDenies(entry); err != nil {
			return err
		}
	}
	if err := w.startTurn(defaultTurn()); err != nil {
		return err
	}
	if h.baseline, err = w.fingerprint(); err != nil {
		return fmt.Errorf("fingerprint before the program: %w", err)
	}
	args := map[string]any{"code": p.Source}
	if p.Language == "typescript" {
		args["language"] = "typescript"
	}
	if err := w.exec(args); err != nil {
		return err
	}
	for h.waits < p.Expect.Waits {
		m, err := w.result()
		if err != nil || m["status"] != "waiting" {
			break
		}
		h.waits++
		if err := w.waitLatest(); err != nil {
			return err
		}
	}
	return nil
}

// payloadMembers are the members of each payload status (CM-7.2 to CM-7.4).
var payloadMembers = map[string][]string{
	"completed": {"output", "replaySafe", "status", "telemetry", "value"},
	"waiting":   {"output", "pendingToolCalls", "reason", "replaySafe", "runId", "status", "telemetry"},
	"failed":    {"bridgeDispatchStarted", "code", "error", "failurePhase", "output", "replaySafe", "status", "telemetry"},
}

// hostFrameRE matches what a host stack frame or host path looks like in an
// error text: Go files and goroutines, Node internals, WebAssembly frames
// and absolute paths inside frames.
var hostFrameRE = regexp.MustCompile(`\.go:\d|goroutine \d|node:internal|wasm-function|\(/[^)]*\)|at /`)

var failurePhases = map[string]bool{"input": true, "guest": true, "host": true, "bridge": true}

// hostileEnds checks the final payload against the program's header, and
// the payload rules every outcome follows (CM-7.1 to CM-7.6, CM-19.1).
func (w *world) hostileEnds(h *hostileRun) error {
	if h.prog == nil {
		return errors.New("no hostile program has run")
	}
	e := h.prog.Expect
	m, err := w.result()
	if err != nil {
		return err
	}
	var problems []problem
	bad := func(path string, want, got any, format string, args ...any) {
		problems = append(problems, problem{at: Mismatch{Path: path, Want: kindOf(want), Got: kindOf(got)}, msg: fmt.Sprintf(format, args...)})
	}
	status, _ := m["status"].(string)
	if want, ok := payloadMembers[status]; !ok {
		bad("$.status", e.Status, m["status"], "status %q is not completed, waiting or failed", status)
	} else if w.asserts("CM-7.2", "CM-7.3", "CM-7.4", "CM-7.9") {
		// The exact member set is the payload clauses' requirement: other
		// scenarios read the members they name and ignore the rest.
		got := make([]string, 0, len(m))
		for k := range m {
			got = append(got, k)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			bad("$", presence("members of "+status), presence("other members"), "a %s payload has members %q, want exactly %q (CM-7.2 to CM-7.4)", status, got, want)
		}
	}
	if status == "failed" {
		code, _ := m["code"].(string)
		phase, _ := m["failurePhase"].(string)
		if !errorCodes[code] {
			bad("$.code", e.Code, m["code"], "code %q is none of the six codes of CM-19.1", code)
		}
		if !failurePhases[phase] {
			bad("$.failurePhase", e.Phase, m["failurePhase"], "failurePhase %q is not input, guest, host or bridge", phase)
		}
		if m["bridgeDispatchStarted"] == true && phase != "bridge" {
			bad("$.failurePhase", "bridge", m["failurePhase"], "failurePhase %q with bridgeDispatchStarted true, want \"bridge\" (CM-7.6)", phase)
		}
	}
	if status == "waiting" {
		bad("$.status", e.Status, status, "the run is still waiting after %d wait calls (the header declares waits=%d)", h.waits, e.Waits)
	} else if h.waits != e.Waits {
		bad("waits", json.Number(fmt.Sprint(e.Waits)), json.Number(fmt.Sprint(h.waits)), "the run ended after %d wait calls, the header declares waits=%d", h.waits, e.Waits)
	}
	if status != e.Status {
		bad("$.status", e.Status, status, "status %q, want %q", status, e.Status)
	}
	if e.Code != "" && m["code"] != e.Code {
		bad("$.code", e.Code, m["code"], "code %v, want %q", m["code"], e.Code)
	}
	if e.Phase != "" && m["failurePhase"] != e.Phase {
		bad("$.failurePhase", e.Phase, m["failurePhase"], "failurePhase %v, want %q", m["failurePhase"], e.Phase)
	}
	if e.Rejected {
		if m["bridgeDispatchStarted"] != false {
			bad("$.bridgeDispatchStarted", false, m["bridgeDispatchStarted"], "a rejected program has bridgeDispatchStarted %v, want false (CM-5.8, CM-5.12)", m["bridgeDispatchStarted"])
		}
		if out, _ := m["output"].([]any); len(out) != 0 {
			bad("$.output.length", json.Number("0"), json.Number(fmt.Sprint(len(out))), "a rejected program has output %s, want [] (CM-5.8, CM-5.12)", show(m["output"]))
		}
	}
	errText, _ := m["error"].(string)
	if e.Error != nil && errText != *e.Error {
		bad("$.error", presence("text"), presence("other text"), "error %q, want %q", errText, *e.Error)
	}
	if len(e.ErrorPrefix) > 0 && !slices.ContainsFunc(e.ErrorPrefix, func(p string) bool { return strings.HasPrefix(errText, p) }) {
		bad("$.error", presence("prefix"), presence("other text"), "error %q, want it to start with one of %q", errText, e.ErrorPrefix)
	}
	if hostFrameRE.MatchString(errText) {
		bad("$.error", presence("no host frames"), presence("host frames"), "error %q shows host frames or paths (CM-10.35)", errText)
	}
	if e.ErrorContains != nil && !strings.Contains(errText, *e.ErrorContains) {
		bad("$.error", presence("text"), presence("other text"), "error %q, want it to contain %q", errText, *e.ErrorContains)
	}
	for _, c := range []struct {
		member string
		want   json.RawMessage
	}{{"value", e.Value}, {"output", e.Output}} {
		if c.want == nil {
			continue
		}
		want, err := decodeJSON(c.want)
		if err != nil {
			return fmt.Errorf("the header's %s is not JSON: %w", c.member, err)
		}
		got, ok := m[c.member]
		if !ok {
			bad("$."+c.member, presence(kindPresent), presence(kindMissing), "the payload has no %s, want %s", c.member, c.want)
			continue
		}
		if err := matchJSON(want, got, false); err != nil {
			at, _ := firstMismatch(err)
			at.Path = "$." + c.member + strings.TrimPrefix(at.Path, "$")
			problems = append(problems, problem{at: at, msg: fmt.Sprintf("%s mismatch: %v", c.member, err)})
		}
	}
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.msg
		}
		return &mismatchError{first: problems[0].at,
			msg: fmt.Sprintf("%s does not end as its header declares:\n- %s\nresult: %s", h.prog.File, strings.Join(msgs, "\n- "), show(m))}
	}
	return nil
}

// trivialExec proves the host is still usable: a fresh run in a new turn
// of the same session completes with 1 + 1. A new turn, because how a turn
// goes on after a failed run is the model boundary's business (SPEC A#56),
// not the sandbox's; the program's turn ends first, as a host runs one
// turn of a session at a time.
func (w *world) trivialExec() error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	if err := w.endTurn(); err != nil {
		return fmt.Errorf("end the program's turn: %w", err)
	}
	next := ts.spec
	next.RunID = "" // a new agent run of the same session
	if err := w.startTurn(next); err != nil {
		return err
	}
	// The program's own limits apply, a timeoutMs as short as 300 ms: a
	// trivial exec may miss that on a loaded machine, and is tried again.
	rec, err := w.execPastLoad(json.RawMessage(`{"code":"return 1 + 1;"}`))
	if err != nil {
		return err
	}
	m, ok := rec.payload.(map[string]any)
	if !ok || m["status"] != "completed" || fmt.Sprint(m["value"]) != "2" {
		return fmt.Errorf("the trivial exec after the program = %s, want completed with value 2", show(rec.payload))
	}
	if out, _ := m["output"].([]any); len(out) != 0 {
		return fmt.Errorf("the trivial exec after the program has output %s, want []", show(m["output"]))
	}
	return nil
}

// nothingLeaked fingerprints a fresh run of the same session and one of
// another session and compares both with the fingerprint taken before the
// program ran (CM-10.8, CM-18.14).
func (w *world) nothingLeaked(h *hostileRun) error {
	if h.baseline == nil {
		return errors.New("no fingerprint was taken before the program ran")
	}
	same, err := w.fingerprint()
	if err != nil {
		return fmt.Errorf("a fresh run of the same session: %w", err)
	}
	if err := w.startTurn(sessionTurn("hostile-other")); err != nil {
		return err
	}
	other, err := w.fingerprint()
	if err != nil {
		return fmt.Errorf("a fresh run of another session: %w", err)
	}
	var changed []string
	for _, c := range []struct {
		where string
		fp    []string
	}{{"the same session", same}, {"another session", other}} {
		for i, name := range fingerprintTargets {
			if !sameSignature(c.fp[i], h.baseline[i]) {
				changed = append(changed, name+" in "+c.where+signatureChange(h.baseline[i], c.fp[i]))
			}
		}
	}
	if len(changed) > 0 {
		return fmt.Errorf("the program's changes leaked into a fresh run: %s", strings.Join(changed, ", "))
	}
	return nil
}

// sameSignature reports whether two signatures of a target, each whole or
// hashed ("#" and its FNV-1a hash, which the probe writes when a signature
// is long or not printable ASCII), are of the same signature: a part of more
// targets has less room per signature, so one fingerprint may hash what
// another returned whole.
func sameSignature(a, b string) bool {
	switch {
	case a == b:
		return true
	case strings.HasPrefix(a, "#") == strings.HasPrefix(b, "#"):
		return false
	case strings.HasPrefix(a, "#"):
		return a == "#"+signatureHash(b)
	default:
		return b == "#"+signatureHash(a)
	}
}

// signatureHash is the probe's hash of a whole (printable ASCII) signature:
// FNV-1a over its characters, in 8 hex digits.
func signatureHash(s string) string {
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%08x", h.Sum32())
}

// signatureChange describes where two whole signatures of a target first
// differ, as " (was …, now …)" of their "|"-separated members; "" when
// either is a hash.
func signatureChange(was, now string) string {
	if strings.HasPrefix(was, "#") || strings.HasPrefix(now, "#") {
		return ""
	}
	a, b := strings.Split(was, "|"), strings.Split(now, "|")
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf(" (was %q, now %q)", x, y)
		}
	}
	return ""
}

// fingerprintTargets are the guest objects whose own properties a
// fingerprint covers: the global object, the code-mode globals and the
// built-ins and prototypes hostile code likes to patch. The probe reads
// each through probeExpressions.
var fingerprintTargets = []string{
	"globalThis", "Object", "Object.prototype", "Function", "Function.prototype", "Array", "Array.prototype",
	"String", "String.prototype", "Number", "Number.prototype", "Boolean.prototype", "Symbol", "Symbol.prototype",
	"BigInt.prototype", "Promise", "Promise.prototype", "Error", "Error.prototype", "TypeError.prototype",
	"RangeError.prototype", "JSON", "Math", "Reflect", "RegExp", "RegExp.prototype", "Map.prototype",
	"Set.prototype", "Date", "Date.prototype", "ArrayBuffer.prototype", "Object.getPrototypeOf(Uint8Array.prototype)",
	"Object.getPrototypeOf(async function () {})", "Object.getPrototypeOf(function* () {})",
	"Object.getPrototypeOf([][Symbol.iterator]())", "tools", "API", "ALL_TOOLS", "MCP", "namespaces",
}

// fingerprintProbe is the guest program of a fingerprint of the targets
// from to to (fingerprintTargets[from:to]): per target a signature of its
// prototype, extensibility and own property descriptors (function values by
// name, length and source text), or the fixed marker "absent" for an
// undefined target. Prototypes are named by their index in all the targets,
// so a part reads as it does in the whole. The probe returns an array with
// one string per target: the signature itself when it is printable ASCII of
// at most rawChars characters, else "#" and its FNV-1a hash in 8 hex digits.
// The same signature always reads the same way, so two fingerprints differ
// exactly where their signatures do. Hashing is the probe's costly part (a
// character at a time, in guest code), so the signatures are returned whole
// wherever the run's maxOutputBytes leaves room (fingerprintRawChars), and a
// native function's source text, which its name fixes, is not hashed.
func fingerprintProbe(from, to, rawChars int) string {
	return fingerprintProbeBody + fmt.Sprintf(`const raw = %d;
return targets.slice(%d, %d).map((o) => {
  const s = o === undefined ? "absent" : signature(o);
  return s.length <= raw && /^[\x20-\x7e]*$/.test(s) ? s : "#" + hash(s);
});`, rawChars, from, to)
}

// fingerprintProbeBody is fingerprintProbe but for its final statements.
var fingerprintProbeBody = `const R = Reflect, fts = Function.prototype.toString, ext = Object.isExtensible;
const targets = [` + strings.Join(probeExpressions(), ", ") + `];
const hash = (s) => {
  let a = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) a = Math.imul(a ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return ("0000000" + a.toString(16)).slice(-8);
};
const describe = (v) => {
  const t = typeof v;
  if (t === "function") {
    let src;
    try { src = R.apply(fts, v, []); } catch (e) { src = "?"; }
    const d = R.getOwnPropertyDescriptor(v, "name");
    const name = d && "value" in d ? String(d.value) : "?";
    const native = typeof d?.value === "string" && src === "function " + d.value + "() {\n    [native code]\n}";
    return "f:" + name + ":" + v.length + ":" + (native ? "native" : hash(src));
  }
  if (t === "object") return v === null ? "null" : "o" + targets.indexOf(v);
  if (t === "symbol") return "s:" + v.description;
  return t + ":" + String(v);
};
const signature = (o) => {
  const keys = R.ownKeys(o).map((k) => [typeof k === "symbol" ? "@" + k.description : k, k]);
  keys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let s = "p" + targets.indexOf(R.getPrototypeOf(o)) + (ext(o) ? "e" : "x");
  for (const [name, k] of keys) {
    const p = R.getOwnPropertyDescriptor(o, k);
    s += "|" + name + "=" + (p.writable ? "w" : "") + (p.enumerable ? "e" : "") + (p.configurable ? "c" : "");
    s += "value" in p ? describe(p.value) : "g" + describe(p.get) + "s" + describe(p.set);
  }
  return s;
};
`

// fingerprintRawChars is the longest signature a probe part of n targets
// returns whole under the run's maxOutputBytes (SPEC chapter 2: 65536 by
// default, at least 1024): half of an even share of the limit per target,
// after room for the payload's JSON, so that a part of escaped signatures
// stays under the limit.
func (w *world) fingerprintRawChars(n int) int {
	limit := 65536
	if cm, ok := w.tools()["codeMode"].(map[string]any); ok {
		var v float64
		switch n := cm["maxOutputBytes"].(type) {
		case float64:
			v = n
		case json.Number:
			v, _ = n.Float64()
		case int:
			v = float64(n)
		}
		if v >= 1 && v == math.Trunc(v) {
			limit = int(min(max(v, 1024), 10485760))
		}
	}
	return (limit - 256) / n / 2
}

// codeModeGlobals are the fingerprintTargets a target may leave undefined:
// the code-mode globals of SPEC chapter 10.
var codeModeGlobals = map[string]bool{"tools": true, "API": true, "ALL_TOOLS": true, "MCP": true, "namespaces": true}

// probeExpressions are the probe's guest expressions for fingerprintTargets.
// The code-mode globals are read through typeof: a target may leave MCP
// undefined when a run has no MCP servers (SPEC.md Appendix A row 28), and
// an Era C target has no tools or ALL_TOOLS (row 21); other scenarios judge
// those globals, and the fingerprint should cover the hostile program, not
// fail on them. A defined global reads as the same value either way, so its
// fingerprint does not change; an undefined one fingerprints as "absent".
func probeExpressions() []string {
	out := make([]string, len(fingerprintTargets))
	for i, t := range fingerprintTargets {
		out[i] = t
		if codeModeGlobals[t] {
			out[i] = `(typeof ` + t + ` === "undefined" ? undefined : ` + t + `)`
		}
	}
	return out
}

// probeChunk is how many targets one probe exec fingerprints, for every
// scenario of the process. The whole probe is a few tens of milliseconds of
// guest work, and one exec of every target costs a fraction of eight execs
// of five. But with StrictPreemption every wasm loop iteration (every
// QuickJS bytecode) exits to Go, and under the race detector that exit is
// instrumented: the whole probe then takes 0.2-0.4 s of CPU, 0.3-0.9 s on a
// loaded 2-core machine, against a hostile program's timeoutMs as short as
// 100. So the probe starts whole, and a part that times out halves the
// chunk, down to probeMinChunk, for the rest of the process; each part is
// still a fresh run.
var probeChunk atomic.Int32

func init() { probeChunk.Store(int32(len(fingerprintTargets))) }

// probeMinChunk is the smallest part: a small fraction of the whole probe.
const probeMinChunk = 5

// probeAttempts bounds the fingerprint probe's retries after a timeout: a
// loaded machine (the race detector, guests in process with every loop a
// safepoint) may miss a program's timeoutMs of 100. The attempts are spaced
// out (probeBackoff, growing) so that one burst of load does not take them
// all. A timed-out probe says nothing about leaks; any other failure is
// final, and a leak that makes every fresh run time out still fails.
const probeAttempts = 5

// probeBackoff is the pause before the second attempt; each later pause is
// one more of it.
const probeBackoff = 500 * time.Millisecond

// fingerprint runs the probe in fresh runs of the current turn, one per
// part of probeChunk targets.
func (w *world) fingerprint() ([]string, error) {
	out := make([]string, 0, len(fingerprintTargets))
	for from := 0; from < len(fingerprintTargets); {
		chunk := int(probeChunk.Load())
		to := min(from+chunk, len(fingerprintTargets))
		part, err := w.fingerprintPart(from, to, chunk > probeMinChunk)
		if errors.Is(err, errProbeTimedOut) {
			probeChunk.CompareAndSwap(int32(chunk), int32(max(chunk/2, probeMinChunk)))
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, part...)
		from = to
	}
	return out, nil
}

// errProbeTimedOut is a probe part's timeout when a smaller part may do.
var errProbeTimedOut = errors.New("the fingerprint probe timed out")

// fingerprintPart fingerprints fingerprintTargets[from:to] in one fresh run.
// With shrink, a timeout is errProbeTimedOut, for a smaller part; without,
// the part is tried again past load (execPastLoad).
func (w *world) fingerprintPart(from, to int, shrink bool) ([]string, error) {
	b, err := json.Marshal(map[string]string{"code": fingerprintProbe(from, to, w.fingerprintRawChars(to-from))})
	if err != nil {
		return nil, err
	}
	var rec callRecord
	if shrink {
		rec, err = w.call("exec", b)
	} else {
		rec, err = w.execPastLoad(b)
	}
	if err != nil {
		return nil, err
	}
	m, _ := rec.payload.(map[string]any)
	if shrink && m["status"] == "failed" && m["code"] == "timeout" {
		return nil, errProbeTimedOut
	}
	parts, _ := m["value"].([]any)
	out := make([]string, 0, to-from)
	for _, p := range parts {
		if s, ok := p.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	if m["status"] != "completed" || len(parts) != to-from || len(out) != to-from {
		return nil, fmt.Errorf("the fingerprint probe of %s to %s = %s, want completed with %d signatures",
			fingerprintTargets[from], fingerprintTargets[to-1], show(rec.payload), to-from)
	}
	return out, nil
}

// execPastLoad execs a fresh run of the current turn with args, again
// after a timeout, up to probeAttempts times spaced by probeBackoff: a
// probe's timeout on a loaded machine says nothing of what it checks. Any
// other outcome is final, and a host that times out every fresh run still
// fails the step that asked.
func (w *world) execPastLoad(args []byte) (callRecord, error) {
	for attempt := 1; ; attempt++ {
		rec, err := w.call("exec", args)
		if err != nil {
			return rec, err
		}
		m, _ := rec.payload.(map[string]any)
		if m["status"] != "failed" || m["code"] != "timeout" || attempt == probeAttempts {
			return rec, nil
		}
		time.Sleep(time.Duration(attempt) * probeBackoff)
	}
}
