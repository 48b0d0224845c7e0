package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	codemode "github.com/codemodekit/kit/reference"
)

// isolationWorkloads are the workloads the isolation comparison runs: the
// reference with guests in worker processes (its default, the runner of
// the main table) against the same reference with guests in its own
// process (codemode.InProcess), alternating iteration by iteration.
var isolationWorkloads = []string{"trivial", "nested1", "nested100", "yieldwait", "compute"}

// isolationRows measures the workloads named by isolationWorkloads on both
// isolations. Ref holds the worker-process figures, Node the in-process
// ones, and Ratio is workers ÷ in process.
func isolationRows(o options, workers *refRunner, ws []*workload, log io.Writer) ([]row, error) {
	inproc, err := newRefRunnerWith(workers.wasm, o.concurrency, o.cells, codemode.InProcess)
	if err != nil {
		return nil, err
	}
	defer inproc.close()
	var rows []row
	for _, w := range ws {
		if !slices.Contains(isolationWorkloads, w.Name) {
			continue
		}
		n := w.Scale(o.iterations)
		fmt.Fprintf(log, "cmbench: isolation %-12s %d iterations per side ...", w.Name, n)
		t0 := time.Now()
		samples, err := alternate(w, o.warmup, n, workers.run, inproc.run)
		if err != nil {
			return nil, fmt.Errorf("isolation %s, %w", w.Name, err)
		}
		fmt.Fprintf(log, " %.1fs\n", time.Since(t0).Seconds())
		for _, m := range w.Metrics {
			if m.Key == "v8" || m.Key == "vm" {
				continue // the compute cell's own time is the cell's
			}
			rw := row{Workload: w.Name, Title: w.Title, Metric: m.Key, Label: m.Label, Unit: m.Unit, Isolation: true,
				Ref: collect(samples[sideRef], m.Key), Node: collect(samples[sideNode], m.Key)}
			if rw.Ref != nil && rw.Node != nil && rw.Node.Median > 0 {
				rw.Ratio = rw.Ref.Median / rw.Node.Median
			}
			rows = append(rows, rw)
		}
	}
	return rows, nil
}

// bridgeCost is what one nested tool call adds to a cell, in microseconds,
// from the medians of the nested1 and nested100 rows of one side.
func bridgeCost(r *report, inProcess bool) (float64, bool) {
	one, hundred := r.rowOf("nested1", "ms", true), r.rowOf("nested100", "ms", true)
	if one == nil || hundred == nil {
		return 0, false
	}
	a, b := one.Ref, hundred.Ref
	if inProcess {
		a, b = one.Node, hundred.Node
	}
	if a == nil || b == nil {
		return 0, false
	}
	return (b.Median - a.Median) / 99 * 1000, true
}

// renderIsolation is the isolation section of BENCHMARKS.md.
func renderIsolation(r *report) string {
	rows := r.rowsWhere(func(rw row) bool { return rw.Isolation })
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Isolation: guests in worker processes against guests in process\n\n")
	b.WriteString(`The same reference, the same workloads, alternating iteration by iteration: guests in worker processes
(the default, ` + "`internal/isolate`" + `) and guests on goroutines of the host (` + "`codemode.InProcess`" + `). The ratio is
workers ÷ in process. A nested tool call's cost is the difference of the nested1 and nested100 medians, over 99 calls.

| workload | measure | workers median | workers p95 | in process median | in process p95 | ratio |
| --- | --- | --- | --- | --- | --- | --- |
`)
	for _, rw := range rows {
		fmt.Fprintf(&b, "| %s | %s (%s) | %s | %s | %s | %s | %s |\n", rw.Title, rw.Label, rw.Unit,
			cell(rw.Ref, med), cell(rw.Ref, p95), cell(rw.Node, med), cell(rw.Node, p95), num(rw.Ratio))
	}
	if w, ok := bridgeCost(r, false); ok {
		p, _ := bridgeCost(r, true)
		fmt.Fprintf(&b, "\nOne nested tool call: %s µs with workers, %s µs in process: %s µs added by the worker's round trip.\n",
			num(w), num(p), num(w-p))
	}
	return b.String()
}
