package report

import (
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/codemodekit/kit/conformance"
)

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"class": func(status string) string { return strings.ReplaceAll(status, "-", "") },
	"inc":   func(i int) int { return i + 1 },
	"cause": CauseText,
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance: {{.Target}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1f2328}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}.passed{background:#dafbe1}.failed,.stalebaseline{background:#ffebe9}.expectedfail{background:#fff8c5}.notapplicable,.excluded{background:#eaeef2}
code,pre{font:12px ui-monospace,monospace}pre{white-space:pre-wrap;margin:0}
</style></head><body>
<h1>Conformance: {{.Target}}</h1>
<p>{{.Summary}} · seed <code>{{.Seed}}</code>{{if .Tags}} · tags <code>{{.Tags}}</code>{{end}}</p>
{{if .Divergences}}<h2>Divergences</h2>
<p>The failures grouped by cause, the cause that fails the most scenarios first.</p>
<table><tr><th>#</th><th>scenarios</th><th>cause</th><th>clauses</th></tr>
{{range $i, $c := .Divergences}}<tr class="{{if $c.Unexpected}}failed{{else}}expectedfail{{end}}"><td>{{inc $i}}</td><td>{{len $c.Scenarios}}</td><td>{{cause $c}}<details><summary>scenarios</summary>{{range $c.Scenarios}}<div>{{.}}</div>{{end}}</details></td><td>{{range $c.Clauses}}{{.}} {{end}}</td></tr>
{{end}}</table>
{{end -}}
<h2>Profiles</h2>
<table><tr><th>profile</th><th>claimed</th><th>scenarios</th><th>passed</th><th>failed</th><th>expected-fail</th><th>not applicable</th><th>conforms</th></tr>
{{range .Profiles}}<tr><td>{{.Name}}</td><td>{{if .Claimed}}yes{{else}}no{{end}}</td><td>{{.Total}}</td><td>{{.Passed}}</td><td>{{.Failed}}</td><td>{{.ExpectedFail}}</td><td>{{.NotApplicable}}</td><td class="{{if .Conforms}}passed{{else}}failed{{end}}">{{if .Conforms}}yes{{else}}no{{end}}</td></tr>
{{end}}</table>
<h2>Clauses</h2>
<table><tr><th>clause</th><th>status</th><th>scenarios</th></tr>
{{range .Clauses}}<tr><td>{{.ID}}</td><td class="{{class .Status}}">{{.Status}}</td><td>{{range .Scenarios}}<div class="{{class .Status}}">{{.Feature}}:{{.Line}} {{.Name}}</div>{{end}}{{.Reason}}</td></tr>
{{end}}</table>
{{if .Problems}}<h2>Not passing</h2>
<table><tr><th>scenario</th><th>status</th><th>step</th><th>reason or error</th></tr>
{{range .Problems}}<tr class="{{class .Status}}"><td>{{.Feature}}:{{.Line}} {{.Name}}</td><td>{{.Status}}</td><td><code>{{.Step}}</code></td><td><pre>{{.Reason}}{{.Error}}</pre></td></tr>
{{end}}</table>{{end}}
</body></html>
`))

type profileRow struct {
	Name    string
	Claimed bool
	Tally
}

func (p profileRow) Conforms() bool { return p.Claimed && p.Tally.Conforms() }

type clauseRow struct {
	ID        string
	Status    string
	Scenarios []conformance.Result
	Reason    string // why an excluded clause has no scenario
}

// statusExcluded marks a clause no scenario can check (its reason is in
// conformance/exclusions).
const statusExcluded = "excluded"

// HTML writes a self-contained page: every profile and every clause with
// its status (excluded clauses with their reason), and each failure with
// its step and error.
func HTML(w io.Writer, r *conformance.Report, claimed []string, excluded map[string]string) error {
	isClaimed := map[string]bool{}
	for _, p := range claimed {
		isClaimed[p] = true
	}
	data := struct {
		*conformance.Report
		Summary  string
		Profiles []profileRow
		Clauses  []clauseRow
		Problems []conformance.Result
	}{Report: r, Summary: r.Summary()}
	bp := ByProfile(r)
	for _, p := range Profiles {
		data.Profiles = append(data.Profiles, profileRow{Name: p, Claimed: isClaimed[p], Tally: *bp[p]})
	}
	byClause := map[string][]conformance.Result{}
	for _, res := range r.Results {
		for _, t := range res.Tags {
			if clauseRE.MatchString(t) {
				byClause[t[1:]] = append(byClause[t[1:]], res)
			}
		}
		if res.Status != conformance.StatusPassed {
			data.Problems = append(data.Problems, res)
		}
	}
	ids := make([]string, 0, len(byClause)+len(excluded))
	for id := range byClause {
		ids = append(ids, id)
	}
	for id := range excluded {
		if _, ok := byClause[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return conformance.ClauseLess(ids[i], ids[j]) })
	for _, id := range ids {
		if _, ok := byClause[id]; !ok {
			data.Clauses = append(data.Clauses, clauseRow{ID: id, Status: statusExcluded, Reason: excluded[id]})
			continue
		}
		row := clauseRow{ID: id, Status: conformance.StatusPassed, Scenarios: byClause[id]}
		for _, s := range row.Scenarios {
			if rank(s.Status) > rank(row.Status) {
				row.Status = s.Status
			}
		}
		data.Clauses = append(data.Clauses, row)
	}
	return page.Execute(w, data)
}

// rank orders statuses by severity for a clause's overall status.
func rank(s string) int {
	switch s {
	case conformance.StatusPassed:
		return 0
	case conformance.StatusNotApplicable:
		return 1
	case conformance.StatusExpectedFail:
		return 2
	default:
		return 3
	}
}

// Badge writes an SVG badge for one profile: the share of its scenarios
// that pass, green only when the profile conforms.
func Badge(w io.Writer, profile string, t Tally, claimed bool) error {
	value := "not claimed"
	color := "#9f9f9f"
	if claimed {
		pct := 0
		if t.Total() > 0 {
			pct = t.Passed * 100 / t.Total()
		}
		value = fmt.Sprintf("%d%% (%d/%d)", pct, t.Passed, t.Total())
		switch {
		case t.Conforms():
			color = "#2da44e"
		case pct >= 80:
			color = "#bf8700"
		default:
			color = "#cf222e"
		}
	}
	label := "code mode " + profile
	lw, vw := 7*len(label)+10, 7*len(value)+10
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" role="img" aria-label="%s: %s">`+
		`<rect width="%d" height="20" fill="#555"/><rect x="%d" width="%d" height="20" fill="%s"/>`+
		`<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">`+
		`<text x="5" y="14">%s</text><text x="%d" y="14">%s</text></g></svg>`+"\n",
		lw+vw, template.HTMLEscapeString(label), template.HTMLEscapeString(value), lw, lw, vw, color,
		template.HTMLEscapeString(label), lw+5, template.HTMLEscapeString(value))
	return err
}

// WriteAll writes report.json, summary.md, report.html, cucumber.json,
// junit.xml and one badge per profile into dir.
func WriteAll(dir string, r *conformance.Report, claimed []string) error {
	if err := Write(dir, r); err != nil {
		return err
	}
	write := func(name string, f func(io.Writer) error) error {
		fh, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := f(fh); err != nil {
			fh.Close()
			return err
		}
		return fh.Close()
	}
	excluded, err := conformance.LoadExclusions()
	if err != nil {
		return err
	}
	if err := write("report.html", func(w io.Writer) error { return HTML(w, r, claimed, excluded) }); err != nil {
		return err
	}
	if err := write("cucumber.json", func(w io.Writer) error { return Cucumber(w, r) }); err != nil {
		return err
	}
	if err := write("junit.xml", func(w io.Writer) error { return JUnit(w, r) }); err != nil {
		return err
	}
	isClaimed := map[string]bool{}
	for _, p := range claimed {
		isClaimed[p] = true
	}
	bp := ByProfile(r)
	if err := os.MkdirAll(filepath.Join(dir, "badges"), 0o755); err != nil {
		return err
	}
	for _, p := range Profiles {
		p := p
		if err := write(filepath.Join("badges", p+".svg"), func(w io.Writer) error { return Badge(w, p, *bp[p], isClaimed[p]) }); err != nil {
			return err
		}
	}
	return nil
}
