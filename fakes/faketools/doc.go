// Package faketools is the scripted tool host of the conformance suite. A
// Host is a [wire.ToolHost]: it answers the calls of a scenario's tools
// (wire.Spec, read from catalog files of the format documented in
// fixtures/catalogs/README.md) as their behaviours say, with the overrides
// steps set, holds calls until a step releases them, scripts the
// before_tool_call hook and approval decisions, and records everything it
// sees. Targets delegate tool behaviour to it, in process or over loopback
// HTTP ([wire.HTTPHost]), so every implementation runs the same tools.
package faketools
