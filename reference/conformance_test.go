package codemode_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	wire "github.com/codemodekit/kit/conformance/gateway"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// TestConformance runs the whole suite against the reference twice: in
// process, and over the wire through the reference gateway
// (cmd/codemode-gateway, one process per scenario, driven by
// conformance/gateway). Expected failures are listed in
// conformance/baselines/reference.txt and reference-gateway.txt. Then the
// differential check: every scenario ends the same way both ways, but for
// those the gateway baseline excuses. -short runs in process only.
func TestConformance(t *testing.T) {
	var local, wired *conformance.Report
	t.Run("in-process", func(t *testing.T) {
		local = conformance.TestTarget(t, codemodetest.Name, codemodetest.NewTarget, "~@wip")
	})
	if testing.Short() {
		return
	}
	t.Run("gateway", func(t *testing.T) {
		bin := filepath.Join(t.TempDir(), "codemode-gateway")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/codemode-gateway").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		mk := wire.MakeTarget(wire.Options{Command: []string{bin, "-config", wire.ConfigPlaceholder},
			Fixtures: codemodetest.RealMCPFixtures})
		wired = conformance.TestTarget(t, "reference-gateway", mk, "~@wip")
	})
	if local == nil || wired == nil {
		t.Fatal("a run did not report")
	}
	if diff := cmp.Diff(outcomes(local, false), outcomes(wired, true)); diff != "" {
		t.Errorf("in process and over the wire disagree (-in process +gateway):\n%s", diff)
	}
}

// outcomes maps every scenario of a report to how it ended: passed,
// failed or not applicable. With excused, an expected failure counts as
// the pass its baseline entry excuses it from.
func outcomes(rep *conformance.Report, excused bool) map[string]string {
	out := make(map[string]string, len(rep.Results))
	for _, r := range rep.Results {
		key := fmt.Sprintf("%s:%d %s", r.Feature, r.Line, r.Name)
		switch {
		case r.Status == conformance.StatusExpectedFail && excused:
			out[key] = conformance.StatusPassed
		case r.Status == conformance.StatusExpectedFail:
			out[key] = conformance.StatusFailed
		default:
			out[key] = r.Status
		}
	}
	return out
}
