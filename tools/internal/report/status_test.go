package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
)

// TestStatusPage_baselinesCurrent checks that the baselines section of
// docs/conformance-status.md is what the committed baselines give (make
// status regenerates the page).
func TestStatusPage_baselinesCurrent(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "conformance-status.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(page), StatusHeader) {
		t.Fatalf("docs/conformance-status.md does not start with %q: generate it with make status", StatusHeader)
	}
	have, ok := BaselineSectionOf(string(page))
	if !ok {
		t.Fatal("docs/conformance-status.md has no baselines section: generate it with make status")
	}
	spec, err := os.ReadFile(filepath.Join("..", "..", "..", "SPEC.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := conformance.ParseAppendixA(spec)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := conformance.DefaultIndex()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := BaselineSection(&want, rows, ix); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), have); diff != "" {
		t.Errorf("docs/conformance-status.md's baselines are out of date: run make status (-want +got):\n%s", diff)
	}
}

func TestStatusPage(t *testing.T) {
	ix, err := conformance.DefaultIndex()
	if err != nil {
		t.Fatal(err)
	}
	r := sample()
	r.Claimed = []string{"core", "snapshots"}
	var b bytes.Buffer
	if err := StatusPage(&b, []*conformance.Report{r}, nil, ix); err != nil {
		t.Fatal(err)
	}
	row := "| sample | 1.2.3 | `0123abc` | 2026-01-02 | 6 | 1 | 1 | 3 | 1 | 0 of 2 |"
	if !strings.Contains(b.String(), row) {
		t.Errorf("status page has no row %q:\n%s", row, b.String())
	}
	if _, ok := BaselineSectionOf(b.String()); !ok {
		t.Error("status page has no baselines section")
	}
}
