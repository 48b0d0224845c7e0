package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// recorder is an Implementation that records the methods it sees.
type recorder struct {
	mu    sync.Mutex
	calls []string
	host  *Host
}

func (r *recorder) record(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, s)
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

func (r *recorder) Start(ctx context.Context, p *StartParams, host *Host) (*StartResult, error) {
	r.record("start")
	r.host = host
	return nil, nil
}

func (r *recorder) StartTurn(ctx context.Context, p *TurnStartParams) (*TurnStartResult, error) {
	r.record("turn " + p.TurnID)
	if p.AgentID == "fail" {
		return nil, TurnFailed("no model")
	}
	return &TurnStartResult{Tools: []ToolDefinition{{Name: "exec"}}}, nil
}

func (r *recorder) Call(ctx context.Context, p *CallParams) (*CallResult, error) {
	r.record("call " + p.Name)
	if p.Name == "invoke" {
		res, err := r.host.Invoke(ctx, InvokeParams{TurnID: p.TurnID, Name: "weather"})
		if err != nil {
			return &CallResult{Text: err.Error(), IsError: true}, nil
		}
		return &CallResult{Text: res.Content[0].Text}, nil
	}
	return &CallResult{Text: "ok"}, nil
}

func (r *recorder) Abort(ctx context.Context, id string) error { r.record("abort " + id); return nil }
func (r *recorder) End(ctx context.Context, id string) error   { r.record("end " + id); return nil }
func (r *recorder) Trajectory(ctx context.Context, id string) ([]json.RawMessage, error) {
	r.record("trajectory " + id)
	return nil, nil
}
func (r *recorder) Transcript(ctx context.Context, key string) ([]json.RawMessage, error) {
	r.record("transcript " + key)
	return nil, nil
}
func (r *recorder) Log(ctx context.Context) (string, error) { r.record("log"); return "log text", nil }
func (r *recorder) Close(ctx context.Context) error         { r.record("close"); return nil }

// serving runs Serve for impl and returns the suite's end; Serve's result
// arrives on the channel.
func serving(t *testing.T, hello HelloResult, impl Implementation, host Handler) (*Conn, chan error, io.Closer) {
	t.Helper()
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), sr, sw, hello, impl); _ = sw.Close() }()
	suite := NewConn(cw, host)
	go func() { _ = suite.Read(cr) }()
	t.Cleanup(func() {
		_ = cw.Close()
		suite.End(errors.New("test over"))
		suite.Wait()
	})
	return suite, done, cw
}

// code returns the protocol error code of err, or 0.
func code(err error) int {
	var rpc *RPCError
	if errors.As(err, &rpc) {
		return rpc.Code
	}
	return 0
}

func TestServe_ordering(t *testing.T) {
	impl := &recorder{}
	hello := HelloResult{Implementation: Info{Name: "rec"}, Capabilities: Capabilities{Log: true}}
	suite, done, _ := serving(t, hello, impl, func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		if method == MethodInvoke {
			return nil, &ToolError{Message: "weather is down"}
		}
		return nil, &RPCError{Code: CodeMethodNotFound, Message: method}
	})
	ctx := context.Background()
	steps := []struct {
		method string
		params any
		want   int // the error code, 0 for success
		reason string
	}{
		{method: MethodStart, params: StartParams{}, want: CodeInvalidState, reason: "before hello"},
		{method: MethodHello, params: HelloParams{ProtocolVersion: "9"}, want: CodeInvalidParams, reason: "unsupported version"},
		{method: MethodHello, params: HelloParams{ProtocolVersion: Version}, want: CodeInvalidState, reason: "a second hello"},
		{method: MethodTurnStart, params: TurnStartParams{TurnID: "t1"}, want: CodeInvalidState, reason: "before start"},
		{method: MethodStart, params: StartParams{}},
		{method: MethodStart, params: StartParams{}, want: CodeInvalidState, reason: "a second start"},
		{method: MethodTurnStart, params: TurnStartParams{TurnID: "t1"}},
		{method: MethodTurnStart, params: TurnStartParams{TurnID: "t2", AgentID: "fail"}, want: CodeTurnFailed},
		{method: MethodTurnCall, params: CallParams{TurnID: "t1", Name: "invoke"}},
		{method: MethodTurnCall, params: []int{1}, want: CodeInvalidParams},
		{method: MethodTrajectory, params: TurnParams{TurnID: "t1"}},
		{method: MethodTurnEnd, params: TurnParams{TurnID: "t1"}},
		{method: MethodTranscript, params: TranscriptParams{SessionKey: "k"}, want: CodeMethodNotFound, reason: "no transcript capability"},
		{method: MethodLog, params: Empty{}},
		{method: "frobnicate", params: Empty{}, want: CodeMethodNotFound},
		{method: MethodClose, params: Empty{}},
	}
	for _, st := range steps {
		var res json.RawMessage
		err := suite.Call(ctx, st.method, st.params, &res)
		if got := code(err); got != st.want {
			t.Errorf("%s %v: code %d (%v), want %d (%s)", st.method, st.params, got, err, st.want, st.reason)
		}
		if st.method == MethodTurnCall && err == nil && string(res) != `{"text":"weather is down","isError":true}` {
			t.Errorf("turn/call invoke = %s, want the tool failure text", res)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after close = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after close")
	}
	want := []string{"start", "turn t1", "turn t2", "call invoke", "trajectory t1", "end t1", "log", "close"}
	if diff := cmp.Diff(want, impl.seen()); diff != "" {
		t.Errorf("implementation calls mismatch (-want +got):\n%s", diff)
	}
}

func TestServe_eofCloses(t *testing.T) {
	impl := &recorder{}
	suite, done, in := serving(t, HelloResult{Implementation: Info{Name: "rec"}}, impl, nil)
	ctx := context.Background()
	if err := suite.Call(ctx, MethodHello, HelloParams{ProtocolVersion: Version}, nil); err != nil {
		t.Fatal(err)
	}
	if err := suite.Call(ctx, MethodStart, StartParams{}, nil); err != nil {
		t.Fatal(err)
	}
	_ = in.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve at the end of its input = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return at the end of its input")
	}
	if diff := cmp.Diff([]string{"start", "close"}, impl.seen()); diff != "" {
		t.Errorf("implementation calls mismatch (-want +got):\n%s", diff)
	}
}
