package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// pair connects two Conns: a's writes are b's reads and the other way
// round. Their read loops report to the returned channels; t.Cleanup ends
// both.
func pair(t *testing.T, ha, hb Handler) (a, b *Conn, aRead, bRead chan error) {
	t.Helper()
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	a, b = NewConn(aw, ha), NewConn(bw, hb)
	aRead, bRead = make(chan error, 1), make(chan error, 1)
	go func() { aRead <- a.Read(ar) }()
	go func() { bRead <- b.Read(br) }()
	t.Cleanup(func() {
		a.End(errors.New("test over"))
		b.End(errors.New("test over"))
		_ = aw.Close()
		_ = bw.Close()
		a.Wait()
		b.Wait()
	})
	return a, b, aRead, bRead
}

// echo answers "echo" with its params, "fail" with the error its params
// name, and "block" by waiting for cancellation, which it reports on
// cancelled.
func echo(cancelled chan<- string) Handler {
	return func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case "echo":
			return params, nil
		case "fail":
			var p struct{ Kind string }
			_ = json.Unmarshal(params, &p)
			switch p.Kind {
			case "rpc":
				return nil, NotApplicable("no %s", "way")
			case "tool":
				return nil, &ToolError{Message: "the tool broke"}
			default:
				return nil, errors.New("plain failure")
			}
		case "block":
			<-ctx.Done()
			cancelled <- string(params)
			return nil, ctx.Err()
		}
		return nil, &RPCError{Code: CodeMethodNotFound, Message: method}
	}
}

func TestConn_callsBothWays(t *testing.T) {
	a, b, _, _ := pair(t, echo(nil), echo(nil))
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 20 {
		for _, c := range []*Conn{a, b} {
			wg.Go(func() {
				var got map[string]int
				if err := c.Call(context.Background(), "echo", map[string]int{"i": i}, &got); err != nil {
					errs <- err
				} else if got["i"] != i {
					errs <- fmt.Errorf("echo %d = %v", i, got)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestConn_errors(t *testing.T) {
	a, _, _, _ := pair(t, nil, echo(nil))
	tests := []struct {
		kind string
		want *RPCError
	}{
		{kind: "rpc", want: &RPCError{Code: CodeNotApplicable, Message: "no way"}},
		{kind: "tool", want: &RPCError{Code: CodeToolFailed, Message: "the tool broke"}},
		{kind: "plain", want: &RPCError{Code: CodeInternalError, Message: "plain failure"}},
	}
	for _, tt := range tests {
		err := a.Call(context.Background(), "fail", map[string]string{"kind": tt.kind}, nil)
		var got *RPCError
		if !errors.As(err, &got) {
			t.Fatalf("Call(fail %s) = %v, want an *RPCError", tt.kind, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Call(fail %s) mismatch (-want +got):\n%s", tt.kind, diff)
		}
	}
	err := a.Call(context.Background(), "echo", []string{"an array"}, &struct{ X int }{})
	var merr *MessageError
	if !errors.As(err, &merr) {
		t.Errorf("Call with a result of the wrong shape = %v, want a *MessageError", err)
	}
	if err := a.Call(context.Background(), "echo", "a string", nil); err == nil || !strings.Contains(err.Error(), "not an object") {
		t.Errorf("Call with string params = %v, want an error before anything is sent", err)
	}
}

func TestConn_cancel(t *testing.T) {
	cancelled := make(chan string, 1)
	a, _, aRead, _ := pair(t, nil, echo(cancelled))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Call(ctx, "block", []string{"first"}, nil) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Call = %v, want context.Canceled", err)
	}
	select {
	case got := <-cancelled:
		if got != `["first"]` {
			t.Errorf("cancelled handler = %s, want the first request", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("$/cancel did not cancel the peer's handler")
	}
	// The late cancelled response is ignored and the Conn goes on.
	var got []string
	if err := a.Call(context.Background(), "echo", []string{"after"}, &got); err != nil || len(got) != 1 || got[0] != "after" {
		t.Errorf("Call after a cancellation = %q, %v", got, err)
	}
	select {
	case err := <-aRead:
		t.Errorf("a's read loop ended: %v", err)
	default:
	}
}

func TestConn_end(t *testing.T) {
	cancelled := make(chan string, 1)
	a, _, _, _ := pair(t, nil, echo(cancelled))
	done := make(chan error, 1)
	go func() { done <- a.Call(context.Background(), "block", []string{"x"}, nil) }()
	time.Sleep(50 * time.Millisecond)
	endErr := errors.New("the peer died")
	a.End(endErr)
	if err := <-done; !errors.Is(err, endErr) {
		t.Errorf("Call in flight at End = %v, want %v", err, endErr)
	}
	if err := a.Call(context.Background(), "echo", []int{1}, nil); !errors.Is(err, endErr) {
		t.Errorf("Call after End = %v, want %v", err, endErr)
	}
}

func TestConn_readRefuses(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{name: "garbage", input: "Hello\n", want: "invalid message"},
		{name: "response to no request", input: `{"jsonrpc":"2.0","id":42,"result":{}}` + "\n", want: "response to no request in flight"},
		{name: "duplicate request id", input: `{"jsonrpc":"2.0","id":1,"method":"block"}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":"block"}` + "\n",
			want: "request id already in flight"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewConn(io.Discard, echo(make(chan string, 2)))
			defer c.Wait()
			defer c.End(errors.New("done"))
			err := c.Read(strings.NewReader("\n  \n" + tt.input))
			var merr *MessageError
			if !errors.As(err, &merr) || !strings.Contains(merr.Reason, tt.want) {
				t.Errorf("Read = %v, want a *MessageError %q", err, tt.want)
			}
		})
	}
	c := NewConn(io.Discard, nil)
	if err := c.Read(strings.NewReader("\n\r\n")); !errors.Is(err, io.EOF) {
		t.Errorf("Read of blank lines = %v, want io.EOF", err)
	}
}
