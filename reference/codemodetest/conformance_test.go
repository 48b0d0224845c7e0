package codemodetest_test

import (
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/gateway"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// TestConformance runs the whole suite against the reference in process
// through the Go API, with guest code in worker processes (the default
// isolation), and over the wire through the reference gateway
// (cmd/codemode-gateway, one process per scenario, driven by
// conformance/gateway). It runs it again with guest code in the process
// itself (codemode.InProcess), but for the scenarios of CM-17.15 (a guest
// inside one long built-in call, which only a process can stop at no cost),
// and those with InProcess and the StrictPreemption that lets the watchdog
// stop such a guest. Expected failures are listed in
// conformance/baselines/reference.txt and reference-gateway.txt. Then the
// differential checks: every scenario ends the same way every way, but for
// those the gateway baseline excuses. -short runs the first only. It runs
// beside TestConformanceDriver, as the two suites share nothing but the
// machine.
func TestConformance(t *testing.T) {
	t.Parallel()
	var local, inproc, strict, wired *conformance.Report
	t.Run("in-process", func(t *testing.T) {
		local = conformance.TestTarget(t, codemodetest.Name, codemodetest.NewTarget, "~@wip")
	})
	if testing.Short() {
		return
	}
	t.Run("in-process-isolation", func(t *testing.T) {
		mk := func() (conformance.Target, error) {
			return codemodetest.NewTargetWith(codemodetest.Options{Isolation: codemode.InProcess})
		}
		inproc = conformance.TestTarget(t, codemodetest.Name, mk, "~@wip && ~@CM-17.15")
	})
	t.Run("in-process-isolation-strict", func(t *testing.T) {
		mk := func() (conformance.Target, error) {
			return codemodetest.NewTargetWith(codemodetest.Options{Isolation: codemode.InProcess, StrictPreemption: true})
		}
		strict = conformance.TestTarget(t, codemodetest.Name, mk, "~@wip && @CM-17.15")
	})
	t.Run("gateway", func(t *testing.T) {
		bin := filepath.Join(t.TempDir(), "codemode-gateway")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/codemodekit/kit/reference/cmd/codemode-gateway").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		mk := gateway.MakeTarget(gateway.Options{Command: []string{bin, "-config", gateway.ConfigPlaceholder},
			Fixtures: codemodetest.RealMCPFixtures})
		// One gateway process per scenario: two at a time.
		wired = conformance.TestTargetWith(t, conformance.Options{Target: "reference-gateway", Make: mk, Tags: "~@wip", Concurrency: 2})
	})
	if local == nil || inproc == nil || strict == nil || wired == nil {
		t.Fatal("a run did not report")
	}
	inprocAll := outcomes(inproc, false)
	maps.Copy(inprocAll, outcomes(strict, false))
	if diff := cmp.Diff(outcomes(local, false), inprocAll); diff != "" {
		t.Errorf("guests in workers and in the process disagree (-workers +in process):\n%s", diff)
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
