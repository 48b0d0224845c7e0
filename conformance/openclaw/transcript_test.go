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
