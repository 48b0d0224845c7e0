package harness

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	codemode "github.com/codemodekit/kit/reference"
)

func TestFileTranscripts(t *testing.T) {
	dir := t.TempDir()
	recs := []struct {
		key string
		rec codemode.TranscriptRecord
	}{
		{key: "agent:main:main", rec: codemode.TranscriptRecord{Type: "tool_call", ToolCallID: "c1", Name: "exec", Arguments: json.RawMessage(`{"code":"return \"<b>&</b>\""}`), Boot: "a"}},
		{key: "agent:main:main", rec: codemode.TranscriptRecord{Type: "tool_result", ToolCallID: "c1", Name: "exec", Text: "line 1\nline 2", Details: json.RawMessage(`{"n":12345678901234567890}`), Boot: "a"}},
		{key: "agent:main:other/../x", rec: codemode.TranscriptRecord{Type: "tool_call", ToolCallID: "c2", Name: "read", Boot: "a"}},
	}
	first, err := OpenFileTranscripts(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := first.Append(r.key, r.rec); err != nil {
			t.Fatalf("Append(%q): %v", r.key, err)
		}
	}
	// A second store on the same directory is the store after a restart.
	second, err := OpenFileTranscripts(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		want []codemode.TranscriptRecord
	}{
		{key: "agent:main:main", want: []codemode.TranscriptRecord{recs[0].rec, recs[1].rec}},
		{key: "agent:main:other/../x", want: []codemode.TranscriptRecord{recs[2].rec}},
		{key: "never", want: nil},
	}
	for _, tt := range tests {
		got, err := second.Records(tt.key)
		if err != nil {
			t.Fatalf("Records(%q): %v", tt.key, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Records(%q) after a reopen mismatch (-want +got):\n%s", tt.key, diff)
		}
	}
}
