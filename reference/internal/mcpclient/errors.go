package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/mark3labs/mcp-go/client/transport"
)

// A Kind classifies an MCP failure.
type Kind string

// Failure kinds, with the messages of SPEC.md CM-14.3 to CM-14.5.
const (
	// KindTimeout: "MCP server <name> timed out."
	KindTimeout Kind = "timeout"
	// KindClosed: "MCP server <name> closed the connection."
	KindClosed Kind = "closed"
	// KindInvalid: "MCP server <name> returned an invalid response."
	KindInvalid Kind = "invalid"
	// KindRPC: "MCP server <name> error: <error message>".
	KindRPC Kind = "rpc"
	// KindUnavailable: "MCP server <name> could not be started." Connect
	// returns it when the configuration names no usable transport or the
	// process or connection cannot be set up; the spec leaves this message
	// open (CM-14.2: such a server contributes no entry).
	KindUnavailable Kind = "unavailable"
)

// An Error is a failed MCP request. Its message is exactly the one the spec
// prescribes and holds nothing but the configured server name and, for
// KindRPC, the server's error message: never URLs, headers, environment
// values or transport details (CM-14.7).
type Error struct {
	// Server is the configured server name.
	Server string
	Kind   Kind
	// Code and Message are the JSON-RPC error's, for KindRPC.
	Code    int
	Message string
}

func (e *Error) Error() string {
	switch e.Kind {
	case KindTimeout:
		return "MCP server " + e.Server + " timed out."
	case KindClosed:
		return "MCP server " + e.Server + " closed the connection."
	case KindRPC:
		return "MCP server " + e.Server + " error: " + e.Message
	case KindUnavailable:
		return "MCP server " + e.Server + " could not be started."
	default:
		return "MCP server " + e.Server + " returned an invalid response."
	}
}

// Is reports whether target is context.DeadlineExceeded for a timeout, so
// callers need not know this type to detect one.
func (e *Error) Is(target error) bool {
	return e.Kind == KindTimeout && target == context.DeadlineExceeded
}

// classify maps a transport error to a failure kind. It runs after the
// caller has ruled out its own cancellation, the request timeout and a
// closed session.
func classify(err error) Kind {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var netErr net.Error
	msg := err.Error()
	switch {
	case errors.As(err, &syntax), errors.As(err, &typ):
		return KindInvalid
	case errors.Is(err, transport.ErrTransportClosed),
		errors.Is(err, transport.ErrSessionTerminated),
		errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.ErrClosedPipe),
		errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EPIPE),
		// Messages of mcp-go's transports that have no sentinel: an SSE
		// response stream that ended before the response, and a pending
		// request of a closed SSE transport.
		strings.Contains(msg, "unexpected nil response"),
		strings.Contains(msg, "connection has been closed"),
		strings.Contains(msg, "transport has been closed"):
		return KindClosed
	case errors.Is(err, context.DeadlineExceeded),
		strings.Contains(msg, "timeout waiting for SSE response"):
		return KindTimeout
	case errors.As(err, &netErr):
		return KindClosed
	default:
		return KindInvalid
	}
}
