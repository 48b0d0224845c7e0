package isolate

import "syscall"

// workerProcAttr starts a worker in a process group of its own, so that a
// terminal's signals reach the host alone, which ends its workers, and has
// the kernel kill it should the host die first.
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
