//go:build unix

package driver

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the implementation the leader of a new process
// group, so that a kill also reaches the processes it started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcess kills the process group the implementation leads, then the
// process itself.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
