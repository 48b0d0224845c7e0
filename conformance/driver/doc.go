// Package driver runs the conformance suite against an implementation in
// any language: a separate process that speaks the driver protocol
// (SPEC.md Appendix D) on its stdin and stdout.
//
//	d := driver.New([]string{"codemode", "serve-driver"})
//	conformance.TestTarget(t, "mine", d.MakeTarget, "~@wip")
//
// [Driver.MakeTarget] is a conformance.MakeTarget: every scenario gets a
// fresh process, started by Start and ended by Close. The suite keeps its
// fake host: the implementation calls back over the protocol for tool
// execution, the before_tool_call hook, approvals and Swarm sub-agents, and
// the fake MCP servers of a setup run in the suite, on 127.0.0.1, with
// their urls merged into the configuration the implementation receives.
// The optional capabilities (conformance.Restarter, Transcripter,
// LogReader, RegistrationReporter) follow what the implementation declares
// in the handshake; a scenario that needs a missing one is not applicable.
//
// # Failures
//
// Nothing an implementation does stops the suite. A crash, a line that is
// not a protocol message, a hang or a process that will not exit fails the
// scenario with an [*Error] whose Code is stable (FailureExited,
// FailureProtocol, FailureTimeout, ...) and which carries the end of the
// implementation's stderr. Every wait is bounded by the step's context or
// by an option, and every process is waited for: none outlives its
// scenario.
//
// # Restart
//
// A restart (the step "the gateway restarts") is a real process restart:
// close, then a new process started with the same state directory
// (StartParams.StateDir), in which the implementation keeps its durable
// state. See RATIONALE.md.
//
// The wire format, and Serve for implementations written in Go, are in
// the protocol subpackage, which never imports the suite.
package driver
