package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/fakemcp"
)

// Stdio servers are this test binary re-executed (the go-sdk fork-exec
// trick): with envServe set, TestMain serves the fakemcp definition file it
// names over stdin and stdout instead of running tests.
const (
	envServe  = "MCPCLIENT_TEST_FAKEMCP"
	envStderr = "MCPCLIENT_TEST_STDERR_BYTES"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(envServe); path != "" {
		if n := os.Getenv(envStderr); n != "" {
			var size int
			_, _ = fmt.Sscan(n, &size)
			_, _ = os.Stderr.WriteString(strings.Repeat("x", size))
		}
		if err := fakemcp.ServeFile(context.Background(), path, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Transports of the tests.
const (
	streamable = "streamable-http"
	sse        = "sse"
	stdio      = "stdio"
)

var kinds = []string{streamable, sse, stdio}

// serve serves def over kind and returns the configuration that reaches it.
// HTTP servers run in process with host; a stdio server runs in a child
// process, in its own temporary directory, with its own host.
func serve(t *testing.T, def fakemcp.Definition, host wire.ToolHost, kind string, timeoutMs int) ServerConfig {
	t.Helper()
	switch kind {
	case stdio:
		dir := t.TempDir()
		b, err := json.Marshal(def)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "server.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		// The relative path checks that Cwd applies, and Env that the
		// configured environment reaches the process.
		return ServerConfig{Command: exe, Env: map[string]string{envServe: "server.json"}, Cwd: dir, TimeoutMs: timeoutMs}
	case sse:
		s := fakemcp.NewDefinitionServer(t, def, host, fakemcp.SSE)
		return ServerConfig{URL: s.URL(), Transport: TransportSSE, TimeoutMs: timeoutMs}
	default:
		s := fakemcp.NewDefinitionServer(t, def, host, fakemcp.StreamableHTTP)
		return ServerConfig{URL: s.URL(), TimeoutMs: timeoutMs}
	}
}

// mustConnect connects to cfg as name and closes the session when t ends.
func mustConnect(t *testing.T, name string, cfg ServerConfig) *Session {
	t.Helper()
	s, err := Connect(context.Background(), name, cfg)
	if err != nil {
		t.Fatalf("Connect(%q) = %v", name, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}
