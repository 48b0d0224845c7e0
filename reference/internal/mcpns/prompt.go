package mcpns

import "strings"

// Prompt returns the MCP section of the namespace prompt block (SPEC.md
// section 4.3), listing the visible server identifiers in server order,
// or "" when no server is visible. Lines are joined by "\n" with no
// trailing newline.
func (m *Model) Prompt() string {
	if len(m.Servers) == 0 {
		return ""
	}
	return strings.Join([]string{
		"MCP namespace globals are available in code mode:",
		"- MCP: MCP server tools grouped by server.",
		"Read API files such as mcp/index.d.ts and mcp/<server>.d.ts for TypeScript-style MCP headers; visible servers: " +
			strings.Join(m.Identifiers(), ", ") + ". Node-backed name collisions use a sanitized node-id fragment prefix.",
		"Call MCP tools as MCP.<server>.<tool>({ ...input }) with one object argument matching the header.",
	}, "\n")
}
