package cell

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
)

// Host is what a code-mode run needs from the turn it belongs to. Its
// methods may be called from several goroutines.
type Host interface {
	Catalog() *catalog.Catalog
	Settings() config.Settings
	// GuestConfig is the JSON installed by the controller's configure step
	// for the run started by the exec call execCallID. Its error message is
	// reported as invalid_input (for example a namespace scope that cannot
	// be serialized).
	GuestConfig(execCallID string) ([]byte, error)
	// Telemetry returns the turn's counters and surface.
	Telemetry() Telemetry
	// Count bumps the search, describe or call counter.
	Count(method string)
	// Call runs a nested tool call through the turn's normal path (policy,
	// hooks, approvals, abort, trajectory).
	Call(ctx context.Context, e catalog.Entry, input json.RawMessage, n Nested) (ToolResult, error)
	// Namespace runs a namespace request (MCP or an internal namespace).
	Namespace(ctx context.Context, args json.RawMessage, n Nested) (json.RawMessage, error)
	// ReplaySafe reports whether calling e may be replayed after a restart.
	ReplaySafe(e catalog.Entry) bool
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
