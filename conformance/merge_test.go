package conformance

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// shardReports makes the reports of a split of three scenarios in two
// shards, as Run would: a, c in 1/2 and b in 2/2.
func shardReports() []*Report {
	base := Report{Target: "t", Seed: 7, Commit: "abc", Claimed: []string{"core"}}
	one, two := base, base
	one.Started, one.Duration = time.Unix(100, 0), 30
	two.Started, two.Duration = time.Unix(90, 0), 20
	one.TargetStats = map[string]float64{"gatewayStarts": 2, "gatewayStartSeconds": 40}
	two.TargetStats = map[string]float64{"gatewayStarts": 3}
	one.Shard = &ShardInfo{Index: 1, Count: 2, Owned: []string{"a", "c"}, Selected: 3}
	one.Results = []Result{{Feature: "x.feature", Line: 3, Name: "a", Status: StatusPassed}, {Feature: "x.feature", Line: 9, Name: "c", Status: StatusFailed, Signature: "s"}}
	two.Shard = &ShardInfo{Index: 2, Count: 2, Owned: []string{"b"}, Selected: 3}
	two.Results = []Result{{Feature: "x.feature", Line: 6, Name: "b", Status: StatusExpectedFail, Reason: "known"}}
	return []*Report{&one, &two}
}

func TestMerge(t *testing.T) {
	ix := &FeatureIndex{byName: map[string]int{"a": 1, "b": 1, "c": 1}}
	base := &Baseline{Entries: map[string]string{"b": "known", "gone": "renamed"}}
	shards := shardReports()
	got, err := Merge([]*Report{shards[1], shards[0]}, base, ix, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Report{Target: "t", Seed: 7, Commit: "abc", Claimed: []string{"core"},
		Results: []Result{shards[0].Results[0], shards[1].Results[0], shards[0].Results[1]},
		Stale:   []string{"gone"}, Started: time.Unix(90, 0), Duration: 50,
		Totals:      map[string]int{StatusPassed: 1, StatusExpectedFail: 1, StatusFailed: 1},
		TargetStats: map[string]float64{"gatewayStarts": 5, "gatewayStartSeconds": 40},
		ShardRuns: []ShardRun{
			{Index: 1, Started: time.Unix(100, 0), Duration: 30, Scenarios: 2, TargetStats: map[string]float64{"gatewayStarts": 2, "gatewayStartSeconds": 40}},
			{Index: 2, Started: time.Unix(90, 0), Duration: 20, Scenarios: 1, TargetStats: map[string]float64{"gatewayStarts": 3}},
		}}
	want.Divergences = want.Causes(nil)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Merge (-want +got):\n%s", diff)
	}
	if got.OK() {
		t.Error("the merged report is OK, but a shard has an unexpected failure and the baseline a stale entry")
	}
}

func TestMerge_refuses(t *testing.T) {
	ix := &FeatureIndex{byName: map[string]int{"a": 1, "b": 1, "c": 1}}
	base := &Baseline{Entries: map[string]string{}}
	for _, tc := range []struct {
		name   string
		mangle func([]*Report) []*Report
		want   string
	}{
		{name: "missing shard", mangle: func(r []*Report) []*Report { return r[:1] }, want: "missing: [2/2]"},
		{name: "repeated shard", mangle: func(r []*Report) []*Report { return []*Report{r[0], r[1], r[0]} }, want: "shard 1/2 appears twice"},
		{name: "overlap", mangle: func(r []*Report) []*Report {
			r[1].Shard.Owned = append(r[1].Shard.Owned, "a")
			return r
		}, want: `overlap: both own "a"`},
		{name: "ran what it does not own", mangle: func(r []*Report) []*Report {
			r[1].Results = append(r[1].Results, Result{Name: "d"})
			return r
		}, want: `ran "d", which it does not own`},
		{name: "a scenario owned by none", mangle: func(r []*Report) []*Report {
			r[0].Shard.Selected, r[1].Shard.Selected = 4, 4
			return r
		}, want: "own 3 scenarios of a selection of 4"},
		{name: "mixed selections", mangle: func(r []*Report) []*Report { r[1].Shard.Selected = 4; return r }, want: "different selections"},
		{name: "mixed seeds", mangle: func(r []*Report) []*Report { r[1].Seed = 8; return r }, want: "different seeds"},
		{name: "mixed target versions", mangle: func(r []*Report) []*Report { r[1].TargetVersion = "2"; return r }, want: "different target versions"},
		{name: "mixed targets", mangle: func(r []*Report) []*Report { r[1].Target = "u"; return r }, want: "different targets"},
		{name: "mixed commits", mangle: func(r []*Report) []*Report { r[1].Commit = "abd"; return r }, want: "different commits"},
		{name: "mixed tags", mangle: func(r []*Report) []*Report { r[1].Tags = "@core"; return r }, want: "different tag filters"},
		{name: "mixed claims", mangle: func(r []*Report) []*Report { r[1].Claimed = nil; return r }, want: "claim different profiles"},
		{name: "mixed splits", mangle: func(r []*Report) []*Report {
			r[1].Shard.Count = 3
			return r
		}, want: "different splits"},
		{name: "out of range", mangle: func(r []*Report) []*Report {
			r[0].Shard.Index, r[1].Shard.Index = 3, 1
			return r
		}, want: "out of range"},
		{name: "a whole run", mangle: func(r []*Report) []*Report { r[1].Shard = nil; return r }, want: "report 2 is a whole run's"},
		{name: "nothing", mangle: func([]*Report) []*Report { return nil }, want: "no shard reports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Merge(tc.mangle(shardReports()), base, ix, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Merge error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
