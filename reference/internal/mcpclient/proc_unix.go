//go:build unix

package mcpclient

import (
	"os/exec"
	"syscall"
)

// inheritedEnv lists the variables a stdio server inherits from this
// process, as in the MCP TypeScript SDK's default environment.
var inheritedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

// setProcessGroup makes cmd the leader of a new process group.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills every process of cmd's process group. It must run
// before cmd is waited for, while the leader's pid still names the group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
