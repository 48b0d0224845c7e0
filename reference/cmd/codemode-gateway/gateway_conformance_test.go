package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	wire "github.com/codemodekit/kit/conformance/gateway"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// buildGateway builds this command into a temporary directory.
func buildGateway(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "codemode-gateway")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestConformanceGateway runs the whole suite over the wire: one gateway
// process per scenario, configured by conformance/gateway to talk to the
// suite's fake model and tool host. Expected failures are listed in
// conformance/baselines/reference-gateway.txt. CONFORMANCE_TAGS narrows
// the run (a godog tag expression) when set.
func TestConformanceGateway(t *testing.T) {
	requireRuntime(t)
	bin := buildGateway(t)
	tags := "~@wip"
	if v := os.Getenv("CONFORMANCE_TAGS"); v != "" {
		tags = v
	}
	mk := wire.MakeTarget(wire.Options{Command: []string{bin, "-config", wire.ConfigPlaceholder},
		Fixtures: codemodetest.RealMCPFixtures})
	wired := conformance.TestTarget(t, "reference-gateway", mk, tags)

	// The differential check: in process and over the wire, every scenario
	// ends the same, but for those the gateway baseline lists.
	local := conformance.TestTarget(t, codemodetest.Name, codemodetest.NewTarget, tags)
	if diff := cmp.Diff(outcomes(local, false), outcomes(wired, true)); diff != "" {
		t.Errorf("in process and over the wire disagree (-in process +gateway):\n%s", diff)
	}
}

// outcomes maps every scenario of a report to how it ended: passed,
// failed or not applicable. With baselined, an expected failure counts as
// the pass it is excused from being.
func outcomes(rep *conformance.Report, baselined bool) map[string]string {
	out := make(map[string]string, len(rep.Results))
	for _, r := range rep.Results {
		key := fmt.Sprintf("%s:%d %s", r.Feature, r.Line, r.Name)
		switch {
		case r.Status == conformance.StatusExpectedFail && baselined:
			out[key] = conformance.StatusPassed
		case r.Status == conformance.StatusExpectedFail:
			out[key] = conformance.StatusFailed
		default:
			out[key] = r.Status
		}
	}
	return out
}

// TestGatewayDeps checks that the gateway does not link the suite.
func TestGatewayDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/codemodekit/kit/conformance" || strings.HasPrefix(pkg, "github.com/cucumber/") ||
			pkg == "github.com/codemodekit/kit/features" || pkg == "github.com/codemodekit/kit/conformance/driver" ||
			pkg == "github.com/codemodekit/kit/conformance/gateway" || pkg == "github.com/codemodekit/kit/fakes/fakemodel" {
			t.Errorf("codemode-gateway imports %s", pkg)
		}
	}
}

func requireRuntime(t *testing.T) {
	t.Helper()
	rt := codemode.New(context.Background(), codemode.Options{})
	defer rt.Close()
	if err := rt.Available(); err != nil {
		t.Fatalf("runtime unavailable (run `npm ci` in reference/): %v", err)
	}
}
