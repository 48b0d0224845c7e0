package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codemodekit/kit/features"
	"github.com/google/go-cmp/cmp"
)

func TestParseBaseline(t *testing.T) {
	b, err := ParseBaseline([]byte(`# header
@core :: not claimed: no tools global (SPEC A#21)
a scenario :: known divergence (SPEC A#24)
another :: gap in our suite :: the result status is "completed" |  $.status : "completed" vs "failed"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Baseline{
		Entries:    map[string]string{"a scenario": "known divergence (SPEC A#24)", "another": "gap in our suite"},
		Signatures: map[string]string{"another": `the result status is "completed" | $.status : "completed" vs "failed"`},
		NotClaimed: map[string]string{"core": "not claimed: no tools global (SPEC A#21)"},
	}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("ParseBaseline (-want +got):\n%s", diff)
	}
	again, err := ParseBaseline(b.Format("header"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b, again); diff != "" {
		t.Errorf("Format does not round-trip (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"no reason", "a ::  ", "a :: b :: c :: d", "@core :: x :: sig", "a :: x\na :: y", "@core :: x\n@core :: y"} {
		if _, err := ParseBaseline([]byte(bad)); err == nil {
			t.Errorf("ParseBaseline(%q) accepted it", bad)
		}
	}
}

func TestCites(t *testing.T) {
	got := Cites("known divergence (SPEC A#24, A#7): see A#9/A#10 and A#24 again; not B#3 or A#x")
	if diff := cmp.Diff([]int{7, 9, 10, 24}, got); diff != "" {
		t.Errorf("Cites (-want +got):\n%s", diff)
	}
}

func TestBaseline_Check(t *testing.T) {
	ix := &FeatureIndex{Scenarios: []ScenarioInfo{
		{Name: "hostile", Tags: []string{"@security", "@CM-18.1"}},
		{Name: "members", Tags: []string{"@snapshots", "@CM-7.2"}},
		{Name: "helpers", Tags: []string{"@security", "@CM-18.2"}},
		{Name: "core one", Tags: []string{"@core", "@CM-10.1"}},
		{Name: "gap", Tags: []string{"@security", "@CM-18.3"}},
	}}
	rows := AppendixA{24: {Clauses: []string{"CM-1.10", "CM-7.9"}}, 21: {Clauses: []string{"CM-17.1", "CM-10.1"}}, 7: {Clauses: []string{"CM-7.2"}}}
	b := &Baseline{
		Entries: map[string]string{
			"hostile":  "known divergence (SPEC A#24): repair",
			"members":  "known divergence (SPEC A#7, A#24)",
			"helpers":  "known divergence (SPEC A#21)",
			"core one": "known divergence (SPEC A#21)",
			"gap":      "gap in our suite: cites nothing (A#99)",
		},
		NotClaimed: map[string]string{"core": "not claimed (SPEC A#21)"},
	}
	got := b.Check(ix, rows)
	want := []BaselineProblem{
		{Scenario: "core one", Kind: "not-claimed"},
		{Scenario: "gap", Kind: "unknown-row", Rows: []int{99}, Clauses: []string{"CM-18.3"}},
		{Scenario: "hostile", Kind: "over-assertion", Rows: []int{24}, Clauses: []string{"CM-18.1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Check (-want +got):\n%s", diff)
	}
}

// TestBaselines_Check applies Baseline.Check to every committed baseline
// against SPEC.md's Appendix A. The reference's baselines must have no
// problem at all; the counts of the other targets are logged (conform
// reports them with every run).
func TestBaselines_Check(t *testing.T) {
	spec, err := os.ReadFile(filepath.Join("..", "SPEC.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ParseAppendixA(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 100 || len(rows[24].Clauses) == 0 || rows[24].Topic != "Model-boundary decorations" {
		t.Fatalf("Appendix A parsed into %d rows (row 24: %+v); the parser missed some", len(rows), rows[24])
	}
	ix, err := Index(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("baselines", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		target := strings.TrimSuffix(filepath.Base(f), ".txt")
		b, err := LoadBaseline(target)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		problems := b.Check(ix, rows)
		kinds := map[string]int{}
		for _, p := range problems {
			kinds[p.Kind]++
			if strings.HasPrefix(target, "reference") || p.Kind != "over-assertion" {
				t.Errorf("%s: %s", target, p)
			}
		}
		t.Logf("%s: %d entries, %d over-assertions", target, len(b.Entries), kinds["over-assertion"])
	}
}
