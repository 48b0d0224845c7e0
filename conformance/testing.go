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
	rep, err := Run(context.Background(), Options{Target: target, Make: mk, Tags: tags, Progress: testWriter{t}})
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	t.Logf("seed %d; %s", rep.Seed, rep.Summary())
	if !rep.OK() {
		t.Errorf("conformance against %s:\n%s", target, rep.Failures())
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
