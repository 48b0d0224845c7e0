package main

import (
	"fmt"
	"strconv"
)

// kind says how a workload is driven on each side.
type kind int

const (
	kindExec       kind = iota // one exec, timed
	kindYieldWait              // an exec that suspends, then the wait that resumes it
	kindCompute                // kindExec, plus the time inside the VM and Node's own V8
	kindMemory                 // suspended runs held at once
	kindThroughput             // concurrent cells
)

// metric is one row of the report: a sample key both sides fill.
type metric struct {
	Key    string
	Label  string
	Unit   string
	Higher bool // higher is better (throughput)
}

// workload is one program run on both sides.
type workload struct {
	Name    string // the -workloads filter matches it
	Title   string
	Kind    kind
	Code    string
	Lang    string // "" or "typescript"
	Want    string // the JSON value the cell returns
	Catalog int    // catalog size for the search workloads
	// Scale gives the measured iterations from -iterations (heavy
	// workloads run fewer).
	Scale func(base int) int
	// Heavy workloads take no warm-up round, whatever -warmup says: both
	// sides are warm from the workloads before them.
	Heavy   bool
	Metrics []metric
	// NodeNA, when set, says why the Node side does not run it.
	NodeNA string
}

var msMetric = []metric{{Key: "ms", Label: "cell", Unit: "ms"}}

func same(n int) int { return n }

// fewer scales a workload down to n/div iterations, never below least.
func fewer(div, least int) func(int) int {
	return func(n int) int { return max(least, n/div) }
}

func nestedCode(n int) string {
	return `let s = 0
for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) s += (await tools.callValue("openclaw:core:noop", {})).ok ? 1 : 0
return s`
}

// yieldCode suspends once; the wait resumes it with {status: "yielded"}.
const yieldCode = `const r = await yield_control("pause"); return r.status`

// searchQuery matches a few dozen entries of every generated catalog.
const searchQuery = "weather forecast for a city"

const searchCode = `const hits = await tools.search(` + "`" + searchQuery + "`" + `, { limit: 8 })
return hits.length`

// computeCode counts the primes below 20,000 by trial division and runs a
// multiply-add loop: about 50 ms in the reference on an idle core.
const computeCode = `let count = 0
for (let n = 2; n < 20000; n++) {
  let prime = true
  for (let d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break }
  if (prime) count++
}
let h = 0
for (let i = 0; i < 100000; i++) h = (Math.imul(h, 31) + i) | 0
return count + (h & 0)`

const tsCode = "interface P { x: number; y: number }\nconst p: P = { x: 1, y: 2 };\nconst add = (a: number, b: number): number => a + b;\nreturn add(p.x, p.y);"

// suspendedRuns is how many suspended runs the memory workload holds: the
// per-process cap.
const suspendedRuns = 64

func workloads() []*workload {
	ws := []*workload{
		{Name: "trivial", Title: "trivial cell `return 1+2`", Kind: kindExec, Code: "return 1+2", Want: "3", Scale: same, Metrics: msMetric},
	}
	for _, n := range []int{1, 10, 100} {
		sc := same
		if n == 10 {
			sc = fewer(2, 3)
		} else if n == 100 {
			sc = fewer(5, 2)
		}
		ws = append(ws, &workload{Name: "nested" + strconv.Itoa(n), Title: fmt.Sprintf("cell with %d nested tool call%s", n, plural(n)),
			Kind: kindExec, Code: nestedCode(n), Want: strconv.Itoa(n), Scale: sc, Heavy: n == 100, Metrics: msMetric})
	}
	for _, n := range []int{10, 100, 1000, 10000} {
		sc := same
		if n >= 1000 {
			sc = fewer(2, 3)
		}
		ws = append(ws, &workload{Name: "search" + strconv.Itoa(n), Title: fmt.Sprintf("`tools.search` over %s tools", thousands(n)),
			Kind: kindExec, Code: searchCode, Want: "8", Catalog: n, Scale: sc, Metrics: msMetric})
	}
	ws = append(ws,
		&workload{Name: "yieldwait", Title: "suspend (`yield_control`) + `wait` resume", Kind: kindYieldWait, Code: yieldCode, Want: `"yielded"`, Scale: same,
			Metrics: []metric{{Key: "suspend", Label: "exec → waiting", Unit: "ms"}, {Key: "resume", Label: "wait → completed", Unit: "ms"}}},
		&workload{Name: "typescript", Title: "TypeScript cell", Kind: kindExec, Code: tsCode, Lang: "typescript", Want: "3", Scale: same, Metrics: msMetric,
			NodeNA: "OpenClaw 2026.8.1-beta.1 transpiles TypeScript with the `typescript` package (`ts.transpileModule`, lazily imported); it is not installed here and the harness adds no npm dependencies"},
		&workload{Name: "compute", Title: "compute-heavy cell (primes below 20,000 + 100,000 multiply-adds)", Kind: kindCompute, Code: computeCode, Want: "2262", Scale: same,
			Metrics: []metric{{Key: "ms", Label: "cell", Unit: "ms"}, {Key: "vm", Label: "inside the VM", Unit: "ms"}, {Key: "v8", Label: "same JS on Node's V8, no wasm", Unit: "ms"}}},
		&workload{Name: "suspended64", Title: "64 suspended runs held at once", Kind: kindMemory, Code: yieldCode, Scale: fewer(5, 2), Heavy: true,
			Metrics: []metric{{Key: "rss", Label: "resident memory (RSS delta)", Unit: "MiB"}, {Key: "perRun", Label: "RSS per suspended run", Unit: "KiB"}, {Key: "stored", Label: "held per run (reference: Go heap; Node: serialized snapshot)", Unit: "KiB"}}},
		&workload{Name: "concurrent", Title: "concurrent trivial cells", Kind: kindThroughput, Code: "return 1+2", Want: "3", Scale: fewer(5, 2), Heavy: true,
			Metrics: []metric{{Key: "cps", Label: "throughput", Unit: "cells/s", Higher: true}}},
	)
	return ws
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// thousands writes n with commas: 10000 -> "10,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
