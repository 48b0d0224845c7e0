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
	// TargetStats are the shard's own (Report.TargetStats); the merged
	// report's add them up.
	TargetStats map[string]float64 `json:"targetStats,omitempty"`
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
	return rep.Durations(), nil
}

// Durations returns the report's scenario durations by name.
func (r *Report) Durations() Durations {
	d := make(Durations, len(r.Results))
	for _, res := range r.Results {
		d[res.Name] = res.Duration
	}
	return d
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

// partition returns the plan units of the scenarios opts selects that
// opts.Shard runs, in run order, and how many scenarios the whole
// selection has. opts.Tags is the run's tag filter, the profiles its
// target does not claim excluded.
func partition(index *FeatureIndex, opts Options) ([]planUnit, int, error) {
	units, err := plan(index, opts.Paths, opts.GroupBySetup)
	if err != nil {
		return nil, 0, err
	}
	selected := 0
	for _, u := range units {
		selected += len(u.scenarios)
	}
	if opts.Shard.whole() {
		return units, selected, nil
	}
	if opts.GroupBySetup {
		// A setup group larger than a shard's share is cut, or one
		// shard would run most of the suite.
		units = cutUnits(units, (selected+opts.Shard.Count-1)/opts.Shard.Count)
	}
	return opts.Shard.pick(units, opts.Durations, opts.Tags), selected, nil
}

// A PartPlan is one shard of a planned split (PlanShards).
type PartPlan struct {
	Index int `json:"index"`
	// Scenarios is how many scenarios the shard runs: those it owns that
	// the tag filter selects.
	Scenarios int `json:"scenarios"`
	// Seconds is their durations in the durations given; a scenario
	// without one counts the mean of those with one.
	Seconds float64 `json:"seconds"`
}

// PlanShards returns the split of a run over count shards, as Run would
// make it for each shard with opts (Paths, Tags, GroupBySetup, Durations,
// and the baseline's profiles not claimed, as in Run): what each shard
// runs, and for how long by the durations. The slowest shard's seconds
// estimate the wall time of the run spread over count machines.
func PlanShards(opts Options, count int) ([]PartPlan, error) {
	if count < 1 {
		return nil, fmt.Errorf("conformance: %d shards: want at least one", count)
	}
	_, index, base, err := opts.suite()
	if err != nil {
		return nil, err
	}
	opts.Tags = excludeProfiles(opts.Tags, base.NotClaimed)
	mean := opts.Durations.mean(nil)
	out := make([]PartPlan, count)
	for k := range out {
		opts.Shard = Shard{Index: k + 1, Count: count}
		if count == 1 {
			opts.Shard = Shard{}
		}
		units, _, err := partition(index, opts)
		if err != nil {
			return nil, err
		}
		out[k].Index = k + 1
		for _, u := range units {
			for _, sc := range u.scenarios {
				if !tagsMatch(opts.Tags, sc.Tags) {
					continue
				}
				out[k].Scenarios++
				if v, ok := opts.Durations[sc.Name]; ok {
					out[k].Seconds += v
				} else {
					out[k].Seconds += mean
				}
			}
		}
	}
	return out, nil
}

// mean returns the mean duration of the scenarios d has, of those of
// units when units is not nil; 1 when it has none.
func (d Durations) mean(units []planUnit) float64 {
	known, sum := 0, 0.0
	add := func(name string) {
		if v, ok := d[name]; ok {
			known++
			sum += v
		}
	}
	if units == nil {
		for name := range d {
			add(name)
		}
	}
	for _, u := range units {
		for _, sc := range u.scenarios {
			add(sc.Name)
		}
	}
	if known == 0 {
		return 1
	}
	return sum / float64(known)
}

// pick returns the units of shard s. With durations the units are balanced
// greedily, heaviest first, onto the lightest shard, a scenario the tag
// filter leaves out weighing nothing; without, a unit goes to the shard a
// hash of its first scenario's name names. Every shard computes the same
// partition from the same units, durations and tags.
func (s Shard) pick(units []planUnit, d Durations, tags string) []planUnit {
	assigned := make([]int, len(units)) // unit -> 0-based shard
	if len(d) > 0 {
		fallback := d.mean(units)
		for i := range units {
			units[i].weight = 0
			for _, sc := range units[i].scenarios {
				if !tagsMatch(tags, sc.Tags) {
					continue
				}
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
