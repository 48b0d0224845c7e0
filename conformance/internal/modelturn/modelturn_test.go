package modelturn

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

func TestReply(t *testing.T) {
	got := Reply([]conformance.ToolCall{
		{ID: "a", Name: "exec", Arguments: json.RawMessage(`{"code":"1"}`)},
		{ID: "b", Name: "wait"},
	})
	want := fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{
		{ID: "a", Name: "exec", Arguments: json.RawMessage(`{"code":"1"}`)},
		{ID: "b", Name: "wait", Arguments: json.RawMessage(`{}`)},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Reply (-want +got):\n%s", diff)
	}
}

// TestNext_Ended: a turn whose client request ends before any model
// request reports how it ended.
func TestNext_Ended(t *testing.T) {
	model := fakemodel.NewServer()
	defer model.Close()
	done := make(chan struct{})
	ended := errors.New("turn failed before any model request")
	c := &Conversation{Model: model, Key: "k", Name: "turn k", Done: done, Ended: func() error { return ended }}
	time.AfterFunc(50*time.Millisecond, func() { close(done) })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Next(ctx); !errors.Is(err, ended) {
		t.Fatalf("Next = %v, want %v", err, ended)
	}
	if c.Take() != nil {
		t.Fatal("Take on a fresh conversation returned a request")
	}
}

// TestHeld_Clock: the model's side holds a request from Put to Take; the
// implementation's time is the client request's less that, and unknown
// until the request has ended.
func TestHeld_Clock(t *testing.T) {
	const hold = 30 * time.Millisecond
	var c Conversation
	var k Clock
	if _, ok := k.Implementation(&c); ok {
		t.Error("Implementation before the request started: ok, want not ok")
	}
	k.Start()
	c.Put(&fakemodel.Request{})
	time.Sleep(hold)
	if c.Take() == nil {
		t.Fatal("Take returned no request")
	}
	if got := c.Held(); got < hold {
		t.Errorf("Held after one hold = %v, want at least %v", got, hold)
	}
	if c.Take() != nil {
		t.Error("a second Take returned a request")
	}
	held := c.Held()
	if _, ok := k.Implementation(&c); ok {
		t.Error("Implementation before the request ended: ok, want not ok")
	}
	time.Sleep(10 * time.Millisecond)
	k.End()
	got, ok := k.Implementation(&c)
	if !ok {
		t.Fatal("Implementation after the request ended: not ok")
	}
	k.mu.Lock()
	total := k.end.Sub(k.start)
	k.mu.Unlock()
	if want := total - held; got != want {
		t.Errorf("Implementation = %v, want %v (request %v less held %v)", got, want, total, held)
	}
	if got <= 0 || got >= total {
		t.Errorf("Implementation = %v, want within (0, %v)", got, total)
	}
}
