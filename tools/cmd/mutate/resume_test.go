package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codemodekit/kit/tools/internal/mutation"
	"github.com/google/go-cmp/cmp"
)

func TestEarlier(t *testing.T) {
	a := mutation.Mutant{Package: "internal/catalog", File: "catalog.go", Line: 1, Column: 2, Type: "ARITHMETIC_BASE"}
	b := mutation.Mutant{Package: "internal/cell", File: "run.go", Line: 3, Column: 4, Type: "CONDITIONALS_NEGATION"}
	c := mutation.Mutant{Package: "internal/engine", File: "vm.go", Line: 5, Column: 6, Type: "INVERT_NEGATIVES"}
	dir := t.TempDir()
	path := filepath.Join(dir, "mutation.json")
	if err := os.WriteFile(path, []byte(`[
  {"mutant": {"package": "internal/catalog", "file": "catalog.go", "line": 1, "column": 2, "type": "ARITHMETIC_BASE"}, "outcome": "killed", "seconds": 3, "by": "x.feature:1"},
  {"mutant": {"package": "internal/engine", "file": "vm.go", "line": 9, "column": 9, "type": "INVERT_NEGATIVES"}, "outcome": "lived", "seconds": 9}
]`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := earlier(path, []mutation.Mutant{a, b, c})
	if err != nil {
		t.Fatal(err)
	}
	// The engine result is of a mutant outside the sample: it is dropped.
	want := map[string]mutation.Result{a.ID(): {Mutant: a, Outcome: mutation.Killed, Seconds: 3, By: "x.feature:1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("earlier (-want +got):\n%s", diff)
	}
	if got, err := earlier(filepath.Join(dir, "none.json"), []mutation.Mutant{a}); err != nil || len(got) != 0 {
		t.Errorf("earlier of a missing file = %v, %v; want none", got, err)
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := earlier(path, []mutation.Mutant{a}); err == nil {
		t.Error("earlier of a broken file: no error")
	}
}
