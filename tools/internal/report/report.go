// Package report writes conformance reports: report.json, a Markdown
// summary with per-profile and per-clause coverage, cucumber JSON and JUnit
// XML.
package report

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire"
)

// Profiles are the conformance profiles of SPEC.md Appendix C.
var Profiles = wire.Profiles()

var clauseRE = regexp.MustCompile(`^@CM-\d+\.\d+$`)

// Tally counts results by status.
type Tally struct {
	Passed, Failed, ExpectedFail, NotApplicable int
}

func (t *Tally) add(status string) {
	switch status {
	case conformance.StatusPassed:
		t.Passed++
	case conformance.StatusExpectedFail:
		t.ExpectedFail++
	case conformance.StatusNotApplicable:
		t.NotApplicable++
	default:
		t.Failed++
	}
}

// Total is the number of results.
func (t Tally) Total() int { return t.Passed + t.Failed + t.ExpectedFail + t.NotApplicable }

// Conforms reports whether every scenario passed.
func (t Tally) Conforms() bool { return t.Total() > 0 && t.Passed == t.Total() }

// ByProfile tallies results per profile tag.
func ByProfile(r *conformance.Report) map[string]*Tally {
	out := map[string]*Tally{}
	for _, p := range Profiles {
		out[p] = &Tally{}
	}
	for _, res := range r.Results {
		for _, t := range res.Tags {
			if tl, ok := out[strings.TrimPrefix(t, "@")]; ok {
				tl.add(res.Status)
			}
		}
	}
	return out
}

// ByClause tallies results per clause tag.
func ByClause(r *conformance.Report) map[string]*Tally {
	out := map[string]*Tally{}
	for _, res := range r.Results {
		for _, t := range res.Tags {
			if clauseRE.MatchString(t) {
				c := strings.TrimPrefix(t, "@")
				if out[c] == nil {
					out[c] = &Tally{}
				}
				out[c].add(res.Status)
			}
		}
	}
	return out
}

// Write writes report.json and summary.md into dir.
func Write(dir string, r *conformance.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "summary.md"))
	if err != nil {
		return err
	}
	defer f.Close()
	excluded, err := conformance.LoadExclusions()
	if err != nil {
		return err
	}
	return Summary(f, r, excluded)
}

// Summary writes the Markdown summary; excluded are the clauses that have
// no scenario on purpose, with the reason (conformance.LoadExclusions).
func Summary(w io.Writer, r *conformance.Report, excluded map[string]string) error {
	fmt.Fprintf(w, "# Conformance: %s\n\n", r.Target)
	version := ""
	if r.TargetVersion != "" {
		version = " " + r.TargetVersion
	}
	fmt.Fprintf(w, "Target %s%s, seed `%d`", r.Target, version, r.Seed)
	if r.Commit != "" {
		fmt.Fprintf(w, ", suite at `%s`", r.Commit)
	}
	if !r.Started.IsZero() {
		fmt.Fprintf(w, ", started %s, %s", r.Started.UTC().Format("2006-01-02 15:04 MST"), (time.Duration(r.Duration * float64(time.Second))).Round(time.Second))
	}
	fmt.Fprintf(w, ". %s\n\n", r.Summary())
	if len(r.ShardRuns) > 0 {
		var parts []string
		for _, s := range r.ShardRuns {
			parts = append(parts, fmt.Sprintf("%d/%d: %d scenarios, %s", s.Index, len(r.ShardRuns), s.Scenarios, time.Duration(s.Duration*float64(time.Second)).Round(time.Second)))
		}
		fmt.Fprintf(w, "Merged from %d shards (%s).\n\n", len(r.ShardRuns), strings.Join(parts, "; "))
	}
	if len(r.TargetStats) > 0 {
		keys := make([]string, 0, len(r.TargetStats))
		for k := range r.TargetStats {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %g", k, r.TargetStats[k]))
		}
		fmt.Fprintf(w, "Target counters: %s.\n\n", strings.Join(parts, ", "))
	}
	if len(r.Divergences) > 0 {
		fmt.Fprintln(w, "## Divergences\n\nThe failures grouped by cause, the cause that fails the most scenarios first: cited SPEC Appendix A rows for listed failures, the first difference for unexpected ones.\n\n| # | scenarios | cause | clauses |\n| --- | --- | --- | --- |")
		for i, c := range r.Divergences {
			fmt.Fprintf(w, "| %d | %d | %s | %s |\n", i+1, len(c.Scenarios), escape(CauseText(c)), strings.Join(c.Clauses, " "))
		}
		fmt.Fprintln(w)
	}
	if len(r.NotClaimed) > 0 {
		fmt.Fprintln(w, "## Profiles not claimed\n\nTheir scenarios were not run.\n\n| profile | reason |\n| --- | --- |")
		names := make([]string, 0, len(r.NotClaimed))
		for p := range r.NotClaimed {
			names = append(names, p)
		}
		sort.Strings(names)
		for _, p := range names {
			fmt.Fprintf(w, "| %s | %s |\n", p, escape(r.NotClaimed[p]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "## Profiles\n\n| profile | scenarios | passed | failed | expected-fail | not applicable | conforms |\n| --- | --- | --- | --- | --- | --- | --- |")
	bp := ByProfile(r)
	for _, p := range Profiles {
		t := bp[p]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %s |\n", p, t.Total(), t.Passed, t.Failed, t.ExpectedFail, t.NotApplicable, yesNo(t.Conforms()))
	}
	fmt.Fprintln(w, "\n## Clauses\n\n| clause | scenarios | passed | failed | expected-fail | not applicable |\n| --- | --- | --- | --- | --- | --- |")
	bc := ByClause(r)
	clauses := make([]string, 0, len(bc))
	for c := range bc {
		clauses = append(clauses, c)
	}
	sort.Slice(clauses, func(i, j int) bool { return conformance.ClauseLess(clauses[i], clauses[j]) })
	for _, c := range clauses {
		t := bc[c]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d |\n", c, t.Total(), t.Passed, t.Failed, t.ExpectedFail, t.NotApplicable)
	}
	var without []string
	for c := range excluded {
		if bc[c] == nil {
			without = append(without, c)
		}
	}
	if len(without) > 0 {
		sort.Slice(without, func(i, j int) bool { return conformance.ClauseLess(without[i], without[j]) })
		fmt.Fprint(w, "\n## Clauses without scenarios\n\nClauses no scenario can observe (conformance/exclusions), with the reason.\n\n| clause | reason |\n| --- | --- |\n")
		for _, c := range without {
			fmt.Fprintf(w, "| %s | %s |\n", c, escape(excluded[c]))
		}
	}
	var retried []string
	for _, res := range r.Results {
		if res.Retried {
			retried = append(retried, fmt.Sprintf("%s:%d %s (%s)", res.Feature, res.Line, escape(res.Name), res.Status))
		}
	}
	if len(retried) > 0 {
		fmt.Fprint(w, "\n## Retried\n\nTiming-sensitive scenarios (`@timing`) that failed once and ran again; the result is the second run's.\n\n")
		for _, l := range retried {
			fmt.Fprintf(w, "- %s\n", l)
		}
	}
	if len(r.BaselineProblems) > 0 {
		fmt.Fprint(w, "\n## Baseline problems\n\nEntries the baseline should not have: an over-assertion cites rows that concern none of its scenario's clauses.\n\n")
		for _, p := range r.BaselineProblems {
			fmt.Fprintf(w, "- %s\n", escape(p.String()))
		}
	}
	var bad []conformance.Result
	for _, res := range r.Results {
		if res.Status != conformance.StatusPassed {
			bad = append(bad, res)
		}
	}
	if len(bad) > 0 {
		fmt.Fprintln(w, "\n## Not passing\n\n| scenario | status | reason or error |\n| --- | --- | --- |")
		for _, res := range bad {
			why := res.Reason
			if why == "" {
				why = res.Error
			}
			fmt.Fprintf(w, "| %s:%d %s | %s | %s |\n", res.Feature, res.Line, escape(res.Name), res.Status, escape(firstLine(why)))
		}
	}
	return nil
}

// CauseText says a cause in one line: its rows with their topics, the
// shared reason, or the first difference of unexpected failures.
func CauseText(c conformance.Cause) string {
	switch c.Kind {
	case "appendix-a":
		if len(c.Topics) > 0 {
			return c.Key + ": " + strings.Join(c.Topics, "; ")
		}
		return c.Key
	case "signature":
		return "unexpected: " + c.Key
	default:
		return firstLine(c.Key)
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func escape(s string) string { return mdEscaper.Replace(s) }

var mdEscaper = strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;")

// JUnit writes JUnit XML: one test suite per feature file.
func JUnit(w io.Writer, r *conformance.Report) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Time      float64  `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"` // the steps as they ran
	}
	type suite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Name    string   `xml:"name,attr"`
		Suites  []suite  `xml:"testsuite"`
	}
	byFeature := map[string]*suite{}
	var order []string
	for _, res := range r.Results {
		s := byFeature[res.Feature]
		if s == nil {
			s = &suite{Name: res.Feature}
			byFeature[res.Feature] = s
			order = append(order, res.Feature)
		}
		tc := testcase{Name: res.Name, Classname: strings.TrimSuffix(res.Feature, ".feature"), Time: res.Duration}
		var steps strings.Builder
		for _, st := range res.Steps {
			fmt.Fprintf(&steps, "%-8s %s%s (line %d, %.3fs)\n", st.Status, st.Keyword, st.Text, st.Line, st.Duration)
		}
		tc.SystemOut = steps.String()
		switch res.Status {
		case conformance.StatusPassed:
		case conformance.StatusExpectedFail, conformance.StatusNotApplicable:
			tc.Skipped = &skipped{Message: res.Status + ": " + firstLine(res.Reason+res.Error)}
			s.Skipped++
		default:
			tc.Failure = &failure{Message: firstLine(res.Error), Text: "step: " + res.Step + "\n" + res.Error}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	out := suites{Name: "conformance " + r.Target}
	for _, f := range order {
		out.Suites = append(out.Suites, *byFeature[f])
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Cucumber writes Cucumber's JSON report format (the one cucumber-jvm and
// cucumber-js write, and report tools read): one feature per feature file,
// named by its Gherkin title, one element per scenario with its tags and
// every step as it ran (keyword, text, line, status, duration in
// nanoseconds, the error on the failing step).
//
// It is written from the report, not by godog's cucumber formatter: a
// merged run has no godog run to format, and the verdict is the baseline's.
// An expected failure's failing step is "skipped" with the baseline's
// reason in its message (Cucumber has no expected failures; JUnit's
// skipped is the same choice), and a not-applicable scenario's steps are
// "skipped" with the reason.
func Cucumber(w io.Writer, r *conformance.Report) error {
	type result struct {
		Status       string `json:"status"`
		ErrorMessage string `json:"error_message,omitempty"`
		Duration     int64  `json:"duration"`
	}
	type step struct {
		Keyword string `json:"keyword"`
		Name    string `json:"name"`
		Line    int    `json:"line"`
		Result  result `json:"result"`
	}
	type tag struct {
		Name string `json:"name"`
		Line int    `json:"line"`
	}
	type element struct {
		ID      string `json:"id"`
		Keyword string `json:"keyword"`
		Name    string `json:"name"`
		Line    int    `json:"line"`
		Type    string `json:"type"`
		Tags    []tag  `json:"tags"`
		Steps   []step `json:"steps"`
	}
	type feature struct {
		URI      string    `json:"uri"`
		ID       string    `json:"id"`
		Keyword  string    `json:"keyword"`
		Name     string    `json:"name"`
		Line     int       `json:"line"`
		Elements []element `json:"elements"`
	}
	ix, err := conformance.DefaultIndex()
	if err != nil {
		return err
	}
	byFeature := map[string]*feature{}
	var order []string
	for _, res := range r.Results {
		f := byFeature[res.Feature]
		if f == nil {
			name := ix.Title(res.Feature)
			if name == "" {
				name = res.Feature
			}
			f = &feature{URI: "features/" + res.Feature, ID: cucumberID(name), Keyword: "Feature", Name: name, Line: 1}
			byFeature[res.Feature] = f
			order = append(order, res.Feature)
		}
		el := element{ID: f.ID + ";" + cucumberID(res.Name), Keyword: "Scenario", Name: res.Name, Line: res.Line, Type: "scenario"}
		for _, t := range res.Tags {
			el.Tags = append(el.Tags, tag{Name: t, Line: res.Line - 1})
		}
		for _, st := range res.Steps {
			out := step{Keyword: st.Keyword, Name: st.Text, Line: st.Line,
				Result: result{Status: cucumberStatus(st.Status), ErrorMessage: st.Error, Duration: int64(st.Duration * 1e9)}}
			if out.Keyword == "" {
				out.Keyword = "* "
			}
			if out.Result.Status == "failed" && out.Result.ErrorMessage == "" {
				out.Result.ErrorMessage = "failed" // Cucumber requires a failed step's message
			}
			switch {
			case res.Status == conformance.StatusNotApplicable || (res.Status == conformance.StatusExpectedFail && st.Status != "passed" && st.Status != "skipped"):
				if st.Status != "skipped" {
					out.Result.Status = "skipped"
					out.Result.ErrorMessage = res.Status + ": " + res.Reason
					if st.Error != "" {
						out.Result.ErrorMessage += "\n" + st.Error
					}
				}
			}
			el.Steps = append(el.Steps, out)
		}
		if len(el.Steps) == 0 {
			// A result without step outcomes (the scenario never started):
			// one step carries its outcome.
			el.Steps = []step{{Keyword: "* ", Name: "the scenario runs", Line: res.Line,
				Result: result{Status: cucumberStatus(res.Status), ErrorMessage: strings.TrimSpace(res.Error + "\n" + res.Reason), Duration: int64(res.Duration * 1e9)}}}
		}
		f.Elements = append(f.Elements, el)
	}
	out := make([]feature, 0, len(order))
	for _, f := range order {
		out = append(out, *byFeature[f])
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// cucumberStatus maps a step or scenario status to Cucumber's: passed,
// failed, skipped, pending or undefined.
func cucumberStatus(s string) string {
	switch s {
	case "passed", "failed", "skipped", "pending", "undefined":
		return s
	case conformance.StatusExpectedFail, conformance.StatusNotApplicable:
		return "skipped"
	case "ambiguous":
		return "failed"
	}
	return "failed"
}

// cucumberID is Cucumber's id of a name: lower case, spaces as dashes.
func cucumberID(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), " ", "-")
}
