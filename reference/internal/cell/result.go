package cell

import (
	"bytes"
	"encoding/json"
)

// Error codes (SPEC.md chapter 19): exactly the seed's six.
const (
	CodeInvalidInput       = "invalid_input"
	CodeRuntimeUnavailable = "runtime_unavailable"
	CodeTimeout            = "timeout"
	CodeOutputLimit        = "output_limit_exceeded"
	CodeSnapshotLimit      = "snapshot_limit_exceeded"
	CodeInternal           = "internal_error"
)

// Failure phases.
const (
	PhaseInput  = "input"
	PhaseGuest  = "guest"
	PhaseHost   = "host"
	PhaseBridge = "bridge"
)

// Exact messages (SPEC.md chapter 19).
const (
	MsgCodeRequired        = "code or command must be a non-empty string."
	MsgCodeCommandMismatch = "code and command must match when both are provided."
	MsgLanguage            = "language must be javascript or typescript."
	MsgRestartSafe         = "restartSafe must be a boolean."
	MsgRunIDRequired       = "runId must be a non-empty string."
	MsgTimeout             = "code mode timeout exceeded"
	MsgWatchdog            = "code mode worker timeout exceeded"
	MsgAborted             = "code mode execution aborted"
	MsgOutputLimit         = "code mode output limit exceeded"
	MsgSnapshotLimit       = "code mode snapshot limit exceeded"
	MsgModuleAccess        = "code mode module access is disabled."
	MsgTooManyRuns         = "too many suspended code mode runs."
	MsgRunUnavailable      = "code mode run is unavailable or expired."
	MsgRunOtherAgentRun    = "code mode run belongs to a different agent run."
	MsgRunOtherSession     = "code mode run belongs to a different session."
	MsgRunResuming         = "code mode run is already being resumed."
	MsgPendingNoWork       = "code mode promise is pending without host work"
	MsgTooManyPending      = "too many pending code mode tool calls"
	MsgUnsupportedMethod   = "unsupported code mode bridge method"
	MsgInvalidBridgeID     = "invalid code mode bridge id"
	MsgDuplicateBridgeID   = "duplicate code mode bridge id"
	MsgRestoreFailed       = "code mode snapshot restore failed."
	MsgRestartSafeNS       = "restart-safe code mode cannot call namespace tools."
	MsgRestartSafeEffects  = "restart-safe code mode cannot call side-effecting tools."
	MsgRuntimeUnavailable  = "code mode runtime is unavailable: "
)

// LanguageDisabled is the message for a language left out of `languages`.
func LanguageDisabled(lang string) string { return "code mode " + lang + " input is disabled." }

// Telemetry is reported on every result (SPEC.md chapter 20).
type Telemetry struct {
	CatalogSize   int      `json:"catalogSize"`
	Sources       Sources  `json:"sources"`
	SearchCount   int      `json:"searchCount"`
	DescribeCount int      `json:"describeCount"`
	CallCount     int      `json:"callCount"`
	VisibleTools  []string `json:"visibleTools"`
}

// Sources counts catalog entries per source.
type Sources struct {
	OpenClaw int `json:"openclaw"`
	MCP      int `json:"mcp"`
	Client   int `json:"client"`
}

// A PendingCall is an unsettled bridge request of a waiting run.
type PendingCall struct {
	ID     string `json:"id"`
	Method string `json:"method"`
}

// A Result is one exec or wait outcome: completed, waiting or failed.
type Result struct {
	Status string
	// completed
	Value json.RawMessage
	// waiting
	RunID   string
	Reason  string
	Pending []PendingCall
	// failed
	Error                 string
	Code                  string
	FailurePhase          string
	BridgeDispatchStarted bool

	Output     []json.RawMessage
	ReplaySafe bool
	Telemetry  Telemetry
}

type completedJSON struct {
	Status     string            `json:"status"`
	Value      json.RawMessage   `json:"value"`
	Output     []json.RawMessage `json:"output"`
	ReplaySafe bool              `json:"replaySafe"`
	Telemetry  Telemetry         `json:"telemetry"`
}

type waitingJSON struct {
	Status           string            `json:"status"`
	RunID            string            `json:"runId"`
	Reason           string            `json:"reason"`
	PendingToolCalls []PendingCall     `json:"pendingToolCalls"`
	Output           []json.RawMessage `json:"output"`
	ReplaySafe       bool              `json:"replaySafe"`
	Telemetry        Telemetry         `json:"telemetry"`
}

type failedJSON struct {
	Status                string            `json:"status"`
	Error                 string            `json:"error"`
	Code                  string            `json:"code"`
	FailurePhase          string            `json:"failurePhase"`
	BridgeDispatchStarted bool              `json:"bridgeDispatchStarted"`
	Output                []json.RawMessage `json:"output"`
	ReplaySafe            bool              `json:"replaySafe"`
	Telemetry             Telemetry         `json:"telemetry"`
}

// MarshalJSON writes the payload with its fields in SPEC order.
func (r Result) MarshalJSON() ([]byte, error) {
	out := r.Output
	if out == nil {
		out = []json.RawMessage{}
	}
	tel := r.Telemetry
	if tel.VisibleTools == nil {
		tel.VisibleTools = []string{}
	}
	var v any
	switch r.Status {
	case "completed":
		val := r.Value
		if len(val) == 0 {
			val = json.RawMessage("null")
		}
		v = completedJSON{"completed", val, out, r.ReplaySafe, tel}
	case "waiting":
		p := r.Pending
		if p == nil {
			p = []PendingCall{}
		}
		v = waitingJSON{"waiting", r.RunID, r.Reason, p, out, r.ReplaySafe, tel}
	default:
		v = failedJSON{"failed", r.Error, r.Code, r.FailurePhase, r.BridgeDispatchStarted, out, r.ReplaySafe, tel}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Payload returns the result's payload twice, from one encoding: as
// compact JSON (the tool result's details) and as the tool message text,
// the payload as JSON.stringify(payload, null, 2) writes it.
func (r Result) Payload() (details json.RawMessage, text string) {
	b, err := r.MarshalJSON()
	if err != nil {
		return nil, `{"status":"failed"}`
	}
	var buf bytes.Buffer
	buf.Grow(len(b) + len(b)/2)
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return b, string(b)
	}
	return b, buf.String()
}

// Failed builds a failed result.
func Failed(code, phase, msg string) Result {
	return Result{Status: "failed", Code: code, FailurePhase: phase, Error: msg}
}
