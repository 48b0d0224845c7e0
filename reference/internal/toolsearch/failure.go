package toolsearch

import (
	"encoding/json"
	"strings"
)

// The failure kinds a flagged tool result adds to tool_call's details
// (SPEC.md CM-24.44).
const (
	KindFailed    = "failed"
	KindBlocked   = "blocked"
	KindTimedOut  = "timed_out"
	KindCancelled = "cancelled"
)

// errorStatuses are the status values that flag a result as an error
// unless it is explicitly successful.
var errorStatuses = map[string]bool{
	"error": true, "failed": true, "failure": true, "timeout": true, "timed_out": true,
	"blocked": true, "denied": true, "forbidden": true, "unavailable": true,
	"approval-unavailable": true, "disabled": true, "aborted": true, "cancelled": true,
	"canceled": true, "killed": true, "invalid": true,
}

// FailureKind classifies a tool result by its details, as CM-24.44 says:
// "" when the result is not flagged as an error, otherwise its failure
// kind. Details that are not a JSON object flag nothing.
func FailureKind(details json.RawMessage) string {
	var d map[string]any
	if json.Unmarshal(details, &d) != nil || d == nil {
		return ""
	}
	status := ""
	if s, ok := d["status"].(string); ok {
		status = strings.ToLower(strings.TrimSpace(s))
	}
	ok, success := d["ok"], d["success"]
	flagged := ok == false || success == false ||
		errorStatuses[status] && ok != true && success != true ||
		d["timedOut"] == true || truthy(d["error"])
	if !flagged && status != "completed" {
		code, isNumber := d["exitCode"].(float64)
		flagged = isNumber && code != 0
	}
	switch {
	case !flagged:
		return ""
	case status == "blocked" || status == "denied" || status == "forbidden" || status == "disabled" || status == "approval-unavailable":
		return KindBlocked
	case d["timedOut"] == true || status == "timeout" || status == "timed_out":
		return KindTimedOut
	case status == "aborted" || status == "cancelled" || status == "canceled" || status == "killed":
		return KindCancelled
	default:
		return KindFailed
	}
}

// truthy is JavaScript's truthiness of a JSON value.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0
	case string:
		return v != ""
	default: // objects and arrays, even empty ones
		return true
	}
}
