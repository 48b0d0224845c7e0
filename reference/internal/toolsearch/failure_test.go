package toolsearch

import (
	"encoding/json"
	"testing"
)

func TestFailureKind(t *testing.T) {
	tests := []struct {
		details string
		want    string
	}{
		{`{"status": "error", "message": "quota exceeded"}`, KindFailed},
		{`{"status": " Failed "}`, KindFailed},
		{`{"ok": false}`, KindFailed},
		{`{"success": false, "status": "completed"}`, KindFailed},
		{`{"error": "boom"}`, KindFailed},
		{`{"error": {}}`, KindFailed},
		{`{"error": 1}`, KindFailed},
		{`{"exitCode": 2}`, KindFailed},
		{`{"exitCode": -1, "status": "running"}`, KindFailed},
		{`{"status": "denied"}`, KindBlocked},
		{`{"status": "approval-unavailable"}`, KindBlocked},
		{`{"status": "forbidden", "error": "no"}`, KindBlocked},
		{`{"timedOut": true}`, KindTimedOut},
		{`{"status": "timeout"}`, KindTimedOut},
		{`{"status": "Cancelled"}`, KindCancelled},
		{`{"status": "killed"}`, KindCancelled},
		// Not flagged.
		{`{"status": "error", "ok": true}`, ""},
		{`{"status": "failed", "success": true}`, ""},
		{`{"status": "completed", "exitCode": 2}`, ""},
		{`{"exitCode": 0}`, ""},
		{`{"exitCode": "2"}`, ""},
		{`{"error": ""}`, ""},
		{`{"error": 0}`, ""},
		{`{"error": null, "ok": "false"}`, ""},
		{`{"timedOut": "yes"}`, ""},
		{`{"status": "done"}`, ""},
		{`[{"status": "error"}]`, ""},
		{`"error"`, ""},
		{`null`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := FailureKind(json.RawMessage(tt.details)); got != tt.want {
			t.Errorf("FailureKind(%s) = %q, want %q", tt.details, got, tt.want)
		}
	}
}
