package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/codemodekit/kit/features"
	"github.com/google/go-cmp/cmp"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  bool
	}{
		{in: "1/8", want: Shard{Index: 1, Count: 8}},
		{in: "8/8", want: Shard{Index: 8, Count: 8}},
		{in: "1/1", want: Shard{Index: 1, Count: 1}},
		{in: "0/8", err: true},
		{in: "9/8", err: true},
		{in: "1/0", err: true},
		{in: "3", err: true},
		{in: "a/b", err: true},
		{in: "-1/4", err: true},
	} {
		got, err := ParseShard(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("ParseShard(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseShard(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestShard_pickPartitionsTheSelection checks, for the embedded features,
// that the shards of a split own every selected scenario exactly once,
// keep a Scenario Outline's rows together, and come out the same every
// time; with durations, that no shard is heavier than the lightest by
// more than its heaviest unit (what greedy balancing guarantees).
func TestShard_pickPartitionsTheSelection(t *testing.T) {
	ix, err := Index(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]string, 0, len(ix.Scenarios))
	durations := Durations{}
	for i, sc := range ix.Scenarios {
		all = append(all, sc.Name)
		if i%7 != 0 { // some scenarios have no recorded duration
			durations[sc.Name] = float64(1+(i*37)%50) / 10
		}
	}
	slices.Sort(all)
	for _, d := range []Durations{nil, durations} {
		for _, n := range []int{1, 2, 8} {
			owner := map[string]int{}
			var got []string
			loads := make([]float64, n)
			heaviest := 0.0
			for k := 1; k <= n; k++ {
				units, err := plan(ix, nil, false)
				if err != nil {
					t.Fatal(err)
				}
				mine := Shard{Index: k, Count: n}.pick(units, d, "")
				again := Shard{Index: k, Count: n}.pick(units, d, "")
				if diff := cmp.Diff(unitKeys(mine), unitKeys(again)); diff != "" {
					t.Errorf("shard %d/%d differs between two picks (-first +second):\n%s", k, n, diff)
				}
				for _, u := range mine {
					loads[k-1] += u.weight
					heaviest = max(heaviest, u.weight)
					for _, sc := range u.scenarios {
						if o, ok := owner[sc.Name]; ok {
							t.Errorf("split %d: %q is in shards %d and %d", n, sc.Name, o, k)
						}
						owner[sc.Name] = k
						got = append(got, sc.Name)
					}
				}
			}
			slices.Sort(got)
			if diff := cmp.Diff(all, got); diff != "" {
				t.Errorf("split %d (durations %v): the shards' union is not the selection (-want +got):\n%s", n, d != nil, diff)
			}
			for _, sc := range ix.Scenarios {
				if sc.outline == 0 {
					continue
				}
				for _, other := range ix.Scenarios {
					if other.Feature == sc.Feature && other.outline == sc.outline && owner[other.Name] != owner[sc.Name] {
						t.Errorf("split %d: rows %q and %q of one outline are in shards %d and %d", n, sc.Name, other.Name, owner[sc.Name], owner[other.Name])
					}
				}
			}
			if d != nil && n > 1 && slices.Max(loads)-slices.Min(loads) > heaviest {
				t.Errorf("split %d: loads %v differ by more than the heaviest unit %.1f", n, loads, heaviest)
			}
		}
	}
}

func unitKeys(units []planUnit) []string {
	var keys []string
	for _, u := range units {
		keys = append(keys, u.key)
	}
	return keys
}

// TestPlan_bySetup checks that scenarios with the same setup steps (and
// arguments) run one after another, and that paths select what they name.
func TestPlan_bySetup(t *testing.T) {
	fsys := bySetupFeatures
	ix, err := Index(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		paths   []string
		bySetup bool
		want    []string
	}{
		{name: "index order", want: []string{"a.feature:3", "a.feature:10", "a.feature:17", "b.feature:3", "b.feature:16", "b.feature:17"}},
		{name: "by setup", bySetup: true, want: []string{"a.feature:3", "a.feature:17", "a.feature:10", "b.feature:3", "b.feature:16", "b.feature:17"}},
		{name: "a file and an outline", paths: []string{"b.feature:10", "a.feature"}, bySetup: true, want: []string{"a.feature:3", "a.feature:17", "a.feature:10", "b.feature:16", "b.feature:17"}},
		{name: "one row", paths: []string{"b.feature:17"}, want: []string{"b.feature:17"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			units, err := plan(ix, tc.paths, tc.bySetup)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := flatten(units)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("run order (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := plan(ix, []string{"c.feature"}, false); err == nil || !strings.Contains(err.Error(), "no scenario matches") {
		t.Errorf("plan of a path that selects nothing: error %v, want no scenario matches", err)
	}
}

// TestPlan_bySetupHostile checks that the hostile programs group by the
// setup their headers declare (config, tools, deny): one unit per distinct
// header setup.
func TestPlan_bySetupHostile(t *testing.T) {
	ix, err := Index(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	progs, err := LoadHostilePrograms()
	if err != nil {
		t.Fatal(err)
	}
	setups := map[string]bool{}
	for _, p := range progs {
		setups[string(p.Config)+"\x00"+p.Tools+"\x00"+strings.Join(p.Deny, ",")] = true
	}
	units, err := plan(ix, []string{"18-hostile.feature"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != len(setups) {
		t.Errorf("18-hostile.feature plans into %d units, want one per distinct header setup: %d", len(units), len(setups))
	}
	if len(setups) >= len(progs) {
		t.Errorf("%d programs have %d distinct setups: the test groups nothing", len(progs), len(setups))
	}
}

// bySetupFeatures have scenarios whose setups interleave: one and three,
// two and four share theirs.
var bySetupFeatures = fstest.MapFS{
	"a.feature": {Data: []byte(`Feature: a

  Scenario: one
    Given code mode is configured as:
      """json
      {"enabled": true}
      """
    When a turn starts

  Scenario: two
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts

  Scenario: three
    Given code mode is configured as:
      """json
      {"enabled": true}
      """
    When a turn starts
    Given the catalog "mixed"
`)},
	"b.feature": {Data: []byte(`Feature: b

  Scenario: four
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts

  Scenario Outline: five <n>
    Given the catalog "<n>"
    When a turn starts

    Examples:
      | n     |
      | basic |
      | mixed |
`)},
}

// setupTarget records the configuration of every scenario it starts.
type setupTarget struct {
	recordingTarget
	configs *[]string
}

func (t setupTarget) Start(_ context.Context, s *Setup) error {
	var doc struct {
		Tools struct {
			CodeMode struct{ TimeoutMs int }
		}
	}
	if err := json.Unmarshal(s.Config, &doc); err != nil {
		return err
	}
	*t.configs = append(*t.configs, fmt.Sprint(doc.Tools.CodeMode.TimeoutMs))
	return nil
}

// TestRun_GroupBySetupRunsEachGroupTogether checks that a run grouped by
// setup runs the scenarios of a group one after another, whatever the
// seed, in a shard as in a whole run, the rows of a Scenario Outline
// too: godog runs an outline's rows in file order.
func TestRun_GroupBySetupRunsEachGroupTogether(t *testing.T) {
	fsys := fstest.MapFS{"a.feature": {Data: []byte(`Feature: a

  Scenario Outline: row <t> <n>
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": <t>}
      """
    When a turn starts

    Examples:
      | t   | n |
      | 300 | 1 |
      | 400 | 2 |
      | 300 | 3 |
      | 400 | 4 |

  Scenario: plain
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts
`)}}
	want := []string{"300", "300", "300", "400", "400"}
	for _, seed := range []int64{1, 2, 3, 42} {
		for _, shard := range []Shard{{}, {Index: 1, Count: 1}} {
			var configs []string
			mk := func() (Target, error) { return setupTarget{recordingTarget{log: &turnLog{}}, &configs}, nil }
			rep, err := Run(context.Background(), Options{Target: "x", Make: mk, FS: fsys, Baseline: &Baseline{},
				Seed: seed, GroupBySetup: true, Shard: shard})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(rep.Results); n != 5 {
				t.Fatalf("seed %d: %d results, want 5", seed, n)
			}
			if diff := cmp.Diff(want, configs); diff != "" {
				t.Errorf("seed %d, shard %v: the configurations in run order (-want +got):\n%s", seed, shard, diff)
			}
		}
	}
}

// TestPlanShards checks a planned split: the scenarios the tag filter
// leaves out weigh nothing, so the shards balance what they run.
func TestPlanShards(t *testing.T) {
	fsys := fstest.MapFS{"a.feature": {Data: []byte(`Feature: a

  @a
  Scenario: heavy
    When a turn starts

  @b
  Scenario: three
    When a turn starts

  @b
  Scenario: two
    When a turn starts

  @b
  Scenario: one
    When a turn starts
`)}}
	d := Durations{"heavy": 100, "three": 3, "two": 2, "one": 1}
	got, err := PlanShards(Options{FS: fsys, Baseline: &Baseline{}, Tags: "@b", Durations: d}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []PartPlan{{Index: 1, Scenarios: 1, Seconds: 3}, {Index: 2, Scenarios: 2, Seconds: 3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PlanShards (-want +got):\n%s", diff)
	}
	// A profile the baseline does not claim is left out as in a run; a
	// scenario without a duration counts the mean.
	got, err = PlanShards(Options{FS: fsys, Baseline: &Baseline{NotClaimed: map[string]string{"a": "no"}}, Durations: Durations{"three": 3, "one": 1}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]PartPlan{{Index: 1, Scenarios: 3, Seconds: 6}}, got); diff != "" {
		t.Errorf("PlanShards, one shard (-want +got):\n%s", diff)
	}
	if _, err := PlanShards(Options{FS: fsys, Baseline: &Baseline{}}, 0); err == nil {
		t.Error("PlanShards with 0 shards: no error")
	}
}
