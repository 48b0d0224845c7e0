package wire

import (
	"context"
	"encoding/json"
)

// A ToolHost is what a target delegates to the suite: tool behaviour (tool
// i of the turn's tools, spec s), the before_tool_call hook and approval
// decisions. The suite's scripted host implements it in process,
// [HTTPClient] over loopback HTTP. Implementations must be safe for
// concurrent use; a method returns ctx.Err() when ctx ends first.
type ToolHost interface {
	// Invoke runs one call of s with input. A tool failure is an error
	// whose text is the failure text, verbatim.
	Invoke(ctx context.Context, i int, s Spec, input json.RawMessage) (Result, error)
	// BeforeToolCall records a hook event (a JSON object with a toolName
	// member) and returns the decision.
	BeforeToolCall(ctx context.Context, event json.RawMessage) (Decision, error)
	// Approve returns the approval decision for a call of tool.
	Approve(ctx context.Context, tool string) (bool, error)
}

// A Decision is the before_tool_call hook's answer: block the call with a
// reason, replace its params, or (the zero value) let it run.
type Decision struct {
	Block  bool            `json:"block,omitempty"`
	Reason string          `json:"reason,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Approval decisions a scripted host can be given.
const (
	Granted = "granted"
	Denied  = "denied"
	Held    = "held"
)

// A Call is one call that reached a tool's implementation.
type Call struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}
