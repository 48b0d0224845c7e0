package codemodetest_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// TestConformance runs the whole suite against the reference in process
// through the Go API, with guest code in worker processes (the default
// isolation). Under the race detector those workers are the codemode
// command built without it (codemode.Options.WorkerExecutable): the race
// detector sees only this process, and workers started from this test
// binary would spend instrumentation on the engine's host functions, whose
// races the isolate and engine packages' own tests look for, at half again
// the run's time. It runs it again with guest code in the process itself
// (codemode.InProcess), but for the scenarios of CM-17.15 (a guest inside
// one long built-in call, which only a process can stop at no cost), and
// those with InProcess and the StrictPreemption that lets the watchdog stop
// such a guest. Expected failures are listed in
// conformance/baselines/reference.txt. Then the differential check: every
// scenario ends the same way both ways. -short runs the first only. The
// runs over the wire are in wire_test.go.
func TestConformance(t *testing.T) {
	t.Parallel()
	var local, inproc, strict *conformance.Report
	var workers codemodetest.Options
	if raceDetector {
		workers.WorkerExecutable = buildCodemode(t)
	}
	t.Run("in-process", func(t *testing.T) {
		mk := func() (conformance.Target, error) { return codemodetest.NewTargetWith(workers) }
		local = conformance.TestTarget(t, codemodetest.Name, mk, "~@wip")
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
	if local == nil || inproc == nil || strict == nil {
		t.Fatal("a run did not report")
	}
	inprocAll := outcomes(inproc, false)
	maps.Copy(inprocAll, outcomes(strict, false))
	if diff := cmp.Diff(outcomes(local, false), inprocAll); diff != "" {
		t.Errorf("guests in workers and in the process disagree (-workers +in process):\n%s", diff)
	}
}

// outcomes maps every scenario of a report to how it ended: passed,
// failed or not applicable. With excused, an expected failure counts as
// the pass its baseline entry excuses it from.
func outcomes(rep *conformance.Report, excused bool) map[string]string {
	out := make(map[string]string, len(rep.Results))
	for _, r := range rep.Results {
		key := scenarioKey(r.Feature, r.Line, r.Name)
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

// scenarioKey names a scenario in outcomes.
func scenarioKey(feature string, line int, name string) string {
	return fmt.Sprintf("%s:%d %s", feature, line, name)
}
