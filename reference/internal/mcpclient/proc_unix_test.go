//go:build unix

package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSession_Close_killsProcessGroup starts the fake through a shell that
// leaves a background grandchild behind, and checks that Close kills the
// whole process group, grandchild included.
func TestSession_Close_killsProcessGroup(t *testing.T) {
	sh, err := os.Stat("/bin/sh")
	if err != nil || sh.IsDir() {
		t.Skip("no /bin/sh")
	}
	cfg := serve(t, docs, nil, stdio, 0)
	exe := cfg.Command
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	cfg.Command = "/bin/sh"
	cfg.Args = []string{"-c", `sleep 300 & echo $! > "$1"; exec "$0"`, exe, pidFile}

	s := mustConnect(t, "group", cfg)
	if _, err := s.CallTool(context.Background(), "greet", nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	grandchild, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	leader := s.cmd.Process.Pid
	if pgid, err := syscall.Getpgid(leader); err != nil || pgid != leader {
		t.Errorf("Getpgid(server) = %d, %v; want its own group %d", pgid, err, leader)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.cmd.ProcessState == nil {
		t.Error("Close() returned before the server process was waited for")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := syscall.Kill(grandchild, 0)
		if errors.Is(err, syscall.ESRCH) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d still exists after Close (kill 0: %v)", grandchild, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// refusedURL returns a loopback URL whose port is bound but not listening,
// so connections are refused, and stays so until t ends.
func refusedURL(t *testing.T, path string) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d%s", sa.(*syscall.SockaddrInet4).Port, path)
}

func TestConnect_refused(t *testing.T) {
	for _, cfg := range []ServerConfig{
		{URL: refusedURL(t, "/mcp"), TimeoutMs: 2000},
		{URL: refusedURL(t, "/sse"), Transport: TransportSSE, TimeoutMs: 2000},
	} {
		_, err := Connect(context.Background(), "x", cfg)
		if want := "MCP server x closed the connection."; err == nil || err.Error() != want {
			t.Errorf("Connect(%s, transport %q) error = %v, want %q", cfg.URL, cfg.Transport, err, want)
		}
	}
}
