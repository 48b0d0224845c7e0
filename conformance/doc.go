// Package conformance is the implementation-neutral code-mode conformance
// suite. It runs the Gherkin scenarios of the features module against a
// Target, a system driven the way a model drives it: a setup of
// configuration, tools, MCP servers and policy; turns; exec, wait and direct
// tool calls; and observations of payloads, surfaces, tool calls, hook
// events and trajectories (SPEC.md section 1.4).
//
// Implementations plug in through a factory, as in nettest.TestConn: an
// implementation's own test calls TestTarget with a MakeTarget, and the
// conform command calls Run. This package never imports an implementation.
//
// Scenarios expected to fail are listed per target in baselines/<target>.txt
// with a reason; a listed scenario that passes fails the run, so a baseline
// only shrinks.
package conformance
