package cell

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// Host is the work a code-mode run asks of the agent run it belongs to:
// the calls the cell cannot answer itself. Everything else the cell needs
// of the agent run is a value of its Turn. Its methods may be called from
// several goroutines.
type Host interface {
	// Call runs a nested tool call through the turn's normal path (policy,
	// hooks, approvals, abort, trajectory).
	Call(ctx context.Context, e catalog.Entry, input json.RawMessage, n Nested) (ToolResult, error)
	// Namespace runs a namespace request (MCP or an internal namespace).
	// It counts the calls that reach a tool (Turn.Count).
	Namespace(ctx context.Context, args json.RawMessage, n Nested) (json.RawMessage, error)
	// SpawnAgent starts a Swarm sub-agent through the sessions_spawn tool;
	// WaitAgent waits for its final answer (SPEC.md chapter 23).
	SpawnAgent(ctx context.Context, args json.RawMessage, n Nested) (json.RawMessage, error)
	WaitAgent(ctx context.Context, args json.RawMessage) (json.RawMessage, error)
	// Note records a Swarm progress note (phase or log).
	Note(kind, text string)
	// Aborted reports whether the agent run was aborted. It is checked
	// directly, not through a derived context, so an abort is never
	// mistaken for the failure of a nested call it cancelled.
	Aborted() bool
	// Scoped reports whether a run started now makes namespace scopes of
	// its own (registered namespaces are visible): the cell then prepares
	// the source before it asks Scopes for them.
	Scoped() bool
	// Scopes makes the namespace scopes of the run started by the exec
	// call execCallID, in the guest's form. Its error message is reported
	// as invalid_input (for example a scope that cannot be serialized).
	Scopes(execCallID string) ([]guest.Namespace, error)
}

// Nested identifies a nested call: the tool call id of the exec that started
// the run and the call's sequence number within the run, from 1.
type Nested struct {
	Parent string
	Seq    int
}

// A ToolResult is what a tool returned: content blocks and optional details.
type ToolResult struct {
	Content json.RawMessage
	Details json.RawMessage // nil when the result has no details
}

// Envelope is the {content, details?} object tools.call reports.
func (r ToolResult) Envelope() ToolResult { return r }

// MarshalJSON writes {"content": [...], "details": ...}; details only when present.
func (r ToolResult) MarshalJSON() ([]byte, error) {
	content := r.Content
	if len(bytes.TrimSpace(content)) == 0 {
		content = json.RawMessage("[]")
	}
	if r.Details == nil {
		return marshal(struct {
			Content json.RawMessage `json:"content"`
		}{content})
	}
	return marshal(struct {
		Content json.RawMessage `json:"content"`
		Details json.RawMessage `json:"details"`
	}{content, r.Details})
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
