package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sample is a report with one result of every status, a multi-line error
// and text that must be escaped in every format.
func sample() *conformance.Report {
	r := &conformance.Report{
		Target: "sample", TargetVersion: "1.2.3", Seed: 7, Tags: "~@slow", Commit: "0123abc",
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Duration: 61.4,
		Results: []conformance.Result{
			{Feature: "01-exec.feature", Line: 10, Name: "exec returns a value", Tags: []string{"@core", "@CM-1.1", "@timing"}, Status: conformance.StatusPassed, Duration: 0.01, Retried: true,
				Steps: []conformance.StepResult{
					{Keyword: "When ", Text: "the model calls exec with:", Line: 11, Status: "passed", Duration: 0.006},
					{Keyword: "Then ", Text: "the result value is 2", Line: 15, Status: "passed", Duration: 0.004},
				}},
			{Feature: "01-exec.feature", Line: 20, Name: "pipes | and <tags> & quotes \"", Tags: []string{"@core", "@security", "@CM-1.2"}, Status: conformance.StatusFailed, Step: `the result is "x"`, Error: "first line\nsecond <line>", Duration: 0.02,
				Steps: []conformance.StepResult{
					{Keyword: "When ", Text: "a turn starts", Line: 21, Status: "passed", Duration: 0.01},
					{Keyword: "Then ", Text: `the result is "x"`, Line: 22, Status: "failed", Error: "first line\nsecond <line>", Duration: 0.01},
					{Keyword: "And ", Text: "nothing else", Line: 23, Status: "skipped"},
				}},
			{Feature: "08-runs-and-wait.feature", Line: 30, Name: "wait resumes", Tags: []string{"@snapshots", "@CM-8.10"}, Status: conformance.StatusExpectedFail, Reason: "not yet", Duration: 0.03,
				Steps: []conformance.StepResult{
					{Keyword: "When ", Text: "the model calls wait", Line: 31, Status: "failed", Error: "no run", Duration: 0.03},
				}},
			{Feature: "08-runs-and-wait.feature", Line: 35, Name: "wait refuses", Tags: []string{"@snapshots", "@CM-8.20"}, Status: conformance.StatusExpectedFail, Reason: "known divergence (SPEC A#7)", Duration: 0.03},
			{Feature: "08-runs-and-wait.feature", Line: 38, Name: "wait refuses again", Tags: []string{"@snapshots", "@CM-8.18"}, Status: conformance.StatusExpectedFail, Reason: "known divergence (SPEC A#7): the same", Duration: 0.03},
			{Feature: "14-mcp-real.feature", Line: 40, Name: "real server", Tags: []string{"@real-mcp", "@CM-8.2"}, Status: conformance.StatusNotApplicable, Error: "no fixtures", Duration: 0},
		},
		NotClaimed: map[string]string{"typescript": "no TypeScript (SPEC A#15)"},
		BaselineProblems: []conformance.BaselineProblem{
			{Scenario: "wait resumes", Kind: "over-assertion", Rows: []int{24}, Clauses: []string{"CM-8.10"}},
		},
	}
	r.Divergences = r.Causes(conformance.AppendixA{7: {Topic: "`wait` refusals", Clauses: []string{"CM-8.18", "CM-8.20"}}})
	return r
}

func TestFormats(t *testing.T) {
	claimed := []string{"core", "snapshots"}
	tests := []struct {
		golden string
		write  func(*bytes.Buffer) error
	}{
		{"summary.md", func(b *bytes.Buffer) error {
			return Summary(b, sample(), map[string]string{"CM-1.19": "meta requirement on this document", "CM-1.2": "covered, so not shown as excluded"})
		}},
		{"junit.xml", func(b *bytes.Buffer) error { return JUnit(b, sample()) }},
		{"cucumber.json", func(b *bytes.Buffer) error { return Cucumber(b, sample()) }},
		{"report.html", func(b *bytes.Buffer) error {
			return HTML(b, sample(), claimed, map[string]string{"CM-1.19": "meta requirement on this document", "CM-1.2": "covered, so not shown as excluded"})
		}},
		{"badge-core.svg", func(b *bytes.Buffer) error { return Badge(b, "core", *ByProfile(sample())["core"], true) }},
		{"badge-mcp.svg", func(b *bytes.Buffer) error { return Badge(b, "mcp", *ByProfile(sample())["mcp"], false) }},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", tc.golden, diff)
			}
		})
	}
}

func TestWellFormed(t *testing.T) {
	var x, j bytes.Buffer
	if err := JUnit(&x, sample()); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Suites []struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(x.Bytes(), &suites); err != nil {
		t.Fatalf("junit is not XML: %v", err)
	}
	var failed, skipped, cases int
	for _, s := range suites.Suites {
		for _, c := range s.Cases {
			cases++
			if c.Failure != nil {
				failed++
			}
			if c.Skipped != nil {
				skipped++
			}
		}
	}
	if cases != 6 || failed != 1 {
		t.Errorf("junit: %d cases, %d failures; want 6 cases, 1 failure", cases, failed)
	}
	if err := Cucumber(&j, sample()); err != nil {
		t.Fatal(err)
	}
	var v []any
	if err := json.Unmarshal(j.Bytes(), &v); err != nil {
		t.Fatalf("cucumber is not JSON: %v", err)
	}
}

func TestTally(t *testing.T) {
	got := map[string]Tally{}
	for p, tl := range ByProfile(sample()) {
		if tl.Total() > 0 {
			got[p] = *tl
		}
	}
	want := map[string]Tally{
		"core":      {Passed: 1, Failed: 1},
		"security":  {Failed: 1},
		"snapshots": {ExpectedFail: 3},
		"real-mcp":  {NotApplicable: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ByProfile (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		t    Tally
		want bool
	}{
		{Tally{}, false},
		{Tally{Passed: 3}, true},
		{Tally{Passed: 3, NotApplicable: 1}, false},
		{Tally{Passed: 3, ExpectedFail: 1}, false},
	} {
		if got := tc.t.Conforms(); got != tc.want {
			t.Errorf("%+v.Conforms() = %v, want %v", tc.t, got, tc.want)
		}
	}
}

func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, sample(), []string{"core"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	for _, want := range []string{"report.json", "summary.md", "report.html", "cucumber.json", "junit.xml", "badges/core.svg", "badges/real-mcp.svg"} {
		if !strings.Contains(strings.Join(got, "\n")+"\n", want+"\n") {
			t.Errorf("WriteAll wrote %v; missing %s", got, want)
		}
	}
}
