package checkdocs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A Clause is one normative clause of SPEC.md.
type Clause struct {
	ID       string // "CM-2.4"
	Chapter  int
	N        int
	Line     int
	Keywords []string // the BCP 14 key words it uses, in the order of keywords
}

// A Chapter is a numbered top-level section of SPEC.md ("## 2. Configuration").
type Chapter struct {
	N     int
	Title string
	Line  int
}

// A specDoc is what the check reads from SPEC.md.
type specDoc struct {
	doc      *doc
	clauses  []Clause // in document order
	byID     map[string]*Clause
	chapters map[int]Chapter
}

// keywords are the BCP 14 key words, in the order the matrix lists them.
var keywords = []string{"MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT",
	"SHOULD", "SHOULD NOT", "RECOMMENDED", "NOT RECOMMENDED", "MAY", "OPTIONAL"}

var (
	clauseRE = regexp.MustCompile(`^- \*\*(CM-(\d+)\.(\d+))\*\*`)
	// clauseLikeRE catches list items meant as clauses in another shape.
	clauseLikeRE = regexp.MustCompile(`^\s*[-*+]\s+\*\*CM-`)
	chapterRE    = regexp.MustCompile(`^## (\d+)\.\s+(.*?)\s*$`)
	topRE        = regexp.MustCompile(`^## `)
	keywordRE    = regexp.MustCompile(`\b(NOT RECOMMENDED|MUST NOT|SHALL NOT|SHOULD NOT|MUST|REQUIRED|SHALL|SHOULD|RECOMMENDED|MAY|OPTIONAL)\b`)
	clauseRefRE  = regexp.MustCompile(`\bCM-\d+\.\d+\b`)
)

// parseSpec reads the chapters and clauses of SPEC.md and reports
// malformed, duplicate or misplaced clauses, clauses without a key word and
// references to clauses that do not exist.
func parseSpec(text string, ps *problems) *specDoc {
	s := &specDoc{doc: parseDoc(SpecPath, text), byID: map[string]*Clause{}, chapters: map[int]Chapter{}}
	if s.doc.Unclosed > 0 {
		ps.add(SpecPath, s.doc.Unclosed, "code fence is never closed")
	}
	chapter := 0
	malformed := map[int]bool{}
	for i, line := range s.doc.Lines {
		if s.doc.Code[i] {
			continue
		}
		n := i + 1
		if m := chapterRE.FindStringSubmatch(line); m != nil {
			chapter, _ = strconv.Atoi(m[1])
			s.chapters[chapter] = Chapter{N: chapter, Title: m[2], Line: n}
			continue
		}
		if topRE.MatchString(line) {
			chapter = 0 // an appendix or another unnumbered section
			continue
		}
		m := clauseRE.FindStringSubmatch(line)
		if m == nil {
			if clauseLikeRE.MatchString(line) {
				malformed[i] = true
				ps.add(SpecPath, n, "clause list item is not of the form \"- **CM-<chapter>.<n>** text\"")
			}
			continue
		}
		c := Clause{ID: m[1], Line: n}
		c.Chapter, _ = strconv.Atoi(m[2])
		c.N, _ = strconv.Atoi(m[3])
		c.Keywords = clauseKeywords(maskCodeSpans(line[len(m[0]):]))
		if prev, dup := s.byID[c.ID]; dup {
			ps.add(SpecPath, n, "clause %s is defined twice (first on line %d)", c.ID, prev.Line)
			continue
		}
		if c.Chapter != chapter {
			where := fmt.Sprintf("chapter %d", chapter)
			if chapter == 0 {
				where = "no numbered chapter"
			}
			ps.add(SpecPath, n, "clause %s is in %s", c.ID, where)
		}
		if len(c.Keywords) == 0 {
			ps.add(SpecPath, n, "clause %s has no BCP 14 key word (MUST, SHOULD, MAY, ...)", c.ID)
		}
		s.clauses = append(s.clauses, c)
		s.byID[c.ID] = &s.clauses[len(s.clauses)-1]
	}
	// Re-point byID: appending may have moved the slice.
	for i := range s.clauses {
		s.byID[s.clauses[i].ID] = &s.clauses[i]
	}
	for i, line := range s.doc.Lines {
		if s.doc.Code[i] || malformed[i] {
			continue
		}
		for _, ref := range clauseRefRE.FindAllString(line, -1) {
			if s.byID[ref] == nil {
				ps.add(SpecPath, i+1, "%s is not a clause of SPEC.md", ref)
			}
		}
	}
	return s
}

// clauseKeywords returns the distinct BCP 14 key words of text, in the
// order of keywords.
func clauseKeywords(text string) []string {
	found := map[string]bool{}
	for _, k := range keywordRE.FindAllString(text, -1) {
		found[k] = true
	}
	var out []string
	for _, k := range keywords {
		if found[k] {
			out = append(out, k)
		}
	}
	return out
}

// A table is a Markdown table.
type table struct {
	Header []string
	Rows   []tableRow
}

type tableRow struct {
	Line  int
	Cells []string
}

// col returns the index of the column whose header is name, or -1.
func (t *table) col(name string) int {
	for i, h := range t.Header {
		if strings.EqualFold(strings.TrimSpace(h), name) {
			return i
		}
	}
	return -1
}

// sectionTable returns the first table after the heading of the numbered
// section sect ("2.1"), before the next heading; nil if there is none.
// line is the line of the section heading, or 0.
func (s *specDoc) sectionTable(sect string) (t *table, line int) {
	head := regexp.MustCompile(`^#{2,6}\s+` + regexp.QuoteMeta(sect) + `\s`)
	lines := s.doc.Lines
	for i := 0; i < len(lines); i++ {
		if s.doc.Code[i] || !head.MatchString(lines[i]) {
			continue
		}
		line = i + 1
		for i++; i < len(lines); i++ {
			if s.doc.Code[i] {
				continue
			}
			if atxRE.MatchString(lines[i]) {
				return nil, line
			}
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "|") {
				t = &table{Header: splitRow(lines[i])}
				for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
					t.Rows = append(t.Rows, tableRow{Line: i + 1, Cells: splitRow(lines[i])})
				}
				return t, line
			}
		}
		return nil, line
	}
	return nil, 0
}

// splitRow splits a table row into trimmed cells; \| is a literal pipe.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}
