package codemodetest

import "github.com/codemodekit/kit/conformance/driver"

// RealMCPFixtures returns the resolver of real MCP server fixtures for one
// driven target (driver.WithMCPFixtures): each fixture runs as a child
// process of the implementation, exactly as the in-process target runs it,
// and the target's scratch directories are removed when it closes.
func RealMCPFixtures() driver.MCPFixtures { return &realMCP{} }

// Config implements driver.MCPFixtures.
func (r *realMCP) Config(fixture string) (map[string]any, error) { return r.config(fixture) }

// Cleanup implements driver.MCPFixtures.
func (r *realMCP) Cleanup() { r.cleanup() }
