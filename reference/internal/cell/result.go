package cell

import (
	"bytes"
	"encoding/json"

	"github.com/codemodekit/kit/reference/internal/guest"
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
	MsgTooManyPending      = guest.MsgTooManyPending
	MsgUnsupportedMethod   = guest.MsgUnsupportedMethod
	MsgInvalidBridgeID     = guest.MsgInvalidBridgeID
	MsgDuplicateBridgeID   = guest.MsgDuplicateBridgeID
	MsgInvalidGuestOutput  = "invalid code mode guest output"
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

// MarshalJSON writes the payload with its fields in SPEC order, as
// encoding/json writes the structs of result_wire_test.go: raw values
// compacted (an invalid one is an error), no HTML escaping.
func (r Result) MarshalJSON() ([]byte, error) {
	w := &wireWriter{}
	w.buf.Grow(256 + len(r.Value))
	w.open()
	switch r.Status {
	case "completed":
		w.str("status", "completed")
		w.key("value")
		if len(r.Value) == 0 {
			w.buf.WriteString("null")
		} else {
			w.raw(r.Value)
		}
	case "waiting":
		w.str("status", "waiting")
		w.str("runId", r.RunID)
		w.str("reason", r.Reason)
		w.key("pendingToolCalls")
		w.openArray()
		for i, p := range r.Pending {
			w.comma(i)
			w.open()
			w.str("id", p.ID)
			w.str("method", p.Method)
			w.close()
		}
		w.closeArray()
	default:
		w.str("status", "failed")
		w.str("error", r.Error)
		w.str("code", r.Code)
		w.str("failurePhase", r.FailurePhase)
		w.bool("bridgeDispatchStarted", r.BridgeDispatchStarted)
	}
	w.key("output")
	w.openArray()
	for i, o := range r.Output {
		w.comma(i)
		w.raw(o)
	}
	w.closeArray()
	w.bool("replaySafe", r.ReplaySafe)
	t := r.Telemetry
	w.key("telemetry")
	w.open()
	w.int("catalogSize", t.CatalogSize)
	w.key("sources")
	w.open()
	w.int("openclaw", t.Sources.OpenClaw)
	w.int("mcp", t.Sources.MCP)
	w.int("client", t.Sources.Client)
	w.close()
	w.int("searchCount", t.SearchCount)
	w.int("describeCount", t.DescribeCount)
	w.int("callCount", t.CallCount)
	w.key("visibleTools")
	w.openArray()
	for i, name := range t.VisibleTools {
		w.comma(i)
		w.string(name)
	}
	w.closeArray()
	w.close()
	w.close()
	if w.err != nil {
		return nil, w.err
	}
	return w.buf.Bytes(), nil
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
