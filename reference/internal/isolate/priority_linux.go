package isolate

import "syscall"

// workerNice is the scheduling niceness of every worker: guests get the
// CPU the host leaves them. A host thread that wakes (to answer a turn, to
// collect garbage, to kill a worker past its deadline) preempts a busy
// guest at once instead of queueing behind it, and guests share what is
// left among themselves as before.
const workerNice = 10

// yieldToHost lowers the calling worker's priority to workerNice. It is the
// first thing a worker does, so that its start (loading the engine)
// already yields to the host. On Linux a niceness belongs to a thread; a
// worker leads a process group of its own (workerProcAttr), PRIO_PGRP
// reaches every thread of it, and threads started later inherit the value.
// A process that does not lead its group (started by hand) lowers its own
// thread only, never the group of whoever started it.
func yieldToHost() {
	if syscall.Getpgrp() == syscall.Getpid() {
		_ = syscall.Setpriority(syscall.PRIO_PGRP, 0, workerNice)
		return
	}
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, workerNice)
}
