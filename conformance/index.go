package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/codemodekit/kit/features"
	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"
)

// A ScenarioInfo describes one scenario (one row of a Scenario Outline).
type ScenarioInfo struct {
	Feature string   `json:"feature"`
	Line    int      `json:"line"`
	Name    string   `json:"name"`
	Tags    []string `json:"tags"`

	outline int // the Scenario Outline's line for an example row, else 0
}

// FeatureIndex lists every scenario of a feature set.
type FeatureIndex struct {
	Scenarios []ScenarioInfo
	bySource  map[string]ScenarioInfo // uri + "\x00" + name
	byName    map[string]int
	rows      map[string]ScenarioInfo // "file:line" of an example row
}

// HasScenario reports whether a scenario has that name.
func (ix *FeatureIndex) HasScenario(name string) bool { return ix.byName[name] > 0 }

// Duplicates returns scenario names used more than once.
func (ix *FeatureIndex) Duplicates() []string {
	var d []string
	for n, c := range ix.byName {
		if c > 1 {
			d = append(d, n)
		}
	}
	sort.Strings(d)
	return d
}

// Index parses every .feature file of fsys.
func Index(fsys fs.FS) (*FeatureIndex, error) {
	ix := &FeatureIndex{bySource: map[string]ScenarioInfo{}, byName: map[string]int{}, rows: map[string]ScenarioInfo{}}
	files, err := fs.Glob(fsys, "*.feature")
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		n := 0
		newID := func() string { n++; return strconv.Itoa(n) }
		doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(b), newID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		lines := astLines(doc)
		for _, p := range gherkin.Pickles(*doc, f, newID) {
			info := ScenarioInfo{Feature: path.Base(f), Name: p.Name}
			// The last AST node of a pickle is the example row, if any.
			if len(p.AstNodeIds) > 0 {
				info.Line = lines[p.AstNodeIds[len(p.AstNodeIds)-1]]
			}
			if len(p.AstNodeIds) > 1 {
				info.outline = lines[p.AstNodeIds[0]]
				ix.rows[fmt.Sprintf("%s:%d", path.Base(f), info.Line)] = info
			}
			for _, t := range p.Tags {
				info.Tags = append(info.Tags, t.Name)
			}
			ix.Scenarios = append(ix.Scenarios, info)
			ix.bySource[f+"\x00"+p.Name] = info
			ix.byName[p.Name]++
		}
	}
	return ix, nil
}

// astLines maps scenario and example-row ids to their lines.
func astLines(doc *messages.GherkinDocument) map[string]int {
	m := map[string]int{}
	var scen func(s *messages.Scenario)
	scen = func(s *messages.Scenario) {
		if s == nil {
			return
		}
		m[s.Id] = int(s.Location.Line)
		for _, ex := range s.Examples {
			for _, row := range ex.TableBody {
				m[row.Id] = int(row.Location.Line)
			}
		}
	}
	if doc.Feature == nil {
		return m
	}
	for _, c := range doc.Feature.Children {
		scen(c.Scenario)
		if c.Rule != nil {
			for _, rc := range c.Rule.Children {
				scen(rc.Scenario)
			}
		}
	}
	return m
}

// DefaultIndex indexes the embedded features.
func DefaultIndex() (*FeatureIndex, error) { return Index(features.FS) }

// A Baseline lists scenarios expected to fail, each with a reason.
type Baseline struct {
	Entries map[string]string
}

// ParseBaseline reads a baseline file: one "<scenario name> :: <reason>"
// per line; blank lines and lines starting with # are ignored.
func ParseBaseline(b []byte) (*Baseline, error) {
	base := &Baseline{Entries: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, " :: ")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("baseline line %d: want \"<scenario name> :: <reason>\"", n)
		}
		name = strings.TrimSpace(name)
		if _, dup := base.Entries[name]; dup {
			return nil, fmt.Errorf("baseline line %d: %q is listed twice", n, name)
		}
		base.Entries[name] = strings.TrimSpace(reason)
	}
	return base, sc.Err()
}

// Format writes a baseline file from entries, sorted by name.
func (b *Baseline) Format(header string) []byte {
	var buf bytes.Buffer
	for _, l := range strings.Split(strings.TrimSpace(header), "\n") {
		fmt.Fprintf(&buf, "# %s\n", strings.TrimPrefix(l, "# "))
	}
	names := make([]string, 0, len(b.Entries))
	for n := range b.Entries {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&buf, "%s :: %s\n", n, b.Entries[n])
	}
	return buf.Bytes()
}
