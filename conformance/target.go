package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/codemodekit/kit/conformance/wire"
)

// A Target is an implementation under test, driven the way a model drives it
// (SPEC.md section 1.4). The suite makes a fresh Target for every scenario,
// calls Start once with the scenario's setup, starts turns, and calls Close
// at the end, whatever happened.
type Target interface {
	// Start builds the system of one scenario. A Start error fails the
	// scenario (wrap ErrNotApplicable when the target cannot express the
	// setup).
	Start(ctx context.Context, s *Setup) error
	// StartTurn begins one agent run.
	StartTurn(ctx context.Context, spec TurnSpec) (Turn, error)
	// Close releases everything Start made.
	Close() error
}

// MakeTarget returns a fresh target.
type MakeTarget func() (Target, error)

// A Turn is one agent run of a target.
type Turn interface {
	// Tools returns the model-visible tools, in provider order.
	Tools() []ToolDefinition
	// Call makes one model tool call and returns what the model receives.
	Call(ctx context.Context, toolCallID, name string, args json.RawMessage) (Outcome, error)
	// Abort aborts the agent run.
	Abort(ctx context.Context) error
	// End ends the agent run normally.
	End(ctx context.Context) error
	// Trajectory returns the turn's trajectory events (SPEC.md chapter 16).
	Trajectory(ctx context.Context) ([]json.RawMessage, error)
}

// Optional capabilities. A step that needs one the target lacks is not
// applicable for that target: the scenario is reported, never passed.
type (
	// Restarter restarts the target's process, keeping its durable state
	// (transcripts) and losing everything in memory.
	Restarter interface {
		Restart(ctx context.Context) error
	}
	// Transcripter returns the JSONL transcript records of a session.
	Transcripter interface {
		Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error)
	}
	// A SessionEnder ends a session as its host does when the session is
	// reset or deleted (how): the session's suspended runs are disposed
	// (CM-8.40).
	SessionEnder interface {
		EndSession(ctx context.Context, sessionKey string, how SessionEnd) error
	}
	// LogReader returns the target's debug log so far.
	LogReader interface {
		Log() string
	}
	// RegistrationReporter reports, index by index, the outcome of the
	// setup's internal namespace registrations (nil for accepted ones).
	RegistrationReporter interface {
		RegistrationErrors() []error
	}
	// A BatchCaller is a Turn that makes several model tool calls at once,
	// as one model answer with parallel tool calls does. The suite uses it
	// for the calls a step makes concurrently; a Turn without it gets
	// concurrent Call calls instead.
	BatchCaller interface {
		CallBatch(ctx context.Context, calls []ToolCall) ([]Outcome, error)
	}
	// A ModelInputReader is a Turn whose implementation sends model
	// requests: it shows the conversation of the latest one as the model
	// received it, the session's replayed transcript first (CM-22.2).
	ModelInputReader interface {
		ModelInput() []ModelItem
	}
	// A ReplyReader is a Turn whose client request gets the agent's reply,
	// as a channel delivers it: Reply gives that text and the final answer
	// the model gave, once the turn has ended (ok is false before, or when
	// the reply carries no text).
	ReplyReader interface {
		Reply() (reply, final string, ok bool)
	}
	// A ModelRequestReader is a Turn whose implementation sends model
	// requests: it shows what each model request of the turn asked for, in
	// the order the suite received them.
	ModelRequestReader interface {
		ModelRequests() []ModelRequest
	}
	// A Replicated target runs several replicas of one implementation
	// that share their suspended runs (SPEC.md section 8.5), behind one
	// front. Turns started one after another are served by its live
	// replicas in turn, so that consecutive turns are served by different
	// replicas.
	Replicated interface {
		// ReplicaOf names the replica serving turn t.
		ReplicaOf(t Turn) (string, error)
		// KillReplica kills the replica named, by its PID and with no
		// goodbye; no request goes to it afterwards.
		KillReplica(ctx context.Context, name string) error
	}
	// A Timed turn reports, once it has ended, how long the
	// implementation worked on it: the duration of its client request
	// less the time the suite, playing the model, held the model
	// requests. tools/cmd/cmbench compares gateways with it; no scenario
	// needs it.
	Timed interface {
		Implementation() (time.Duration, bool)
		// LatestCall is how long the implementation worked on the
		// turn's latest model tool call: from the model answer that made
		// it to the next model request, what the suite reads between
		// them not counted; false before a call has answered.
		LatestCall() (time.Duration, bool)
	}
)

// A ModelRequest is what the suite, playing the model, saw of one model
// request beyond its conversation.
type ModelRequest struct {
	// Model is the model the request asks for.
	Model string
	// Credential is the request's Authorization header, or its x-api-key
	// header when it has no Authorization.
	Credential string
	// ToolTypes is the type of every tool entry offered ("function" for a
	// function tool, another type for a provider-native tool), in order.
	ToolTypes []string
	// OutputBlocks gives, by tool call id, the number of content blocks of
	// each function call output the request carries.
	OutputBlocks map[string]int
}

// A ModelItem is one element of a model request's conversation: a message
// (Type "message", Role and Text), a function call (Type "function_call",
// CallID, Name and Arguments) or a function call's output (Type
// "function_call_output", CallID and Output).
type ModelItem struct {
	Type      string
	Role      string
	Text      string
	CallID    string
	Name      string
	Arguments string
	Output    string
}

// A ToolCall is one model tool call of a batch.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

// A TurnFailure is an agent run that failed before any model request (for
// example the payload check of CM-4.30). StartTurn returns it so that the
// scenario can observe the failure.
type TurnFailure struct{ Message string }

func (e *TurnFailure) Error() string { return e.Message }

// ErrNotApplicable marks a scenario the target cannot express. Wrap it with
// the reason: fmt.Errorf("%w: no restart", ErrNotApplicable).
var ErrNotApplicable = errors.New("not applicable")

// NotApplicable returns an ErrNotApplicable with a reason.
func NotApplicable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotApplicable, fmt.Sprintf(format, args...))
}

// Setup is everything a scenario configures before its first turn.
type Setup struct {
	// Config is the OpenClaw-style configuration document.
	Config json.RawMessage
	// Tools are the core, plugin and client tools, before policy.
	Tools []wire.Spec
	// MCPServers are the MCP servers of the setup.
	MCPServers []MCPServer
	// Namespaces are internal namespace registrations, in order.
	Namespaces []Namespace
	// RolledBack, Disabled and Uninstalled list the plugins rolled back,
	// disabled or uninstalled after their registrations: each clears the
	// plugin's namespaces (CM-15.5).
	RolledBack  []string
	Disabled    []string
	Uninstalled []string
	// Host runs every tool's behaviour, the hook and approvals, and records
	// what it sees (the suite's scripted host). Targets must route tool
	// execution, before_tool_call hooks and approval decisions through it.
	Host wire.ToolHost
	// Runtime is "" for a working runtime, or "missing", "unreadable" or
	// "corrupt" to start without a usable quickjs-wasi binary.
	Runtime string
	// SubAgentAnswer is the final text of every Swarm sub-agent turn.
	SubAgentAnswer string
	// Env holds environment variables of the target process (for example
	// the OPENCLAW_DEBUG_* switches of SPEC.md chapter 21).
	Env map[string]string
	// WholeProcess marks a scenario that asserts a limit of the whole
	// process (wholeProcessClauses): a target that runs several scenarios
	// in one process must run it in one where no earlier scenario left
	// state behind (conformance/openclaw).
	WholeProcess bool
}

// wholeProcessClauses are the clauses whose requirement holds for a whole
// process: at most 64 suspended runs (CM-8.31).
var wholeProcessClauses = []string{"@CM-8.31"}

// An MCPServer is a fake MCP server scripted like tools, or a real one.
type MCPServer struct {
	Name      string
	Tools     []wire.Spec
	Resources []json.RawMessage
	Prompts   []json.RawMessage
	// Fixture names a real third-party server in fixtures/mcp (profile
	// real-mcp); Tools, Resources and Prompts are then unused.
	Fixture string
	// Transport is the HTTP transport a scripted server is served over:
	// "" or "streamable-http" for streamable HTTP, "sse" for HTTP with
	// server-sent events (SPEC.md section 14.1).
	Transport string
}

// A Namespace is one internal namespace registration.
type Namespace struct {
	PluginID     string
	Registration json.RawMessage
}

// TurnSpec scopes one agent run.
type TurnSpec struct {
	AgentID    string
	SessionID  string
	SessionKey string
	RunID      string
	// SenderID and ChannelID name who sent the turn's message and on which
	// channel ("" for none); nested calls keep them (CM-16.2).
	SenderID     string
	ChannelID    string
	DisableTools bool
	// NoTools makes a raw model call: no tool at all.
	NoTools bool
	// WithoutClientTools names client tools of the setup that this turn's
	// request does not carry: a client tool is effective only for the
	// turns that bring it (CM-3.12).
	WithoutClientTools []string
}

// TurnTools returns the tools of a turn of spec: tools without the client
// tools spec leaves out.
func (spec TurnSpec) TurnTools(tools []wire.Spec) []wire.Spec {
	if len(spec.WithoutClientTools) == 0 {
		return tools
	}
	out := make([]wire.Spec, 0, len(tools))
	for _, t := range tools {
		if t.Source == "client" && slices.Contains(spec.WithoutClientTools, t.Name) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// A ToolDefinition is one model-visible tool.
type ToolDefinition struct {
	Name        string          `json:"name"`
	Label       string          `json:"label,omitempty"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// An Outcome is what the model receives for one tool call.
type Outcome struct {
	// Text is the text content of the tool message.
	Text string
	// Details is the structured details (the payload for exec and wait).
	Details json.RawMessage
	// IsError marks a failed or refused tool call.
	IsError bool
}

// SessionEnd is how a host ends a session: both ways dispose the session's
// suspended runs (CM-8.40).
type SessionEnd string

// The two ways a host ends a session.
const (
	SessionReset   SessionEnd = "reset"
	SessionDeleted SessionEnd = "delete"
)
