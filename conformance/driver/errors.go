package driver

import (
	"fmt"
	"strings"

	"github.com/codemodekit/kit/conformance/wire/protocol"
)

// Failure codes: why a call into an implementation failed, as
// [Error.Code]. They are stable; match them, not the message.
const (
	// FailureSpawn: the implementation's process could not be started.
	FailureSpawn = "spawn_failed"
	// FailureHandshake: hello failed, or declared another protocol
	// version or other capabilities than the first process did.
	FailureHandshake = "handshake_failed"
	// FailureExited: the process exited or closed its stdout while a
	// request was in flight or before the suite closed it.
	FailureExited = "exited"
	// FailureProtocol: the process wrote something that is not a valid
	// protocol message, or a result of the wrong shape. The process is
	// killed.
	FailureProtocol = "protocol_error"
	// FailureTimeout: the request's context ended before its response
	// (a hung implementation); the request was cancelled with $/cancel.
	FailureTimeout = "timeout"
	// FailureRemote: the implementation answered with an error response
	// other than not_applicable and turn_failed.
	FailureRemote = "remote_error"
	// FailureClosed: the target was already closed.
	FailureClosed = "closed"
)

// An Error is a failure of the implementation under test, as a step sees
// it. It fails the scenario; it never stops the suite.
type Error struct {
	// Code is one of the Failure codes.
	Code string
	// Method is the request that failed, if any.
	Method string
	// RPC is the error response, for FailureRemote.
	RPC *protocol.RPCError
	// Err is the cause.
	Err error
	// Stderr is the end of the implementation's stderr when the failure
	// was seen (bounded by WithStderrLimit).
	Stderr string
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("driver: ")
	sb.WriteString(e.Code)
	if e.Method != "" {
		sb.WriteString(": ")
		sb.WriteString(e.Method)
	}
	if e.Err != nil {
		sb.WriteString(": ")
		sb.WriteString(e.Err.Error())
	}
	if e.Stderr != "" {
		fmt.Fprintf(&sb, "\n--- implementation stderr (tail) ---\n%s", strings.TrimRight(e.Stderr, "\n"))
	}
	return sb.String()
}

func (e *Error) Unwrap() error { return e.Err }
