package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// The debug switches of SPEC.md chapter 21. The runtime reads
// OPENCLAW_DEBUG_CODE_MODE itself, from the environment the gateway gives
// it; the gateway reads the model-side ones.
const (
	envDebugCodeMode       = "OPENCLAW_DEBUG_CODE_MODE"
	envDebugModelTransport = "OPENCLAW_DEBUG_MODEL_TRANSPORT"
	envDebugModelPayload   = "OPENCLAW_DEBUG_MODEL_PAYLOAD"
	envDebugSSE            = "OPENCLAW_DEBUG_SSE"
)

// Bounds of the debug log (SPEC.md CM-21.5, CM-21.6).
const (
	maxPayloadSnapshot = 65536
	maxPeekEvent       = 512
	peekEvents         = 5
	maxGatewayLog      = 1 << 20
)

// transportLog writes the model-side debug lines of SPEC.md chapter 21:
// transport (OPENCLAW_DEBUG_MODEL_TRANSPORT), payload
// (OPENCLAW_DEBUG_MODEL_PAYLOAD) and SSE (OPENCLAW_DEBUG_SSE). The
// code-mode lifecycle lines are the runtime's own. Every line is redacted.
type transportLog struct {
	transportOn bool
	payloadMode string // "", "tools" or "full-redacted"
	sseMode     string // "", "events" or "peek"

	mu      sync.Mutex
	out     io.Writer
	buf     strings.Builder
	secrets []string
}

func newTransportLog(getenv func(string) string, out io.Writer) *transportLog {
	l := &transportLog{out: out, transportOn: getenv(envDebugModelTransport) == "1"}
	if p := getenv(envDebugModelPayload); p == "tools" || p == "full-redacted" {
		l.payloadMode = p
	}
	if s := getenv(envDebugSSE); s == "events" || s == "peek" {
		l.sseMode = s
	}
	return l
}

// setSecrets replaces the configured secrets redaction removes.
func (l *transportLog) setSecrets(secrets []string) {
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	l.mu.Lock()
	l.secrets = secrets
	l.mu.Unlock()
}

func (l *transportLog) line(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := redact(fmt.Sprintf(format, args...), l.secrets) + "\n"
	if l.buf.Len()+len(s) <= maxGatewayLog {
		l.buf.WriteString(s)
	}
	if l.out != nil {
		_, _ = io.WriteString(l.out, s)
	}
}

func (l *transportLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// transport logs one model request and its answer's status (CM-21.3).
func (l *transportLog) transport(req *http.Request, status int, d time.Duration, err error) {
	if l == nil || !l.transportOn {
		return
	}
	if err != nil {
		l.line("model transport %s %s error after %dms: %v", req.Method, req.URL.Path, d.Milliseconds(), err)
		return
	}
	l.line("model transport %s %s status %d in %dms, request %d bytes", req.Method, req.URL.Path, status, d.Milliseconds(), req.ContentLength)
}

// payload logs a model request's tools or its redacted snapshot
// (CM-21.4, CM-21.5).
func (l *transportLog) payload(tools []toolDef, body []byte) {
	if l == nil {
		return
	}
	switch l.payloadMode {
	case "tools":
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		l.line("model payload tools: %s", strings.Join(names, ", "))
	case "full-redacted":
		s := string(redactJSON(body))
		if len(s) > maxPayloadSnapshot {
			s = s[:maxPayloadSnapshot] + "[truncated]"
		}
		l.line("model payload: %s", s)
	}
}

// sse logs server-sent event n (from 0) of a response (CM-21.6).
func (l *transportLog) sse(n int, event, data string) {
	if l == nil || l.sseMode == "" || (l.sseMode == "peek" && n >= peekEvents) {
		return
	}
	if event == "" {
		var ev struct {
			Type string `json:"type"`
		}
		if json.Unmarshal([]byte(data), &ev) == nil {
			event = ev.Type
		}
	}
	if l.sseMode == "events" {
		l.line("model sse event %s", event)
		return
	}
	s := string(redactJSON([]byte(data)))
	if len(s) > maxPeekEvent {
		s = s[:maxPeekEvent] + "[truncated]"
	}
	l.line("model sse peek %s %s", event, s)
}

// credentialKeys are the JSON members whose values are always redacted.
var credentialKeys = []string{"apikey", "api_key", "authorization", "token", "secret", "password", "cookie", "x-api-key"}

func isCredentialKey(k string) bool {
	k = strings.ToLower(k)
	for _, c := range credentialKeys {
		if strings.Contains(k, c) {
			return true
		}
	}
	return false
}

// redactJSON replaces the values of credential members of a JSON
// document with "[redacted]"; text that is not JSON is returned as is.
func redactJSON(b []byte) []byte {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	out, err := json.Marshal(redactValue(v))
	if err != nil {
		return b
	}
	return out
}

func redactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if isCredentialKey(k) {
				x[k] = "[redacted]"
				continue
			}
			x[k] = redactValue(e)
		}
	case []any:
		for i, e := range x {
			x[i] = redactValue(e)
		}
	}
	return v
}

// redact replaces every configured secret in s.
func redact(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}

// configSecrets collects the string values of credential members of a
// configuration document, and the credentials inside "Bearer x" values.
func configSecrets(cfg map[string]any) []string {
	var out []string
	var walk func(v any, cred bool)
	walk = func(v any, cred bool) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, cred || isCredentialKey(k))
			}
		case []any:
			for _, e := range x {
				walk(e, cred)
			}
		case string:
			if cred && len(x) >= 4 {
				out = append(out, x)
				if f := strings.Fields(x); len(f) == 2 {
					out = append(out, f[1])
				}
			}
		}
	}
	walk(cfg, false)
	return out
}
