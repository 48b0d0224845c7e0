package conformance

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A Shard is one part of a run split over several processes or machines:
// part Index (1-based) of Count. The zero Shard is the whole run.
type Shard struct {
	Index int
	Count int
}

// ParseShard parses "K/N" with 1 <= K <= N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || ni < 1 || ki < 1 || ki > ni {
		return Shard{}, fmt.Errorf("conformance: shard %q: want K/N with 1 <= K <= N", s)
	}
	return Shard{Index: ki, Count: ni}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// whole reports whether the shard is the whole run.
func (s Shard) whole() bool { return s.Count <= 1 }

// ShardInfo is what a shard's report says about the shard: which part it
// is and the scenarios it owns (every scenario of the selection assigned to
// it, whether or not the tag filter then ran it).
type ShardInfo struct {
	Index int      `json:"index"`
	Count int      `json:"count"`
	Owned []string `json:"owned"`
	// Selected is how many scenarios the whole selection has: the shards'
	// Owned lists add up to it.
	Selected int `json:"selected"`
}

// A ShardRun is one shard of a merged run.
type ShardRun struct {
	Index     int       `json:"index"`
	Started   time.Time `json:"started"`
	Duration  float64   `json:"durationSeconds"`
	Scenarios int       `json:"scenarios"`
}

// Durations are scenario durations in seconds by scenario name, as a
// previous report recorded them; they balance the shards.
type Durations map[string]float64

// ReadDurations reads the durations of a report.json.
func ReadDurations(r io.Reader) (Durations, error) {
	var rep Report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("conformance: durations: %w", err)
	}
	d := Durations{}
	for _, res := range rep.Results {
		d[res.Name] = res.Duration
	}
	return d, nil
}

// A planUnit is what a shard gets whole and what runs without another
// scenario in between: one scenario, every example row of one Scenario
// Outline (the rows share their setup), or, when the plan groups by setup,
// every scenario with the same setup steps.
type planUnit struct {
	key       string // the unit's first scenario's "feature:line"
	scenarios []ScenarioInfo
	weight    float64
}

// plan returns the scenarios paths select, in units, in the order of their
// first scenario in the index. An empty paths, or ".", selects every
// scenario. With bySetup, scenarios whose setup steps (Background and
// Given steps with their arguments) are the same form one unit, so that a
// target that keeps a process per configuration (conformance/openclaw)
// starts it once for all of them.
func plan(ix *FeatureIndex, paths []string, bySetup bool) ([]planUnit, error) {
	all := len(paths) == 0
	want := map[string]bool{}
	for _, p := range paths {
		if p == "." {
			all = true
		}
		want[p] = true
		if _, line, hasLine := strings.Cut(p, ":"); hasLine {
			if _, err := strconv.Atoi(line); err != nil {
				return nil, fmt.Errorf("conformance: path %q: the line must be a number", p)
			}
		}
	}
	var units []planUnit
	at := map[string]int{}
	for _, sc := range ix.Scenarios {
		line := fmt.Sprintf("%s:%d", sc.Feature, sc.Line)
		outline := line
		if sc.outline != 0 {
			outline = fmt.Sprintf("%s:%d", sc.Feature, sc.outline)
		}
		if !all && !want[sc.Feature] && !want[line] && !want[outline] {
			continue
		}
		group := outline
		if bySetup {
			group = "setup\x00" + sc.setup
		}
		if i, ok := at[group]; ok {
			units[i].scenarios = append(units[i].scenarios, sc)
			continue
		}
		at[group] = len(units)
		units = append(units, planUnit{key: line, scenarios: []ScenarioInfo{sc}})
	}
	if len(units) == 0 {
		return nil, fmt.Errorf("conformance: no scenario matches paths %q", paths)
	}
	return units, nil
}

// pick returns the units of shard s. With durations the units are balanced
// greedily, heaviest first, onto the lightest shard; without, a unit goes
// to the shard a hash of its first scenario's name names. Every shard
// computes the same partition from the same units and durations.
func (s Shard) pick(units []planUnit, d Durations) []planUnit {
	assigned := make([]int, len(units)) // unit -> 0-based shard
	if len(d) > 0 {
		known, sum := 0, 0.0
		for _, u := range units {
			for _, sc := range u.scenarios {
				if v, ok := d[sc.Name]; ok {
					known++
					sum += v
				}
			}
		}
		fallback := 1.0
		if known > 0 {
			fallback = sum / float64(known)
		}
		for i := range units {
			units[i].weight = 0
			for _, sc := range units[i].scenarios {
				v, ok := d[sc.Name]
				if !ok {
					v = fallback
				}
				units[i].weight += v
			}
		}
		order := make([]int, len(units))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			ua, ub := units[order[a]], units[order[b]]
			if ua.weight != ub.weight {
				return ua.weight > ub.weight
			}
			return ua.key < ub.key
		})
		load := make([]float64, s.Count)
		for _, i := range order {
			lightest := 0
			for k := 1; k < s.Count; k++ {
				if load[k] < load[lightest] {
					lightest = k
				}
			}
			assigned[i] = lightest
			load[lightest] += units[i].weight
		}
	} else {
		for i, u := range units {
			h := fnv.New64a()
			h.Write([]byte(u.scenarios[0].Name))
			assigned[i] = int(h.Sum64() % uint64(s.Count))
		}
	}
	var mine []planUnit
	for i, u := range units {
		if assigned[i] == s.Index-1 {
			mine = append(mine, u)
		}
	}
	return mine
}

// cutUnits cuts every unit of more than max scenarios into units of at
// most max, in order.
func cutUnits(units []planUnit, max int) []planUnit {
	var out []planUnit
	for _, u := range units {
		for len(u.scenarios) > max && max > 0 {
			first := u.scenarios[:max]
			out = append(out, planUnit{key: fmt.Sprintf("%s:%d", first[0].Feature, first[0].Line), scenarios: first})
			u.scenarios = u.scenarios[max:]
			u.key = fmt.Sprintf("%s:%d", u.scenarios[0].Feature, u.scenarios[0].Line)
		}
		out = append(out, u)
	}
	return out
}

// flatten returns the units' scenarios as "feature:line" paths in run
// order, and their names, sorted.
func flatten(units []planUnit) (paths, names []string) {
	for _, u := range units {
		for _, sc := range u.scenarios {
			paths = append(paths, fmt.Sprintf("%s:%d", sc.Feature, sc.Line))
			names = append(names, sc.Name)
		}
	}
	sort.Strings(names)
	return paths, names
}

// ownsAll reports whether names holds every scenario name of results.
func ownsAll(names []string, results []Result) (string, bool) {
	for _, r := range results {
		if _, ok := slices.BinarySearch(names, r.Name); !ok {
			return r.Name, false
		}
	}
	return "", true
}
