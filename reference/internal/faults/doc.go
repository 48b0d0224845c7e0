// Package faults holds the reference's fault-injection tests
// (SECURITY.md): a missing or corrupt engine binary, MCP servers that are
// killed or hang mid-call, tools slower than the deadline, and worker
// processes killed at random points. Each test checks the SPEC'd outcome
// and that no VM, run, worker or goroutine survives.
// The package has no code of its own.
package faults
