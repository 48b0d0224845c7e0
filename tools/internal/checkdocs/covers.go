package checkdocs

import (
	"strings"
)

// coversSection is the section of SPEC.md that maps the listed items of a
// clause to scenarios.
const coversSection = "F.1"

// checkCovers checks the table of listed items (SPEC.md F.1): every row
// names a clause of SPEC.md, an item that is a phrase of the clause's text
// (so the table cannot invent items), and a scenario that exists and is
// tagged with the clause; a clause has at least two rows, with distinct
// items.
func checkCovers(s *specDoc, cov *coverage, ps *problems) {
	t, line := s.sectionTable(coversSection)
	if t == nil {
		if line == 0 {
			ps.add(SpecPath, 0, "no section %s (the listed items of clauses and their scenarios)", coversSection)
		} else {
			ps.add(SpecPath, line, "section %s has no table", coversSection)
		}
		return
	}
	ci, ii, si := t.col("clause"), t.col("item"), t.col("scenario")
	if ci < 0 || ii < 0 || si < 0 {
		ps.add(SpecPath, line, "the table of section %s needs the columns clause, item and scenario", coversSection)
		return
	}
	items := map[string]map[string]bool{}
	first := map[string]int{}
	var order []string
	for _, r := range t.Rows {
		if len(r.Cells) <= max(ci, ii, si) {
			ps.add(SpecPath, r.Line, "row has %d cells, want 3", len(r.Cells))
			continue
		}
		id, item, scenario := r.Cells[ci], r.Cells[ii], r.Cells[si]
		c := s.byID[id]
		if c == nil {
			ps.add(SpecPath, r.Line, "listed item of %s: no such clause", id)
			continue
		}
		if items[id] == nil {
			items[id] = map[string]bool{}
			first[id] = r.Line
			order = append(order, id)
		}
		text := s.doc.Lines[c.Line-1]
		switch {
		case item == "":
			ps.add(SpecPath, r.Line, "listed item of %s is empty", id)
		case !strings.Contains(text, item):
			ps.add(SpecPath, r.Line, "listed item %q is not a phrase of %s", item, id)
		case items[id][item]:
			ps.add(SpecPath, r.Line, "listed item %q of %s is listed twice", item, id)
		}
		items[id][item] = true
		if cov.failed {
			continue
		}
		tagged := false
		for _, sc := range cov.byClause[id] {
			tagged = tagged || sc.Name == scenario
		}
		if !tagged {
			ps.add(SpecPath, r.Line, "listed item %q of %s: no scenario %q tagged @%s", item, id, scenario, id)
		}
	}
	for _, id := range order {
		if len(items[id]) < 2 {
			ps.add(SpecPath, first[id], "%s has %d listed item; a clause in section %s lists at least two", id, len(items[id]), coversSection)
		}
	}
}
