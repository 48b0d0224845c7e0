package protocol

import (
	"encoding/json"

	wire "github.com/codemodekit/kit/conformance/wire"
)

// Version is the version of the driver protocol (SPEC.md Appendix D) this package speaks.
const Version = "1"

// Methods the suite calls on the implementation.
const (
	MethodHello      = "hello"
	MethodStart      = "start"
	MethodTurnStart  = "turn/start"
	MethodTurnCall   = "turn/call"
	MethodTurnAbort  = "turn/abort"
	MethodTurnEnd    = "turn/end"
	MethodTrajectory = "turn/trajectory"
	MethodTranscript = "transcript"
	MethodSessionEnd = "session/end"
	MethodLog        = "log"
	MethodClose      = "close"
)

// Methods the implementation calls on the suite's fake host.
const (
	MethodInvoke         = "host/invoke"
	MethodBeforeToolCall = "host/beforeToolCall"
	MethodApprove        = "host/approve"
	MethodSubAgent       = "host/subAgent"
)

// MethodCancel is the notification that cancels a request, in either
// direction.
const MethodCancel = "$/cancel"

// Error codes of the protocol's error responses. The first five are
// JSON-RPC 2.0's own.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeNotApplicable: the implementation cannot express the setup or
	// the request; the message is the reason.
	CodeNotApplicable = -32001
	// CodeTurnFailed: turn/start only; the agent run failed before any
	// model request and the message is its failure text, verbatim.
	CodeTurnFailed = -32002
	// CodeToolFailed: host/invoke only; the tool failed and the message is
	// its failure text, verbatim.
	CodeToolFailed = -32003
	// CodeInvalidState: the request is out of order (before hello or
	// start, a second start, an unknown turn id).
	CodeInvalidState = -32004
	// CodeCancelled: the request was cancelled by $/cancel.
	CodeCancelled = -32800
)

// Capabilities are the optional parts of the protocol an implementation
// supports. A scenario that needs a missing one is not applicable.
type Capabilities struct {
	// Restart: durable state lives in StartParams.StateDir and survives a
	// restart of the process (conformance.Restarter).
	Restart bool `json:"restart,omitempty"`
	// Transcript: the transcript method (conformance.Transcripter).
	Transcript bool `json:"transcript,omitempty"`
	// SessionEnd: the session/end method (conformance.SessionEnder).
	SessionEnd bool `json:"sessionEnd,omitempty"`
	// Log: the log method (conformance.LogReader).
	Log bool `json:"log,omitempty"`
	// RegistrationErrors: StartResult.RegistrationErrors
	// (conformance.RegistrationReporter).
	RegistrationErrors bool `json:"registrationErrors,omitempty"`
}

// Info names a program.
type Info struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// HelloParams are the params of hello.
type HelloParams struct {
	ProtocolVersion string `json:"protocolVersion"`
	Suite           Info   `json:"suite"`
}

// HelloResult is the result of hello: what the implementation declares.
type HelloResult struct {
	ProtocolVersion string       `json:"protocolVersion"`
	Implementation  Info         `json:"implementation"`
	Profiles        []string     `json:"profiles"`
	Capabilities    Capabilities `json:"capabilities"`
}

// An MCPFixture is a real third-party MCP server of the setup
// (fixtures/mcp/<fixture>.json) the implementation must configure itself.
type MCPFixture struct {
	Name    string `json:"name"`
	Fixture string `json:"fixture"`
}

// A Namespace is one internal namespace registration.
type Namespace struct {
	PluginID     string          `json:"pluginId"`
	Registration json.RawMessage `json:"registration"`
}

// StartParams are the params of start: the scenario's setup.
type StartParams struct {
	Config      json.RawMessage `json:"config"`
	Tools       []wire.Spec     `json:"tools"`
	MCPFixtures []MCPFixture    `json:"mcpFixtures"`
	Namespaces  []Namespace     `json:"namespaces"`
	RolledBack  []string        `json:"rolledBack"`
	Disabled    []string        `json:"disabled,omitempty"`
	Uninstalled []string        `json:"uninstalled,omitempty"`
	Runtime     string          `json:"runtime"`
	StateDir    string          `json:"stateDir"`
}

// StartResult is the result of start.
type StartResult struct {
	// RegistrationErrors has one entry per namespace registration: nil when
	// accepted, else the refusal message. Required with the
	// registrationErrors capability.
	RegistrationErrors []*string `json:"registrationErrors"`
}

// TurnStartParams are the params of turn/start.
type TurnStartParams struct {
	TurnID       string          `json:"turnId"`
	AgentID      string          `json:"agentId"`
	SessionID    string          `json:"sessionId"`
	SessionKey   string          `json:"sessionKey"`
	RunID        string          `json:"runId"`
	SenderID     string          `json:"senderId,omitempty"`
	ChannelID    string          `json:"channelId,omitempty"`
	DisableTools bool            `json:"disableTools"`
	NoTools      bool            `json:"noTools"`
	Config       json.RawMessage `json:"config"`
	Tools        []wire.Spec     `json:"tools"`
}

// A ToolDefinition is one model-visible tool, as the provider receives
// it.
type ToolDefinition struct {
	Name        string          `json:"name"`
	Label       string          `json:"label,omitempty"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// TurnStartResult is the result of turn/start: the model-visible tools,
// in provider order.
type TurnStartResult struct {
	Tools []ToolDefinition `json:"tools"`
}

// TurnParams are the params of turn/abort, turn/end and turn/trajectory.
type TurnParams struct {
	TurnID string `json:"turnId"`
}

// CallParams are the params of turn/call.
type CallParams struct {
	TurnID     string          `json:"turnId"`
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
}

// CallResult is the result of turn/call: what the model receives.
type CallResult struct {
	Text    string          `json:"text"`
	Details json.RawMessage `json:"details,omitempty"`
	IsError bool            `json:"isError,omitempty"`
}

// TrajectoryResult is the result of turn/trajectory.
type TrajectoryResult struct {
	Events []json.RawMessage `json:"events"`
}

// SessionEndParams are the params of session/end.
type SessionEndParams struct {
	SessionKey string `json:"sessionKey"`
	// How is "reset" or "delete": how the host ends the session (CM-8.40).
	How string `json:"how"`
}

// TranscriptParams are the params of transcript.
type TranscriptParams struct {
	SessionKey string `json:"sessionKey"`
}

// TranscriptResult is the result of transcript.
type TranscriptResult struct {
	Records []json.RawMessage `json:"records"`
}

// LogResult is the result of log.
type LogResult struct {
	Text string `json:"text"`
}

// InvokeParams are the params of host/invoke.
type InvokeParams struct {
	TurnID    string          `json:"turnId"`
	ToolIndex int             `json:"toolIndex"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

// HookParams are the params of host/beforeToolCall.
type HookParams struct {
	TurnID string          `json:"turnId"`
	Event  json.RawMessage `json:"event"`
}

// ApproveParams are the params of host/approve.
type ApproveParams struct {
	TurnID   string `json:"turnId"`
	ToolName string `json:"toolName"`
}

// ApproveResult is the result of host/approve.
type ApproveResult struct {
	Granted bool `json:"granted"`
}

// SubAgentParams are the params of host/subAgent.
type SubAgentParams struct {
	Prompt  string          `json:"prompt"`
	Options json.RawMessage `json:"options,omitempty"`
	Spawned json.RawMessage `json:"spawned,omitempty"`
}

// SubAgentResult is the result of host/subAgent.
type SubAgentResult struct {
	Text string `json:"text"`
}

// CancelParams are the params of $/cancel.
type CancelParams struct {
	ID json.RawMessage `json:"id"`
}

// Empty is the result of requests that return nothing: {}.
type Empty struct{}
