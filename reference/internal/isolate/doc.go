// Package isolate runs the guest halves of code-mode legs in worker
// processes the host can kill.
//
// A worker is the host's own executable started with CODEMODEKIT_WORKER
// set and nothing else in its environment: the package's init then serves
// instead of running main. It loads the engine (sandbox.New) with the
// paths and the base image the host sends in its first frame, puts itself
// under operating-system limits, and runs one leg after the other, each a
// sequence of operations (prepare, start, resume, step, snapshot) that it
// answers in order. Bridge requests and notes go to the host while the
// guest runs; aborts come on a pipe of their own.
//
// The host keeps a Pool: workers started ahead and reused, a leg at a time
// each, shared by every runtime of the process (Shared). Pool implements
// sandbox.Provider, so the cell runner drives a leg in a worker as it
// drives one in its own process. The host trusts a worker with the guest,
// never with itself: frames over their bound, malformed or out of turn end
// the worker, and reports are checked again.
//
// Why: ../../RATIONALE.md, "Why does guest code run in worker processes?".
package isolate
