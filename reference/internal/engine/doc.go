// Package engine runs the quickjs-wasi WebAssembly build of QuickJS-NG under
// wazero. It is the lowest layer of the reference implementation: it knows
// nothing about tools, catalogs or runs, only about loading the pinned binary,
// creating isolated VMs, evaluating code, calling host functions by stable
// name, enforcing limits, and taking and restoring snapshots in the
// quickjs-wasi "QJSS" format.
//
// # Sharp edges this package handles
//
//   - Re-entrancy: a host function may call back into the guest. wazero gives
//     every api.Function its own machine stack, and re-entering a function that
//     is already on the stack crashes the process. A VM therefore keeps one set
//     of export functions per nesting depth.
//   - Preemption: compiled wasm cannot be preempted by the Go scheduler. The
//     QuickJS interrupt handler is always enabled; it polls a deadline and an
//     abort flag and gives the scheduler a safepoint. QuickJS polls by count,
//     so a timer pokes the counter of running guests (preempt.go) to bound
//     the time between polls; Options.StrictPreemption adds a safepoint to
//     every wasm loop as well.
//   - Traps: after any trap the VM's C state is inconsistent. Every trap marks
//     the VM broken; it is never used again. The process lives on.
//   - Stack: a maximum stack size is always set, so deep recursion is a
//     RangeError and never an out-of-bounds trap.
//   - Snapshots are taken only at nesting depth zero.
//
// See SPEC.md chapter 17 and ../../RATIONALE.md.
package engine
