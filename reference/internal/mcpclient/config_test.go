package mcpclient

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseServers(t *testing.T) {
	tests := []struct {
		name      string
		servers   string
		want      map[string]ServerConfig
		wantNames []string
		reason    string
	}{
		{
			name: "all transports in config order",
			servers: `{
				"zeta": {"command": "node", "args": ["server.js", "--stdio"], "env": {"TOKEN": "t"}, "cwd": "/srv"},
				"alpha": {"url": "https://example.test/mcp", "headers": {"Authorization": "Bearer x"}},
				"mid": {"url": "https://example.test/sse", "transport": "sse", "timeoutMs": 5000}
			}`,
			want: map[string]ServerConfig{
				"zeta": {Command: "node", Args: []string{"server.js", "--stdio"}, Env: map[string]string{"TOKEN": "t"},
					Cwd: "/srv", TimeoutMs: 60000},
				"alpha": {URL: "https://example.test/mcp", Headers: map[string]string{"Authorization": "Bearer x"}, TimeoutMs: 60000},
				"mid":   {URL: "https://example.test/sse", Transport: "sse", TimeoutMs: 5000},
			},
			wantNames: []string{"zeta", "alpha", "mid"},
			reason:    "names keep configuration order, not sorted order",
		},
		{
			name:    "no servers",
			servers: ``,
			want:    map[string]ServerConfig{},
		},
		{
			name:    "servers not an object",
			servers: `["a"]`,
			want:    map[string]ServerConfig{},
		},
		{
			name:    "servers null",
			servers: `null`,
			want:    map[string]ServerConfig{},
		},
		{
			name: "unusable entries are left out",
			servers: `{
				"null": null, "num": 3, "empty": {}, "badcmd": {"command": 7}, "ok": {"command": "x"}
			}`,
			want:      map[string]ServerConfig{"ok": {Command: "x", TimeoutMs: 60000}},
			wantNames: []string{"ok"},
		},
		{
			name: "wrongly typed members are ignored",
			servers: `{"s": {"command": "x", "args": ["a", 1, null, "b"], "env": {"A": "1", "B": 2},
				"cwd": 5, "headers": "h", "transport": 1}}`,
			want: map[string]ServerConfig{"s": {Command: "x", Args: []string{"a", "b"},
				Env: map[string]string{"A": "1"}, TimeoutMs: 60000}},
			wantNames: []string{"s"},
		},
		{
			name:      "duplicate names: last wins, first position kept",
			servers:   `{"a": {"command": "one"}, "b": {"command": "b"}, "a": {"command": "two"}}`,
			want:      map[string]ServerConfig{"a": {Command: "two", TimeoutMs: 60000}, "b": {Command: "b", TimeoutMs: 60000}},
			wantNames: []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var servers json.RawMessage
			if tt.servers != "" {
				servers = json.RawMessage(tt.servers)
			}
			got, names := ParseServers(servers)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseServers() servers mismatch (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
			if diff := cmp.Diff(tt.wantNames, names); diff != "" {
				t.Errorf("ParseServers() names mismatch (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
		})
	}
}

func TestParseServers_timeoutMs(t *testing.T) {
	tests := []struct {
		value  string
		want   int
		reason string
	}{
		{`200`, 200, "in range"},
		{`50`, 100, "clamped to the minimum"},
		{`999999`, 600000, "clamped to the maximum"},
		{`0.5`, 60000, "a fraction is not a positive integer: default, not clamped"},
		{`"5000"`, 60000, "a string is not a number"},
		{`5000.0`, 5000, "5000.0 is the integer 5000"},
		{`1e3`, 1000, "exponent notation is still an integer"},
		{`0`, 60000, "zero is not positive"},
		{`-5`, 60000, "negative"},
		{`null`, 60000, "null"},
		{`true`, 60000, "boolean"},
		{`1e999`, 60000, "not representable"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, _ := ParseServers(json.RawMessage(`{"s":{"url":"http://x","timeoutMs":` + tt.value + `}}`))
			if got["s"].TimeoutMs != tt.want {
				t.Errorf("timeoutMs %s resolves to %d, want %d (%s)", tt.value, got["s"].TimeoutMs, tt.want, tt.reason)
			}
		})
	}
}

func TestServerConfig_Timeout(t *testing.T) {
	tests := []struct {
		ms   int
		want time.Duration
	}{
		{0, 60 * time.Second},
		{-1, 60 * time.Second},
		{200, 200 * time.Millisecond},
		{600_000, 600 * time.Second},
	}
	for _, tt := range tests {
		if got := (ServerConfig{TimeoutMs: tt.ms}).Timeout(); got != tt.want {
			t.Errorf("ServerConfig{TimeoutMs: %d}.Timeout() = %v, want %v", tt.ms, got, tt.want)
		}
	}
}
