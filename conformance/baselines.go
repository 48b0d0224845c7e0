package conformance

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Baselines holds baselines/<target>.txt for every known target.
//
//go:embed baselines/*.txt
var Baselines embed.FS

// LoadBaseline returns the embedded baseline of target, empty when it has none.
func LoadBaseline(target string) (*Baseline, error) {
	b, err := Baselines.ReadFile("baselines/" + target + ".txt")
	if errors.Is(err, fs.ErrNotExist) {
		return &Baseline{Entries: map[string]string{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseBaseline(b)
}

// A Baseline lists scenarios expected to fail, each with a reason and,
// once a run has recorded it, the signature of the failure; and the
// profiles the target does not claim, each with a reason.
type Baseline struct {
	Entries map[string]string
	// Signatures holds the recorded failure signature of an entry
	// (Result.Signature). An expected failure with another signature is
	// reason drift.
	Signatures map[string]string
	// NotClaimed maps a profile the target does not claim ("core") to the
	// reason. Its scenarios are not run against the target.
	NotClaimed map[string]string
}

// ParseBaseline reads a baseline file, one entry per line:
//
//	<scenario name> :: <reason>
//	<scenario name> :: <reason> :: <failure signature>
//	@<profile> :: <reason the target does not claim the profile>
//
// Blank lines and lines starting with # are ignored.
func ParseBaseline(b []byte) (*Baseline, error) {
	base := &Baseline{Entries: map[string]string{}, Signatures: map[string]string{}, NotClaimed: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, " :: ")
		if len(parts) < 2 || len(parts) > 3 || strings.TrimSpace(parts[1]) == "" {
			return nil, fmt.Errorf("baseline line %d: want \"<scenario name> :: <reason>[ :: <signature>]\"", n)
		}
		name, reason := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		if profile, ok := strings.CutPrefix(name, "@"); ok {
			if len(parts) == 3 {
				return nil, fmt.Errorf("baseline line %d: a profile line has no signature", n)
			}
			if _, dup := base.NotClaimed[profile]; dup {
				return nil, fmt.Errorf("baseline line %d: profile %q is listed twice", n, profile)
			}
			base.NotClaimed[profile] = reason
			continue
		}
		if _, dup := base.Entries[name]; dup {
			return nil, fmt.Errorf("baseline line %d: %q is listed twice", n, name)
		}
		base.Entries[name] = reason
		if len(parts) == 3 {
			base.Signatures[name] = normalizeSignature(parts[2])
		}
	}
	return base, sc.Err()
}

// Format writes a baseline file from the profile lines and entries, sorted.
func (b *Baseline) Format(header string) []byte {
	var buf bytes.Buffer
	for _, l := range strings.Split(strings.TrimSpace(header), "\n") {
		fmt.Fprintln(&buf, strings.TrimRight("# "+strings.TrimPrefix(l, "# "), " "))
	}
	profiles := make([]string, 0, len(b.NotClaimed))
	for p := range b.NotClaimed {
		profiles = append(profiles, p)
	}
	sort.Strings(profiles)
	for _, p := range profiles {
		fmt.Fprintf(&buf, "@%s :: %s\n", p, b.NotClaimed[p])
	}
	names := make([]string, 0, len(b.Entries))
	for n := range b.Entries {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&buf, "%s :: %s", n, b.Entries[n])
		if sig := b.Signatures[n]; sig != "" {
			fmt.Fprintf(&buf, " :: %s", sig)
		}
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// classify applies the baseline entry of res's scenario, if any, and
// reports whether there is one: a listed failure is expected (or reason
// drift when its signature differs from the recorded one), a listed
// not-applicable scenario is expected too, and a listed pass is stale.
func (b *Baseline) classify(res *Result) bool {
	reason, listed := b.Entries[res.Name]
	if !listed {
		return false
	}
	res.Reason = reason
	res.Expected = b.Signatures[res.Name]
	switch res.Status {
	case StatusFailed, StatusNotApplicable:
		res.Status = StatusExpectedFail
		if res.Expected != "" && res.Signature != res.Expected {
			res.Status = StatusDrift
		}
	case StatusPassed:
		res.Status = StatusStale
		res.Error = "baseline entry passes: remove it from the baseline (" + reason + ")"
	}
	return true
}

// citeRE matches a citation of an Appendix A row in a reason: "A#24".
var citeRE = regexp.MustCompile(`\bA#(\d+)\b`)

// Cites returns the Appendix A rows a reason cites, sorted, without
// repeats.
func Cites(reason string) []int {
	var rows []int
	for _, m := range citeRE.FindAllStringSubmatch(reason, -1) {
		n, _ := strconv.Atoi(m[1])
		if !slices.Contains(rows, n) {
			rows = append(rows, n)
		}
	}
	sort.Ints(rows)
	return rows
}

// A BaselineProblem is an entry the baseline should not have.
type BaselineProblem struct {
	Scenario string `json:"scenario"`
	// Kind is "over-assertion" (the cited rows concern none of the
	// scenario's clauses: the scenario fails for a requirement it does not
	// name), "unknown-row" (a cited row does not exist) or "not-claimed"
	// (the scenario belongs to a profile the baseline does not claim, so
	// it never runs).
	Kind    string   `json:"kind"`
	Rows    []int    `json:"rows,omitempty"`
	Clauses []string `json:"clauses,omitempty"` // the scenario's clause tags
}

func (p BaselineProblem) String() string {
	switch p.Kind {
	case "over-assertion":
		return fmt.Sprintf("over-assertion: %q cites %s, which concern none of its clauses %s", p.Scenario, rowList(p.Rows), strings.Join(p.Clauses, " "))
	case "unknown-row":
		return fmt.Sprintf("unknown row: %q cites %s, which Appendix A does not have", p.Scenario, rowList(p.Rows))
	default:
		return fmt.Sprintf("not claimed: %q belongs to a profile the baseline does not claim; remove the entry", p.Scenario)
	}
}

func rowList(rows []int) string {
	s := make([]string, len(rows))
	for i, r := range rows {
		s[i] = "A#" + strconv.Itoa(r)
	}
	return strings.Join(s, ", ")
}

// Check finds the entries a baseline should not have. An entry is an
// over-assertion when none of the Appendix A rows it cites concerns a
// clause its scenario is tagged with, unless every row it cites is cited
// by a profile the baseline does not claim (the scenario uses that
// profile's API). Entries that cite no row (gaps of the suite, bugs, not
// applicable setups) are not checked here.
func (b *Baseline) Check(ix *FeatureIndex, rows AppendixA) []BaselineProblem {
	var notClaimedRows []int
	for _, reason := range b.NotClaimed {
		notClaimedRows = append(notClaimedRows, Cites(reason)...)
	}
	names := make([]string, 0, len(b.Entries))
	for n := range b.Entries {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []BaselineProblem
	for _, name := range names {
		info, ok := ix.Scenario(name)
		if !ok {
			continue // a stale entry: the run reports it
		}
		var clauses []string
		claimed := true
		for _, t := range info.Tags {
			if clauseRefRE.MatchString(t) {
				clauses = append(clauses, strings.TrimPrefix(t, "@"))
			}
			if _, nc := b.NotClaimed[strings.TrimPrefix(t, "@")]; nc {
				claimed = false
			}
		}
		if !claimed {
			out = append(out, BaselineProblem{Scenario: name, Kind: "not-claimed"})
			continue
		}
		cited := Cites(b.Entries[name])
		if len(cited) == 0 {
			continue
		}
		var unknown []int
		concerns := false
		for _, r := range cited {
			row, ok := rows[r]
			if !ok {
				unknown = append(unknown, r)
				continue
			}
			for _, c := range row.Clauses {
				concerns = concerns || slices.Contains(clauses, c)
			}
		}
		switch {
		case len(unknown) > 0:
			out = append(out, BaselineProblem{Scenario: name, Kind: "unknown-row", Rows: unknown, Clauses: clauses})
		case concerns:
		case subsetOf(cited, notClaimedRows):
		default:
			out = append(out, BaselineProblem{Scenario: name, Kind: "over-assertion", Rows: cited, Clauses: clauses})
		}
	}
	return out
}

func subsetOf(a, b []int) bool {
	if len(b) == 0 {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
