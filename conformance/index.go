package conformance

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
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
	// Steps are the scenario's steps, Background steps first.
	Steps []StepInfo `json:"steps,omitempty"`

	outline int    // the Scenario Outline's line for an example row, else 0
	setup   string // the setup steps with their arguments (see plan)
}

// A StepInfo is one step of a scenario as the feature file writes it.
type StepInfo struct {
	Keyword string `json:"keyword"` // "Given ", "When ", "And "...
	Text    string `json:"text"`
	Line    int    `json:"line"`
}

// FeatureIndex lists every scenario of a feature set.
type FeatureIndex struct {
	Scenarios []ScenarioInfo
	bySource  map[string]ScenarioInfo // uri + "\x00" + name
	byName    map[string]int
	rows      map[string]ScenarioInfo // "file:line" of an example row
	titles    map[string]string       // feature file -> its Feature: title
}

// Title returns the title of a feature file (its "Feature:" line), or ""
// for a file the index does not have.
func (ix *FeatureIndex) Title(file string) string { return ix.titles[file] }

// Scenario returns the scenario with that name.
func (ix *FeatureIndex) Scenario(name string) (ScenarioInfo, bool) {
	for _, s := range ix.Scenarios {
		if s.Name == name {
			return s, true
		}
	}
	return ScenarioInfo{}, false
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
	ix := &FeatureIndex{bySource: map[string]ScenarioInfo{}, byName: map[string]int{}, rows: map[string]ScenarioInfo{}, titles: map[string]string{}}
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
		if doc.Feature != nil {
			ix.titles[path.Base(f)] = doc.Feature.Name
		}
		lines, steps := astLines(doc)
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
			info.setup = setupOf(p)
			for _, st := range p.Steps {
				si := StepInfo{Text: st.Text}
				if len(st.AstNodeIds) > 0 {
					a := steps[st.AstNodeIds[0]]
					si.Keyword, si.Line = a.Keyword, a.Line
				}
				info.Steps = append(info.Steps, si)
			}
			ix.Scenarios = append(ix.Scenarios, info)
			ix.bySource[f+"\x00"+p.Name] = info
			ix.byName[p.Name]++
		}
	}
	return ix, nil
}

// astLines maps scenario and example-row ids to their lines, and step ids
// to their keywords and lines.
func astLines(doc *messages.GherkinDocument) (map[string]int, map[string]StepInfo) {
	m := map[string]int{}
	steps := map[string]StepInfo{}
	addSteps := func(list []*messages.Step) {
		for _, st := range list {
			steps[st.Id] = StepInfo{Keyword: st.Keyword, Text: st.Text, Line: int(st.Location.Line)}
		}
	}
	var scen func(s *messages.Scenario)
	scen = func(s *messages.Scenario) {
		if s == nil {
			return
		}
		m[s.Id] = int(s.Location.Line)
		addSteps(s.Steps)
		for _, ex := range s.Examples {
			for _, row := range ex.TableBody {
				m[row.Id] = int(row.Location.Line)
			}
		}
	}
	if doc.Feature == nil {
		return m, steps
	}
	for _, c := range doc.Feature.Children {
		scen(c.Scenario)
		if c.Background != nil {
			addSteps(c.Background.Steps)
		}
		if c.Rule != nil {
			for _, rc := range c.Rule.Children {
				scen(rc.Scenario)
				if rc.Background != nil {
					addSteps(rc.Background.Steps)
				}
			}
		}
	}
	return m, steps
}

// DefaultIndex indexes the embedded features.
func DefaultIndex() (*FeatureIndex, error) { return Index(features.FS) }

// hostileStep matches the step that runs a hostile program, whose header
// sets the target up (config, tools, deny).
var hostileStep = regexp.MustCompile(`^the model runs the hostile program "([^"]+)"$`)

// setupOf returns the setup of a pickle: the text and argument of every
// step before its first action or outcome step, and the header of the
// hostile program it runs, if any.
func setupOf(p *messages.Pickle) string {
	var sb strings.Builder
	for _, st := range p.Steps {
		if m := hostileStep.FindStringSubmatch(st.Text); m != nil {
			if prog, err := loadHostileProgram(m[1]); err == nil {
				fmt.Fprintf(&sb, "hostile setup\x00%s\x00%s\x00%s\n", prog.Config, prog.Tools, strings.Join(prog.Deny, ","))
			}
		}
	}
	for _, st := range p.Steps {
		if st.Type != messages.PickleStepType_CONTEXT {
			break
		}
		sb.WriteString(st.Text)
		if a := st.Argument; a != nil {
			if a.DocString != nil {
				sb.WriteString("\x00" + a.DocString.Content)
			}
			if a.DataTable != nil {
				for _, row := range a.DataTable.Rows {
					for _, c := range row.Cells {
						sb.WriteString("\x00" + c.Value)
					}
				}
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}
