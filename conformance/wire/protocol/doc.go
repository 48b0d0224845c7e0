// Package protocol is the wire format of the conformance driver protocol
// (SPEC.md Appendix D): JSON-RPC 2.0, one message per line, requests in both
// directions. It holds the message types, [Conn] (one end of a connection,
// for either side), and [Serve] with [Host] for implementations written in
// Go.
//
// It imports nothing of the conformance suite, so an implementation that
// serves the protocol (codemode serve-driver) does not link the suite, its
// features or godog.
package protocol
