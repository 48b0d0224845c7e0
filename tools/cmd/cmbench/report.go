package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// report is everything one cmbench run measured.
type report struct {
	Date        string  `json:"date"`
	Commit      string  `json:"commit"`
	Tree        string  `json:"referenceTree"`
	Dirty       bool    `json:"dirty"`
	Elapsed     string  `json:"elapsed"`
	Machine     machine `json:"machine"`
	Iterations  int     `json:"iterations"`
	Warmup      int     `json:"warmup"`
	Concurrency int     `json:"concurrency"`
	Cells       int     `json:"cells"`
	Settle      string  `json:"settle"`
	Rows        []row   `json:"rows"`
	Targets     []target
	// MemoryCurve is the median resident-memory delta (MiB) after k
	// suspended runs, per side ("reference", "node").
	MemoryCurve map[string][]point `json:"memoryCurve,omitempty"`
	// OpenClaw is the OpenClaw release of the gateway rows ("" without
	// them).
	OpenClaw string `json:"openclaw,omitempty"`
}

type machine struct {
	Cores  int    `json:"cores"`
	CPU    string `json:"cpu"`
	Memory string `json:"memory"`
	Kernel string `json:"kernel"`
	Go     string `json:"go"`
	Node   string `json:"node"`
	Load   string `json:"load"`
}

// row is one measure of one workload on both sides.
type row struct {
	Workload string   `json:"workload"`
	Title    string   `json:"title"`
	Metric   string   `json:"metric"`
	Label    string   `json:"label"`
	Unit     string   `json:"unit"`
	Higher   bool     `json:"higherIsBetter,omitempty"`
	Catalog  int      `json:"catalog,omitempty"`
	Ref      *summary `json:"reference,omitempty"`
	RefCPU   *summary `json:"referenceCPU,omitempty"`
	Node     *summary `json:"node,omitempty"`
	NodeRTT  *summary `json:"nodeRoundTrip,omitempty"`
	NodeLegs float64  `json:"nodeLegs,omitempty"`
	// Ratio is the reference median ÷ the Node median; 0 when a side is missing.
	Ratio  float64 `json:"ratio,omitempty"`
	NodeNA string  `json:"nodeNotApplicable,omitempty"`
	// Gateway rows compare the reference gateway (Ref) with OpenClaw's
	// gateway (Node), not the in-process runtime with the Node harness.
	Gateway bool `json:"gateway,omitempty"`
	// Isolation rows compare the reference with guests in worker
	// processes (Ref) and in its own process (Node).
	Isolation bool `json:"isolation,omitempty"`
	// Cluster rows compare three replicas of the reference gateway
	// sharing a NATS JetStream server (Ref) with one gateway process
	// (Node).
	Cluster bool `json:"cluster,omitempty"`
}

type point struct{ X, Y float64 }

// target is one performance goal and what this run measured for it.
type target struct {
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	Verdict  string `json:"verdict"` // "met", "missed" or "not measured"
}

func collect(samples []map[string]float64, key string) *summary {
	var v []float64
	for _, m := range samples {
		if x, ok := m[key]; ok {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return nil
	}
	s := summarize(v)
	return &s
}

// add summarizes one workload's samples into rows.
func (r *report) add(w *workload, ref, node []map[string]float64) {
	for i, m := range w.Metrics {
		rw := row{Workload: w.Name, Title: w.Title, Metric: m.Key, Label: m.Label, Unit: m.Unit, Higher: m.Higher, Catalog: w.Catalog,
			Ref: collect(ref, m.Key), RefCPU: collect(ref, m.Key+"_cpu"), Node: collect(node, m.Key), NodeNA: w.NodeNA}
		if m.Key == "v8" || m.Key == "vm" && w.Kind == kindCompute {
			// The reference has no separate figure for these; the row
			// compares Node's against the reference's whole cell.
			rw.Ref, rw.RefCPU = collect(ref, "ms"), collect(ref, "ms_cpu")
		}
		if i == 0 {
			rw.NodeRTT = collect(node, "rtt")
			if l := collect(node, "legs"); l != nil {
				rw.NodeLegs = l.Median
			}
		}
		if rw.Ref != nil && rw.Node != nil && rw.Node.Median != 0 {
			rw.Ratio = rw.Ref.Median / rw.Node.Median
		}
		r.Rows = append(r.Rows, rw)
	}
	if w.Kind == kindMemory {
		r.MemoryCurve = map[string][]point{"reference": curve(ref), "node": curve(node)}
	}
}

func curve(samples []map[string]float64) []point {
	var out []point
	for _, k := range checkpoints {
		if s := collect(samples, "curve"+strconv.Itoa(k)); s != nil {
			out = append(out, point{float64(k), s.Median})
		}
	}
	return out
}

func (r *report) row(workload, metric string) *row {
	return r.rowOf(workload, metric, false)
}

func (r *report) rowOf(workload, metric string, isolation bool) *row {
	for i := range r.Rows {
		if rw := &r.Rows[i]; rw.Workload == workload && rw.Metric == metric && rw.Isolation == isolation {
			return rw
		}
	}
	return nil
}

// rowsWhere returns the rows keep keeps, in order.
func (r *report) rowsWhere(keep func(row) bool) []row {
	var out []row
	for _, rw := range r.Rows {
		if keep(rw) {
			out = append(out, rw)
		}
	}
	return out
}

// evaluate checks the targets against the medians.
func (r *report) evaluate() {
	r.Targets = nil
	atMost := func(goal, workload, metric string, limit float64) {
		t := target{Goal: goal, Verdict: "not measured"}
		if rw := r.row(workload, metric); rw != nil && rw.Ref != nil {
			t.Measured = num(rw.Ref.Median) + " " + rw.Unit
			t.Verdict = verdict(rw.Ref.Median <= limit)
		}
		r.Targets = append(r.Targets, t)
	}
	atMost("trivial exec ≤ 1 ms, guests in worker processes (the default)", "trivial", "ms", 1)
	t := target{Goal: "trivial exec ≥ 10× faster than the Node worker-per-leg path", Verdict: "not measured"}
	if rw := r.row("trivial", "ms"); rw != nil && rw.Ratio > 0 {
		t.Measured = num(1/rw.Ratio) + "× faster"
		t.Verdict = verdict(1/rw.Ratio >= 10)
	}
	r.Targets = append(r.Targets, t)
	atMost("wait resume ≤ 1 ms", "yieldwait", "resume", 1)
	atMost("suspended run ≤ 256 KiB (resident memory per held run)", "suspended64", "perRun", 256)
	atMost("64 suspended runs ≤ 32 MiB resident", "suspended64", "rss", 32)
	atMost("search over 10,000 tools ≤ 2 ms (the whole cell)", "search10000", "ms", 2)
	t = target{Goal: "compute-heavy cell within 2.5× of Node/V8 on the same wasm (reference cell ÷ Node time inside the VM)", Verdict: "not measured"}
	if rw := r.row("compute", "vm"); rw != nil && rw.Ratio > 0 {
		t.Measured = num(rw.Ratio) + "×"
		t.Verdict = verdict(rw.Ratio <= 2.5)
	}
	r.Targets = append(r.Targets, t)
	t = target{Goal: "each nested tool call adds ≤ 50 µs with guests in worker processes (against in process)", Verdict: "not measured"}
	if w, ok := bridgeCost(r, false); ok {
		p, _ := bridgeCost(r, true)
		t.Measured = num(w-p) + " µs"
		t.Verdict = verdict(w-p <= 50)
	}
	r.Targets = append(r.Targets, t)
	t = target{Goal: "compute-heavy cell unchanged with guests in worker processes (workers ÷ in process ≤ 1.1)", Verdict: "not measured"}
	if rw := r.rowOf("compute", "ms", true); rw != nil && rw.Ratio > 0 {
		t.Measured = num(rw.Ratio) + "×"
		t.Verdict = verdict(rw.Ratio <= 1.1)
	}
	r.Targets = append(r.Targets, t)
	for _, m := range []struct{ metric, goal string }{
		{"resume", "a `wait` resume through the cluster's store adds ≤ 2 ms over one gateway's in-memory resume (median)"},
		{"resumeOther", "a `wait` resume forwarded to the run's holder by another replica adds ≤ 2 ms over one gateway's in-memory resume (median)"},
	} {
		t := target{Goal: m.goal, Verdict: "not measured"}
		if rw := r.row("cluster", m.metric); rw != nil && rw.Ref != nil && rw.Node != nil {
			added := rw.Ref.Median - rw.Node.Median
			t.Measured = num(added) + " ms"
			t.Verdict = verdict(added <= 2)
		}
		r.Targets = append(r.Targets, t)
	}
	t = target{Goal: "trivial exec turn through the reference gateway faster than through OpenClaw's (gateway's own time per turn)", Verdict: "not measured"}
	if rw := r.row("gatewayturn", "turn"); rw != nil && rw.Ratio > 0 {
		t.Measured = num(1/rw.Ratio) + "× faster"
		t.Verdict = verdict(rw.Ratio < 1)
	}
	r.Targets = append(r.Targets, t)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// num formats a measurement with about three significant digits.
func num(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "–"
	case a < 1:
		return strconv.FormatFloat(v, 'f', 3, 64)
	case a < 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case a < 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
}

func cell(s *summary, f func(summary) float64) string {
	if s == nil {
		return "–"
	}
	return num(f(*s))
}

func med(s summary) float64 { return s.Median }
func p95(s summary) float64 { return s.P95 }

// lead says which side wins a row and by how much.
func lead(rw row) string {
	if rw.Ratio == 0 {
		return "–"
	}
	refBetter := rw.Ratio < 1
	if rw.Higher {
		refBetter = rw.Ratio > 1
	}
	f := rw.Ratio
	if f < 1 {
		f = 1 / f
	}
	if refBetter {
		return "reference " + num(f) + "×"
	}
	return "Node " + num(f) + "×"
}

// renderTable is the short summary cmbench prints.
func renderTable(r *report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %-34s %10s %10s %10s %10s %8s\n", "workload", "measure", "ref med", "ref p95", "node med", "node p95", "ref÷node")
	for _, rw := range r.Rows {
		ratio := "–"
		if rw.Ratio != 0 {
			ratio = num(rw.Ratio)
		}
		fmt.Fprintf(&b, "%-12s %-34s %10s %10s %10s %10s %8s\n", rw.Workload, rw.Label+" ("+rw.Unit+")",
			cell(rw.Ref, med), cell(rw.Ref, p95), cell(rw.Node, med), cell(rw.Node, p95), ratio)
	}
	b.WriteString("\n")
	for _, t := range r.Targets {
		fmt.Fprintf(&b, "%-8s %s: %s\n", t.Verdict, t.Goal, t.Measured)
	}
	return b.String()
}

// catalogCurve is the search latency per catalog size, per side.
func (r *report) catalogCurve() (ref, node []point) {
	rows := append([]row(nil), r.Rows...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Catalog < rows[j].Catalog })
	for _, rw := range rows {
		if !strings.HasPrefix(rw.Workload, "search") || rw.Metric != "ms" {
			continue
		}
		if rw.Ref != nil {
			ref = append(ref, point{float64(rw.Catalog), rw.Ref.Median})
		}
		if rw.Node != nil {
			node = append(node, point{float64(rw.Catalog), rw.Node.Median})
		}
	}
	return ref, node
}
