package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codemodekit/kit/conformance"
)

// TestPlan plans a split from a report that ran every scenario of the
// profiles the reference claims for two seconds each: the shards' seconds
// add up to the run's, and the slowest shard is named.
func TestPlan(t *testing.T) {
	ix, err := conformance.DefaultIndex()
	if err != nil {
		t.Fatal(err)
	}
	rep := conformance.Report{Target: "reference"}
	for _, sc := range ix.Scenarios {
		if slices.Contains(sc.Tags, "@cluster") {
			continue // the reference's baseline does not claim it
		}
		rep.Results = append(rep.Results, conformance.Result{Feature: sc.Feature, Line: sc.Line, Name: sc.Name, Duration: 2})
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"plan", "--shards", "4", "--durations", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("conform plan exited %d: %s", code, stderr.String())
	}
	out := stdout.String()
	want := fmt.Sprintf("all shards %d s", 2*len(rep.Results))
	if !strings.Contains(out, "reference on 4 shards: the slowest, shard ") || !strings.Contains(out, want) {
		t.Errorf("conform plan printed:\n%s\nwant the slowest shard and %q", out, want)
	}
	if n := strings.Count(out, "\n"); n != 6 {
		t.Errorf("conform plan printed %d lines, want a header, 4 shards and the summary:\n%s", n, out)
	}
	if code := run([]string{"plan", "--shards", "0"}, &stdout, &stderr); code != 2 {
		t.Errorf("conform plan --shards 0 exited %d, want 2", code)
	}
}
