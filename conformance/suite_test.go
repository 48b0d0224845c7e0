package conformance

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/features"
)

// specClauses reads the clause ids of ../SPEC.md.
func specClauses(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "SPEC.md"))
	if err != nil {
		t.Fatalf("read SPEC.md: %v", err)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^- \*\*(CM-\d+\.\d+)\*\*`).FindAllStringSubmatch(string(b), -1) {
		ids[m[1]] = true
	}
	if len(ids) < 300 {
		t.Fatalf("SPEC.md has %d clauses; the parser found too few", len(ids))
	}
	return ids
}

// exclusions reads exclusions/*.txt: "CM-x.y :: reason" lines.
func exclusions(t *testing.T) map[string]string {
	t.Helper()
	out, err := LoadExclusions()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// profiles are the profile tags, from wire.Profiles.
var profiles = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range wire.Profiles() {
		m["@"+p] = true
	}
	return m
}()

// TestSuite_Tags checks the tagging rules of SPEC.md Appendix C.2 over
// every scenario.
func TestSuite_Tags(t *testing.T) {
	ix, err := Index(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Scenarios) < 200 {
		t.Errorf("the suite has %d scenarios, want at least 200", len(ix.Scenarios))
	}
	if d := ix.Duplicates(); len(d) > 0 {
		t.Errorf("scenario names must be unique (baselines key on them); duplicates: %q", d)
	}
	clauses := specClauses(t)
	items := map[string]map[int]bool{"checklist": {}, "ns": {}, "e2e": {}}
	itemRE := regexp.MustCompile(`^@(checklist|ns|e2e)-(\d+)$`)
	for _, s := range ix.Scenarios {
		nProfiles, nClauses := 0, 0
		for _, tag := range s.Tags {
			switch {
			case profiles[tag]:
				nProfiles++
			case strings.HasPrefix(tag, "@CM-"):
				nClauses++
				if !clauses[strings.TrimPrefix(tag, "@")] {
					t.Errorf("%s:%d %q: tag %s names no SPEC clause", s.Feature, s.Line, s.Name, tag)
				}
			case tag == "@wip":
				t.Errorf("%s:%d %q: @wip scenarios are not allowed in the suite", s.Feature, s.Line, s.Name)
			}
			if m := itemRE.FindStringSubmatch(tag); m != nil {
				n, _ := strconv.Atoi(m[2])
				items[m[1]][n] = true
			}
		}
		if nProfiles != 1 {
			t.Errorf("%s:%d %q: %d profile tags, want exactly one", s.Feature, s.Line, s.Name, nProfiles)
		}
		if nClauses == 0 {
			t.Errorf("%s:%d %q: no clause tag", s.Feature, s.Line, s.Name)
		}
	}
	// The seed's verification checklist has 24 items (SPEC.md C.3), its
	// namespace checklist 10 and its E2E plan 16 steps.
	for kind, n := range map[string]int{"checklist": 24, "ns": 10, "e2e": 16} {
		for i := 1; i <= n; i++ {
			if !items[kind][i] {
				t.Errorf("no scenario is tagged @%s-%d", kind, i)
			}
		}
	}
}

// TestSuite_Coverage checks that every SPEC clause is named by a scenario
// or excluded with a reason, and that exclusions name real clauses.
func TestSuite_Coverage(t *testing.T) {
	ix, err := Index(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	clauses := specClauses(t)
	excluded := exclusions(t)
	tagged := map[string]bool{}
	for _, s := range ix.Scenarios {
		for _, tag := range s.Tags {
			tagged[strings.TrimPrefix(tag, "@")] = true
		}
	}
	for id := range excluded {
		if !clauses[id] {
			t.Errorf("exclusion %s names no SPEC clause", id)
		}
	}
	for id := range clauses {
		if !tagged[id] && excluded[id] == "" {
			t.Errorf("clause %s has no scenario and no written exclusion", id)
		}
	}
}

// TestImportBoundary checks that the suite never depends on an
// implementation (style-anchors §4.2).
func TestImportBoundary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/codemodekit/kit/reference") || strings.HasPrefix(pkg, "github.com/codemodekit/kit/tools") {
			t.Errorf("conformance depends on %s", pkg)
		}
	}
}

func TestBaselineParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]string
		wantErr bool
	}{
		{name: "entries and comments", in: "# c\n\nA scenario :: a reason\nB :: other\n", want: map[string]string{"A scenario": "a reason", "B": "other"}},
		{name: "no reason", in: "A scenario ::\n", wantErr: true},
		{name: "no separator", in: "A scenario\n", wantErr: true},
		{name: "duplicate", in: "A :: r\nA :: s\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseBaseline([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseBaseline error = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if len(b.Entries) != len(tt.want) {
				t.Fatalf("entries = %v, want %v", b.Entries, tt.want)
			}
			for k, v := range tt.want {
				if b.Entries[k] != v {
					t.Errorf("entry %q = %q, want %q", k, b.Entries[k], v)
				}
			}
		})
	}
	// Every shipped baseline parses, and names only existing scenarios.
	ix, err := Index(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("baselines", "*.txt"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base, err := ParseBaseline(b)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for name := range base.Entries {
			if !ix.HasScenario(name) {
				t.Errorf("%s: entry %q names no scenario", f, name)
			}
		}
	}
}

// TestReport_Apply checks the baseline semantics: a listed failure is
// expected, a listed pass is stale, an unknown entry is stale.
func TestReport_Apply(t *testing.T) {
	rep := &Report{Results: []Result{
		{Name: "fails listed", Status: StatusFailed},
		{Name: "passes listed", Status: StatusPassed},
		{Name: "fails unlisted", Status: StatusFailed},
		{Name: "passes unlisted", Status: StatusPassed},
		{Name: "fails as recorded", Status: StatusFailed, Signature: "step | $.code: \"timeout\" vs \"aborted\""},
		{Name: "fails otherwise", Status: StatusFailed, Signature: "step | $.status: \"failed\" vs \"completed\""},
	}}
	ix := &FeatureIndex{byName: map[string]int{"fails listed": 1, "passes listed": 1, "fails unlisted": 1, "passes unlisted": 1,
		"fails as recorded": 1, "fails otherwise": 1}}
	sig := "step | $.code: \"timeout\" vs \"aborted\""
	rep.apply(&Baseline{
		Entries:    map[string]string{"fails listed": "r", "passes listed": "r", "gone": "r", "fails as recorded": "r", "fails otherwise": "r"},
		Signatures: map[string]string{"fails as recorded": sig, "fails otherwise": sig},
	}, ix)
	want := map[string]string{"fails listed": StatusExpectedFail, "passes listed": StatusStale,
		"fails unlisted": StatusFailed, "passes unlisted": StatusPassed,
		"fails as recorded": StatusExpectedFail, "fails otherwise": StatusDrift}
	for _, r := range rep.Results {
		if r.Status != want[r.Name] {
			t.Errorf("%q status = %s, want %s", r.Name, r.Status, want[r.Name])
		}
	}
	if len(rep.Stale) != 1 || rep.Stale[0] != "gone" {
		t.Errorf("stale entries = %q, want [gone]", rep.Stale)
	}
	if rep.OK() {
		t.Error("report with failures and stale entries is OK")
	}
	if got, want := rep.Summary(), "conformance: 1 passed, 4 failed, 2 expected-fail"; got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
}

// TestRun_Selection: a selection that names no feature file or matches no
// scenario is a usage error, never an empty passing run.
func TestRun_Selection(t *testing.T) {
	fsys := fstest.MapFS{"a.feature": {Data: []byte("Feature: a\n\n  @core\n  Scenario: one\n    Given a turn starts\n")}}
	never := func() (Target, error) { return nil, errors.New("no scenario should start") }
	tests := []struct {
		name  string
		opts  Options
		wantE string
	}{
		{"missing file", Options{Paths: []string{"b.feature"}}, `conformance: path "b.feature": no such feature file or directory`},
		{"missing file with line", Options{Paths: []string{"b.feature:3"}}, `conformance: path "b.feature:3": no such feature file or directory`},
		{"no scenario at line", Options{Paths: []string{"a.feature:1"}}, `conformance: no scenario matches paths ["a.feature:1"] and tags ""`},
		{"no scenario with tag", Options{Tags: "@nosuch"}, `conformance: no scenario matches paths [] and tags "@nosuch"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.Target, opts.Make, opts.FS, opts.Baseline = "x", never, fsys, &Baseline{}
			rep, err := Run(context.Background(), opts)
			if err == nil {
				t.Fatalf("Run = %+v, want error %q", rep, tc.wantE)
			}
			if diff := cmp.Diff(tc.wantE, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadExclusions(t *testing.T) {
	for id, reason := range exclusions(t) {
		if !regexp.MustCompile(`^CM-\d+\.\d+$`).MatchString(id) || reason == "" {
			t.Errorf("exclusion %q :: %q is malformed", id, reason)
		}
	}
}

// TestRun_RowSelection: the "file:line" of an example row selects exactly
// that row; the outline's own line selects every row.
func TestRun_RowSelection(t *testing.T) {
	fsys := fstest.MapFS{"a.feature": {Data: []byte(`Feature: a

  @core
  Scenario Outline: row <n>
    Given the model calls exec with:
      """js
      return <n>;
      """

    Examples:
      | n |
      | 1 |
      | 2 |
      | 3 |
`)}}
	mk := func() (Target, error) { return nil, NotApplicable("no target in this test") }
	tests := []struct {
		paths []string
		want  []string
	}{
		{[]string{"a.feature:13"}, []string{"row 2"}},
		{[]string{"a.feature:12", "a.feature:14"}, []string{"row 1", "row 3"}},
		{[]string{"a.feature:4"}, []string{"row 1", "row 2", "row 3"}},
		{[]string{"a.feature:4", "a.feature:13"}, []string{"row 1", "row 2", "row 3"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.paths, ","), func(t *testing.T) {
			rep, err := Run(context.Background(), Options{Target: "x", Make: mk, FS: fsys, Baseline: &Baseline{}, Paths: tc.paths})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rep.Results {
				got = append(got, r.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("scenarios run (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRun_StepsAndTimingRetry: a result lists the scenario's steps with
// their outcomes, and a failed @timing scenario runs once more, alone.
func TestRun_StepsAndTimingRetry(t *testing.T) {
	fsys := fstest.MapFS{"a.feature": {Data: []byte(`Feature: a

  @core @CM-1.1 @timing
  Scenario: flaky
    Then the result status is "completed"
    And the result status is "failed"

  @core @CM-1.1
  Scenario: steady
    Then the result status is "completed"
`)}}
	never := func() (Target, error) { return nil, errors.New("no scenario should start") }
	rep, err := Run(context.Background(), Options{Target: "x", Make: never, FS: fsys, Baseline: &Baseline{}})
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Name, Status, Signature string
		Retried                 bool
		Steps                   []StepResult
	}
	var got []summary
	for _, r := range rep.Results {
		for i := range r.Steps {
			r.Steps[i].Duration = 0
		}
		got = append(got, summary{r.Name, r.Status, r.Signature, r.Retried, r.Steps})
	}
	noExec := "the model has not called exec or wait yet"
	want := []summary{
		{Name: "flaky", Status: StatusFailed, Signature: `the result status is "completed" | error`, Retried: true, Steps: []StepResult{
			{Keyword: "Then ", Text: `the result status is "completed"`, Line: 5, Status: "failed", Error: noExec},
			{Keyword: "And ", Text: `the result status is "failed"`, Line: 6, Status: "skipped"},
		}},
		{Name: "steady", Status: StatusFailed, Signature: `the result status is "completed" | error`, Steps: []StepResult{
			{Keyword: "Then ", Text: `the result status is "completed"`, Line: 10, Status: "failed", Error: noExec},
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}
