package checkdocs

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/codemodekit/kit/conformance"
)

// An Exclusion is a written reason why no scenario covers a clause.
type Exclusion struct {
	File   string // conformance/exclusions/chNN.txt
	Line   int
	Reason string
}

// coverage is what the check knows about each clause's coverage.
type coverage struct {
	scenarios  int
	byClause   map[string][]conformance.ScenarioInfo // in index order
	exclusions map[string]Exclusion
	// failed reports that the features could not be indexed.
	failed bool
}

var (
	exclusionFileRE = regexp.MustCompile(`^ch(\d{2})\.txt$`)
	clauseTagRE     = regexp.MustCompile(`^@CM-\d+\.\d+$`)
)

// checkCoverage reads the scenarios and exclusions and reports clauses
// with neither, tags and exclusions that name no clause, and misplaced,
// duplicate or needless exclusions.
func checkCoverage(root string, s *specDoc, ps *problems) *coverage {
	cov := &coverage{byClause: map[string][]conformance.ScenarioInfo{}, exclusions: map[string]Exclusion{}}
	ix, err := conformance.Index(os.DirFS(filepath.Join(root, FeaturesDir)))
	if err != nil {
		reportIndexError(err, ps)
		cov.failed = true
		ix = &conformance.FeatureIndex{}
	}
	cov.scenarios = len(ix.Scenarios)
	for _, sc := range ix.Scenarios {
		file := path.Join(FeaturesDir, sc.Feature)
		seen := map[string]bool{} // a tag may be inherited and repeated
		for _, tag := range sc.Tags {
			if seen[tag] {
				continue
			}
			seen[tag] = true
			switch {
			case clauseTagRE.MatchString(tag):
				id := strings.TrimPrefix(tag, "@")
				if s.byID[id] == nil {
					ps.add(file, sc.Line, "scenario %q: tag %s names no clause of SPEC.md", sc.Name, tag)
					continue
				}
				cov.byClause[id] = append(cov.byClause[id], sc)
			case strings.HasPrefix(tag, "@CM-"):
				ps.add(file, sc.Line, "scenario %q: tag %s is not of the form @CM-<chapter>.<n>", sc.Name, tag)
			}
		}
	}

	readExclusions(root, s, cov, ps)
	if cov.failed {
		return cov // without scenarios, coverage cannot be judged
	}
	for _, c := range s.clauses {
		_, excluded := cov.exclusions[c.ID]
		if len(cov.byClause[c.ID]) == 0 && !excluded {
			ps.add(SpecPath, c.Line, "clause %s has no scenario (tag @%s in %s/*.feature) and no exclusion (%s/ch%02d.txt)",
				c.ID, c.ID, FeaturesDir, ExclusionsDir, c.Chapter)
		}
	}
	return cov
}

// readExclusions reads conformance/exclusions/chNN.txt: one
// "CM-x.y :: reason" per line; blank lines and lines starting with # are
// ignored.
func readExclusions(root string, s *specDoc, cov *coverage, ps *problems) {
	dir := filepath.Join(root, filepath.FromSlash(ExclusionsDir))
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		ps.add(ExclusionsDir, 0, "cannot read: %v", err)
		return
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		file := path.Join(ExclusionsDir, e.Name())
		m := exclusionFileRE.FindStringSubmatch(e.Name())
		if m == nil {
			ps.add(file, 0, "exclusion files are named chNN.txt after their chapter")
			continue
		}
		chapter, _ := strconv.Atoi(m[1])
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			ps.add(file, 0, "cannot read: %v", err)
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			id, reason, ok := strings.Cut(line, "::")
			id, reason = strings.TrimSpace(id), strings.TrimSpace(reason)
			if !ok || reason == "" || id == "" {
				ps.add(file, n, "want \"CM-x.y :: reason\"")
				continue
			}
			c := s.byID[id]
			switch {
			case c == nil:
				ps.add(file, n, "exclusion %s names no clause of SPEC.md", id)
				continue
			case c.Chapter != chapter:
				ps.add(file, n, "exclusion %s belongs in ch%02d.txt", id, c.Chapter)
			}
			if prev, dup := cov.exclusions[id]; dup {
				ps.add(file, n, "clause %s is excluded twice (first at %s:%d)", id, prev.File, prev.Line)
				continue
			}
			if scs := cov.byClause[id]; len(scs) > 0 && !cov.failed {
				ps.add(file, n, "clause %s is excluded but covered by %s; drop the exclusion", id, scenarioCount(len(scs)))
			}
			cov.exclusions[id] = Exclusion{File: file, Line: n, Reason: reason}
		}
		if err := sc.Err(); err != nil {
			ps.add(file, 0, "cannot read: %v", err)
		}
	}
}

func scenarioCount(n int) string {
	if n == 1 {
		return "1 scenario"
	}
	return fmt.Sprintf("%d scenarios", n)
}

// gherkinErrRE matches one error of a Gherkin parse: "(line:column): text".
var gherkinErrRE = regexp.MustCompile(`^\((\d+):\d+\): (.*)$`)

// reportIndexError reports an error of conformance.Index, which is
// "<file>: Parser errors:\n(l:c): text\n..." for a feature that does not
// parse, as one problem at the first error.
func reportIndexError(err error, ps *problems) {
	lines := strings.Split(err.Error(), "\n")
	file, _, _ := strings.Cut(lines[0], ": ")
	if len(lines) > 1 && strings.HasSuffix(file, ".feature") {
		if m := gherkinErrRE.FindStringSubmatch(lines[1]); m != nil {
			line, _ := strconv.Atoi(m[1])
			msg := "does not parse: " + m[2]
			if more := len(lines) - 2; more > 0 {
				msg += fmt.Sprintf(" (and %d more errors)", more)
			}
			ps.add(path.Join(FeaturesDir, file), line, "%s", msg)
			return
		}
	}
	ps.add(FeaturesDir, 0, "cannot index the scenarios: %s", strings.Join(lines, "; "))
}
