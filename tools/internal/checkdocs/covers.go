package checkdocs

import (
	"regexp"
	"strings"
)

const (
	// coversSection is the section of SPEC.md that maps the listed items
	// of a clause to scenarios.
	coversSection = "F.1"
	// wholeSection is the section of SPEC.md that names the listing
	// clauses whose list is one requirement, each with a scenario that
	// checks it whole.
	wholeSection = "F.2"
	// gapsSection is where a table of listed items without a scenario
	// would be; checkdocs refuses one (every listed item has a scenario).
	gapsSection = "F.3"
)

// serialListRE matches a serial list in prose whose code spans are each
// replaced by one word: "a, b and c", "a, b, or c".
var serialListRE = regexp.MustCompile(`\w+, [\w ]+,? (and|or) \w+`)

// listing reports whether a clause reads as a list of items that could each
// be broken on its own: a MUST or MUST NOT clause whose text has three or
// more distinct code spans, or a serial list outside code spans. Such a
// clause is covered item by item (F.1) or, when its list is one
// requirement, whole (F.2). The test is deliberately wide: a clause it
// flags that lists nothing says so in F.2, with a scenario.
func listing(c *Clause, text string) bool {
	must := false
	for _, k := range c.Keywords {
		must = must || k == "MUST" || k == "MUST NOT"
	}
	if !must {
		return false
	}
	distinct := map[string]bool{}
	var prose strings.Builder
	last := 0
	for _, sp := range codeSpans(text) {
		distinct[text[sp[0]:sp[1]]] = true
		prose.WriteString(text[last:sp[0]])
		prose.WriteString("X")
		last = sp[1]
	}
	prose.WriteString(text[last:])
	return len(distinct) >= 3 || serialListRE.MatchString(prose.String())
}

// checkCovers checks the table of listed items (SPEC.md F.1): every row
// names a clause of SPEC.md, an item that is a phrase of the clause's text
// (so the table cannot invent items), and a scenario that exists and is
// tagged with the clause; a clause has at least two rows, with distinct
// items.
//
// It then checks the clauses whose list is one requirement (SPEC.md F.2),
// and that every listing clause (see listing) is in one of the two tables
// or excluded.
func checkCovers(s *specDoc, cov *coverage, ps *problems) {
	items := checkItems(s, cov, ps)
	whole := checkWhole(s, cov, items, ps)
	if items == nil || whole == nil {
		return // a missing table is reported; the rest would repeat it
	}
	for _, c := range s.clauses {
		_, excluded := cov.exclusions[c.ID]
		if items[c.ID] || whole[c.ID] || excluded || !listing(&c, s.doc.Lines[c.Line-1]) {
			continue
		}
		ps.add(SpecPath, c.Line, "%s lists items but is neither in section %s (an item per row) nor in section %s (one requirement)",
			c.ID, coversSection, wholeSection)
	}
}

// sectionTableOrReport returns the table of section sect with the columns
// cols, in their order, reporting a missing section, table or column.
func sectionTableOrReport(s *specDoc, sect, what string, ps *problems, cols ...string) (*table, []int) {
	t, line := s.sectionTable(sect)
	if t == nil {
		if line == 0 {
			ps.add(SpecPath, 0, "no section %s (%s)", sect, what)
		} else {
			ps.add(SpecPath, line, "section %s has no table", sect)
		}
		return nil, nil
	}
	idx := make([]int, len(cols))
	for i, name := range cols {
		if idx[i] = t.col(name); idx[i] < 0 {
			ps.add(SpecPath, line, "the table of section %s needs the columns %s", sect, strings.Join(cols, ", "))
			return nil, nil
		}
	}
	return t, idx
}

// rowCells returns the cells of r at idx, in their order, reporting a row
// that is too short.
func rowCells(r tableRow, idx []int, ps *problems) ([]string, bool) {
	out := make([]string, len(idx))
	for i, j := range idx {
		if j >= len(r.Cells) {
			ps.add(SpecPath, r.Line, "row has %d cells, want %d", len(r.Cells), len(idx))
			return nil, false
		}
		out[i] = r.Cells[j]
	}
	return out, true
}

// tagged reports whether scenario is a scenario tagged with the clause id.
func tagged(cov *coverage, id, scenario string) bool {
	for _, sc := range cov.byClause[id] {
		if sc.Name == scenario {
			return true
		}
	}
	return false
}

// checkWhole checks the table of clauses whose list is one requirement
// (SPEC.md F.2): every row names a clause of SPEC.md that is not also
// covered item by item, says why, and names a scenario tagged with the
// clause. It returns the clauses of the table, nil without one.
func checkWhole(s *specDoc, cov *coverage, items map[string]bool, ps *problems) map[string]bool {
	t, idx := sectionTableOrReport(s, wholeSection, "the listing clauses whose list is one requirement", ps, "clause", "why", "scenario")
	if t == nil {
		return nil
	}
	whole := map[string]bool{}
	for _, r := range t.Rows {
		c, ok := rowCells(r, idx, ps)
		if !ok {
			continue
		}
		id, why, scenario := c[0], c[1], c[2]
		switch {
		case s.byID[id] == nil:
			ps.add(SpecPath, r.Line, "one-requirement row of %s: no such clause", id)
			continue
		case whole[id]:
			ps.add(SpecPath, r.Line, "%s is listed twice in section %s", id, wholeSection)
		case items[id]:
			ps.add(SpecPath, r.Line, "%s is in both section %s and section %s", id, coversSection, wholeSection)
		case why == "":
			ps.add(SpecPath, r.Line, "one-requirement row of %s does not say why", id)
		}
		whole[id] = true
		if !cov.failed && !tagged(cov, id, scenario) {
			ps.add(SpecPath, r.Line, "one-requirement row of %s: no scenario %q tagged @%s", id, scenario, id)
		}
	}
	return whole
}

// checkItems checks the table of listed items (SPEC.md F.1) as
// checkCovers says: a clause's items are distinct and at least two. A table
// of items without a scenario (F.3) is refused. It returns the clauses of
// F.1, nil without it.
func checkItems(s *specDoc, cov *coverage, ps *problems) map[string]bool {
	t, idx := sectionTableOrReport(s, coversSection, "the listed items of clauses and their scenarios", ps, "clause", "item", "scenario")
	if t == nil {
		return nil
	}
	items := map[string]map[string]bool{}
	first := map[string]int{}
	var order []string
	add := func(r tableRow, id, item string) bool {
		c := s.byID[id]
		if c == nil {
			ps.add(SpecPath, r.Line, "listed item of %s: no such clause", id)
			return false
		}
		if items[id] == nil {
			items[id] = map[string]bool{}
			first[id] = r.Line
			order = append(order, id)
		}
		switch {
		case item == "":
			ps.add(SpecPath, r.Line, "listed item of %s is empty", id)
		case !strings.Contains(s.doc.Lines[c.Line-1], item):
			ps.add(SpecPath, r.Line, "listed item %q is not a phrase of %s", item, id)
		case items[id][item]:
			ps.add(SpecPath, r.Line, "listed item %q of %s is listed twice", item, id)
		}
		items[id][item] = true
		return true
	}
	for _, r := range t.Rows {
		c, ok := rowCells(r, idx, ps)
		if !ok {
			continue
		}
		id, item, scenario := c[0], c[1], c[2]
		if add(r, id, item) && !cov.failed && !tagged(cov, id, scenario) {
			ps.add(SpecPath, r.Line, "listed item %q of %s: no scenario %q tagged @%s", item, id, scenario, id)
		}
	}
	if _, line := s.sectionTable(gapsSection); line > 0 {
		ps.add(SpecPath, line, "section %s lists items without a scenario: every listed item of a MUST clause has a scenario in section %s, or its clause is split and the part no scenario can observe is excluded", gapsSection, coversSection)
	}
	listed := map[string]bool{}
	for _, id := range order {
		listed[id] = true
		if len(items[id]) < 2 {
			ps.add(SpecPath, first[id], "%s has %d listed item; a clause in section %s lists at least two", id, len(items[id]), coversSection)
		}
	}
	return listed
}
