package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func newServer(t *testing.T) *Server {
	t.Helper()
	s := NewServer()
	t.Cleanup(s.Close)
	return s
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// asked is the outcome of a client request run in the background.
type asked struct {
	a   answer
	err error
}

func askAsync(ctx context.Context, base, api string, b map[string]any) <-chan asked {
	ch := make(chan asked, 1)
	go func() {
		a, err := ask(ctx, base, api, b)
		ch <- asked{a, err}
	}()
	return ch
}

var modes = []struct {
	api    string
	stream bool
}{{"responses", false}, {"responses", true}, {"chat", false}, {"chat", true}}

func TestModes(t *testing.T) {
	conv := []turn{
		{role: "system", text: "be brief"},
		{role: "user", text: "add 2 and 3"},
		{callID: "call_a", name: "exec", args: `{"code":"1"}`},
		{callID: "call_a", out: "1"},
		{role: "assistant", text: "one moment"},
		{role: "user", text: "and now?"},
	}
	tools := []tool{{name: "exec", desc: "run code", params: `{"type":"object"}`}, {name: "wait", desc: "wait", params: `{"type":"object","properties":{}}`}}
	wantItems := []Item{
		{Type: "message", Role: "system", Text: "be brief"},
		{Type: "message", Role: "user", Text: "add 2 and 3"},
		{Type: "function_call", CallID: "call_a", Name: "exec", Arguments: `{"code":"1"}`},
		{Type: "function_call_output", CallID: "call_a", Output: "1", OutputBlocks: 1},
		{Type: "message", Role: "assistant", Text: "one moment"},
		{Type: "message", Role: "user", Text: "and now?"},
	}
	wantTools := []Tool{
		{Name: "exec", Description: "run code", Parameters: json.RawMessage(`{"type":"object"}`)},
		{Name: "wait", Description: "wait", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
	}
	replies := []struct {
		name  string
		reply Reply
		want  answer // Finish filled per API
	}{
		{"text", Reply{Text: "5 — done, ünïcødé included to split runes"}, answer{Text: "5 — done, ünïcødé included to split runes"}},
		{"one call", Reply{ToolCalls: []ToolCall{{ID: "call_1", Name: "exec", Arguments: json.RawMessage(`{"code": "return 2 + 3"}`)}}},
			answer{Calls: []answerCall{{ID: "call_1", Name: "exec", Arguments: `{"code":"return 2 + 3"}`}}}},
		{"parallel calls and text", Reply{Text: "calling", ToolCalls: []ToolCall{
			{ID: "call_1", Name: "exec", Arguments: json.RawMessage(`{"code":"a long program that spans many deltas"}`)},
			{ID: "call_2", Name: "wait"},
		}}, answer{Text: "calling", Calls: []answerCall{
			{ID: "call_1", Name: "exec", Arguments: `{"code":"a long program that spans many deltas"}`},
			{ID: "call_2", Name: "wait", Arguments: `{}`},
		}}},
		{"broken arguments", Reply{ToolCalls: []ToolCall{{ID: "call_x", Name: "exec", Arguments: json.RawMessage(`{"code":`)}}},
			answer{Calls: []answerCall{{ID: "call_x", Name: "exec", Arguments: `{"code":`}}}},
		{"empty", Reply{}, answer{}},
	}
	for _, m := range modes {
		for _, r := range replies {
			t.Run(fmt.Sprintf("%s/stream=%v/%s", m.api, m.stream, r.name), func(t *testing.T) {
				s := newServer(t)
				ctx := testContext(t)
				got := askAsync(ctx, s.URL(), m.api, body(m.api, "gpt-test", m.stream, conv, tools))
				req, err := s.Next(ctx, "add 2 and 3")
				if err != nil {
					t.Fatalf("Next: %v", err)
				}
				if req.API != m.api || req.Stream != m.stream || req.Model != "gpt-test" || req.Key != "add 2 and 3" {
					t.Errorf("request API %q stream %v model %q key %q, want %q %v %q %q", req.API, req.Stream, req.Model, req.Key, m.api, m.stream, "gpt-test", "add 2 and 3")
				}
				if diff := cmp.Diff(wantItems, req.Items); diff != "" {
					t.Errorf("Items mismatch (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(wantTools, req.Tools, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("Tools mismatch (-want +got):\n%s", diff)
				}
				if got := req.Header.Get("Authorization"); got != "Bearer test-key" {
					t.Errorf("Header Authorization = %q", got)
				}
				if !json.Valid(req.Body) {
					t.Errorf("Body is not JSON: %s", req.Body)
				}
				if err := req.Respond(r.reply); err != nil {
					t.Fatalf("Respond: %v", err)
				}
				res := <-got
				if res.err != nil {
					t.Fatalf("client: %v", res.err)
				}
				want := r.want
				switch {
				case m.api == "responses":
					want.Finish = "completed"
				case len(want.Calls) > 0:
					want.Finish = "tool_calls"
				default:
					want.Finish = "stop"
				}
				if diff := cmp.Diff(want, res.a); diff != "" {
					t.Errorf("client answer mismatch (-want +got):\n%s", diff)
				}
				if err := req.Respond(r.reply); err == nil {
					t.Errorf("second Respond: got nil error, want one")
				}
			})
		}
	}
}

func TestGeneratedCallIDs(t *testing.T) {
	for _, m := range modes {
		t.Run(fmt.Sprintf("%s/stream=%v", m.api, m.stream), func(t *testing.T) {
			s := newServer(t)
			ctx := testContext(t)
			got := askAsync(ctx, s.URL(), m.api, body(m.api, "m", m.stream, []turn{{role: "user", text: "k"}}, nil))
			req, err := s.Next(ctx, "k")
			if err != nil {
				t.Fatal(err)
			}
			if err := req.Respond(Reply{ToolCalls: []ToolCall{{Name: "a"}, {Name: "b"}}}); err != nil {
				t.Fatal(err)
			}
			res := <-got
			if res.err != nil {
				t.Fatal(res.err)
			}
			if len(res.a.Calls) != 2 || res.a.Calls[0].ID == "" || res.a.Calls[0].ID == res.a.Calls[1].ID {
				t.Errorf("calls %+v: want two distinct generated ids", res.a.Calls)
			}
		})
	}
}

func TestKey(t *testing.T) {
	tests := []struct {
		name string
		api  string
		body string
		want string
	}{
		{"responses string input", "responses", `{"model":"m","input":"hello"}`, "hello"},
		{"responses item with string content", "responses", `{"model":"m","input":[{"role":"user","content":"hello"}]}`, "hello"},
		{"responses item with parts", "responses", `{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]}]}`, "a\nb"},
		{"responses developer first", "responses", `{"model":"m","instructions":"sys","input":[{"role":"developer","content":"dev"},{"role":"user","content":"first"},{"role":"user","content":"second"}]}`, "first"},
		{"responses no user message", "responses", `{"model":"m","input":[{"role":"developer","content":"dev"}]}`, ""},
		{"chat system first", "chat", `{"model":"m","messages":[{"role":"system","content":"sys"},{"role":"user","content":"first"},{"role":"assistant","content":"x"},{"role":"user","content":"second"}]}`, "first"},
		{"chat content parts", "chat", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"part"}]}]}`, "part"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t)
			s.SetFallback("ok")
			resp, err := post(testContext(t), endpoint(s.URL(), tt.api), json.RawMessage(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			reqs := s.Requests()
			if len(reqs) != 1 {
				t.Fatalf("Requests() has %d requests, want 1", len(reqs))
			}
			if reqs[0].Key != tt.want {
				t.Errorf("Key = %q, want %q", reqs[0].Key, tt.want)
			}
		})
	}
}

func TestSetKeyFunc(t *testing.T) {
	s := newServer(t)
	s.SetFallback("ok")
	lastUser := func(items []Item) string {
		for i := len(items) - 1; i >= 0; i-- {
			if items[i].Type == "message" && items[i].Role == "user" {
				return strings.ToUpper(items[i].Text)
			}
		}
		return ""
	}
	bodies := []string{
		`{"model":"m","messages":[{"role":"user","content":"first"},{"role":"user","content":"second"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"first"},{"role":"user","content":"second"}]}`,
	}
	for i, b := range bodies {
		if i == 1 {
			s.SetKeyFunc(nil)
		} else {
			s.SetKeyFunc(lastUser)
		}
		resp, err := post(testContext(t), endpoint(s.URL(), "chat"), json.RawMessage(b))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	var got []string
	for _, r := range s.Requests() {
		got = append(got, r.Key)
	}
	if diff := cmp.Diff([]string{"SECOND", "first"}, got); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
}

func TestToolOutput(t *testing.T) {
	tests := []struct {
		name   string
		api    string
		body   string
		callID string
		want   string
		ok     bool
	}{
		{"responses string output", "responses", `{"model":"m","input":[{"role":"user","content":"k"},{"type":"function_call","call_id":"c1","name":"exec","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"{\"v\":1}"}]}`, "c1", `{"v":1}`, true},
		{"responses parts output", "responses", `{"model":"m","input":[{"role":"user","content":"k"},{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"out"}]}]}`, "c2", "out", true},
		{"responses unknown call", "responses", `{"model":"m","input":[{"role":"user","content":"k"},{"type":"function_call_output","call_id":"c1","output":"x"}]}`, "c9", "", false},
		{"chat tool message", "chat", `{"model":"m","messages":[{"role":"user","content":"k"},{"role":"assistant","content":null,"tool_calls":[{"id":"c3","type":"function","function":{"name":"exec","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c3","content":"three"}]}`, "c3", "three", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, finish := receive(t, tt.api, tt.body)
			defer finish()
			got, ok := req.ToolOutput(tt.callID)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ToolOutput(%q) = %q, %v, want %q, %v", tt.callID, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestFallbackAndExpect(t *testing.T) {
	s := newServer(t)
	ctx := testContext(t)

	// Without a fallback every request is queued.
	queued := askAsync(ctx, s.URL(), "chat", body("chat", "m", false, []turn{{role: "user", text: "early"}}, nil))
	req, err := s.Next(ctx, "early")
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Respond(Reply{Text: "scripted"}); err != nil {
		t.Fatal(err)
	}
	if r := <-queued; r.err != nil || r.a.Text != "scripted" {
		t.Fatalf("queued request answered %+v, %v, want the scripted text", r.a, r.err)
	}

	s.SetFallback("sub-agent done")
	s.Expect("main")
	main := askAsync(ctx, s.URL(), "responses", body("responses", "m", true, []turn{{role: "user", text: "main"}}, nil))
	for i, api := range []string{"responses", "chat", "responses"} {
		a, err := ask(ctx, s.URL(), api, body(api, "m", i%2 == 0, []turn{{role: "user", text: fmt.Sprintf("sub %d", i)}}, nil))
		if err != nil {
			t.Fatalf("sub-agent request %d: %v", i, err)
		}
		if a.Text != "sub-agent done" {
			t.Errorf("sub-agent request %d answered %q, want the fallback", i, a.Text)
		}
	}
	req, err = s.Next(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Respond(Reply{Text: "main answer"}); err != nil {
		t.Fatal(err)
	}
	if r := <-main; r.err != nil || r.a.Text != "main answer" {
		t.Errorf("expected conversation answered %+v, %v, want the scripted text", r.a, r.err)
	}
	var keys []string
	for _, r := range s.Requests() {
		keys = append(keys, r.Key)
	}
	// The main request arrives concurrently with the sub-agent ones.
	want := []string{"early", "main", "sub 0", "sub 1", "sub 2"}
	if diff := cmp.Diff(want, keys, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("Requests() keys mismatch (-want +got):\n%s", diff)
	}
	if keys[0] != "early" {
		t.Errorf("Requests()[0].Key = %q, want the first request", keys[0])
	}
	// A fallback-answered request cannot be answered again.
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.Key, "sub") {
			if err := r.Respond(Reply{Text: "again"}); err == nil {
				t.Errorf("Respond on a fallback-answered request: got nil error")
			}
		}
	}
}

func TestNextTimeout(t *testing.T) {
	s := newServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := s.Next(ctx, "nobody"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next on an idle conversation = %v, want context.DeadlineExceeded", err)
	}
}

func TestClientCancel(t *testing.T) {
	for _, m := range modes {
		t.Run(fmt.Sprintf("%s/stream=%v", m.api, m.stream), func(t *testing.T) {
			s := newServer(t)
			ctx := testContext(t)
			cctx, cancel := context.WithCancel(ctx)
			got := askAsync(cctx, s.URL(), m.api, body(m.api, "m", m.stream, []turn{{role: "user", text: "k"}}, nil))
			req, err := s.Next(ctx, "k")
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-req.Done():
				t.Fatal("Done closed before the client cancelled")
			default:
			}
			cancel()
			if r := <-got; !errors.Is(r.err, context.Canceled) {
				t.Errorf("client error = %v, want context.Canceled", r.err)
			}
			select {
			case <-req.Done():
			case <-ctx.Done():
				t.Fatal("Done not closed after the client cancelled")
			}
			if err := req.Respond(Reply{Text: "late"}); err == nil {
				t.Error("Respond after the client cancelled: got nil error")
			}
		})
	}
}

func TestClose(t *testing.T) {
	s := NewServer()
	ctx := testContext(t)
	got := askAsync(ctx, s.URL(), "responses", body("responses", "m", true, []turn{{role: "user", text: "pending"}}, nil))
	req, err := s.Next(ctx, "pending")
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan error, 1)
	go func() {
		_, err := s.Next(ctx, "never")
		waiting <- err
	}()
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-ctx.Done():
		t.Fatal("Close did not return with a request pending")
	}
	if r := <-got; r.err == nil || !strings.Contains(r.err.Error(), "503") {
		t.Errorf("pending client got %+v, %v, want an HTTP 503", r.a, r.err)
	}
	select {
	case <-req.Done():
	default:
		t.Error("Done not closed after Close")
	}
	if err := req.Respond(Reply{Text: "late"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Respond after Close = %v, want ErrClosed", err)
	}
	if err := <-waiting; !errors.Is(err, ErrClosed) {
		t.Errorf("waiting Next = %v, want ErrClosed", err)
	}
	if _, err := s.Next(ctx, "pending"); !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close = %v, want ErrClosed", err)
	}
	s.Close() // idempotent
}

func TestBadRequests(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		path       string
		body       string
		wantStatus int
		wantCode   string
		wantParam  string
	}{
		{"not JSON", "POST", "/responses", `{"model":`, 400, "invalid_json", ""},
		{"missing model", "POST", "/responses", `{"input":"hi"}`, 400, "missing_required_parameter", "model"},
		{"missing input", "POST", "/responses", `{"model":"m"}`, 400, "missing_required_parameter", "input"},
		{"bad input", "POST", "/responses", `{"model":"m","input":42}`, 400, "invalid_value", "input"},
		{"missing messages", "POST", "/chat/completions", `{"model":"m"}`, 400, "missing_required_parameter", "messages"},
		{"chat not JSON", "POST", "/chat/completions", `nope`, 400, "invalid_json", ""},
		{"unknown path", "POST", "/embeddings", `{}`, 404, "unknown_url", ""},
		{"wrong method", "GET", "/responses", ``, 405, "method_not_allowed", ""},
	}
	s := newServer(t)
	recorded := 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, s.URL()+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e struct {
				Error struct {
					Message string  `json:"message"`
					Type    string  `json:"type"`
					Param   *string `json:"param"`
					Code    string  `json:"code"`
				} `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
				t.Fatalf("error body: %v", err)
			}
			param := ""
			if e.Error.Param != nil {
				param = *e.Error.Param
			}
			got := []any{resp.StatusCode, e.Error.Type, e.Error.Code, param, e.Error.Message != ""}
			want := []any{tt.wantStatus, "invalid_request_error", tt.wantCode, tt.wantParam, true}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("status, type, code, param, has message mismatch (-want +got):\n%s", diff)
			}
			if tt.wantStatus == 400 {
				recorded++
			}
		})
	}
	if got := len(s.Requests()); got != recorded {
		t.Errorf("Requests() has %d requests, want the %d rejected API requests", got, recorded)
	}
	for _, r := range s.Requests() {
		if err := r.Respond(Reply{Text: "x"}); err == nil {
			t.Errorf("Respond on a rejected request: got nil error")
		}
	}
}

func TestModels(t *testing.T) {
	s := newServer(t)
	resp, err := http.Get(s.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var got struct {
		Object string `json:"object"`
		Data   []struct {
			ID     string `json:"id"`
			Object string `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if got.Object != "list" || len(got.Data) != 1 || got.Data[0].ID != "fake" || got.Data[0].Object != "model" {
		t.Errorf("GET /v1/models = %s, want one model \"fake\"", b)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/v1") {
		t.Errorf("URL() = %q, want http://127.0.0.1:<port>/v1", s.URL())
	}
}

// TestChatUsageChunk checks stream_options.include_usage.
func TestChatUsageChunk(t *testing.T) {
	s := newServer(t)
	s.SetFallback("hi")
	b := body("chat", "m", true, []turn{{role: "user", text: "k"}}, nil)
	b["stream_options"] = map[string]any{"include_usage": true}
	resp, err := post(testContext(t), endpoint(s.URL(), "chat"), b)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	evs, err := readSSE(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) < 2 {
		t.Fatalf("%d events", len(evs))
	}
	var last struct {
		Choices []any `json:"choices"`
		Usage   *struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
			TotalTokens      int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal([]byte(evs[len(evs)-2].data), &last); err != nil {
		t.Fatal(err)
	}
	if last.Usage == nil || len(last.Choices) != 0 || last.Usage.TotalTokens != last.Usage.PromptTokens+last.Usage.CompletionTokens || last.Usage.TotalTokens == 0 {
		t.Errorf("chunk before [DONE] = %s, want a usage chunk with no choices", evs[len(evs)-2].data)
	}
}

// TestHammer drives 20 conversations at once, three turns each (a tool
// call, its output, a final text), across all four modes. Run it with -race.
func TestHammer(t *testing.T) {
	const conversations, turns = 20, 3
	s := newServer(t)
	ctx := testContext(t)
	var wg sync.WaitGroup
	errs := make(chan error, 2*conversations)
	for c := range conversations {
		m := modes[c%len(modes)]
		key := fmt.Sprintf("conversation %d", c)
		wg.Add(2)
		go func() { // the agent
			defer wg.Done()
			conv := []turn{{role: "user", text: key}}
			for i := range turns {
				a, err := ask(ctx, s.URL(), m.api, body(m.api, "m", m.stream, conv, nil))
				if err != nil {
					errs <- fmt.Errorf("%s turn %d: %v", key, i, err)
					return
				}
				if i == turns-1 {
					if a.Text != key+" done" {
						errs <- fmt.Errorf("%s: final text %q", key, a.Text)
					}
					return
				}
				if len(a.Calls) != 1 {
					errs <- fmt.Errorf("%s turn %d: calls %+v", key, i, a.Calls)
					return
				}
				call := a.Calls[0]
				conv = append(conv, turn{callID: call.ID, name: call.Name, args: call.Arguments},
					turn{callID: call.ID, out: fmt.Sprintf("%s out %d", key, i)})
			}
		}()
		go func() { // the model
			defer wg.Done()
			for i := range turns {
				req, err := s.Next(ctx, key)
				if err != nil {
					errs <- fmt.Errorf("%s Next %d: %v", key, i, err)
					return
				}
				if i > 0 {
					want := fmt.Sprintf("%s out %d", key, i-1)
					if got, ok := req.ToolOutput(fmt.Sprintf("c%d-%d", c, i-1)); got != want || !ok {
						errs <- fmt.Errorf("%s turn %d: tool output %q, %v, want %q", key, i, got, ok, want)
					}
				}
				rep := Reply{ToolCalls: []ToolCall{{ID: fmt.Sprintf("c%d-%d", c, i), Name: "exec", Arguments: json.RawMessage(`{"turn":` + fmt.Sprint(i) + `}`)}}}
				if i == turns-1 {
					rep = Reply{Text: key + " done"}
				}
				if err := req.Respond(rep); err != nil {
					errs <- fmt.Errorf("%s Respond %d: %v", key, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := len(s.Requests()); got != conversations*turns {
		t.Errorf("Requests() has %d requests, want %d", got, conversations*turns)
	}
}

// TestRespondContext: a reply that no handler takes, or that a handler
// never finishes writing (a client that stopped reading), does not hold the
// caller past its context; a reply never handed over leaves the request
// open for another.
func TestRespondContext(t *testing.T) {
	short := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 50*time.Millisecond)
	}
	req := newRequest("responses", http.Header{}, []byte(`{}`))
	ctx, cancel := short()
	defer cancel()
	if err := req.RespondContext(ctx, Reply{Text: "late"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RespondContext with no handler = %v, want the context's deadline", err)
	}
	// The handler takes the next reply and never reports it written.
	taken := make(chan Reply, 1)
	go func() { taken <- <-req.replies }()
	ctx2, cancel2 := short()
	defer cancel2()
	if err := req.RespondContext(ctx2, Reply{Text: "again"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RespondContext with a stuck writer = %v, want the context's deadline", err)
	}
	if got := <-taken; got.Text != "again" {
		t.Errorf("the handler took %q, want the second reply", got.Text)
	}
	if err := req.RespondContext(context.Background(), Reply{Text: "third"}); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a reply after one was handed over = %v, want already answered", err)
	}
	done, cancel3 := context.WithCancel(context.Background())
	cancel3()
	if err := newRequest("responses", http.Header{}, []byte(`{}`)).RespondContext(done, Reply{}); !errors.Is(err, context.Canceled) {
		t.Errorf("RespondContext with an ended context = %v, want it refused", err)
	}
}

// TestRequestShape: a request keeps the type of every tool entry, native
// ones included, and the number of content parts of each call output.
func TestRequestShape(t *testing.T) {
	tests := []struct {
		name   string
		api    string
		body   string
		types  []string
		blocks []int
	}{
		{"responses", "responses", `{"model":"m","tools":[{"type":"function","name":"exec","parameters":{}},{"type":"code_interpreter"}],"input":[{"role":"user","content":"k"},{"type":"function_call_output","call_id":"c1","output":"x"},{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]}]}`,
			[]string{"function", "code_interpreter"}, []int{1, 2}},
		{"chat", "chat", `{"model":"m","tools":[{"type":"function","function":{"name":"exec","parameters":{}}}],"messages":[{"role":"user","content":"k"},{"role":"tool","tool_call_id":"c3","content":[{"type":"text","text":"one"}]}]}`,
			[]string{"function"}, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, finish := receive(t, tt.api, tt.body)
			defer finish()
			var blocks []int
			for _, it := range req.Items {
				if it.Type == "function_call_output" {
					blocks = append(blocks, it.OutputBlocks)
				}
			}
			if diff := cmp.Diff(tt.types, req.ToolTypes); diff != "" {
				t.Errorf("ToolTypes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.blocks, blocks); diff != "" {
				t.Errorf("output blocks (-want +got):\n%s", diff)
			}
		})
	}
}

// receive posts body to a new server's api endpoint, with the conversation
// key "k", and returns the request the server received; finish answers it
// and waits for the client.
func receive(t *testing.T, api, body string) (req *Request, finish func()) {
	t.Helper()
	s := newServer(t)
	ctx := testContext(t)
	done := make(chan error, 1)
	go func() {
		resp, err := post(ctx, endpoint(s.URL(), api), json.RawMessage(body))
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	req, err := s.Next(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	return req, func() {
		if err := req.Respond(Reply{Text: "fin"}); err != nil {
			t.Error(err)
		}
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
