package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestRun_port: -port overrides the configuration's gateway.port, as
// replicas on one machine need (scripts/gateway-cluster.sh).
func TestRun_port(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "gateway.json")
	if err := os.WriteFile(cfg, []byte(`{"gateway": {"port": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-config", cfg, "-port", strconv.Itoa(port), "-isolation", "in-process"}, func(string) string { return "" }, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v (run: %v)", err, <-done)
	}
	if want := "listening on http://127.0.0.1:" + strconv.Itoa(port) + "\n"; line != want {
		t.Errorf("run printed %q, want %q", line, want)
	}
	go io.Copy(io.Discard, out)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
