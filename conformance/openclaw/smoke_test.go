package openclaw

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/codemodekit/kit/conformance"
)

// TestSmoke runs one scenario against the real OpenClaw. It needs
// CODEMODEKIT_OPENCLAW=1 and an install (scripts/openclaw-install.sh; the
// directory is $CODEMODEKIT_OPENCLAW_CACHE or the default cache), and
// re-runs itself in a loopback-only network namespace (unshare -n).
func TestSmoke(t *testing.T) {
	if os.Getenv("CODEMODEKIT_OPENCLAW") != "1" {
		t.Skip("set CODEMODEKIT_OPENCLAW=1 to run the suite against the installed OpenClaw")
	}
	if LoopbackOnly() != nil {
		if os.Getenv("CODEMODEKIT_OPENCLAW_NETNS") != "" {
			t.Fatal(LoopbackOnly())
		}
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := LoopbackCommand(exe, "-test.run=^TestSmoke$", "-test.v")
		cmd.Env = append(os.Environ(), "CODEMODEKIT_OPENCLAW_NETNS=1")
		out, err := cmd.CombinedOutput()
		t.Logf("in a loopback-only network namespace:\n%s", out)
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	install := os.Getenv("CODEMODEKIT_OPENCLAW_CACHE")
	if install == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		install = filepath.Join(cache, "codemodekit", "openclaw", "2026.8.1-beta.1")
	}
	r, err := NewRunner(Options{Install: install, Plugin: filepath.Join("..", "..", "fixtures", "openclaw", "plugin"), Log: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	}()
	rep, err := conformance.Run(context.Background(), conformance.Options{
		Target: "openclaw-smoke", Make: r.MakeTarget(), Tags: "~@wip", Seed: 1, Concurrency: 1,
		// The exec schema OpenClaw 2026.8.1-beta.1 sends is exactly SPEC.md's.
		Paths: []string{"04-model-visible-tools.feature:98"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Counts()[conformance.StatusPassed]; got != 1 {
		t.Errorf("%s\n%s", rep.Summary(), rep.Failures())
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(string(b))
	return len(b), nil
}
