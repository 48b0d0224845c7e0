package conformance

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
)

// Merge combines the reports of every shard of one run into the report of
// the whole run, and applies the checks that need the whole baseline: the
// entries that name no scenario (Report.Stale) and, with rows, the
// citations (Report.BaselineProblems). The causes are ranked again over
// all results.
//
// It refuses reports that are not shards' reports, that come from
// different runs (target, seed, tags, commit, claimed profiles, shard
// count or profiles not claimed differ), that repeat a shard or leave one
// out, or whose shards own or ran the same scenario.
func Merge(shards []*Report, base *Baseline, index *FeatureIndex, rows AppendixA) (*Report, error) {
	if len(shards) == 0 {
		return nil, errors.New("conformance: merge: no shard reports")
	}
	first := shards[0]
	for i, r := range shards {
		if r.Shard == nil {
			return nil, fmt.Errorf("conformance: merge: report %d is a whole run's, not a shard's", i+1)
		}
		switch {
		case r.TargetVersion != first.TargetVersion:
			return nil, fmt.Errorf("conformance: merge: shards of different target versions: %q and %q", first.TargetVersion, r.TargetVersion)
		case r.Target != first.Target:
			return nil, fmt.Errorf("conformance: merge: shards of different targets: %q and %q", first.Target, r.Target)
		case r.Seed != first.Seed:
			return nil, fmt.Errorf("conformance: merge: shards of different seeds: %d and %d", first.Seed, r.Seed)
		case r.Commit != first.Commit:
			return nil, fmt.Errorf("conformance: merge: shards of different commits: %q and %q", first.Commit, r.Commit)
		case r.Tags != first.Tags:
			return nil, fmt.Errorf("conformance: merge: shards of different tag filters: %q and %q", first.Tags, r.Tags)
		case !slices.Equal(r.Claimed, first.Claimed):
			return nil, fmt.Errorf("conformance: merge: shards claim different profiles: %q and %q", first.Claimed, r.Claimed)
		case !maps.Equal(r.NotClaimed, first.NotClaimed):
			return nil, errors.New("conformance: merge: shards of different baselines: the profiles not claimed differ")
		case r.Shard.Selected != first.Shard.Selected:
			return nil, fmt.Errorf("conformance: merge: shards of different selections: %d and %d scenarios", first.Shard.Selected, r.Shard.Selected)
		case r.Shard.Count != first.Shard.Count:
			return nil, fmt.Errorf("conformance: merge: shards of different splits: %d/%d and %d/%d", first.Shard.Index, first.Shard.Count, r.Shard.Index, r.Shard.Count)
		}
	}
	count := first.Shard.Count
	byIndex := map[int]*Report{}
	for _, r := range shards {
		if r.Shard.Index < 1 || r.Shard.Index > count {
			return nil, fmt.Errorf("conformance: merge: shard %d/%d is out of range", r.Shard.Index, count)
		}
		if byIndex[r.Shard.Index] != nil {
			return nil, fmt.Errorf("conformance: merge: shard %d/%d appears twice", r.Shard.Index, count)
		}
		byIndex[r.Shard.Index] = r
	}
	var missing []string
	for k := 1; k <= count; k++ {
		if byIndex[k] == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", k, count))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("conformance: merge: shard report(s) missing: %v", missing)
	}
	owner := map[string]int{}
	merged := &Report{Target: first.Target, TargetVersion: first.TargetVersion, Seed: first.Seed, Tags: first.Tags,
		Commit: first.Commit, Claimed: first.Claimed, NotClaimed: first.NotClaimed}
	for k := 1; k <= count; k++ {
		r := byIndex[k]
		for _, name := range r.Shard.Owned {
			if o, ok := owner[name]; ok {
				return nil, fmt.Errorf("conformance: merge: shards %d/%d and %d/%d overlap: both own %q", o, count, k, count, name)
			}
			owner[name] = k
		}
		owned := slices.Clone(r.Shard.Owned)
		sort.Strings(owned)
		if name, ok := ownsAll(owned, r.Results); !ok {
			return nil, fmt.Errorf("conformance: merge: shard %d/%d ran %q, which it does not own", k, count, name)
		}
		merged.Results = append(merged.Results, r.Results...)
		merged.ShardRuns = append(merged.ShardRuns, ShardRun{Index: k, Started: r.Started, Duration: r.Duration, Scenarios: len(r.Results), TargetStats: r.TargetStats})
		merged.Duration += r.Duration
		for k, v := range r.TargetStats {
			if merged.TargetStats == nil {
				merged.TargetStats = map[string]float64{}
			}
			merged.TargetStats[k] += v
		}
		if merged.Started.IsZero() || r.Started.Before(merged.Started) {
			merged.Started = r.Started
		}
	}
	if len(owner) != first.Shard.Selected {
		return nil, fmt.Errorf("conformance: merge: the shards own %d scenarios of a selection of %d", len(owner), first.Shard.Selected)
	}
	sortResults(merged.Results)
	for i := 1; i < len(merged.Results); i++ {
		if merged.Results[i].Name == merged.Results[i-1].Name {
			return nil, fmt.Errorf("conformance: merge: %q has two results", merged.Results[i].Name)
		}
	}
	for name := range base.Entries {
		if !index.HasScenario(name) {
			merged.Stale = append(merged.Stale, name)
		}
	}
	sort.Strings(merged.Stale)
	merged.Divergences = merged.Causes(rows)
	merged.Totals = merged.Counts()
	if rows != nil {
		merged.BaselineProblems = base.Check(index, rows)
	}
	return merged, nil
}
