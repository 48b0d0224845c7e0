package modelturn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// agent is a toy implementation behind a turn's client request: it plays
// the turn against the fake model, runs each tool call as the text
// "ran <name> <arguments>" and records every result in a transcript.
type agent struct {
	model *fakemodel.Server
	// refuse, when set, answers every client request with HTTP 400 and
	// this error message, before any model request.
	refuse string
	// abortOn, when set, names a tool whose call ends the client request
	// at once (an aborted run) and is written to the transcript lateBy
	// after that.
	abortOn string
	lateBy  time.Duration

	mu         sync.Mutex
	transcript map[string]TranscribedResult
}

func (a *agent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Input string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if a.refuse != "" {
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": a.refuse}})
		return
	}
	items := []any{map[string]any{"type": "message", "role": "user", "content": in.Input}}
	tools := []any{map[string]any{"type": "function", "name": "echo", "description": "echoes", "parameters": map[string]any{"type": "object"}}}
	for {
		body, _ := json.Marshal(map[string]any{"model": "m", "input": items, "tools": tools})
		resp, err := http.Post(a.model.URL()+"/responses", "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		var out struct {
			Output []struct {
				Type      string `json:"type"`
				CallID    string `json:"call_id"`
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"output"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		called := false
		for _, o := range out.Output {
			if o.Type != "function_call" {
				continue
			}
			called = true
			text := "ran " + o.Name + " " + o.Arguments
			if o.Name == a.abortOn {
				callID := o.CallID
				time.AfterFunc(a.lateBy, func() {
					a.mu.Lock()
					defer a.mu.Unlock()
					a.transcript[callID] = TranscribedResult{Text: "aborted", IsError: true}
				})
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			items = append(items,
				map[string]any{"type": "function_call", "call_id": o.CallID, "name": o.Name, "arguments": o.Arguments},
				map[string]any{"type": "function_call_output", "call_id": o.CallID, "output": text})
			a.mu.Lock()
			a.transcript[o.CallID] = TranscribedResult{Text: text, Details: json.RawMessage(`{"ran":"` + o.Name + `"}`), IsError: o.Name != "echo"}
			a.mu.Unlock()
		}
		if !called {
			_, _ = w.Write([]byte(`{"status":"completed"}`))
			return
		}
	}
}

func (a *agent) transcribed(context.Context) (map[string]TranscribedResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]TranscribedResult, len(a.transcript))
	for k, v := range a.transcript {
		out[k] = v
	}
	return out, nil
}

// startAgent serves a toy agent and returns it with a turn of it that has
// not started and the turn's client request.
func startAgent(t *testing.T, refuse string, ended func(int, []byte) error) (*agent, *Turn, *http.Request) {
	t.Helper()
	model := fakemodel.NewServer()
	t.Cleanup(model.Close)
	a := &agent{model: model, refuse: refuse, transcript: map[string]TranscribedResult{}}
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	tu := NewTurn(Options{Model: model, Key: "turn k", Name: "toy turn k", Ended: ended, Transcribed: a.transcribed})
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"input":"turn k"}`))
	if err != nil {
		t.Fatal(err)
	}
	return a, tu, req
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestTurn: a turn's tools are its first model request's; a batch of
// calls is one model answer whose outputs come from the next model
// request and whose details and error flags come from the transcript;
// End gives the final answer and waits for the client request.
func TestTurn(t *testing.T) {
	_, tu, req := startAgent(t, "", func(int, []byte) error { return nil })
	ctx := testContext(t)
	if err := tu.Start(ctx, http.DefaultClient, req); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if got := tu.Tools(); len(got) != 1 || got[0].Name != "echo" || got[0].Description != "echoes" {
		t.Errorf("Tools = %+v, want the one tool echo", got)
	}
	outs, err := tu.CallBatch(ctx, []conformance.ToolCall{
		{ID: "c1", Name: "echo", Arguments: json.RawMessage(`{"a":1}`)},
		{ID: "c2", Name: "other"},
	})
	if err != nil {
		t.Fatalf("CallBatch: %v", err)
	}
	want := []conformance.Outcome{
		{Text: `ran echo {"a":1}`, Details: json.RawMessage(`{"ran":"echo"}`)},
		{Text: "ran other {}", Details: json.RawMessage(`{"ran":"other"}`), IsError: true},
	}
	if diff := cmp.Diff(want, outs); diff != "" {
		t.Errorf("CallBatch (-want +got):\n%s", diff)
	}
	out, err := tu.Call(ctx, "c3", "echo", nil)
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if out.Text != "ran echo {}" {
		t.Errorf("Call text = %q, want %q", out.Text, "ran echo {}")
	}
	if err := tu.End(ctx); err != nil {
		t.Fatalf("End: %v", err)
	}
	if _, ok := tu.Implementation(); !ok {
		t.Error("Implementation after End: not ok")
	}
	if _, err := tu.CallBatch(ctx, []conformance.ToolCall{{ID: "c4", Name: "echo"}}); err == nil || !strings.Contains(err.Error(), "toy turn k has ended") {
		t.Errorf("CallBatch after End = %v, want the turn has ended", err)
	}
	if err := tu.AbortWith(ctx, func(context.Context) error { return errors.New("abort called") }); err != nil {
		t.Errorf("AbortWith after End = %v, want nil without aborting", err)
	}
}

// TestTurn_abortedCallRecordedLate: a run aborted while a call ran sends
// no more model requests, and its target may write the call's result to
// the transcript after the client request ended; the call's outcome is
// that result, within recordedWithin.
func TestTurn_abortedCallRecordedLate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lateBy time.Duration
		want   string // the outcome's text, or the error's start
	}{
		{name: "written at once", lateBy: 0, want: "aborted"},
		{name: "written late", lateBy: 300 * time.Millisecond, want: "aborted"},
		{name: "never written in time", lateBy: recordedWithin + 5*time.Second, want: "error: toy turn k ended early: HTTP 503"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, tu, req := startAgent(t, "", func(int, []byte) error { return nil })
			a.abortOn, a.lateBy = "stop", tc.lateBy
			ctx := testContext(t)
			if err := tu.Start(ctx, http.DefaultClient, req); err != nil {
				t.Fatalf("Start: %v", err)
			}
			out, err := tu.Call(ctx, "c1", "stop", nil)
			got := out.Text
			if err != nil {
				got = "error: " + err.Error()
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("Call = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTurn_Ended: a client request that ends before any model request
// fails Start with what the target reads in its answer, or an "ended
// early" error when the target reads nothing there.
func TestTurn_Ended(t *testing.T) {
	failure := &conformance.TurnFailure{Message: "payload too large"}
	_, tu, req := startAgent(t, "payload too large", func(status int, body []byte) error {
		var res struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if status == http.StatusBadRequest && json.Unmarshal(body, &res) == nil {
			return &conformance.TurnFailure{Message: res.Error.Message}
		}
		return nil
	})
	var got *conformance.TurnFailure
	if err := tu.Start(testContext(t), http.DefaultClient, req); !errors.As(err, &got) || *got != *failure {
		t.Errorf("Start = %v, want the turn failure %q", err, failure.Message)
	}

	_, tu, req = startAgent(t, "no", func(int, []byte) error { return nil })
	err := tu.Start(testContext(t), http.DefaultClient, req)
	if want := `toy turn k ended early: HTTP 400: {"error":{"message":"no"}}`; err == nil || err.Error() != want {
		t.Errorf("Start = %v, want %q", err, want)
	}
}
