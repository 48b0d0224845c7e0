package main

import (
	"os"
	"path/filepath"
	"strings"
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

// -report scores the results already judged with the equivalents recorded
// since, and judges nothing (it does not even list the mutants).
func TestReportOnly(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "mutation.json")
	equivalent := filepath.Join(dir, "equivalent.txt")
	out := filepath.Join(dir, "mutation.md")
	if err := os.WriteFile(results, []byte(`[
  {"mutant": {"package": "internal/catalog", "file": "catalog.go", "line": 1, "column": 2, "type": "ARITHMETIC_BASE"}, "outcome": "killed", "seconds": 3, "by": "x.feature:1"},
  {"mutant": {"package": "internal/engine", "file": "vm.go", "line": 9, "column": 9, "type": "INVERT_NEGATIVES"}, "outcome": "lived", "seconds": 9},
  {"mutant": {"package": "internal/guest", "file": "ledger.go", "line": 4, "column": 5, "type": "CONDITIONALS_BOUNDARY"}, "outcome": "lived", "seconds": 9}
]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(equivalent, []byte("internal/guest/ledger.go:4:5 CONDITIONALS_BOUNDARY :: no guest reaches it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"-report", "-size", "10", "-json", results, "-equivalent", equivalent, "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("mutate -report = %d, stderr:\n%s", code, stderr.String())
	}
	if want := "mutate: 50.0% killed (1 killed, 1 lived, 1 equivalent, 0 not viable)"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout = %q, want it to contain %q", stdout.String(), want)
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(3 of a sample of 10 judged, seed 1)", "no guest reaches it", "`internal/engine/vm.go:9:9 INVERT_NEGATIVES` | not yet killed"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("%s does not contain %q:\n%s", out, want, md)
		}
	}
}

func TestFirstFailure(t *testing.T) {
	tests := []struct{ progress, want string }{
		{"running 3 scenarios, seed 1\nfailed         a.feature:9 A scenario\nfailed         b.feature:3 B\n", "a.feature:9 A scenario"},
		{"running 3 scenarios, seed 1\npanic: runtime error: index out of range [16] with length 16\n\ngoroutine 7 [running]:\n", "panic: runtime error: index out of range [16] with length 16"},
		{"running 3 scenarios, seed 1\nconform: the suite stopped\n\n", "conform: the suite stopped"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := firstFailure(tt.progress); got != tt.want {
			t.Errorf("firstFailure(%q) = %q, want %q", tt.progress, got, tt.want)
		}
	}
}
