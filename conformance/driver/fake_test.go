package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
)

// fakeModeEnv makes the test binary a fake implementation (see TestMain):
// its value is a comma-separated list of modes.
const fakeModeEnv = "DRIVER_TEST_FAKE_IMPL"

// TestMain runs the test binary as the fake implementation when
// fakeModeEnv is set, so the driver is tested against a real process
// without building one.
func TestMain(m *testing.M) {
	if modes := os.Getenv(fakeModeEnv); modes != "" {
		os.Exit(runFake(strings.Split(modes, ",")))
	}
	os.Exit(m.Run())
}

// fakeArgv returns the command line of a fake implementation with modes.
func fakeArgv(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "-test.run=^$"}
}

// newFake returns a driver of a fake implementation with modes.
func newFake(t *testing.T, modes string, opts ...Option) *Driver {
	t.Helper()
	// Under -race, a process sleeps 1 s before it exits unless told not to.
	env := WithEnv(fakeModeEnv+"="+modes, "GORACE=atexit_sleep_ms=0")
	opts = append([]Option{env, WithCloseTimeout(2*time.Second, 2*time.Second)}, opts...)
	return New(fakeArgv(t), opts...)
}

// runFake is the fake implementation. Modes:
//
//	exit-at-once      exit 3 before reading anything
//	bad-version       answer hello with protocol version "0"
//	no-caps           declare no optional capability
//	garbage-hello     answer hello with a line that is not JSON
//	na-start          answer start with not_applicable
//	no-exit           once started, never exit
//	raw-bad-result    (raw) answer turn/call with {"text": 5}
//	raw-unknown-id    (raw) answer turn/call with another id
//
// Call names (turn/call) choose what a call does: see fake.Call.
func runFake(modes []string) int {
	mode := map[string]bool{}
	for _, m := range modes {
		mode[m] = true
	}
	if mode["exit-at-once"] {
		fmt.Fprintln(os.Stderr, "fake: exiting at once")
		return 3
	}
	if mode["raw-bad-result"] || mode["raw-unknown-id"] {
		return runRaw(mode)
	}
	hello := protocol.HelloResult{ProtocolVersion: protocol.Version, Implementation: protocol.Info{Name: "fake", Version: "1"},
		Profiles:     []string{"core"},
		Capabilities: protocol.Capabilities{Restart: true, Transcript: true, Log: true, RegistrationErrors: true}}
	if mode["bad-version"] {
		hello.ProtocolVersion = "0"
	}
	if mode["no-caps"] {
		hello.Capabilities = protocol.Capabilities{}
	}
	var in = os.Stdin
	if mode["garbage-hello"] {
		fmt.Fprintln(os.Stdout, "Hello, world")
	}
	f := &fake{modes: mode}
	err := protocol.Serve(context.Background(), in, os.Stdout, hello, f)
	if mode["no-exit"] && f.host != nil {
		fmt.Fprintln(os.Stderr, "fake: not exiting")
		select {}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake:", err)
		return 1
	}
	return 0
}

// runRaw answers each request with a canned line, without the protocol
// package, to send what a well-behaved implementation never would.
func runRaw(mode map[string]bool) int {
	dec := json.NewDecoder(os.Stdin)
	for {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := dec.Decode(&m); err != nil {
			return 0
		}
		if m.ID == nil {
			continue
		}
		result := `{}`
		id := string(m.ID)
		switch m.Method {
		case protocol.MethodHello:
			result = `{"protocolVersion":"1","implementation":{"name":"raw"},"profiles":[],"capabilities":{}}`
		case protocol.MethodTurnStart:
			result = `{"tools":[]}`
		case protocol.MethodTurnCall:
			result = `{"text":5}`
			if mode["raw-unknown-id"] {
				result, id = `{"text":"x"}`, "999"
			}
		}
		fmt.Fprintf(os.Stdout, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result)
		if m.Method == protocol.MethodClose {
			return 0
		}
	}
}

// fake is a tiny implementation: its model-visible tools are the setup's
// tool names, and each call does what its name says.
type fake struct {
	modes map[string]bool
	host  *protocol.Host
	start *protocol.StartParams
	boots int

	mu        sync.Mutex
	turns     map[string]*protocol.TurnStartParams
	cancelled int
	log       []string
}

func (f *fake) logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = append(f.log, fmt.Sprintf(format, args...))
}

func (f *fake) Start(ctx context.Context, p *protocol.StartParams, host *protocol.Host) (*protocol.StartResult, error) {
	if f.modes["na-start"] {
		return nil, protocol.NotApplicable("the fake cannot express this setup")
	}
	f.host, f.start, f.turns = host, p, map[string]*protocol.TurnStartParams{}
	// The state directory counts boots: it survives a restart.
	if p.StateDir != "" {
		path := filepath.Join(p.StateDir, "boots")
		b, _ := os.ReadFile(path)
		f.boots = len(b) + 1
		if err := os.WriteFile(path, append(b, '.'), 0o600); err != nil {
			return nil, err
		}
	}
	res := &protocol.StartResult{RegistrationErrors: make([]*string, len(p.Namespaces))}
	for i, ns := range p.Namespaces {
		if strings.Contains(string(ns.Registration), "refuse") {
			msg := "refused " + ns.PluginID
			res.RegistrationErrors[i] = &msg
		}
	}
	f.logf("start env=%s", os.Getenv("FAKE_SCENARIO_VAR"))
	return res, nil
}

func (f *fake) StartTurn(ctx context.Context, p *protocol.TurnStartParams) (*protocol.TurnStartResult, error) {
	if p.AgentID == "fail" {
		return nil, protocol.TurnFailed("the agent run failed")
	}
	f.mu.Lock()
	f.turns[p.TurnID] = p
	f.mu.Unlock()
	res := &protocol.TurnStartResult{Tools: []protocol.ToolDefinition{}}
	for _, s := range p.Tools {
		res.Tools = append(res.Tools, protocol.ToolDefinition{Name: s.Name, Description: s.Description, Parameters: s.Schema()})
	}
	return res, nil
}

// Call names:
//
//	invoke      run tool 0 of the turn through the host; text is its error
//	approve     ask approval for tool 0
//	hook        run the before_tool_call hook for tool 0
//	subagent    ask for a sub-agent's answer
//	boots       how many times the state directory saw a start
//	setup       the start params and the turn's config, as details
//	pid         the process id
//	cancelled   how many requests the suite cancelled so far
//	hang        wait until cancelled
//	hang-hard   never answer, ignoring cancellation
//	crash       write to stderr and exit 4
//	garbage     write a line that is not JSON
//	fail        answer with an internal error
//	flood       write 1 MiB to stderr, then exit 5
func (f *fake) Call(ctx context.Context, p *protocol.CallParams) (*protocol.CallResult, error) {
	f.mu.Lock()
	turn := f.turns[p.TurnID]
	f.mu.Unlock()
	if turn == nil {
		return nil, &protocol.RPCError{Code: protocol.CodeInvalidState, Message: "no turn " + p.TurnID}
	}
	details := func(v any) (*protocol.CallResult, error) {
		b, err := json.Marshal(v)
		return &protocol.CallResult{Text: string(b), Details: b}, err
	}
	switch p.Name {
	case "invoke":
		res, err := f.host.Invoke(ctx, protocol.InvokeParams{TurnID: p.TurnID, ToolIndex: 0, Name: turn.Tools[0].Name, Input: p.Arguments})
		var te *protocol.ToolError
		if errors.As(err, &te) {
			return &protocol.CallResult{Text: te.Message, IsError: true}, nil
		}
		if err != nil {
			return nil, err
		}
		return &protocol.CallResult{Text: res.Content[0].Text, Details: res.Details}, nil
	case "approve":
		ok, err := f.host.Approve(ctx, protocol.ApproveParams{TurnID: p.TurnID, ToolName: turn.Tools[0].Name})
		if err != nil {
			return nil, err
		}
		return details(ok)
	case "hook":
		ev, _ := json.Marshal(map[string]any{"toolName": turn.Tools[0].Name, "params": p.Arguments})
		d, err := f.host.BeforeToolCall(ctx, protocol.HookParams{TurnID: p.TurnID, Event: ev})
		if err != nil {
			return nil, err
		}
		return details(d)
	case "subagent":
		text, err := f.host.SubAgent(ctx, protocol.SubAgentParams{Prompt: "go"})
		if err != nil {
			return nil, err
		}
		return details(text)
	case "boots":
		return details(f.boots)
	case "setup":
		return details(map[string]any{"start": f.start, "turnConfig": turn.Config, "turnTools": turn.Tools})
	case "pid":
		return details(os.Getpid())
	case "cancelled":
		f.mu.Lock()
		defer f.mu.Unlock()
		return details(f.cancelled)
	case "hang":
		<-ctx.Done()
		f.mu.Lock()
		f.cancelled++
		f.mu.Unlock()
		return nil, ctx.Err()
	case "hang-hard":
		select {}
	case "crash":
		fmt.Fprintln(os.Stderr, "fake: crashing on purpose")
		os.Exit(4)
	case "garbage":
		fmt.Fprintln(os.Stdout, "<html>not a message</html>")
		<-ctx.Done()
		return nil, ctx.Err()
	case "fail":
		return nil, errors.New("the fake failed")
	case "flood":
		os.Stderr.Write([]byte(strings.Repeat("x", 1<<20) + "\nfake: flood end\n"))
		os.Exit(5)
	}
	return &protocol.CallResult{Text: "unknown call " + p.Name, IsError: true}, nil
}

func (f *fake) Abort(ctx context.Context, id string) error { f.logf("abort %s", id); return nil }
func (f *fake) End(ctx context.Context, id string) error   { f.logf("end %s", id); return nil }

func (f *fake) Trajectory(ctx context.Context, id string) ([]json.RawMessage, error) {
	return []json.RawMessage{json.RawMessage(`{"type":"tool_call","turn":"` + id + `"}`)}, nil
}

func (f *fake) Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error) {
	return []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"session":%q,"boots":%d}`, sessionKey, f.boots))}, nil
}

func (f *fake) Log(ctx context.Context) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.log, "\n"), nil
}

func (f *fake) Close(ctx context.Context) error { return nil }

// spec is a tool spec of the tests.
func spec(name string, b *wire.Behavior) wire.Spec {
	return wire.Spec{Name: name, Description: name + " tool", Behavior: b}
}
