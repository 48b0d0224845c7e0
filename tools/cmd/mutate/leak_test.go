package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/tools/internal/repo"
	"github.com/google/go-cmp/cmp"
)

// TestChecklist12KillsALeakedControlTool runs the checklist-12 scenarios
// (SPEC CM-3.10, CM-11.2: the Tool Search controls are hidden while code
// mode is active) against a reference whose catalog lets one control tool,
// tool_call, through, built as an overlay the way make mutate builds its
// mutants. Every scenario whose host offers tool_call must fail; the ones
// that pass offer no control tool to leak (in the reference the controls
// exist only where Tool Search applies), and TestConformance shows that all
// of them pass unmutated.
func TestChecklist12KillsALeakedControlTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds conform")
	}
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "reference", "internal", "catalog", "catalog.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	controls := []byte(`var ControlTools = []string{"tool_search_code", "tool_search", "tool_describe", "tool_call"}`)
	if bytes.Count(src, controls) != 1 {
		t.Fatalf("%s no longer declares %s: update the mutant", path, controls)
	}
	work := t.TempDir()
	leaky := filepath.Join(work, "catalog.go")
	if err := os.WriteFile(leaky, bytes.Replace(src, controls, []byte(`var ControlTools = []string{"tool_search_code", "tool_search", "tool_describe"}`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{path: leaky}})
	if err := os.WriteFile(filepath.Join(work, "overlay.json"), overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-overlay", filepath.Join(work, "overlay.json"), "-o", filepath.Join(work, "conform"), "./cmd/conform")
	build.Dir = filepath.Join(root, "tools")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	reportDir := filepath.Join(work, "report")
	run := exec.Command(filepath.Join(work, "conform"), "--tags", "@checklist-12", "--report", reportDir)
	run.Dir = filepath.Join(root, "tools")
	out, err := run.CombinedOutput()
	if err == nil {
		t.Fatalf("the checklist-12 scenarios pass against a catalog that leaks tool_call:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(reportDir, "report.json"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rep conformance.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rep.Results {
		got[r.Name] = r.Status
	}
	failed, passed := conformance.StatusFailed, conformance.StatusPassed
	want := map[string]string{
		// The host offers tool_call by name, or the catalog has it beside
		// the other tools: the leak shows in ALL_TOOLS, search and its
		// suggestions.
		"Activation: tool-search control tools are hidden even when policy allows them by name":                  failed,
		"Catalog: ALL_TOOLS lists every eligible tool in group order with the same ids in every run":             failed,
		"Catalog: tool-search control tools cannot be called from guest code":                                    failed,
		"Hostile program recursive-02-tool-search-controls.js ends as its header declares":                       failed,
		"Hostile program recursive-05-search-for-controls.js ends as its header declares":                        failed,
		"Tool Search: with code mode active the controls are hidden even when Tool Search and policy allow them": failed,
		// No control tool is offered: nothing can leak.
		"Hostile program recursive-01-exec-by-name.js ends as its header declares":                                    passed,
		"Hostile program recursive-03-no-exec-without-shell.js ends as its header declares":                           passed,
		"Hostile program recursive-04-wait-own-run.js ends as its header declares":                                    passed,
		"Hostile program recursive-06-nested-exec-source.js ends as its header declares":                              passed,
		"Tool Search: with code mode active the controls are in neither ALL_TOOLS nor tools.search, describe or call": passed,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("checklist-12 against a catalog that leaks tool_call (-want +got):\n%s\n%s", diff, out)
	}
}
