// Package faketools is the scripted tool host of the conformance suite. A
// Host holds the tools of one scenario (read from catalog files of the
// format documented in fixtures/catalogs/README.md), answers their calls as
// their behaviours say, holds calls until a step releases them, scripts the
// before_tool_call hook and approval decisions, and records everything it
// sees. Targets delegate tool behaviour to it, in process or over loopback
// HTTP, so every implementation runs the same tools.
package faketools
