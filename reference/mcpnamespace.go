package codemode

// This file holds the run's MCP namespace (SPEC.md chapter 14): the model
// built from the MCP entries of the catalog, its guest descriptor, and the
// requests guest code makes through it.

import (
	"context"
	"encoding/json"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/mcpns"
)

// mcpModel builds the run's MCP namespace from the MCP entries that
// survived policy, in catalog order; nil when there are none.
func mcpModel(c *catalog.Catalog, byID map[string]Tool) *mcpns.Model {
	var servers []mcpns.Server
	index := map[string]int{}
	for _, e := range c.Entries {
		if e.Source != catalog.SourceMCP {
			continue
		}
		tool := byID[e.ID]
		if tool.mcp == nil {
			continue
		}
		i, ok := index[tool.mcp.server]
		if !ok {
			i = len(servers)
			index[tool.mcp.server] = i
			servers = append(servers, mcpns.Server{Name: tool.mcp.server})
		}
		switch tool.mcp.operation {
		case mcpns.OpResourcesList, mcpns.OpResourcesRead:
			servers[i].Resources = true
		case mcpns.OpPromptsList, mcpns.OpPromptsGet:
			servers[i].Prompts = true
		default:
			servers[i].Tools = append(servers[i].Tools, mcpns.Tool{Name: tool.mcp.tool, Title: tool.mcp.title,
				Description: tool.Description, InputSchema: tool.Parameters})
		}
	}
	if len(servers) == 0 {
		return nil
	}
	return mcpns.Build(servers)
}

// mcpGuest is the guest descriptor of the MCP global, or nil.
func mcpGuest(m *mcpns.Model) *guest.Namespace {
	if m == nil {
		return nil
	}
	b, err := json.Marshal(m.Guest())
	if err != nil {
		return nil
	}
	var ns guest.Namespace
	if json.Unmarshal(b, &ns) != nil {
		return nil
	}
	return &ns
}

// mcpCall answers an MCP namespace request: $api from the model, every other
// path as a nested call by exact catalog id (CM-14.15, CM-14.24).
func (t *Turn) mcpCall(ctx context.Context, req namespaceRequest, n cell.Nested) ([]byte, error) {
	if t.mcp == nil {
		return nil, mcpns.UnknownNamespace(req.Namespace)
	}
	e, err := t.mcp.Resolve(req.Path)
	if err != nil {
		return nil, err
	}
	if e.Operation == mcpns.OpAPI {
		return t.mcp.API(e, req.Args)
	}
	input, err := mcpns.PrepareInput(e, req.Args, req.Argc)
	if err != nil {
		return nil, err
	}
	entry, ok := t.catalog.Get(e.ID)
	if !ok {
		return nil, mcpns.UnknownNamespace(req.Namespace)
	}
	t.cell.Count(guest.MethodCall)
	res, err := t.nestedCall(ctx, entry, input, n)
	if err != nil {
		return nil, err
	}
	if res.Details == nil {
		return []byte("null"), nil
	}
	return res.Details, nil
}
