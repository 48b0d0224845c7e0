package cell

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/google/go-cmp/cmp"
)

// TestExec_hotCatalog: cells over a large catalog see the same ALL_TOOLS
// and tools object whether their VM had the catalog installed in the cell
// (the first) or ahead of it (the later ones, hot: sandbox's
// TestLeg_warmsHotVMs); a memory limit that ALL_TOOLS alone passes fails
// the cell either way.
func TestExec_hotCatalog(t *testing.T) {
	rn := testRunner(t)
	tools := make([]catalog.Tool, 1500)
	for i := range tools {
		tools[i] = catalog.Tool{Name: fmt.Sprintf("hot_tool_%d", i), Kind: catalog.Core,
			Description: strings.Repeat("A tool of the hot-pool test. ", 4),
			Parameters:  json.RawMessage(`{"type":"object","properties":{}}`)}
	}
	h := newFakeHost(config.Defaults())
	h.cat = catalog.Build(tools)
	const code = `return [ALL_TOOLS.length, ALL_TOOLS[7].id, Object.isFrozen(ALL_TOOLS), Object.isFrozen(ALL_TOOLS[3]),
		typeof tools.hot_tool_42, Object.isFrozen(tools), Object.getOwnPropertyDescriptor(globalThis, "ALL_TOOLS").writable,
		Object.getOwnPropertyNames(globalThis).filter((n) => ["ALL_TOOLS", "tools", "MCP", "namespaces", "API"].includes(n)).join()]`
	var want string
	for i := 0; i < 4; i++ {
		res := exec(t, rn, h, code)
		if res.Status != "completed" {
			t.Fatalf("cell %d: %s %s", i, res.Status, res.Error)
		}
		if i == 0 {
			want = string(res.Value)
			continue
		}
		if diff := cmp.Diff(want, string(res.Value)); diff != "" {
			t.Errorf("cell %d (-first +this):\n%s", i, diff)
		}
		// Give the pool the time to install the catalog in its hot VMs
		// (the leg asks for it after it has answered, then ends).
		settle(t, func() bool { st := rn.Stats(); return st.Legs == 0 && !st.Warming })
	}
	s := config.Defaults()
	s.MemoryLimitBytes = 1 << 20 // below what ALL_TOOLS of 1500 entries takes
	small := newFakeHost(s)
	small.cat = h.cat
	for i := 0; i < 2; i++ {
		if res := exec(t, rn, small, `return 1`); res.Status != "failed" {
			t.Errorf("cell %d under a 1 MiB memory limit: %s, want failed", i, res.Status)
		}
	}
}
