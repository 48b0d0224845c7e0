package engine

import (
	"errors"
	"fmt"
)

// ErrClosed is returned by every method of a closed or broken VM.
var ErrClosed = errors.New("engine: vm is closed")

// ErrBusy is returned when a VM is used by a second goroutine while a call is
// in progress. A VM is used by one goroutine at a time.
var ErrBusy = errors.New("engine: vm is in use by another goroutine")

// An UnavailableError reports that the runtime cannot be used at all: the
// wasm binary is missing, unreadable, has the wrong digest or does not
// compile. Code mode fails closed on it (runtime_unavailable).
type UnavailableError struct {
	Reason string
	Err    error
}

func (e *UnavailableError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("quickjs-wasi runtime unavailable: %s: %v", e.Reason, e.Err)
	}
	return "quickjs-wasi runtime unavailable: " + e.Reason
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// A GuestError is a JavaScript exception that reached the host. It is data:
// the guest threw it, the host did not fail.
type GuestError struct {
	Name    string
	Message string
	Stack   string
	// Uncatchable is set for QuickJS's uncatchable errors: interrupts and
	// out-of-memory conditions raised while the heap is exhausted.
	Uncatchable bool
	// Interrupted is set when the interrupt handler stopped the guest
	// because of the VM's deadline or an abort, never because of guest code.
	Interrupted bool
}

func (e *GuestError) Error() string {
	if e.Name == "" {
		return e.Message
	}
	if e.Message == "" {
		return e.Name
	}
	return e.Name + ": " + e.Message
}

// A TrapError reports that the wasm module trapped or the engine failed in a
// way that leaves the VM's state unknown. The VM is closed when it is returned.
type TrapError struct{ Err error }

func (e *TrapError) Error() string { return "engine: vm trapped: " + e.Err.Error() }
func (e *TrapError) Unwrap() error { return e.Err }
