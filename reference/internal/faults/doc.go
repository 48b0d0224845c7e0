// Package faults holds the reference's fault-injection tests (issue 10,
// SECURITY.md): a missing or corrupt engine binary, MCP servers that are
// killed or hang mid-call, and tools slower than the deadline. Each test
// checks the SPEC'd outcome and that no VM, run or goroutine survives.
// The package has no code of its own.
package faults
