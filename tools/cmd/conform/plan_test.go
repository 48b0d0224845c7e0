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
	"github.com/google/go-cmp/cmp"
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

// TestDurations writes a run's durations and reads them back as
// --durations does.
func TestDurations(t *testing.T) {
	dir := t.TempDir()
	rep := conformance.Report{Target: "openclaw-9", Results: []conformance.Result{
		{Name: "b", Duration: 2.04}, {Name: "a", Duration: 1.25}, {Name: "c"},
	}}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	in, out := filepath.Join(dir, "report.json"), filepath.Join(dir, "durations.json")
	if err := os.WriteFile(in, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"durations", "--out", out, in}, &stdout, &stderr); code != 0 {
		t.Fatalf("conform durations exited %d: %s", code, stderr.String())
	}
	got, err := readDurations(out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(conformance.Durations{"a": 1.3, "b": 2, "c": 0}, got); diff != "" {
		t.Errorf("the durations read back (-want +got):\n%s", diff)
	}
	written, err := readReport(out)
	if err != nil || written.Target != "openclaw-9" || written.Results[0].Name != "a" {
		t.Errorf("the durations file reads as a report of %q starting with %+v (%v)", written.Target, written.Results, err)
	}
	if code := run([]string{"durations", in}, &stdout, &stderr); code != 2 {
		t.Errorf("conform durations without --out exited %d, want 2", code)
	}
}
