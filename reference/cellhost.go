package codemode

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// cellHost is a Turn as the cell's Host: the work code mode's runs ask of
// their agent run. The values the cell needs besides are given once, in
// the turn's cell.Turn.
type cellHost struct{ t *Turn }

var _ cell.Host = cellHost{}

func (h cellHost) Call(ctx context.Context, e catalog.Entry, input json.RawMessage, n cell.Nested) (cell.ToolResult, error) {
	return h.t.nestedCall(ctx, e, input, n)
}

// Namespace answers a call of a member of the MCP global or of a
// registered namespace.
func (h cellHost) Namespace(ctx context.Context, args json.RawMessage, n cell.Nested) (json.RawMessage, error) {
	var req namespaceRequest
	if err := json.Unmarshal(args, &req); err != nil {
		return nil, errors.New("Unknown code mode namespace: ")
	}
	if req.Namespace == "mcp" {
		return h.t.mcpCall(ctx, req, n)
	}
	return h.t.namespaceCall(ctx, req, n)
}

func (h cellHost) SpawnAgent(ctx context.Context, args json.RawMessage, n cell.Nested) (json.RawMessage, error) {
	return h.t.spawnAgent(ctx, args, n)
}

func (h cellHost) WaitAgent(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	return h.t.waitAgent(ctx, args)
}

func (h cellHost) Note(kind, text string) { h.t.note(kind, text) }

func (h cellHost) Aborted() bool { return h.t.aborted() }

func (h cellHost) Scoped() bool { return len(h.t.visibleNamespaces()) > 0 }

func (h cellHost) Scopes(execCallID string) ([]guest.Namespace, error) { return h.t.scopes(execCallID) }
