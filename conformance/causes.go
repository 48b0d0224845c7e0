package conformance

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A Cause groups the failures of a run that one divergence explains.
type Cause struct {
	// Kind says what identifies the cause: "appendix-a" (the baseline
	// entries cite these rows of SPEC.md Appendix A), "baseline" (the
	// entries share a reason that cites no row: a gap of the suite, a bug,
	// a setup the target cannot express) or "signature" (unexpected
	// failures with the same first difference).
	Kind string `json:"kind"`
	// Key is the cause: "A#22, A#23", the shared reason, or the first
	// difference ("$.code: \"timeout\" vs \"aborted\"", or "error: <text>").
	Key string `json:"cause"`
	// Rows are the cited Appendix A rows, with their topics when the run
	// knew SPEC.md.
	Rows      []int         `json:"rows,omitempty"`
	Topics    []string      `json:"topics,omitempty"`
	Scenarios []CauseMember `json:"scenarios"`
	Clauses   []string      `json:"clauses"` // the clause tags of its scenarios
	// Unexpected is set when the cause's failures fail the run (failures
	// outside the baseline, reason drift).
	Unexpected bool `json:"unexpected,omitempty"`
}

// A CauseMember is one scenario a cause fails.
type CauseMember struct {
	Feature string `json:"feature"`
	Line    int    `json:"line"`
	Name    string `json:"name"`
}

func (m CauseMember) String() string { return fmt.Sprintf("%s:%d %s", m.Feature, m.Line, m.Name) }

// Causes groups the run's failures by cause, the cause failing the most
// scenarios first. Not-applicable scenarios outside the baseline are not
// failures and have no cause. rows, when not nil, names the topics of
// cited Appendix A rows.
func (r *Report) Causes(rows AppendixA) []Cause {
	byKey := map[string]*Cause{}
	var order []string
	for _, res := range r.Results {
		var c Cause
		switch res.Status {
		case StatusExpectedFail:
			if cited := Cites(res.Reason); len(cited) > 0 {
				c = Cause{Kind: "appendix-a", Key: rowList(cited), Rows: cited}
				for _, n := range cited {
					if row, ok := rows[n]; ok {
						c.Topics = append(c.Topics, row.Topic)
					}
				}
			} else {
				c = Cause{Kind: "baseline", Key: res.Reason}
			}
		case StatusFailed, StatusDrift:
			c = Cause{Kind: "signature", Unexpected: true}
			if res.Mismatch != nil {
				c.Key = res.Mismatch.String()
			} else {
				c.Key = "error: " + firstErrorLine(res.Error)
			}
		default:
			continue
		}
		id := c.Kind + "\x00" + c.Key
		have := byKey[id]
		if have == nil {
			have = &c
			byKey[id] = have
			order = append(order, id)
		}
		have.Scenarios = append(have.Scenarios, CauseMember{Feature: res.Feature, Line: res.Line, Name: res.Name})
		for _, t := range res.Tags {
			if clauseRefRE.MatchString(t) && !slices.Contains(have.Clauses, strings.TrimPrefix(t, "@")) {
				have.Clauses = append(have.Clauses, strings.TrimPrefix(t, "@"))
			}
		}
	}
	out := make([]Cause, 0, len(order))
	for _, id := range order {
		c := *byKey[id]
		sort.Slice(c.Clauses, func(i, j int) bool { return ClauseLess(c.Clauses[i], c.Clauses[j]) })
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].Scenarios) != len(out[j].Scenarios) {
			return len(out[i].Scenarios) > len(out[j].Scenarios)
		}
		if out[i].Unexpected != out[j].Unexpected {
			return out[i].Unexpected
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// firstErrorLine is an error's first line, without the incidental data
// that would split one cause into many (quoted values are kept short).
func firstErrorLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return s
}

// ClauseLess orders clause ids by chapter and number: CM-2.10 after CM-2.9.
func ClauseLess(a, b string) bool {
	var ca, na, cb, nb int
	fmt.Sscanf(a, "CM-%d.%d", &ca, &na)
	fmt.Sscanf(b, "CM-%d.%d", &cb, &nb)
	if ca != cb {
		return ca < cb
	}
	return na < nb
}
