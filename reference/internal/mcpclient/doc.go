// Package mcpclient is the reference's MCP client: it reads the
// mcp.servers configuration (SPEC.md section 14.1), connects to stdio,
// streamable HTTP and SSE servers, lists their tools and forwards tool,
// resource and prompt requests.
//
// # Raw results
//
// Results are returned as the JSON text of the response's "result" member,
// byte for byte as the server sent it, so content, structuredContent,
// isError, _meta and members this client does not know all survive
// (CM-14.16, CM-14.17). To get there the package uses mcp-go only for its
// transports (client/transport): it builds the JSON-RPC requests itself,
// numbers them itself, performs the initialize handshake itself, and takes
// [transport.JSONRPCResponse.Result], a json.RawMessage that every mcp-go
// transport fills by unmarshalling the received message, which copies the
// member's bytes unchanged. mcp-go's typed client is not used: its
// CallToolResult keeps only the members it knows.
//
// # Failures
//
// Every request made for a nested call (tools/call, resources/*, prompts/*)
// is bounded by the server's timeoutMs (CM-14.3); setting the server up
// (starting it, initialize, tools/list) by a setup bound that is at least
// that, 30 s by default, so that a slowly starting server still joins the
// catalog and a hanging one still cannot hold up the run. Failures are [*Error]
// values whose messages are exactly those of CM-14.3 to CM-14.5 and name
// only the configured server (CM-14.7): a timeout, a closed connection
// (process exit, dropped connection, lost SSE stream, closed session), an
// invalid response (unparsable body, unexpected content, a result that is
// not an object) or a JSON-RPC error with the server's message. A result
// with isError true is returned as a result.
//
// [transport.JSONRPCResponse.Result]: https://pkg.go.dev/github.com/mark3labs/mcp-go/client/transport#JSONRPCResponse
package mcpclient
