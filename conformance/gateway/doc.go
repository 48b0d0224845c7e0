// Package gateway is the wire target of the conformance suite: it runs
// every scenario through a gateway process, driven exactly as a model
// drives it. The suite starts the gateway with a generated configuration
// (SPEC.md Appendix E) pointing at a fake OpenAI-compatible model
// provider (fakes/fakemodel) and at a tool host that runs the plugin and
// client tools (fakes/faketools), then plays the model: each scenario
// step that makes a tool call answers the gateway's pending model request
// with that call, and the gateway's next model request carries the result.
//
// What the wire does not carry (a result's structured details and error
// flag, trajectories, the debug log) comes from the gateway's admin
// endpoints. The reference gateway is reference/cmd/codemode-gateway.
package gateway
