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
