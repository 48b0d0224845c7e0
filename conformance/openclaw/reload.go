package openclaw

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// hotSections are the top-level sections of an OpenClaw configuration
// whose changes a running gateway takes without a restart, in every
// supported release: their reload rules are "hot" or dynamic reads (the
// gateway's reload plan, gateway.reload.mode "hybrid", the default). A
// change anywhere else (gateway, discovery, plugins, the environment)
// takes a new gateway.
var hotSections = []string{"tools", "mcp", "agents", "session", "messages", "skills"}

// reloadTimeout bounds the wait for OpenClaw to report a configuration
// change applied; past it the gateway is replaced.
const reloadTimeout = 20 * time.Second

// Log lines of OpenClaw's configuration reloader (gateway.out).
var (
	reloadApplied = [][]byte{[]byte("[reload] config hot reload applied"), []byte("[reload] config change applied")}
	reloadRefused = [][]byte{[]byte("config change requires gateway restart"), []byte("[reload] config reload skipped by writer intent"),
		[]byte("[reload] config reload disabled")}
)

// coldKey identifies what a gateway cannot change without a restart: the
// configuration without its hot sections, the environment and the
// manifests' replay-safe tools. Two configurations with the same cold key
// differ only where OpenClaw reloads.
func (c gatewayConfig) coldKey() string {
	doc := make(map[string]any, len(c.doc))
	for k, v := range c.doc {
		doc[k] = v
	}
	for _, k := range hotSections {
		delete(doc, k)
	}
	return c.keyOf(doc)
}

// reload writes conf as g's configuration and waits until OpenClaw reports
// it applied. An error means the gateway did not take it (it asked for a
// restart, or said nothing in time): the caller replaces it.
func (g *gateway) reload(conf []byte) error {
	logPath := filepath.Join(g.dir, "logs", "gateway.out")
	st, err := os.Stat(logPath)
	if err != nil {
		return err
	}
	from := st.Size()
	if err := os.WriteFile(filepath.Join(g.dir, "openclaw.json"), conf, 0o600); err != nil {
		return err
	}
	deadline := time.Now().Add(reloadTimeout)
	for {
		out, err := readFrom(logPath, from)
		if err != nil {
			return err
		}
		switch {
		case containsAny(out, reloadApplied):
			return nil
		case containsAny(out, reloadRefused):
			return fmt.Errorf("openclaw gateway (pid %d) did not reload its configuration: %s", g.cmd.Process.Pid, lastLine(out))
		case g.alive() != nil:
			return g.alive()
		case time.Now().After(deadline):
			return fmt.Errorf("openclaw gateway (pid %d) reported no configuration reload within %s", g.cmd.Process.Pid, reloadTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readFrom returns the file at path from offset on.
func readFrom(path string, offset int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

func containsAny(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// lastLine returns the last non-empty line of b.
func lastLine(b []byte) string {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return string(lines[len(lines)-1])
}
