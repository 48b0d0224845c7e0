package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/codemodekit/kit/conformance"
	"github.com/google/go-cmp/cmp"
)

// TestShardsMergeToTheWholeRun runs one feature file against the embedded
// reference whole, then as 8 shards split by hash and as 8 shards balanced
// by the whole run's durations, merges each split with conform merge, and
// compares the merged report with the whole run's, scenario by scenario.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	common := []string{"--path", "11-catalog.feature", "--seed", "11", "--concurrency", "2"}
	conform := func(args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("conform %q exited %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout.String(), stderr.String())
		}
	}
	wholeDir := t.TempDir()
	conform(append(common, "--report", wholeDir)...)
	whole, err := readReport(filepath.Join(wholeDir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range []struct {
		name  string
		extra []string
	}{
		{name: "hash"},
		{name: "durations", extra: []string{"--durations", filepath.Join(wholeDir, "report.json")}},
	} {
		t.Run(split.name, func(t *testing.T) {
			var dirs []string
			for k := 1; k <= 8; k++ {
				dir := t.TempDir()
				args := append(append([]string{}, common...), split.extra...)
				conform(append(args, "--shard", fmt.Sprintf("%d/8", k), "--report", dir)...)
				dirs = append(dirs, dir)
			}
			out := t.TempDir()
			conform(append([]string{"merge", "--report", out}, dirs...)...)
			merged, err := readReport(filepath.Join(out, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(outcomes(whole), outcomes(merged)); diff != "" {
				t.Errorf("merged shards against the whole run (-whole +merged):\n%s", diff)
			}
			if merged.Shard != nil || merged.Seed != whole.Seed || merged.Target != whole.Target {
				t.Errorf("merged report: shard %+v, seed %d, target %q; want no shard, seed %d, target %q", merged.Shard, merged.Seed, merged.Target, whole.Seed, whole.Target)
			}
		})
	}
}

// An outcome is what a scenario's result says, without its timing.
type outcome struct {
	Feature, Name, Status, Signature string
	Line                             int
}

func outcomes(r *conformance.Report) []outcome {
	var out []outcome
	for _, res := range r.Results {
		out = append(out, outcome{Feature: res.Feature, Name: res.Name, Status: res.Status, Signature: res.Signature, Line: res.Line})
	}
	return out
}
