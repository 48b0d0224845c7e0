package openclaw

import (
	"encoding/json"
	"strings"
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

// TestOutcomeDetails_Envelope: a payload wrapped in the external-content
// envelope, with no details, is read from inside the envelope; anything
// else is left as it is.
func TestOutcomeDetails_Envelope(t *testing.T) {
	wrapped := "SECURITY NOTICE: The following content is from an EXTERNAL, UNTRUSTED source.\n\n" +
		"<<<EXTERNAL_UNTRUSTED_CONTENT id=\"0123456789abcdef\">>>\nSource: MCP\n---\n" +
		"{\n  \"status\": \"completed\",\n  \"value\": 1\n}\n<<<END_EXTERNAL_UNTRUSTED_CONTENT id=\"0123456789abcdef\">>>"
	tests := []struct {
		name    string
		details string
		text    string
		want    string
	}{
		{name: "wrapped, no details", text: wrapped, want: "{\n  \"status\": \"completed\",\n  \"value\": 1\n}"},
		{name: "wrapped, with details", details: `{"status":"failed"}`, text: wrapped, want: `{"status":"failed"}`},
		{name: "wrapped, details no object", details: `"wrapped"`, text: wrapped, want: "{\n  \"status\": \"completed\",\n  \"value\": 1\n}"},
		{name: "end marker of another id", text: strings.Replace(wrapped, "END_EXTERNAL_UNTRUSTED_CONTENT id=\"0123456789abcdef\"", "END_EXTERNAL_UNTRUSTED_CONTENT id=\"ffffffffffffffff\"", 1)},
		{name: "content is no JSON", text: strings.Replace(wrapped, "\"value\": 1", "\"value\": 1 [truncated]", 1)},
		{name: "plain text", text: "not wrapped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var details json.RawMessage
			if tt.details != "" {
				details = json.RawMessage(tt.details)
			}
			if got := string(outcomeDetails(details, tt.text)); got != tt.want {
				t.Errorf("outcomeDetails = %q, want %q", got, tt.want)
			}
		})
	}
}
