package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// TestConformanceDriver builds codemode and runs the whole suite against
// `codemode serve-driver` through conformance/driver: one process per
// scenario, the fake host reached over the protocol. Expected failures are
// listed in conformance/baselines/reference-driver.txt. The driver runs its
// guests in process (--isolation in-process): this run checks the
// protocol's path, and the root package's TestConformance checks both
// isolations through the Go API; a worker pool started per scenario
// process would only make the run longer.
func TestConformanceDriver(t *testing.T) {
	requireRuntime(t)
	bin := filepath.Join(t.TempDir(), "codemode")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	d := driver.New([]string{bin, "serve-driver", "--isolation", "in-process"}, driver.WithMCPFixtures(codemodetest.RealMCPFixtures))
	conformance.TestTarget(t, "reference-driver", d.MakeTarget, "~@wip && ~@CM-17.15")
}

// TestServeDriverDeps checks that serving the protocol does not link the
// suite: the codemode command must not carry godog, the features or a
// `go env` call at start-up (godog's init).
func TestServeDriverDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/codemodekit/kit/conformance" || strings.HasPrefix(pkg, "github.com/cucumber/") ||
			pkg == "github.com/codemodekit/kit/features" || pkg == "github.com/codemodekit/kit/conformance/driver" {
			t.Errorf("codemode imports %s", pkg)
		}
	}
}
