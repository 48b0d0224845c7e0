package mutation

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
)

// Outcomes of a mutant against the oracle.
const (
	Killed    = "killed"     // a scenario failed
	TimedOut  = "timed-out"  // the oracle did not finish in time: killed
	Lived     = "lived"      // every scenario passed
	NotViable = "not-viable" // the mutant does not build
)

// A Result is one mutant's outcome.
type Result struct {
	Mutant  Mutant  `json:"mutant"`
	Outcome string  `json:"outcome"`
	Seconds float64 `json:"seconds"`
	// By names what killed it: the first failing scenario, or the error.
	By string `json:"by,omitempty"`
}

// Sample picks n mutants, the same ones for the same seed, spread evenly
// over the packages: each package's mutants are shuffled, then taken in
// turn, one package after another.
func Sample(all []Mutant, n int, seed uint64) []Mutant {
	byPkg := map[string][]Mutant{}
	var pkgs []string
	for _, m := range all {
		if byPkg[m.Package] == nil {
			pkgs = append(pkgs, m.Package)
		}
		byPkg[m.Package] = append(byPkg[m.Package], m)
	}
	sort.Strings(pkgs)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for _, p := range pkgs {
		ms := byPkg[p]
		sort.Slice(ms, func(i, j int) bool { return ms[i].ID() < ms[j].ID() })
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	}
	var out []Mutant
	for len(out) < n {
		took := false
		for _, p := range pkgs {
			if len(byPkg[p]) > 0 && len(out) < n {
				out = append(out, byPkg[p][0])
				byPkg[p] = byPkg[p][1:]
				took = true
			}
		}
		if !took {
			break
		}
	}
	return out
}

// ParseEquivalents reads the list of mutants recorded as equivalent (no
// behaviour can tell them from the original): one "<mutant id> :: <reason>"
// per line; blank lines and lines starting with # are ignored.
func ParseEquivalents(b []byte) (map[string]string, error) {
	eq := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, ok := strings.Cut(line, " :: ")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("equivalent mutants line %d: want \"<mutant id> :: <reason>\"", n)
		}
		eq[strings.TrimSpace(id)] = strings.TrimSpace(reason)
	}
	return eq, sc.Err()
}

// A Score sums the results.
type Score struct {
	Killed, Lived, Equivalent, NotViable int
}

// Percent is the share of killed mutants among the viable mutants that are
// not equivalent.
func (s Score) Percent() float64 {
	if s.Killed+s.Lived == 0 {
		return 0
	}
	return 100 * float64(s.Killed) / float64(s.Killed+s.Lived)
}

// Tally scores results; a mutant that lived but is recorded as equivalent
// counts as equivalent.
func Tally(results []Result, eq map[string]string) Score {
	var s Score
	for _, r := range results {
		switch {
		case r.Outcome == NotViable:
			s.NotViable++
		case r.Outcome == Lived && eq[r.Mutant.ID()] != "":
			s.Equivalent++
		case r.Outcome == Lived:
			s.Lived++
		default:
			s.Killed++
		}
	}
	return s
}

// Markdown writes the score, the score per package and every surviving
// mutant with its reason when it is equivalent.
func Markdown(w io.Writer, title string, results []Result, eq map[string]string) error {
	s := Tally(results, eq)
	fmt.Fprintf(w, "# %s\n\n", title)
	fmt.Fprintf(w, "%d mutants: %d killed, %d lived, %d equivalent, %d not viable. Score: **%.1f%%** of the viable, non-equivalent mutants killed.\n\n",
		len(results), s.Killed, s.Lived, s.Equivalent, s.NotViable, s.Percent())
	byPkg := map[string][]Result{}
	var pkgs []string
	for _, r := range results {
		if byPkg[r.Mutant.Package] == nil {
			pkgs = append(pkgs, r.Mutant.Package)
		}
		byPkg[r.Mutant.Package] = append(byPkg[r.Mutant.Package], r)
	}
	sort.Strings(pkgs)
	fmt.Fprintln(w, "| package | mutants | killed | lived | equivalent | not viable | score |\n| --- | --- | --- | --- | --- | --- | --- |")
	for _, p := range pkgs {
		ps := Tally(byPkg[p], eq)
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %.1f%% |\n", p, len(byPkg[p]), ps.Killed, ps.Lived, ps.Equivalent, ps.NotViable, ps.Percent())
	}
	var survivors []Result
	for _, r := range results {
		if r.Outcome == Lived {
			survivors = append(survivors, r)
		}
	}
	if len(survivors) > 0 {
		fmt.Fprintln(w, "\n## Surviving mutants\n\n| mutant | equivalent because |\n| --- | --- |")
		for _, r := range survivors {
			why := eq[r.Mutant.ID()]
			if why == "" {
				why = "not yet killed"
			}
			fmt.Fprintf(w, "| `%s` | %s |\n", r.Mutant.ID(), why)
		}
	}
	return nil
}
