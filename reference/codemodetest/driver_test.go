package codemodetest_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// TestConformanceDriver builds codemode and runs the whole suite against
// `codemode serve-driver` through conformance/driver: one process per
// scenario, the fake host reached over the protocol. Expected failures are
// listed in conformance/baselines/reference-driver.txt. The driver runs its
// guests in process (--isolation in-process): this run checks the
// protocol's path, and TestConformance checks both
// isolations through the Go API; a worker pool started per scenario
// process would only make the run longer.
func TestConformanceDriver(t *testing.T) {
	t.Parallel()
	requireRuntime(t)
	bin := filepath.Join(t.TempDir(), "codemode")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/codemodekit/kit/reference/cmd/codemode").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	d := driver.New([]string{bin, "serve-driver", "--isolation", "in-process"}, driver.WithMCPFixtures(codemodetest.RealMCPFixtures))
	// One process per scenario: two at a time.
	conformance.TestTargetWith(t, conformance.Options{Target: "reference-driver", Make: d.MakeTarget, Tags: "~@wip && ~@CM-17.15", Concurrency: 2})
}

// requireRuntime fails t when the runtime cannot run guests.
func requireRuntime(t testing.TB) {
	t.Helper()
	rt := codemode.New(context.Background(), codemode.Options{})
	defer rt.Close()
	if err := rt.Available(); err != nil {
		t.Fatalf("runtime unavailable: %v", err)
	}
}
