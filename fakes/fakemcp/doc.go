// Package fakemcp is a scripted MCP server for tests, built on mcp-go's
// server package and scripted like [faketools]: its tools are
// [wire.Spec] values whose calls run through a [faketools.Host], so
// behaviours, holds, delays and call records work exactly as for the other
// fake tools.
//
// A [Server] serves one [Definition] over streamable HTTP or SSE on
// 127.0.0.1 (httptest-style: [Start], [NewServer], [Server.Close],
// [Server.URL]) or over stdio ([Server.ServeStdio], and the fakemcp command
// in cmd/fakemcp, which reads a definition file and serves it on its own
// stdin and stdout so targets can launch it as a process).
//
// # Tool results
//
// A tools/call runs host.Invoke(ctx, spec, arguments) and maps its result
// to an MCP CallToolResult: one text content block per result block, plus
// structuredContent set to the result's details when it has details. A
// failing behaviour ("fails") becomes a result with isError true and the
// failure message as its only text block; it is not a JSON-RPC error.
//
// # Replies and failure modes
//
// A [Reply] replaces the normal answer at the wire level, below mcp-go, so
// that tests can script what no well-behaved server sends: a verbatim result
// object (with _meta or unknown members), a JSON-RPC error, garbage, a
// closed connection, or no answer at all. [Definition.Replies] scripts the
// tools/call of one tool (the call still reaches the host first, so it is
// recorded and honours holds and delays); [Definition.All] scripts every
// request, initialize included, which makes a server that cannot even be
// connected to.
package fakemcp
