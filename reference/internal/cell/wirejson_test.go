package cell

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The oracle of wirejson.go: exec's and wait's arguments and the payload
// as encoding/json reads and writes them, the implementation they had
// before the hand-written one.

func parseExecReflect(args json.RawMessage) (ExecInput, *Result) {
	fail := func(msg string) (ExecInput, *Result) {
		r := Failed(CodeInvalidInput, PhaseInput, msg)
		return ExecInput{}, &r
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return fail(MsgCodeRequired)
	}
	code, codeIsString := stringFieldReflect(obj, "code")
	command, commandIsString := stringFieldReflect(obj, "command")
	if codeIsString && commandIsString && code != command {
		return fail(MsgCodeCommandMismatch)
	}
	src := code
	if commandIsString {
		src = command
	}
	if (!codeIsString && !commandIsString) || strings.TrimSpace(src) == "" {
		return fail(MsgCodeRequired)
	}
	in := ExecInput{Code: src, Language: "javascript"}
	if raw, ok := presentReflect(obj, "language"); ok {
		var lang string
		if json.Unmarshal(raw, &lang) != nil || (lang != "javascript" && lang != "typescript") {
			return fail(MsgLanguage)
		}
		in.Language = lang
	}
	if raw, ok := presentReflect(obj, "restartSafe"); ok {
		if json.Unmarshal(raw, &in.RestartSafe) != nil {
			return fail(MsgRestartSafe)
		}
	}
	return in, nil
}

func parseWaitReflect(args json.RawMessage) (string, *Result) {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(args, &obj)
	key := "runId" // runId ?? run_id
	if _, ok := presentReflect(obj, key); !ok {
		key = "run_id"
	}
	id, ok := stringFieldReflect(obj, key)
	id = strings.TrimSpace(id)
	if !ok || id == "" {
		r := Failed(CodeInvalidInput, PhaseInput, MsgRunIDRequired)
		return "", &r
	}
	return id, nil
}

func presentReflect(obj map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	raw, ok := obj[key]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

func stringFieldReflect(obj map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := presentReflect(obj, key)
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

type completedReflect struct {
	Status     string            `json:"status"`
	Value      json.RawMessage   `json:"value"`
	Output     []json.RawMessage `json:"output"`
	ReplaySafe bool              `json:"replaySafe"`
	Telemetry  Telemetry         `json:"telemetry"`
}

type waitingReflect struct {
	Status           string            `json:"status"`
	RunID            string            `json:"runId"`
	Reason           string            `json:"reason"`
	PendingToolCalls []PendingCall     `json:"pendingToolCalls"`
	Output           []json.RawMessage `json:"output"`
	ReplaySafe       bool              `json:"replaySafe"`
	Telemetry        Telemetry         `json:"telemetry"`
}

type failedReflect struct {
	Status                string            `json:"status"`
	Error                 string            `json:"error"`
	Code                  string            `json:"code"`
	FailurePhase          string            `json:"failurePhase"`
	BridgeDispatchStarted bool              `json:"bridgeDispatchStarted"`
	Output                []json.RawMessage `json:"output"`
	ReplaySafe            bool              `json:"replaySafe"`
	Telemetry             Telemetry         `json:"telemetry"`
}

func marshalReflect(r Result) ([]byte, error) {
	out := r.Output
	if out == nil {
		out = []json.RawMessage{}
	}
	tel := r.Telemetry
	if tel.VisibleTools == nil {
		tel.VisibleTools = []string{}
	}
	var v any
	switch r.Status {
	case "completed":
		val := r.Value
		if len(val) == 0 {
			val = json.RawMessage("null")
		}
		v = completedReflect{"completed", val, out, r.ReplaySafe, tel}
	case "waiting":
		p := r.Pending
		if p == nil {
			p = []PendingCall{}
		}
		v = waitingReflect{"waiting", r.RunID, r.Reason, p, out, r.ReplaySafe, tel}
	default:
		v = failedReflect{"failed", r.Error, r.Code, r.FailurePhase, r.BridgeDispatchStarted, out, r.ReplaySafe, tel}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// wireStrings are strings aimed at escaping and decoding: escapes of every
// kind, surrogates whole, lone and broken, invalid UTF-8, U+2028, HTML.
var wireStrings = []string{"", "return 1+2", "a\"b\\c/d", "\b\f\n\r\t\x00\x1f\x7f", "<a href='x'>&amp;</a>", "\u2028\u2029\u00e9\U0001F600",
	"\xff", "a\xe2\x80", "\xed\xa0\x80", "tab\there", "  \n\t", "ünï"}

// wireArgs are exec and wait arguments, valid and not.
var wireArgs = []string{
	`{"code":"return 1"}`, ` { "code" : "return 1" , "language" : "typescript" } `, `{"code":"a","code":"b"}`,
	`{"code":"\u0072eturn 1","\u0063ommand":"return 1"}`, `{"code":"\ud83d\ude00"}`, `{"code":"\ud800x"}`, `{"code":"\ud800\u0041"}`,
	`{"code":"\udc00\ud800"}`, `{"code":"\ud800\ud800\udc00"}`, `{"code":"x\/y\b\f\n\r\t\\\""}`, `{"code":"\u00e9\u2028"}`,
	`{"code":"return 1","restartSafe":true}`, `{"code":"return 1","restartSafe":false}`, `{"code":"return 1","restartSafe":1}`,
	`{"code":"return 1","restartSafe":"true"}`, `{"code":"return 1","restartSafe":null,"language":null}`,
	`{"code":"return 1","language":"javascript"}`, `{"code":"return 1","language":1}`, `{"code":"return 1","language":["typescript"]}`,
	`{"code":{"a":[1,{"b":"}"}]},"command":"x"}`, `{"x":[1,2,{"y":"\"]"}],"code":"ok"}`, `{"code":1e3,"command":"-0"}`,
	`{"code":true}`, `{}`, `[]`, `null`, `"x"`, `1`, ``, `{`, `{"code":"a"}x`, `{"code":"a",}`, "{\"code\":\"\x01\"}", "{\"code\":\"\xff\"}",
	`{"runId":"cm_1"}`, `{"run_id":" cm_1 "}`, `{"runId":"","run_id":"x"}`, `{"runId":null,"run_id":"y"}`, `{"runId":1,"run_id":"z"}`,
	`{"runId":" \t"}`, `{"runId":"\u2028cm\u0000"}`, `{"RunId":"cm_1"}`, `{"runId":"a","runId":"b"}`,
}

func checkArgs(t *testing.T, args string) {
	t.Helper()
	in, fail := ParseExec(json.RawMessage(args))
	wantIn, wantFail := parseExecReflect(json.RawMessage(args))
	if diff := cmp.Diff(wantIn, in); diff != "" {
		t.Errorf("ParseExec(%q) input mismatch (-encoding/json +hand):\n%s", args, diff)
	}
	if diff := cmp.Diff(wantFail, fail); diff != "" {
		t.Errorf("ParseExec(%q) failure mismatch (-encoding/json +hand):\n%s", args, diff)
	}
	id, fail := ParseWait(json.RawMessage(args))
	wantID, wantFail := parseWaitReflect(json.RawMessage(args))
	if id != wantID || cmp.Diff(wantFail, fail) != "" {
		t.Errorf("ParseWait(%q) = %q %v, encoding/json reads %q %v", args, id, fail, wantID, wantFail)
	}
}

func TestParseArgs_matchEncodingJSON(t *testing.T) {
	for _, args := range wireArgs {
		checkArgs(t, args)
	}
	for _, s := range wireStrings {
		b, _ := json.Marshal(map[string]string{"code": s, "runId": s})
		checkArgs(t, string(b))
		checkArgs(t, `{"code":"`+s+`","runId":"`+s+`"}`) // unescaped, valid or not
	}
}

func FuzzParseArgs_matchEncodingJSON(f *testing.F) {
	for _, args := range append(wireArgs, execSeeds...) {
		f.Add(args)
	}
	f.Fuzz(func(t *testing.T, args string) {
		checkArgs(t, args)
		checkArgs(t, `{"code":"`+args+`"}`)
		checkArgs(t, `{"code":"1","x":`+args+`,"language":"typescript"}`)
	})
}

func checkString(t *testing.T, s string) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	want := bytes.TrimRight(buf.Bytes(), "\n")
	if got := appendString(nil, s); !bytes.Equal(got, want) {
		t.Errorf("appendString(%q) = %s, encoding/json writes %s", s, got, want)
	}
	var dec string
	if err := json.Unmarshal(want, &dec); err != nil {
		t.Fatal(err)
	}
	if got, ok := unquote(want); !ok || got != dec {
		t.Errorf("unquote(%s) = %q %v, encoding/json reads %q", want, got, ok, dec)
	}
}

func TestStrings_matchEncodingJSON(t *testing.T) {
	for _, s := range wireStrings {
		checkString(t, s)
	}
	for _, lit := range []string{`"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud800\ud800\udc00"`, `"\uD83D\uDE00"`, `"\u00E9"`,
		`"a\/b"`, `"\ud800\"`, `"\ud800\\u"`, `"\ud800\u12"`} {
		var want string
		err := json.Unmarshal([]byte(lit), &want)
		got, ok := unquote([]byte(lit)) // never panics, valid or not
		if err != nil {
			continue // not valid JSON: the callers never pass it
		}
		if !ok || got != want {
			t.Errorf("unquote(%s) = %q %v, encoding/json reads %q", lit, got, ok, want)
		}
	}
}

func FuzzStrings_matchEncodingJSON(f *testing.F) {
	for _, s := range wireStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkString(t, s)
		if lit := []byte(`"` + s + `"`); json.Valid(lit) {
			var want string
			_ = json.Unmarshal(lit, &want)
			if got, ok := unquote(lit); !ok || got != want {
				t.Errorf("unquote(%s) = %q %v, encoding/json reads %q", lit, got, ok, want)
			}
		}
	})
}

// randomResult builds a Result of every status from r's choices and s.
func randomResult(r *rand.Rand, s string) Result {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	raws := []string{"1", " [1, 2] ", `{"a" : "b"}`, `"` + s + `"`, "null", "", "{", `"x"y`}
	res := Result{Status: pick([]string{"completed", "waiting", "failed", "", "other"}), Value: json.RawMessage(pick(raws)),
		RunID: s, Reason: pick([]string{"yield", s}), Error: s, Code: pick([]string{CodeInternal, s}), FailurePhase: s,
		BridgeDispatchStarted: r.IntN(2) == 0, ReplaySafe: r.IntN(2) == 0,
		Telemetry: Telemetry{CatalogSize: r.IntN(100000), Sources: Sources{OpenClaw: r.IntN(9), MCP: -r.IntN(9), Client: r.IntN(9)},
			SearchCount: r.IntN(3), DescribeCount: r.IntN(3), CallCount: r.IntN(3)}}
	if r.IntN(3) > 0 {
		res.Value = nil
		if r.IntN(2) == 0 {
			res.Value = json.RawMessage(pick(raws[:5]))
		}
	}
	for range r.IntN(3) {
		res.Pending = append(res.Pending, PendingCall{ID: s, Method: pick([]string{"tools.call", s})})
	}
	if r.IntN(2) == 0 {
		res.Output = []json.RawMessage{}
	}
	for range r.IntN(3) {
		o := json.RawMessage(pick(raws))
		if r.IntN(4) == 0 {
			o = nil
		}
		res.Output = append(res.Output, o)
	}
	if r.IntN(2) == 0 {
		res.Telemetry.VisibleTools = []string{}
	}
	for range r.IntN(3) {
		res.Telemetry.VisibleTools = append(res.Telemetry.VisibleTools, pick([]string{"exec", s}))
	}
	return res
}

func checkResult(t *testing.T, res Result) {
	t.Helper()
	got, err := res.MarshalJSON()
	want, wantErr := marshalReflect(res)
	if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Errorf("MarshalJSON(%+v) = %s %v, encoding/json writes %s %v", res, got, err, want, wantErr)
	}
}

func TestResultMarshal_matchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		checkResult(t, randomResult(r, wireStrings[i%len(wireStrings)]))
	}
}

func FuzzResultMarshal_matchesEncodingJSON(f *testing.F) {
	for i, s := range wireStrings {
		f.Add(uint64(i), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, s string) {
		checkResult(t, randomResult(rand.New(rand.NewPCG(seed, 7)), s))
	})
}
