package codemode

import (
	"context"
	"errors"
	"strings"

	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// promptBlock joins the MCP and registered-namespace sections (SPEC.md 4.3).
func (t *Turn) promptBlock() string {
	var parts []string
	if p := t.mcpPrompt(); p != "" {
		parts = append(parts, p)
	}
	if p := t.namespacePrompt(t.visibleNamespaces()); p != "" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "\n\n")
}

// mcpPrompt is the MCP section of the prompt block; MCP support lands with
// the MCP namespace model.
func (t *Turn) mcpPrompt() string { return "" }

// mcpNamespace is the guest descriptor of the MCP global, or nil.
func (t *Turn) mcpNamespace() *guest.Namespace { return nil }

// apiFiles are the virtual declaration files of the run: agents.d.ts with
// Swarm, then the MCP files.
func (t *Turn) apiFiles() []guest.APIFile {
	files := []guest.APIFile{}
	if t.swarmOn() {
		files = append(files, guest.APIFile{Path: "agents.d.ts", Description: AgentsFileDescription, Content: AgentsFile, Bytes: len(AgentsFile)})
	}
	return files
}

func (t *Turn) mcpCall(ctx context.Context, req namespaceRequest, n cell.Nested) ([]byte, error) {
	return nil, errors.New("Unknown code mode namespace: mcp")
}
