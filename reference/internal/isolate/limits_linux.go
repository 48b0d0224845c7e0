package isolate

import "syscall"

// restrict puts a worker under the operating system's limits once its
// engine is ready: no core dumps, no file writes, few descriptors, and
// (where the build allows it) a bound on its address space, so that a
// runaway the engine's own limits missed ends the worker, not the machine.
func restrict(addressSpace uint64) {
	set := func(resource int, v uint64) { _ = syscall.Setrlimit(resource, &syscall.Rlimit{Cur: v, Max: v}) }
	set(syscall.RLIMIT_CORE, 0)
	set(syscall.RLIMIT_FSIZE, 0)
	set(syscall.RLIMIT_NOFILE, 64)
	if addressSpace > 0 && !raceEnabled {
		// The race detector maps terabytes of shadow memory: a bound on
		// the address space would stop a race-enabled worker at once.
		set(syscall.RLIMIT_AS, addressSpace)
	}
}
