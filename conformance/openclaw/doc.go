// Package openclaw is the conformance suite's target for the published
// OpenClaw gateway (npm package openclaw): it runs scenarios through a real
// `openclaw gateway`, driven as a model and an HTTP client drive it, and
// reports what OpenClaw does. It never rewrites OpenClaw's answers.
//
// A [Runner] owns what its scenarios share: the fake model provider
// (fakes/fakemodel), a tool-host front whose URL stays the same while each
// scenario's tool host (fakes/wire.HTTPHost) sits behind it, and one
// running gateway. Scenarios whose generated OpenClaw configuration is the
// same reuse that gateway. A configuration that differs only in sections
// OpenClaw reloads while it runs (tools, mcp, agents, session, messages,
// skills) is written over the running gateway's, and the runner waits for
// OpenClaw's reloader to report it applied (about a second; reload.go). Any
// other difference (the gateway section, the plugins it loads, the
// environment) takes another gateway: a start takes 15 s or more, and the
// least recently used of MaxGateways running is stopped by PID. The
// gateways of a runner share one Node compile cache. OpenClaw holds at most
// 64 suspended runs per process until they expire, so the runner follows
// the runs each gateway holds (suspended.go): a scenario's first turn
// reuses no gateway that earlier scenarios left more than a few in, and a
// scenario that asserts the limit itself takes one they left none in.
//
// A fixture plugin declares the tool names the suite gives its owner
// (KnownOwnedNames; the fixture and core plugins every known name):
// OpenClaw registers every declared factory at each plugin load, and a
// start loads the plugins three times.
//
// Scenario tools (core and plugin) are registered by the fixture plugin
// fixtures/openclaw/plugin, which delegates every call to the tool host;
// client tools go in the turn's request. The plugin's code is loaded once
// per tool owner, under the owner as plugin id ("core" for core tools), so
// that OpenClaw itself names the catalog entries as the scenario expects
// (owners.go). OpenClaw's own core and bundled-plugin tools are denied in
// a tools.byProvider layer of their own, except those the scenario names
// and the direct-only ones OpenClaw always shows (owntools.go). The plugin
// forwards OpenClaw's before_tool_call hook to the tool host, which
// records the event and gives the scenario's verdict, and asks the tool
// host before a call of an approval-gated tool. Replay-safe tools are
// declared in their plugin's manifest (toolMetadata), where OpenClaw reads
// them. A restart (conformance.Restarter) stops the scenario's gateway by
// PID and starts it again from the same root. A turn is one POST /v1/responses
// with the turn's key as input and its own session key; the gateway's
// model requests carry the model-visible tools and the tool outputs.
// Structured details and error flags come from the session transcript
// OpenClaw writes under its state directory.
//
// A setup's MCP servers go into the configuration's mcp.servers. Fake
// servers (fakes/fakemcp, run by the setup's host) sit behind an MCP front
// whose URL per server name stays the same from scenario to scenario, with
// an explicit streamable-http transport; real fixtures (fixtures/mcp,
// resolved by Options.MCPFixtures) run as stdio children of OpenClaw, their
// scratch directory behind a symbolic link the runner repoints, so that
// scenarios with the same servers share a gateway. What a scenario
// configures for a server is passed on unchanged.
//
// The release of the install is read from its openclaw package: what the
// target does differently per release (from 2026.9.6, Era C, the QuickJS
// executor selected in the generated configuration) is in release.go.
//
// OpenClaw must never reach anything but loopback: [LoopbackOnly] refuses
// to start it unless the process runs in a network namespace whose only
// interface is lo (conform re-executes itself under `unshare -n`).
package openclaw
