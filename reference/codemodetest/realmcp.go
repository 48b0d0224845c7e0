package codemodetest

import (
	"github.com/codemodekit/kit/conformance"
)

// realMCPConfig returns the mcp.servers entry that runs the real
// third-party MCP server fixture named fixture (fixtures/mcp).
func realMCPConfig(fixture string) (map[string]any, error) {
	return nil, conformance.NotApplicable("real MCP server fixture %q is not installed", fixture)
}
