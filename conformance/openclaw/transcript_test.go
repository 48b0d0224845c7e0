package openclaw

import (
	"encoding/json"
	"testing"
)

func TestPersistedTruncated(t *testing.T) {
	tests := []struct {
		details string
		want    bool
	}{
		{`{"persistedDetailsTruncated": true, "finalDetailsTruncated": true, "originalDetailsBytes": 9000}`, true},
		{`{"persistedDetailsTruncated": false, "status": "completed"}`, false},
		{`{"status": "completed", "value": {"persistedDetailsTruncated": true}}`, false},
		{`{"status": "completed"}`, false},
		{`[1, 2]`, false},
		{`"persistedDetailsTruncated"`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := persistedTruncated(json.RawMessage(tt.details)); got != tt.want {
			t.Errorf("persistedTruncated(%s) = %v, want %v", tt.details, got, tt.want)
		}
	}
}

func TestOutcomeDetails(t *testing.T) {
	stand := `{"persistedDetailsTruncated": true, "finalDetailsTruncated": true, "status": "completed"}`
	tests := []struct {
		details, text, want string
	}{
		{stand, `{"status": "completed", "value": "x"}`, ""},
		{stand, `{"status": "completed", "value": "xx`, stand}, // the text was cut too: keep the stand-in
		{stand, `plain text`, stand},
		{`{"status": "completed"}`, `{"status": "completed"}`, `{"status": "completed"}`},
		{``, `{}`, ``},
	}
	for _, tt := range tests {
		if got := string(outcomeDetails(json.RawMessage(tt.details), tt.text)); got != tt.want {
			t.Errorf("outcomeDetails(%s, %q) = %s, want %s", tt.details, tt.text, got, tt.want)
		}
	}
}
