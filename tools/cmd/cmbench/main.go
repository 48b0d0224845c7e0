// Command cmbench measures the reference against the runtime OpenClaw
// ships, side by side, and writes BENCHMARKS.md and its plots.
//
// The same workloads run through (a) the reference in process, through its
// public API, and (b) a Node harness (node/*.mjs) that runs the pinned
// quickjs-wasi package the way OpenClaw 2026.8.1-beta.1 does: one worker
// thread per exec or resume leg, the wasm compiled once per process, a
// serialized snapshot when a leg ends with bridge requests pending, and a
// restore from it in a new worker for the next leg or for wait. The two
// sides alternate iteration by iteration; the report gives the medians, the
// 95th percentiles and the ratio of each pair.
//
//	cd tools && go run ./cmd/cmbench -root ..            # make bench
//	go run ./cmd/cmbench -root .. -workloads 'trivial|nested' -iterations 5 -out /tmp/b
//	go run ./cmd/cmbench -root .. -check                 # is BENCHMARKS.md current?
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "cmbench:", err)
		os.Exit(1)
	}
}

type options struct {
	root, out, filter, node string
	iterations, warmup      int
	concurrency, cells      int
	asJSON, check           bool
	// Gateway is how many turns per side the gateway comparison measures
	// (0: none).
	Gateway int
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("cmbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.root, "root", "..", "repository root")
	fs.StringVar(&o.out, "out", "", "where BENCHMARKS.md and docs/bench/*.png go (default: -root)")
	fs.StringVar(&o.filter, "workloads", "", "regexp: run only the workloads whose name matches (trivial, nested1, search10000, yieldwait, typescript, compute, suspended64, concurrent, cluster, gatewayturn, ...)")
	fs.StringVar(&o.node, "node", "node", "the Node.js binary")
	fs.IntVar(&o.iterations, "iterations", 16, "measured iterations per side (heavy workloads run a fifth or half of it, at least 2 or 3)")
	fs.IntVar(&o.warmup, "warmup", 2, "discarded iterations per side before measuring")
	fs.IntVar(&o.concurrency, "concurrency", 8, "cells in flight at once in the throughput workload")
	fs.IntVar(&o.cells, "cells", 16, "cells per throughput measurement")
	fs.BoolVar(&o.asJSON, "json", false, "also write bench.json (every sample) next to BENCHMARKS.md and print the report as JSON")
	fs.BoolVar(&o.check, "check", false, "only report whether BENCHMARKS.md measured the current reference/ tree (exit 1 when stale)")
	fs.IntVar(&o.Gateway, "gateway", 12, "measured turns per side of the gateway comparison (reference gateway vs OpenClaw "+openclawVersion+"'s, in a loopback-only network namespace; installs OpenClaw from npm on first use); 0 skips it, as does a -workloads that does not match gatewayturn")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of this process (the reference side) to this file")
	child := fs.Int("child-suspended", 0, "internal: run the reference memory workload with this many runs and print JSON")
	wasm := fs.String("wasm", "", "internal: the quickjs-wasi binary (with -child-suspended)")
	childGW := fs.Int("child-gateway", 0, "internal: run the gateway comparison with this many turns per side and print JSON")
	gatewayBin := fs.String("gateway-bin", "", "internal: the reference gateway binary (with -child-gateway)")
	clawInstall := fs.String("openclaw-install", "", "internal: the OpenClaw install directory (with -child-gateway)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *child > 0 {
		return childSuspended(*wasm, *child)
	}
	if *childGW > 0 {
		return childGateway(*childGW, o.warmup, o.root, *gatewayBin, *clawInstall, stdout, stderr)
	}
	if o.check {
		return checkCurrent(o.root, stdout)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if o.out == "" {
		o.out = o.root
	}
	re, err := regexp.Compile(o.filter)
	if err != nil {
		return fmt.Errorf("-workloads: %w", err)
	}
	var ws []*workload
	for _, w := range workloads() {
		if re.MatchString(w.Name) {
			ws = append(ws, w)
		}
	}
	if !re.MatchString("gatewayturn") {
		o.Gateway = 0
	}
	if len(ws) == 0 && o.Gateway == 0 && !re.MatchString("cluster") {
		return fmt.Errorf("-workloads %q matches no workload", o.filter)
	}
	rep, err := measure(o, ws, re, stderr)
	if err != nil {
		return err
	}
	if err := write(o, rep); err != nil {
		return err
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	_, err = io.WriteString(stdout, renderTable(rep))
	return err
}

// measure runs every workload on both sides, alternating, and builds the report.
func measure(o options, ws []*workload, re *regexp.Regexp, log io.Writer) (*report, error) {
	root, err := filepath.Abs(o.root)
	if err != nil {
		return nil, err
	}
	ref, err := newRefRunner(wasmPath(root), o.concurrency, o.cells)
	if err != nil {
		return nil, err
	}
	defer ref.close()
	node, err := startNode(o.node, filepath.Join(root, "tools", "cmd", "cmbench", "node"),
		filepath.Join(root, "reference", "node_modules", "quickjs-wasi"), o.concurrency, o.cells)
	if err != nil {
		return nil, err
	}
	defer node.close()

	rep := &report{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Machine: machineInfo(o.node), Iterations: o.iterations,
		Warmup: o.warmup, Concurrency: o.concurrency, Cells: o.cells, Settle: settlePause.String()}
	rep.Commit, rep.Tree, rep.Dirty = gitState(root)
	rep.Machine.Node = node.Version
	start := time.Now()
	for _, w := range ws {
		n, warm := w.Scale(o.iterations), o.warmup
		if w.Heavy {
			warm = 0
		}
		fmt.Fprintf(log, "cmbench: %-12s %d iterations per side ...", w.Name, n)
		t0 := time.Now()
		other := node.run
		if w.NodeNA != "" {
			other = nil
		}
		samples, err := alternate(w, warm, n, ref.run, other)
		if err != nil {
			return nil, fmt.Errorf("%s, %w", w.Name, err)
		}
		fmt.Fprintf(log, " %.1fs\n", time.Since(t0).Seconds())
		rep.add(w, samples[sideRef], samples[sideNode])
	}
	rows, err := isolationRows(o, ref, ws, log)
	if err != nil {
		return nil, err
	}
	rep.Rows = append(rep.Rows, rows...)
	if re.MatchString("cluster") {
		rows, err := clusterRows(o, root, log)
		if err != nil {
			return nil, err
		}
		rep.Rows = append(rep.Rows, rows...)
	}
	if o.Gateway > 0 {
		fmt.Fprintf(log, "cmbench: gatewayturn   %d turns per side ...\n", o.Gateway)
		t0 := time.Now()
		rows, run, err := gatewayRows(o, root, log)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "cmbench: gatewayturn   %.1fs\n", time.Since(t0).Seconds())
		rep.Rows, rep.OpenClaw = append(rep.Rows, rows...), run.OpenClaw
	}
	rep.Elapsed = time.Since(start).Round(time.Second).String()
	rep.evaluate()
	return rep, nil
}
