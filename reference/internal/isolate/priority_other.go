//go:build !linux

package isolate

// yieldToHost is a no-op where worker priorities are not implemented:
// workers run at the host's priority.
func yieldToHost() {}
