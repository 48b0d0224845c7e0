package mcpclient

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/codemodekit/kit/reference/internal/config"
)

// Server timeouts (SPEC.md section 14.1), in milliseconds.
const (
	DefaultTimeoutMs = 60000
	MinTimeoutMs     = 100
	MaxTimeoutMs     = 600000
)

// timeoutMs is a server's timeoutMs member, read with the configuration's
// number rule.
var timeoutMs = config.Field{Name: "timeoutMs", Default: DefaultTimeoutMs, Range: config.Range{Min: MinTimeoutMs, Max: MaxTimeoutMs}}

// Transports a URL server may name in its "transport" member.
const (
	// TransportStreamableHTTP is the default for a server with a URL.
	TransportStreamableHTTP = ""
	// TransportSSE is the HTTP+SSE transport.
	TransportSSE = "sse"
)

// A ServerConfig is one mcp.servers.<name> entry (SPEC.md section 14.1).
// A server with a Command is a stdio server; otherwise URL names a
// streamable HTTP server, or an SSE server when Transport is "sse".
type ServerConfig struct {
	// Command, Args, Env and Cwd start a stdio server. Env is added to a
	// small inherited environment (see [Connect]).
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// URL, Transport and Headers reach an HTTP server. Headers are sent with
	// every HTTP request.
	URL       string
	Transport string
	Headers   map[string]string
	// TimeoutMs bounds every request made for a nested call: tools/call,
	// resources/* and prompts/* (CM-14.3). ParseServers resolves it with
	// the number rule, into range; a value that is not positive (a
	// ServerConfig made in code) means the default.
	TimeoutMs int
	// RequireApproval names the server's MCP tools whose calls wait for the
	// host's approval, as an approval-gated tool's do (CM-16.4, CM-11.22).
	RequireApproval []string
	// SetupTimeoutMs bounds each step of setting the server up: starting
	// the transport, the initialize handshake and each tools/list page.
	// It is not part of the configuration document; 0 means the larger of
	// the request timeout and DefaultSetupTimeoutMs, so that a small
	// timeoutMs does not keep a slowly starting server (a node process,
	// say) out of the catalog.
	SetupTimeoutMs int
}

// DefaultSetupTimeoutMs is the least setup bound when SetupTimeoutMs is 0.
const DefaultSetupTimeoutMs = 30000

// SetupTimeout returns the resolved setup bound of c.
func (c ServerConfig) SetupTimeout() time.Duration {
	if c.SetupTimeoutMs > 0 {
		return time.Duration(c.SetupTimeoutMs) * time.Millisecond
	}
	return max(c.Timeout(), DefaultSetupTimeoutMs*time.Millisecond)
}

// Timeout returns the request timeout of c: TimeoutMs, or the default
// when it is not positive.
func (c ServerConfig) Timeout() time.Duration {
	if c.TimeoutMs <= 0 {
		return DefaultTimeoutMs * time.Millisecond
	}
	return time.Duration(c.TimeoutMs) * time.Millisecond
}

// ParseServers reads the MCP servers of a configuration: the members of
// its mcp.servers object, as config.Resolved.MCPServers holds it. It
// returns the usable servers by name and their names in configuration
// order. Configuration never fails: servers that are absent or not an
// object give no server, and an entry that is not an object, or has
// neither a string command nor a string url, is left out. Members of the
// wrong type are ignored (non-string args and env values are dropped).
// timeoutMs is resolved with the number rule of CM-2.6 and CM-2.7
// (config.Field.Read): default 60000, range 100-600000. When a name
// appears twice, the last entry wins and the name keeps its first
// position.
func ParseServers(servers json.RawMessage) (map[string]ServerConfig, []string) {
	byName := map[string]ServerConfig{}
	var names []string
	keys, values := objectMembers(servers)
	seen := map[string]bool{}
	for i, name := range keys {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
		if cfg, ok := parseServer(values[i]); ok {
			byName[name] = cfg
		} else {
			delete(byName, name)
		}
	}
	kept := names[:0]
	for _, n := range names {
		if _, ok := byName[n]; ok {
			kept = append(kept, n)
		}
	}
	return byName, kept
}

// objectMembers returns the member names and values of a JSON object in
// document order, or nothing when raw is not an object.
func objectMembers(raw json.RawMessage) ([]string, []json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil
	}
	var keys []string
	var values []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil
		}
		keys = append(keys, key)
		values = append(values, v)
	}
	return keys, values
}

func parseServer(raw json.RawMessage) (ServerConfig, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return ServerConfig{}, false
	}
	c := ServerConfig{
		Command:   readString(m["command"]),
		Args:      readStrings(m["args"]),
		Env:       readStringMap(m["env"]),
		Cwd:       readString(m["cwd"]),
		URL:       readString(m["url"]),
		Transport: readString(m["transport"]),
		Headers:   readStringMap(m["headers"]),
		TimeoutMs: timeoutMs.Read(m["timeoutMs"]),

		RequireApproval: readStrings(m["requireApproval"]),
	}
	return c, c.Command != "" || c.URL != ""
}

// readString returns the JSON string raw, or "" when raw is not a string.
func readString(raw json.RawMessage) string {
	s, _ := asString(raw)
	return s
}

func asString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func readStrings(raw json.RawMessage) []string {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []string
	for _, it := range items {
		if s, ok := asString(it); ok {
			out = append(out, s)
		}
	}
	return out
}

func readStringMap(raw json.RawMessage) map[string]string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := asString(v); ok {
			out[k] = s
		}
	}
	return out
}
