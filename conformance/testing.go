package conformance

import (
	"context"
	"testing"
)

// TestTarget runs the suite against mk and fails t for every unexpected
// result: a failure not in the target's baseline, or a baseline entry that
// passes. Run it under the race detector.
func TestTarget(t *testing.T, target string, mk MakeTarget, tags string) *Report {
	t.Helper()
	return TestTargetWith(t, Options{Target: target, Make: mk, Tags: tags})
}

// TestTargetWith is TestTarget with every option of Run: a target whose
// scenarios each start their own process (a driver, a gateway) can run
// several at a time (Options.Concurrency), since timing-sensitive
// scenarios that fail are retried alone. Progress defaults to t's log
// under -v.
func TestTargetWith(t *testing.T, opts Options) *Report {
	t.Helper()
	if opts.Progress == nil {
		opts.Progress = testWriter{t}
	}
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	t.Logf("seed %d; %s", rep.Seed, rep.Summary())
	if !rep.OK() {
		t.Errorf("conformance against %s:\n%s", opts.Target, rep.Failures())
	}
	return rep
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	if testing.Verbose() {
		w.t.Log(string(p))
	}
	return len(p), nil
}
