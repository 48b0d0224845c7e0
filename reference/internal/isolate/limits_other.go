//go:build !linux

package isolate

// restrict is a no-op where the worker's limits are not implemented; the
// engine's own limits still hold.
func restrict(uint64) {}
