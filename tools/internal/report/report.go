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

	"github.com/codemodekit/kit/conformance"
)

// Profiles are the conformance profiles of SPEC.md Appendix C.
var Profiles = []string{"core", "typescript", "mcp", "namespaces", "snapshots", "restart-safe", "security", "e2e", "real-mcp"}

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
	return Summary(f, r)
}

// Summary writes the Markdown summary.
func Summary(w io.Writer, r *conformance.Report) error {
	fmt.Fprintf(w, "# Conformance: %s\n\n", r.Target)
	fmt.Fprintf(w, "Seed `%d`. %s\n\n", r.Seed, r.Summary())
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

// Cucumber writes cucumber JSON: one element per scenario, with its failing
// step when it failed.
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
		Elements []element `json:"elements"`
	}
	byFeature := map[string]*feature{}
	var order []string
	for _, res := range r.Results {
		f := byFeature[res.Feature]
		if f == nil {
			f = &feature{URI: res.Feature, ID: strings.TrimSuffix(res.Feature, ".feature"), Keyword: "Feature", Name: res.Feature}
			byFeature[res.Feature] = f
			order = append(order, res.Feature)
		}
		status := map[string]string{conformance.StatusPassed: "passed", conformance.StatusExpectedFail: "skipped",
			conformance.StatusNotApplicable: "skipped"}[res.Status]
		if status == "" {
			status = "failed"
		}
		el := element{ID: f.ID + ";" + strings.ReplaceAll(strings.ToLower(res.Name), " ", "-"), Keyword: "Scenario",
			Name: res.Name, Line: res.Line, Type: "scenario"}
		for _, t := range res.Tags {
			el.Tags = append(el.Tags, tag{Name: t, Line: res.Line - 1})
		}
		stepName := res.Step
		if stepName == "" {
			stepName = "scenario"
		}
		el.Steps = []step{{Keyword: "Then ", Name: stepName, Line: res.Line,
			Result: result{Status: status, ErrorMessage: res.Error + res.Reason, Duration: int64(res.Duration * 1e9)}}}
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
