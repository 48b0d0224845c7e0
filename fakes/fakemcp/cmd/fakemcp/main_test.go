package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	def := filepath.Join(t.TempDir(), "server.json")
	if err := os.WriteFile(def, []byte(`{"name": "cli", "tools": [{"name": "ping", "behavior": {"text": "pong"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}` + "\n"
	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{name: "usage", wantCode: 2, wantStderr: "usage: fakemcp <definition.json>"},
		{name: "missing file", args: []string{filepath.Join(t.TempDir(), "none.json")}, wantCode: 1, wantStderr: "fakemcp: fakemcp: open"},
		{name: "serves", args: []string{def}, stdin: call, wantStdout: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"pong"}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("run() = %d, want %d (stderr %q)", code, tt.wantCode, stderr.String())
			}
			if got := strings.TrimSpace(stdout.String()); got != tt.wantStdout {
				t.Errorf("stdout = %q, want %q", got, tt.wantStdout)
			}
			if !strings.HasPrefix(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr = %q, want prefix %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}
