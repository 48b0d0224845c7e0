package codemodetest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/conformance/gateway"
	"github.com/codemodekit/kit/conformance/wire"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// The suites over the wire run without the race detector, and skip under
// it: scripts/test.sh runs them in a go test of their own beside the race
// run of the rest. The race detector instruments the test process only:
// the gateway and the driver are processes of their own, built without it,
// and the runner and fakes they exercise are the in-process suite's, which
// runs under it. What it would add here is the cost: three times the CPU of
// a suite that otherwise waits on processes most of its time.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("runs without -race (scripts/test.sh runs it so): the gateway and driver are processes of their own, and the in-process suite runs the runner under the race detector")
	}
}

// TestConformanceGateway runs the whole suite over the wire through the
// reference gateway (cmd/codemode-gateway, one process per scenario,
// driven by conformance/gateway), with guests in worker processes.
// Expected failures are listed in conformance/baselines/reference-gateway.txt.
// Every scenario must end as it does in process: passed, or excused by that
// baseline, never not applicable nor left out.
func TestConformanceGateway(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	requireRuntime(t)
	bin := filepath.Join(t.TempDir(), "codemode-gateway")
	// Built in its own module, whose go.sum has what the gateway alone
	// links (the NATS client of its cluster mode).
	build := exec.Command("go", "build", "-o", bin, "./cmd/codemode-gateway")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mk := gateway.MakeTarget(gateway.Options{Command: []string{bin, "-config", gateway.ConfigPlaceholder},
		Fixtures: codemodetest.RealMCPFixtures})
	// One gateway process per scenario: two at a time.
	wired := conformance.TestTargetWith(t, conformance.Options{Target: "reference-gateway", Make: mk, Tags: "~@wip", Concurrency: 2})
	ix, err := conformance.DefaultIndex()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, sc := range ix.Scenarios {
		// One gateway does not claim the cluster profile (its baseline).
		if !slices.Contains(sc.Tags, "@wip") && !slices.Contains(sc.Tags, "@"+wire.ProfileCluster) {
			want[scenarioKey(sc.Feature, sc.Line, sc.Name)] = conformance.StatusPassed
		}
	}
	if diff := cmp.Diff(want, outcomes(wired, true)); diff != "" {
		t.Errorf("over the wire, scenarios do not end as in process (-in process +gateway):\n%s", diff)
	}
}

// TestConformanceCluster runs the cluster profile (SPEC.md section 8.5)
// through three replicas of the reference gateway on a three-server NATS
// JetStream cluster, each replica on its own server, three times over: a
// wait on another replica, a holder killed by its PID, and one wait raced
// on three replicas. conform --target gateway --gateway-replicas 3 runs the
// whole suite the same way.
func TestConformanceCluster(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	requireRuntime(t)
	dir := t.TempDir()
	bin, nats := filepath.Join(dir, "codemode-gateway"), filepath.Join(dir, "nats-server")
	for _, b := range []struct {
		out, pkg string
		env      []string
	}{
		{bin, "./cmd/codemode-gateway", nil},
		// The server of the version the reference module pins.
		{nats, "github.com/nats-io/nats-server/v2", []string{"GOWORK=off"}},
	} {
		build := exec.Command("go", "build", "-o", b.out, b.pkg)
		build.Dir, build.Env = "..", append(os.Environ(), b.env...)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	mk := gateway.MakeTarget(gateway.Options{
		Command: []string{bin, "-config", gateway.ConfigPlaceholder, "-cluster", gateway.NATSPlaceholder, "-cluster-key", gateway.KeyPlaceholder,
			"-cluster-name", gateway.ReplicaPlaceholder, "-cluster-stream-replicas", "3"},
		Replicas: 3, NATSServer: nats, NATSServers: 3,
	})
	rep := conformance.TestTargetWith(t, conformance.Options{Target: "reference-gateway-cluster", Make: mk, Tags: "@" + wire.ProfileCluster, Repeat: 3})
	for _, r := range rep.Results {
		if r.Status != conformance.StatusPassed || r.Runs != 3 {
			t.Errorf("%s:%d %s: %s after %d runs, want passed after 3", r.Feature, r.Line, r.Name, r.Status, r.Runs)
		}
	}
	if len(rep.Results) == 0 {
		t.Error("no scenario of the cluster profile ran")
	}
}

// TestConformanceDriver builds codemode and runs the whole suite against
// `codemode serve-driver` through conformance/driver: one process per
// scenario, the fake host reached over the protocol. Expected failures are
// listed in conformance/baselines/reference-driver.txt. The driver runs its
// guests in process (--isolation in-process): this run checks the
// protocol's path, and TestConformance checks both isolations through the
// Go API; a worker pool started per scenario process would only make the
// run longer.
func TestConformanceDriver(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	requireRuntime(t)
	bin := buildCodemode(t)
	d := driver.New([]string{bin, "serve-driver", "--isolation", "in-process"}, driver.WithMCPFixtures(codemodetest.RealMCPFixtures))
	// One process per scenario: two at a time.
	conformance.TestTargetWith(t, conformance.Options{Target: "reference-driver", Make: d.MakeTarget, Tags: "~@wip && ~@CM-17.15", Concurrency: 2})
}

// buildCodemode builds the codemode command, without the race detector
// whatever this test binary was built with, and returns its path.
func buildCodemode(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "codemode")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/codemodekit/kit/reference/cmd/codemode").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
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
