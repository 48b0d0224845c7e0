package harness

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
)

// serve runs ServeDriver and returns the suite's end of it, whose host
// requests host answers.
func serve(t *testing.T, host protocol.Handler) *protocol.Conn {
	t.Helper()
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeDriver(context.Background(), sr, sw); _ = sw.Close() }()
	suite := protocol.NewConn(cw, host)
	go func() { _ = suite.Read(cr) }()
	t.Cleanup(func() {
		_ = suite.Call(context.Background(), protocol.MethodClose, protocol.Empty{}, nil)
		_ = cw.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeDriver: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("ServeDriver did not return after close")
		}
		suite.End(errors.New("test over"))
		suite.Wait()
	})
	var hello protocol.HelloResult
	if err := suite.Call(context.Background(), protocol.MethodHello, protocol.HelloParams{ProtocolVersion: protocol.Version}, &hello); err != nil {
		t.Fatalf("hello: %v", err)
	}
	if diff := cmp.Diff(Hello(), hello); diff != "" {
		t.Errorf("hello result mismatch (-want +got):\n%s", diff)
	}
	return suite
}

func TestServeDriver_fixturesNotApplicable(t *testing.T) {
	suite := serve(t, nil)
	err := suite.Call(context.Background(), protocol.MethodStart, protocol.StartParams{MCPFixtures: []protocol.MCPFixture{{Name: "e", Fixture: "everything"}}}, nil)
	var rpc *protocol.RPCError
	if !errors.As(err, &rpc) || rpc.Code != protocol.CodeNotApplicable {
		t.Errorf("start with an unresolved fixture = %v, want not_applicable", err)
	}
}

// TestServeDriver_turn runs one exec whose nested tool call, hook and
// result cross the protocol.
func TestServeDriver_turn(t *testing.T) {
	if err := codemode.New(context.Background(), codemode.Options{}).Available(); err != nil {
		t.Fatalf("runtime unavailable: %v", err)
	}
	var hooked []string
	suite := serve(t, func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case protocol.MethodBeforeToolCall:
			var p protocol.HookParams
			_ = json.Unmarshal(params, &p)
			var ev struct{ ToolName string }
			_ = json.Unmarshal(p.Event, &ev)
			hooked = append(hooked, p.TurnID+" "+ev.ToolName)
			return wire.Decision{}, nil
		case protocol.MethodInvoke:
			var p protocol.InvokeParams
			_ = json.Unmarshal(params, &p)
			if p.TurnID != "t1" || p.ToolIndex != 0 || p.Name != "weather" {
				return nil, protocol.InvalidParams("unexpected invoke %+v", p)
			}
			return wire.Result{Content: []wire.Block{{Type: "text", Text: `{"temp":21}`}}, Details: json.RawMessage(`{"temp":21}`)}, nil
		}
		return nil, &protocol.RPCError{Code: protocol.CodeMethodNotFound, Message: method}
	})
	ctx := context.Background()
	var start protocol.StartResult
	if err := suite.Call(ctx, protocol.MethodStart, protocol.StartParams{StateDir: t.TempDir()}, &start); err != nil {
		t.Fatalf("start: %v", err)
	}
	turn := protocol.TurnStartParams{TurnID: "t1", AgentID: "main", SessionID: "s", SessionKey: "agent:main:main", RunID: "r1",
		Config: json.RawMessage(`{"tools":{"codeMode":true}}`), Tools: []wire.Spec{{Name: "weather"}}}
	var ts protocol.TurnStartResult
	if err := suite.Call(ctx, protocol.MethodTurnStart, turn, &ts); err != nil {
		t.Fatalf("turn/start: %v", err)
	}
	var names []string
	for _, d := range ts.Tools {
		names = append(names, d.Name)
	}
	if diff := cmp.Diff([]string{"exec", "wait"}, names); diff != "" {
		t.Errorf("model-visible tools mismatch (-want +got):\n%s", diff)
	}
	var res protocol.CallResult
	call := protocol.CallParams{TurnID: "t1", ToolCallID: "c1", Name: "exec",
		Arguments: json.RawMessage(`{"code":"return (await tools.callValue(\"weather\", {})).temp"}`)}
	if err := suite.Call(ctx, protocol.MethodTurnCall, call, &res); err != nil {
		t.Fatalf("turn/call: %v", err)
	}
	var payload struct {
		Status string `json:"status"`
		Value  int    `json:"value"`
	}
	if err := json.Unmarshal(res.Details, &payload); err != nil || payload.Status != "completed" || payload.Value != 21 {
		t.Errorf("exec result = %s, want completed with 21", res.Details)
	}
	if diff := cmp.Diff([]string{"t1 exec", "t1 weather"}, hooked); diff != "" {
		t.Errorf("hooked calls mismatch (-want +got):\n%s", diff)
	}
}
