package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

// growthCatalog is n compact catalog entries as JSON, the size of the
// ALL_TOOLS a cell receives with an n-tool catalog.
func growthCatalog(n int) string {
	type entry struct {
		ID, Source, Name, Label, Description, Input string
	}
	es := make([]entry, n)
	for i := range es {
		name := fmt.Sprintf("get_weather_%d", i)
		es[i] = entry{"openclaw:core:" + name, "openclaw", name, "Get weather", "Get weather records for the climate team. Works for any city or region. Returns at most 50 items per page.", "{ query?: string; limit?: number }"}
	}
	raw, _ := json.Marshal(es)
	return string(raw)
}

// BenchmarkMemoryGrowth measures a guest that grows its heap step by step:
// a fresh VM parses and freezes an n-entry catalog (the work ALL_TOOLS does
// in every cell of a large catalog), under each capacity policy. The
// policies run as sub-benchmarks of one function, so -count interleaves
// them. Reports the final memory size and the copies' bytes.
func BenchmarkMemoryGrowth(b *testing.B) {
	const load = `globalThis.load = function (s) {
  const c = JSON.parse(s);
  for (const e of c) Object.freeze(e);
  globalThis.c = Object.freeze(c);
  return String(c.length);
}`
	for _, n := range []int{1000, 10000} {
		js := growthCatalog(n)
		for _, pol := range []struct {
			name string
			div  uint64
		}{{"quarter", 4}, {"half", 2}, {"double", 1}} {
			b.Run(strconv.Itoa(n)+"/"+pol.name, func(b *testing.B) {
				old := growthDivisor
				growthDivisor = pol.div
				defer func() { growthDivisor = old }()
				e := benchEng(b)
				m := cpumeter.New(b)
				defer m.Report()
				var size int
				for i := 0; i < b.N; i++ {
					vm, err := e.NewVM(context.Background(), Limits{MemoryBytes: 256 << 20})
					if err != nil {
						b.Fatal(err)
					}
					if err := vm.Eval(load, "load.js"); err != nil {
						b.Fatal(err)
					}
					got, err := vm.Call("load", js)
					if err != nil || got != strconv.Itoa(n) {
						b.Fatalf("load = %q, %v", got, err)
					}
					size = vm.MemorySize()
					m.Stop()
					vm.Close()
					m.Start()
				}
				b.ReportMetric(float64(size)/(1<<20), "mem-MiB")
			})
		}
	}
}
