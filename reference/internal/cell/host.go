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
	// GuestConfig is the JSON installed by the controller's configure step.
	GuestConfig() []byte
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
