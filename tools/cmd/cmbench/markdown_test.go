package main

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/BENCHMARKS.golden.md")

// fixedReport is a report with made-up samples: the golden file checks the
// rendering, not any measurement.
func fixedReport() *report {
	r := &report{Date: "2026-11-30 04:00 UTC", Commit: "0123456789abcdef0123456789abcdef01234567",
		Tree: "89abcdef0123456789abcdef0123456789abcdef", Elapsed: "3m12s", Iterations: 4, Warmup: 2, Concurrency: 8, Cells: 32, Settle: "10ms",
		Machine: machine{Cores: 2, CPU: "AMD EPYC", Memory: "23.4 GiB", Kernel: "Linux 6.18.44", Go: "go1.26.8 linux/amd64", Node: "v20.20.2", Load: "1.00 2.00 3.00"}}
	ms := func(key string, vs ...float64) []map[string]float64 {
		var out []map[string]float64
		for _, v := range vs {
			out = append(out, map[string]float64{key: v, "rtt": v + 1, "legs": 2})
		}
		return out
	}
	for _, w := range workloads() {
		switch w.Name {
		case "trivial":
			r.add(w, append(ms("ms", 0.4, 0.5, 0.3), map[string]float64{"ms": 0.6, "ms_cpu": 0.35}), ms("ms", 70, 80, 75, 90))
		case "search10", "search10000":
			r.add(w, ms("ms", 1, 2, 1.5, 1.2), ms("ms", 150, 160, 155, 170))
		case "yieldwait":
			r.add(w, []map[string]float64{{"suspend": 3, "resume": 1.2}, {"suspend": 4, "resume": 0.9}},
				[]map[string]float64{{"suspend": 80, "resume": 70, "rtt": 151}, {"suspend": 90, "resume": 75, "rtt": 166}})
		case "typescript":
			r.add(w, ms("ms", 2.5, 2.7), nil)
		case "compute":
			r.add(w, []map[string]float64{{"ms": 50}, {"ms": 54}},
				[]map[string]float64{{"ms": 100, "vm": 22, "v8": 5}, {"ms": 110, "vm": 24, "v8": 6}})
		case "suspended64":
			r.add(w, []map[string]float64{{"rss": 12, "perRun": 192, "stored": 150, "curve1": 0.2, "curve8": 1.5, "curve64": 12}},
				[]map[string]float64{{"rss": 40, "perRun": 640, "stored": 1344, "curve1": 0.7, "curve8": 5, "curve64": 40}})
		case "concurrent":
			r.add(w, ms("cps", 900, 1000), ms("cps", 20, 25))
		}
	}
	iso := func(workload, title, metric string, workers, inproc float64) row {
		rw := row{Workload: workload, Title: title, Metric: metric, Label: "cell", Unit: "ms", Isolation: true,
			Ref: collect([]map[string]float64{{metric: workers}}, metric), Node: collect([]map[string]float64{{metric: inproc}}, metric)}
		rw.Ratio = workers / inproc
		return rw
	}
	r.Rows = append(r.Rows, iso("trivial", "trivial cell", "ms", 0.45, 0.46), iso("nested1", "cell with 1 nested tool call", "ms", 1, 0.9),
		iso("nested100", "cell with 100 nested tool calls", "ms", 6, 5), iso("compute", "compute-heavy cell", "ms", 50, 49))
	gw := &gatewayRun{OpenClaw: openclawVersion, RefStart: 180, ClawStart: 15600,
		Ref:  []gatewaySample{{Implementation: 1.5, Wall: 3}, {Implementation: 1.7, Wall: 3.2}},
		Claw: []gatewaySample{{Implementation: 300, Wall: 420}, {Implementation: 340, Wall: 450}}}
	r.Rows, r.OpenClaw = append(r.Rows, gw.rows()...), gw.OpenClaw
	cl := func(metric, unit string, cluster, single float64) row {
		rw := row{Workload: "cluster", Title: "suspend and resume", Metric: metric, Label: metric, Unit: unit, Cluster: true, Higher: unit == "turns/s",
			Ref: collect([]map[string]float64{{metric: cluster}}, metric), Node: collect([]map[string]float64{{metric: single}}, metric)}
		rw.Ratio = cluster / single
		return rw
	}
	r.Rows = append(r.Rows, cl("suspend", "ms", 3.1, 2.9), cl("resume", "ms", 2.5, 1.2), cl("resumeOther", "ms", 4, 1.2), cl("throughput", "turns/s", 60, 75))
	r.evaluate()
	return r
}

func TestRenderMarkdownGolden(t *testing.T) {
	got := renderMarkdown(fixedReport())
	golden := filepath.Join("testdata", "BENCHMARKS.golden.md")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestRenderMarkdownGolden -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("BENCHMARKS.md render mismatch (-want +got):\n%s", diff)
	}
}

func TestRenderedTreeLineParses(t *testing.T) {
	r := fixedReport()
	got, err := parseTree(renderMarkdown(r))
	if err != nil {
		t.Fatal(err)
	}
	if got != r.Tree {
		t.Errorf("parseTree(render) = %q, want %q", got, r.Tree)
	}
}

func TestTargetsVerdicts(t *testing.T) {
	want := []target{
		{Goal: "trivial exec ≤ 1 ms, guests in worker processes (the default)", Measured: "0.450 ms", Verdict: "met"},
		{Goal: "trivial exec ≥ 10× faster than the Node worker-per-leg path", Measured: "172× faster", Verdict: "met"},
		{Goal: "wait resume ≤ 1 ms", Measured: "1.05 ms", Verdict: "missed"},
		{Goal: "suspended run ≤ 256 KiB (resident memory per held run)", Measured: "192 KiB", Verdict: "met"},
		{Goal: "64 suspended runs ≤ 32 MiB resident", Measured: "12.0 MiB", Verdict: "met"},
		{Goal: "search over 10,000 tools ≤ 2 ms (the whole cell)", Measured: "1.35 ms", Verdict: "met"},
		{Goal: "compute-heavy cell within 2.5× of Node/V8 on the same wasm (reference cell ÷ Node time inside the VM)", Measured: "2.26×", Verdict: "met"},
		{Goal: "each nested tool call adds ≤ 50 µs with guests in worker processes (against in process)", Measured: "9.09 µs", Verdict: "met"},
		{Goal: "compute-heavy cell unchanged with guests in worker processes (workers ÷ in process ≤ 1.1)", Measured: "1.02×", Verdict: "met"},
		{Goal: "a `wait` resume through the cluster's store adds ≤ 2 ms over one gateway's in-memory resume (median)", Measured: "1.30 ms", Verdict: "met"},
		{Goal: "a `wait` resume forwarded to the run's holder by another replica adds ≤ 2 ms over one gateway's in-memory resume (median)", Measured: "2.80 ms", Verdict: "missed"},
		{Goal: "trivial exec turn through the reference gateway faster than through OpenClaw's (gateway's own time per turn)", Measured: "200× faster", Verdict: "met"},
	}
	if diff := cmp.Diff(want, fixedReport().Targets); diff != "" {
		t.Errorf("targets mismatch (-want +got):\n%s", diff)
	}
}

func TestChartsDecode(t *testing.T) {
	cs := charts(fixedReport())
	for _, path := range []string{catalogPNG, memoryPNG} {
		c, ok := cs[path]
		if !ok {
			t.Fatalf("no chart %s", path)
		}
		var b bytes.Buffer
		if err := c.PNG(&b); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%s does not decode: %v", path, err)
		}
		if got := img.Bounds().Size(); got.X != c.Width || got.Y != c.Height {
			t.Errorf("%s is %v, want %dx%d", path, got, c.Width, c.Height)
		}
	}
}

func TestParseTree(t *testing.T) {
	sha1 := strings.Repeat("a1", 20)
	tests := []struct {
		name, md, want string
		ok             bool
	}{
		{"sha1", "# B\n\n" + treeLinePrefix + sha1 + "`\n", sha1, true},
		{"sha256", treeLinePrefix + strings.Repeat("b2", 32) + "`", strings.Repeat("b2", 32), true},
		{"missing", "# B\n\nno tree here\n", "", false},
		{"not at line start", "x " + treeLinePrefix + sha1 + "`", "", false},
		{"short hash", treeLinePrefix + "abc123`", "", false},
		{"upper case", treeLinePrefix + strings.ToUpper(sha1) + "`", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseTree(tc.md)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseTree = %q, %v; want %q, ok %v", got, err, tc.want, tc.ok)
			}
		})
	}
}
