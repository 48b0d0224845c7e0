//go:build !linux

package isolate

import "syscall"

// workerProcAttr starts a worker in a process group of its own.
func workerProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
