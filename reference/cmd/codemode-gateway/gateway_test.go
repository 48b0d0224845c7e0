package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/fakemodel"
	"github.com/codemodekit/kit/fakes/faketools"
)

// testGateway is a gateway served by httptest, with its fake model and
// tool host.
type testGateway struct {
	g     *gateway
	srv   *httptest.Server
	model *fakemodel.Server
	host  *faketools.Host
}

// startGateway boots a gateway whose configuration is extra on top of a
// code-mode configuration with one core tool, talking api to a fake model.
func startGateway(t testing.TB, api string, stream bool, env map[string]string) *testGateway {
	t.Helper()
	return startGatewayWith(t, gatewayOptions{api: api, stream: stream, env: env})
}

// gatewayOptions are what startGatewayWith varies.
type gatewayOptions struct {
	api      string
	stream   bool
	env      map[string]string
	codeMode map[string]any // tools.codeMode; nil: {"enabled": true}
	runtime  runtimeOptions
}

func startGatewayWith(t testing.TB, o gatewayOptions) *testGateway {
	t.Helper()
	requireRuntime(t)
	model := fakemodel.NewServer()
	t.Cleanup(model.Close)
	host := faketools.NewHost()
	text := "file body"
	specs := []wire.Spec{{Name: "read", Description: "Read a file.", Owner: "core", Behavior: &wire.Behavior{Text: &text}}}
	hh, err := wire.NewHTTPHost(host, specs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hh.Close)
	for i := range specs {
		specs[i].Behavior = nil
	}
	codeMode := o.codeMode
	if codeMode == nil {
		codeMode = map[string]any{"enabled": true}
	}
	cfg := map[string]any{
		"tools":       map[string]any{"codeMode": codeMode},
		"models":      map[string]any{"providers": map[string]any{"fake": map[string]any{"baseUrl": model.URL(), "api": o.api, "apiKey": "sk-test-secret-1234"}}},
		"codemodekit": map[string]any{"model": "fake/fake", "stream": o.stream, "toolHost": hh.URL(), "tools": specs},
	}
	b, _ := json.Marshal(cfg)
	dir := t.TempDir()
	path := filepath.Join(dir, "gateway.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return o.env[k] }
	g, _, err := bootGateway(context.Background(), path, filepath.Join(dir, "state"), o.runtime, getenv, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(g.handler())
	// Abort the turns first: the server waits for their requests.
	t.Cleanup(func() { g.Close(); srv.Close() })
	return &testGateway{g: g, srv: srv, model: model, host: host}
}

// startTurn posts a turn whose first message is key and returns a channel
// with the response body.
func (tg *testGateway) startTurn(t testing.TB, key, sessionKey string) <-chan map[string]any {
	t.Helper()
	return tg.turnIn(t, key, "", sessionKey)
}

// turnIn starts a turn of agent run runID ("": the gateway's default) in
// session sessionKey.
func (tg *testGateway) turnIn(t testing.TB, key, runID, sessionKey string) <-chan map[string]any {
	t.Helper()
	tg.model.Expect(key)
	md := map[string]string{"turnId": key, "sessionKey": sessionKey}
	if runID != "" {
		md["runId"] = runID
	}
	body, _ := json.Marshal(map[string]any{"model": "m", "input": key, "metadata": md})
	c := make(chan map[string]any, 1)
	go func() {
		resp, err := http.Post(tg.srv.URL+"/v1/responses", "application/json", bytes.NewReader(body))
		if err != nil {
			c <- map[string]any{"transport": err.Error()}
			return
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		c <- out
	}()
	return c
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestTurn runs one turn, an exec that calls a tool host tool and then a
// final answer, through every provider API and mode.
func TestTurn(t *testing.T) {
	for _, tc := range []struct {
		api    string
		stream bool
	}{{apiResponses, true}, {apiResponses, false}, {apiCompletions, true}, {apiCompletions, false}} {
		t.Run(tc.api+"/stream="+map[bool]string{true: "yes", false: "no"}[tc.stream], func(t *testing.T) {
			tg := startGateway(t, tc.api, tc.stream, nil)
			done := tg.startTurn(t, "turn one", "s1")
			req, err := tg.model.Next(ctxT(t), "turn one")
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, d := range req.Tools {
				names = append(names, d.Name)
			}
			if diff := cmp.Diff([]string{"exec", "wait"}, names); diff != "" {
				t.Fatalf("model-visible tools (-want +got):\n%s", diff)
			}
			code := `const r = await tools.callValue(ALL_TOOLS[0].id, {path: "a"}); return r;`
			args, _ := json.Marshal(map[string]string{"code": code})
			if err := req.Respond(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: "call_1", Name: "exec", Arguments: args}}}); err != nil {
				t.Fatal(err)
			}
			req, err = tg.model.Next(ctxT(t), "turn one")
			if err != nil {
				t.Fatal(err)
			}
			out, ok := req.ToolOutput("call_1")
			if !ok {
				t.Fatalf("no output for call_1 in %+v", req.Items)
			}
			var payload struct {
				Status string `json:"status"`
				Value  any    `json:"value"`
			}
			if err := json.Unmarshal([]byte(out), &payload); err != nil {
				t.Fatalf("exec output is not JSON: %v\n%s", err, out)
			}
			if payload.Status != "completed" || !strings.Contains(out, "file body") {
				t.Fatalf("exec output = %s, want a completed result with the tool's text", out)
			}
			if got := tg.host.Calls("read"); len(got) != 1 {
				t.Fatalf("tool host saw %d calls of read, want 1", len(got))
			}
			if err := req.Respond(fakemodel.Reply{Text: "all done"}); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if res["status"] != "completed" || !strings.Contains(mustJSON(res["output"]), "all done") {
				t.Fatalf("client response = %v", res)
			}
			var tr struct {
				Records []struct {
					Type string `json:"type"`
					Name string `json:"name"`
				} `json:"records"`
			}
			getJSON(t, tg.srv.URL+"/v1/transcript?sessionKey=s1", &tr)
			// A model turn with the exec call, the call and its result, and
			// the model turn with the final text (CM-22.1).
			var got []string
			for _, r := range tr.Records {
				got = append(got, r.Type+":"+r.Name)
			}
			want := []string{"model_turn:", "tool_call:exec", "tool_result:exec", "model_turn:"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("transcript records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAbort aborts a turn while the model is thinking: the model request
// is cancelled and the client learns the turn was cancelled.
func TestAbort(t *testing.T) {
	tg := startGateway(t, apiResponses, true, nil)
	done := tg.startTurn(t, "to abort", "")
	req, err := tg.model.Next(ctxT(t), "to abort")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(tg.srv.URL+"/v1/turns/to%20abort/abort", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("abort: %s", resp.Status)
	}
	select {
	case <-req.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the model request was not cancelled")
	}
	if res := <-done; res["status"] != "cancelled" {
		t.Fatalf("client response = %v, want status cancelled", res)
	}
}

// TestDebugRedaction turns every model-side debug switch on and checks
// the log has the lines and never the API key.
func TestDebugRedaction(t *testing.T) {
	env := map[string]string{"OPENCLAW_DEBUG_MODEL_TRANSPORT": "1", "OPENCLAW_DEBUG_MODEL_PAYLOAD": "full-redacted", "OPENCLAW_DEBUG_SSE": "peek"}
	tg := startGateway(t, apiResponses, true, env)
	done := tg.startTurn(t, "debug me", "")
	req, err := tg.model.Next(ctxT(t), "debug me")
	if err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer sk-test-secret-1234" {
		t.Fatalf("Authorization = %q", got)
	}
	if err := req.Respond(fakemodel.Reply{Text: "ok"}); err != nil {
		t.Fatal(err)
	}
	<-done
	log := tg.g.log.text()
	for _, want := range []string{"model transport POST /v1/responses status 200", "model payload: {", "model sse peek response.created"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "sk-test-secret-1234") {
		t.Errorf("log leaks the API key:\n%s", log)
	}
}

func TestCheckPayload(t *testing.T) {
	for _, tc := range []struct {
		name    string
		body    string
		visible []string
		ok      bool
	}{
		{"responses", `{"tools":[{"type":"function","name":"exec"},{"type":"function","name":"wait"}]}`, []string{"exec", "wait"}, true},
		{"completions", `{"tools":[{"type":"function","function":{"name":"exec"}},{"type":"function","function":{"name":"wait"}}]}`, []string{"exec", "wait"}, true},
		{"no tools", `{"model":"m"}`, []string{}, true},
		{"extra tool", `{"tools":[{"name":"exec"},{"name":"wait"},{"name":"read"}]}`, []string{"exec", "wait"}, false},
		{"missing tool", `{"tools":[{"name":"exec"}]}`, []string{"exec", "wait"}, false},
		{"other order", `{"tools":[{"name":"wait"},{"name":"exec"}]}`, []string{"exec", "wait"}, false},
		{"not JSON", `{"tools":`, []string{"exec"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkPayload([]byte(tc.body), tc.visible)
			if (err == nil) != tc.ok || (err != nil && !errors.Is(err, errPayload)) {
				t.Fatalf("checkPayload = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	cfg := map[string]any{"models": map[string]any{"providers": map[string]any{"openai": map[string]any{
		"apiKey": "sk-1234567", "headers": map[string]any{"Authorization": "Bearer tok-98765"}, "baseUrl": "http://127.0.0.1:1"}}}}
	secrets := configSecrets(cfg)
	got := redact("key sk-1234567 auth Bearer tok-98765 token tok-98765 url http://127.0.0.1:1", secrets)
	want := "key [redacted] auth [redacted] token [redacted] url http://127.0.0.1:1"
	if got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
	gotJSON := string(redactJSON([]byte(`{"a":{"api_key":"x","n":1},"headers":{"Cookie":"c"},"list":[{"password":"p"}]}`)))
	wantJSON := `{"a":{"api_key":"[redacted]","n":1},"headers":{"Cookie":"[redacted]"},"list":[{"password":"[redacted]"}]}`
	if gotJSON != wantJSON {
		t.Errorf("redactJSON = %s, want %s", gotJSON, wantJSON)
	}
}

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		name, doc, err string
	}{
		{"not JSON", `{`, "config:"},
		{"not loopback", `{"gateway":{"bind":"0.0.0.0"}}`, "loopback only"},
		{"bad runtime", `{"codemodekit":{"runtime":"slow"}}`, "codemodekit.runtime"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("parseConfig = %v, want an error with %q", err, tc.err)
			}
		})
	}
	for _, tc := range []struct {
		name, doc, err string
	}{
		{"no model", `{}`, "codemodekit.model"},
		{"unknown provider", `{"codemodekit":{"model":"x/y"}}`, "models.providers.x.baseUrl"},
		{"bad api", `{"codemodekit":{"model":"x/y"},"models":{"providers":{"x":{"baseUrl":"http://127.0.0.1:1","api":"grpc"}}}}`, "api \"grpc\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseConfig([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := c.provider(); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("provider = %v, want an error with %q", err, tc.err)
			}
		})
	}
}

func getJSON(t testing.TB, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestLoopDoesNotBlockOthers runs a turn whose exec loops forever and,
// meanwhile, a second turn to its end; only then is the first aborted, so
// the second finished while the loop ran (and the loop ends as aborted,
// not by its deadline).
func TestLoopDoesNotBlockOthers(t *testing.T) {
	tg := startGateway(t, apiResponses, true, nil)
	execCall := func(id, code string) fakemodel.Reply {
		args, _ := json.Marshal(map[string]string{"code": code})
		return fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: "exec", Arguments: args}}}
	}
	loopDone := tg.startTurn(t, "loop", "a")
	req, err := tg.model.Next(ctxT(t), "loop")
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Respond(execCall("call_loop", "while (true) {}")); err != nil {
		t.Fatal(err)
	}
	// The loop's exec runs once its before_tool_call hook is answered:
	// an abort before that would end the hook's request instead.
	hooked := func() bool {
		for _, ev := range tg.host.HookEvents() {
			if strings.Contains(string(ev), `"call_loop"`) {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(10 * time.Second); !hooked(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the loop's exec never reached its before_tool_call hook")
		}
	}

	quickDone := tg.startTurn(t, "quick", "b")
	req, err = tg.model.Next(ctxT(t), "quick")
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Respond(execCall("call_quick", "return 6 * 7")); err != nil {
		t.Fatal(err)
	}
	req, err = tg.model.Next(ctxT(t), "quick")
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := req.ToolOutput("call_quick"); !strings.Contains(out, `"value": 42`) {
		t.Fatalf("quick exec output = %s", out)
	}
	if err := req.Respond(fakemodel.Reply{Text: "quick done"}); err != nil {
		t.Fatal(err)
	}
	if res := <-quickDone; res["status"] != "completed" {
		t.Fatalf("quick turn = %v", res)
	}

	resp, err := http.Post(tg.srv.URL+"/v1/turns/loop/abort", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if res := <-loopDone; res["status"] != "cancelled" {
		t.Fatalf("loop turn = %v, want cancelled", res)
	}
	var tr struct {
		Records []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"records"`
	}
	getJSON(t, tg.srv.URL+"/v1/transcript?sessionKey=a", &tr)
	// The model turn with the exec call, the call, and its aborted result.
	if n := len(tr.Records); n != 3 || tr.Records[0].Type != "model_turn" || !strings.Contains(tr.Records[2].Text, "code mode execution aborted") {
		t.Fatalf("loop transcript = %+v, want its exec aborted", tr.Records)
	}
}

// TestSessionReplay starts a second turn of a session: its model
// conversation replays the first turn's exec call and result from the
// transcript, before the new user message.
func TestSessionReplay(t *testing.T) {
	for _, api := range []string{apiResponses, apiCompletions} {
		t.Run(api, func(t *testing.T) {
			tg := startGateway(t, api, false, nil)
			done := tg.startTurn(t, "first", "s")
			req, err := tg.model.Next(ctxT(t), "first")
			if err != nil {
				t.Fatal(err)
			}
			args := json.RawMessage(`{"code":"return 1 + 1"}`)
			if err := req.Respond(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: "call_a", Name: "exec", Arguments: args}}}); err != nil {
				t.Fatal(err)
			}
			if req, err = tg.model.Next(ctxT(t), "first"); err != nil {
				t.Fatal(err)
			}
			firstOut, _ := req.ToolOutput("call_a")
			if err := req.Respond(fakemodel.Reply{Text: "two"}); err != nil {
				t.Fatal(err)
			}
			<-done

			done = tg.startTurn(t, "second", "s")
			if req, err = tg.model.Next(ctxT(t), "second"); err != nil {
				t.Fatal(err)
			}
			type it struct{ Type, Role, Text, CallID, Name, Arguments, Output string }
			var got []it
			for _, x := range req.Items {
				got = append(got, it{x.Type, x.Role, x.Text, x.CallID, x.Name, x.Arguments, x.Output})
			}
			want := []it{
				{Type: "function_call", CallID: "call_a", Name: "exec", Arguments: string(args)},
				{Type: "function_call_output", CallID: "call_a", Output: firstOut},
				{Type: "message", Role: "user", Text: "second"},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("second turn's conversation (-want +got):\n%s", diff)
			}
			if err := req.Respond(fakemodel.Reply{Text: "ok"}); err != nil {
				t.Fatal(err)
			}
			<-done
		})
	}
}

// abort aborts the turn id.
func (tg *testGateway) abort(t testing.TB, id string) {
	t.Helper()
	resp, err := http.Post(tg.srv.URL+"/v1/turns/"+url.PathEscape(id)+"/abort", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("abort %s: %s", id, resp.Status)
	}
}
