package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/codemodekit/kit/conformance/openclaw"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/reference/codemodetest"
	"github.com/codemodekit/kit/tools/internal/repo"
)

// openclawTarget is the --target value of the published OpenClaw gateway.
const openclawTarget = "openclaw"

// defaultOpenClawVersion is the release closest to the seed (SPEC.md
// Appendix A: the reference release of Era B).
const defaultOpenClawVersion = "2026.8.1-beta.1"

// netnsEnv marks a conform re-executed inside its own network namespace.
const netnsEnv = "CODEMODEKIT_OPENCLAW_NETNS"

// openclawInstall returns the install directory of version, installing
// it first (openclaw.Install) when it is missing, except inside the
// network namespace, which has no registry.
func openclawInstall(root, version string, log io.Writer) (string, error) {
	if os.Getenv(netnsEnv) == "" {
		return openclaw.Install(root, version, log)
	}
	dir, err := openclaw.InstallDir(version)
	if err != nil {
		return "", err
	}
	if !openclaw.Installed(dir) {
		return "", fmt.Errorf("openclaw %s is not installed in %s, and the network namespace has no registry: run scripts/openclaw-install.sh %s", version, dir, version)
	}
	return dir, nil
}

// inNetns re-executes conform with args inside a new network namespace
// whose only interface is an up loopback (`unshare -n`, `ip link set lo
// up`; as a user namespace too when not root), so that OpenClaw, the fake
// model and the tool host can reach nothing but loopback. It returns ok
// false when conform already runs in such a namespace.
func inNetns(args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if openclaw.LoopbackOnly() == nil {
		return 0, false
	}
	if os.Getenv(netnsEnv) != "" {
		fmt.Fprintf(stderr, "conform: %v\n", openclaw.LoopbackOnly())
		return 2, true
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2, true
	}
	cmd := openclaw.LoopbackCommand(exe, args...)
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "conform: unshare -n: %v\n", err)
		return 2, true
	}
	// An interrupt or termination sent to this process alone reaches the
	// conform inside the namespace, which stops its gateways.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for sig := range sigs {
			_ = cmd.Process.Signal(sig)
		}
	}()
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), true
		}
		fmt.Fprintf(stderr, "conform: unshare -n: %v\n", err)
		return 2, true
	}
	return 0, true
}

// openclawInfo makes the OpenClaw target of version; the cleanup stops
// its gateway and prints the gateway start times.
func openclawInfo(version string, stderr io.Writer) (targetInfo, string, func(), error) {
	root, err := repo.Root()
	if err != nil {
		return targetInfo{}, "", nil, err
	}
	install, err := openclawInstall(root, version, stderr)
	if err != nil {
		return targetInfo{}, "", nil, err
	}
	data := []fs.FS{os.DirFS(filepath.Join(root, "fixtures", "catalogs")), os.DirFS(filepath.Join(root, "features"))}
	names, err := openclaw.KnownToolNames(data...)
	if err != nil {
		return targetInfo{}, "", nil, err
	}
	owners, err := openclaw.KnownOwners(data...)
	if err != nil {
		return targetInfo{}, "", nil, err
	}
	owned, err := openclaw.KnownOwnedNames(data...)
	if err != nil {
		return targetInfo{}, "", nil, err
	}
	r, err := openclaw.NewRunner(openclaw.Options{
		Install: install, Plugin: filepath.Join(root, "fixtures", "openclaw", "plugin"), Log: stderr,
		Keep: os.Getenv("CODEMODEKIT_OPENCLAW_KEEP") != "", ToolNames: names, Owners: owners, OwnedNames: owned,
		MCPFixtures: codemodetest.RealMCPFixtures,
	})
	if err != nil {
		return targetInfo{}, "", nil, err
	}
	var once sync.Once
	cleanup := func() { once.Do(func() { closeRunner(r, stderr) }) }
	// An interrupted run stops its gateways (they run in process groups of
	// their own, so nothing else would) before it exits.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		interrupted.Store(true)
		fmt.Fprintf(stderr, "conform: %v: stopping the gateways; no report is written\n", sig)
		cleanup()
		os.Exit(130)
	}()
	stats := func() map[string]float64 {
		n, total := sum(r.GatewayStarts())
		m, reloading := sum(r.GatewayReloads())
		return map[string]float64{"gatewayStarts": float64(n), "gatewayStartSeconds": total.Seconds(),
			"gatewayReloads": float64(m), "gatewayReloadSeconds": reloading.Seconds()}
	}
	return targetInfo{make: r.MakeTarget(), claimed: wire.ProcessProfiles(), version: version, stats: stats}, openclawTarget + "-" + version, cleanup, nil
}

// interrupted is set when a signal ends an OpenClaw run: the scenarios
// still running fail as the gateways stop, so the run's report would lie.
var interrupted atomic.Bool

// closeRunner stops the runner's gateways and prints their start times.
func closeRunner(r *openclaw.Runner, stderr io.Writer) {
	if err := r.Close(); err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
	}
	if n, total := sum(r.GatewayStarts()); n > 0 {
		fmt.Fprintf(stderr, "openclaw: %d gateway starts, %s in all, %s on average\n", n, total.Round(time.Millisecond), (total / time.Duration(n)).Round(time.Millisecond))
	}
	if n, total := sum(r.GatewayReloads()); n > 0 {
		fmt.Fprintf(stderr, "openclaw: %d configuration reloads, %s in all, %s on average\n", n, total.Round(time.Millisecond), (total / time.Duration(n)).Round(time.Millisecond))
	}
}

// sum returns how many durations there are and their sum.
func sum(ds []time.Duration) (int, time.Duration) {
	var total time.Duration
	for _, d := range ds {
		total += d
	}
	return len(ds), total
}

// openclawInstallFor installs version when it is missing.
func openclawInstallFor(version string, log io.Writer) (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", err
	}
	return openclawInstall(root, version, log)
}
