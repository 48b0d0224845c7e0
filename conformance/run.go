package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codemodekit/kit/features"
	"github.com/cucumber/godog"
)

// Statuses of a scenario result.
const (
	StatusPassed        = "passed"
	StatusFailed        = "failed"
	StatusExpectedFail  = "expected-fail"
	StatusStale         = "stale-baseline"
	StatusNotApplicable = "not-applicable"
	// StatusDrift is an expected failure that failed with another
	// signature than its baseline entry records: the recorded reason no
	// longer explains it, so it fails the run like an unexpected failure.
	StatusDrift = "reason-drift"
)

// SignatureNotApplicable is the signature of a not-applicable result: a
// baseline entry that records it drifts when its scenario fails instead.
const SignatureNotApplicable = "not applicable"

// TagTiming marks a scenario whose outcome depends on timing under load:
// the runner runs it once more when it fails, and reports that it did.
const TagTiming = "@timing"

// Options configure Run.
type Options struct {
	// Target names the target; its baseline is baselines/<Target>.txt
	// unless Baseline is set.
	Target string
	// Make makes a fresh target per scenario.
	Make MakeTarget
	// Tags is a godog tag expression, e.g. "@core && ~@wip".
	Tags string
	// Seed randomizes scenario order; 0 picks one (printed in the report).
	Seed int64
	// Baseline overrides the embedded baseline of Target.
	Baseline *Baseline
	// Progress receives one line per finished scenario; nil for none.
	Progress io.Writer
	// Concurrency is how many scenarios run at once (default 1).
	Concurrency int
	// FS overrides the features (default features.FS).
	FS fs.FS
	// FailFast stops the run at the first failing scenario (a mutation
	// test's oracle needs only to know that something fails).
	FailFast bool
	// AppendixA, when set, names the topics of the causes' cited rows and
	// lets the run check the baseline's citations (Report.BaselineProblems).
	AppendixA AppendixA
	// Paths selects feature files or scenarios ("08-runs-and-wait.feature",
	// "08-runs-and-wait.feature:613"); empty means every feature.
	Paths []string
	// Shard runs only one part of the selected scenarios (see Shard and
	// Merge); the zero Shard runs them all.
	Shard Shard
	// Repeat runs the selected scenarios that many times, one whole pass
	// after another, each pass ordered by the next seed (0 and 1: once).
	// A scenario's result is then its first failure, or else its last
	// run, with Runs and Failures counting its runs. Not with Shard.
	Repeat int
	// Durations balance the shards (ReadDurations); nil splits them by a
	// hash of the scenario names.
	Durations Durations
	// GroupBySetup runs the scenarios with the same setup steps one after
	// another, in the order of their first scenario in the features, for a
	// target that keeps a process per configuration; the seed then orders
	// nothing.
	GroupBySetup bool
	// Commit names the suite's source (a VCS revision); it is copied into
	// the report, and Merge refuses shards of different commits.
	Commit string
}

// A Result is the outcome of one scenario.
type Result struct {
	Feature  string   `json:"feature"`
	Line     int      `json:"line"`
	Name     string   `json:"name"`
	Tags     []string `json:"tags"`
	Status   string   `json:"status"`
	Error    string   `json:"error,omitempty"`
	Step     string   `json:"step,omitempty"`
	Reason   string   `json:"reason,omitempty"` // baseline reason
	Duration float64  `json:"durationSeconds"`
	// Signature identifies the failure: the failing step and its first
	// difference with the kinds of both sides (see Mismatch).
	Signature string `json:"signature,omitempty"`
	// Mismatch is the first difference of the failing step, when it
	// compared values.
	Mismatch *Mismatch `json:"mismatch,omitempty"`
	// Expected is the failure signature the baseline entry records.
	Expected string `json:"expectedSignature,omitempty"`
	// Retried is set when a failure of a @timing scenario made the runner
	// run it again; the result is the second run's.
	Retried bool `json:"retried,omitempty"`
	// Runs and Failures count the runs of a repeated scenario
	// (Options.Repeat) and those that failed.
	Runs     int `json:"runs,omitempty"`
	Failures int `json:"failures,omitempty"`
	// Steps are the scenario's steps with their outcomes.
	Steps []StepResult `json:"steps,omitempty"`
}

// A StepResult is the outcome of one step.
type StepResult struct {
	Keyword  string  `json:"keyword"`
	Text     string  `json:"text"`
	Line     int     `json:"line"`
	Status   string  `json:"status"` // passed, failed, skipped, undefined, pending
	Error    string  `json:"error,omitempty"`
	Duration float64 `json:"durationSeconds"`
}

// A Report is the outcome of a run.
type Report struct {
	Target string `json:"target"`
	Seed   int64  `json:"seed"`
	Tags   string `json:"tags,omitempty"`
	// Commit is Options.Commit.
	Commit string `json:"commit,omitempty"`
	// Claimed are the profiles the target claims, as the runner was told.
	Claimed []string `json:"claimed,omitempty"`
	// TargetVersion is the version of the implementation under test, as
	// the runner was told (the OpenClaw release, the driver's handshake).
	TargetVersion string `json:"targetVersion,omitempty"`
	// Started is when the run started; Duration is its wall time in
	// seconds (a merged report: the earliest start, and the sum of the
	// shards' wall times).
	Started  time.Time `json:"started"`
	Duration float64   `json:"durationSeconds"`
	// Totals count the results by status.
	Totals map[string]int `json:"totals"`
	// TargetStats are counters the target keeps about the run, such as
	// the OpenClaw target's gateway starts; a merge adds them up.
	TargetStats map[string]float64 `json:"targetStats,omitempty"`
	// ShardRuns are set on a merged report: each shard's start, wall time
	// and scenarios run, by shard.
	ShardRuns []ShardRun `json:"shardRuns,omitempty"`
	// Shard is set on a shard's report: which part of the run it is.
	Shard   *ShardInfo `json:"shard,omitempty"`
	Results []Result   `json:"results"`
	// Stale lists baseline entries that name no scenario of the run.
	Stale []string `json:"staleEntries,omitempty"`
	// NotClaimed maps each profile the target's baseline does not claim to
	// its reason; the profile's scenarios were not run.
	NotClaimed map[string]string `json:"notClaimed,omitempty"`
	// Divergences are the run's failures grouped by cause, ranked (Causes).
	Divergences []Cause `json:"divergences,omitempty"`
	// BaselineProblems are the baseline's entries that it should not have
	// (Baseline.Check), when the runner knew SPEC.md's Appendix A.
	BaselineProblems []BaselineProblem `json:"baselineProblems,omitempty"`
}

// Counts tallies results by status.
func (r *Report) Counts() map[string]int {
	c := map[string]int{}
	for _, res := range r.Results {
		c[res.Status]++
	}
	return c
}

// OK reports whether the run has no unexpected result.
func (r *Report) OK() bool {
	c := r.Counts()
	return c[StatusFailed] == 0 && c[StatusStale] == 0 && c[StatusDrift] == 0 && len(r.Stale) == 0
}

// Summary is the closing line of a run.
func (r *Report) Summary() string {
	c := r.Counts()
	return fmt.Sprintf("conformance: %d passed, %d failed, %d expected-fail", c[StatusPassed], c[StatusFailed]+c[StatusStale]+c[StatusDrift]+len(r.Stale), c[StatusExpectedFail])
}

// suite returns the features of a run (opts.FS, else features.FS), their
// index and the target's baseline (opts.Baseline, else the embedded one).
func (opts Options) suite() (fs.FS, *FeatureIndex, *Baseline, error) {
	fsys := opts.FS
	if fsys == nil {
		fsys = features.FS
	}
	index, err := Index(fsys)
	if err != nil {
		return nil, nil, nil, err
	}
	base := opts.Baseline
	if base == nil {
		if base, err = LoadBaseline(opts.Target); err != nil {
			return nil, nil, nil, err
		}
	}
	return fsys, index, base, nil
}

// Run runs the suite against opts.Make and applies the target's baseline.
// The returned error is for harness failures only; scenario failures are in
// the report.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Make == nil {
		return nil, errors.New("conformance: no target factory")
	}
	fsys, index, base, err := opts.suite()
	if err != nil {
		return nil, err
	}
	seed := opts.Seed
	if seed == 0 {
		seed = rand.Int64N(1<<53) + 1
	}
	rep := &Report{Target: opts.Target, Seed: seed, Tags: opts.Tags, Commit: opts.Commit, Started: time.Now().UTC()}
	if len(base.NotClaimed) > 0 {
		rep.NotClaimed = base.NotClaimed
		opts.Tags = excludeProfiles(opts.Tags, base.NotClaimed)
	}
	var groups [][]string // with GroupBySetup: each unit's paths, in run order
	if !opts.Shard.whole() || opts.GroupBySetup {
		units, selected, err := partition(index, opts)
		if err != nil {
			return nil, err
		}
		own, names := flatten(units)
		if opts.GroupBySetup {
			for _, u := range units {
				paths, _ := flatten([]planUnit{u})
				groups = append(groups, paths)
			}
		}
		if !opts.Shard.whole() {
			rep.Shard = &ShardInfo{Index: opts.Shard.Index, Count: opts.Shard.Count, Owned: names, Selected: selected}
		}
		opts.Paths = own
	}
	if opts.Progress != nil {
		if n, err := countSelected(index, opts.Paths, opts.Tags); err == nil {
			fmt.Fprintf(opts.Progress, "running %d scenarios, seed %d\n", n, seed)
		}
	}
	if opts.Repeat > 1 && !opts.Shard.whole() {
		return nil, errors.New("conformance: a repeated run cannot be a shard")
	}
	if rep.Shard == nil || len(opts.Paths) > 0 {
		rep.Results, err = runGroups(opts, base, fsys, index, groups, seed)
		if err != nil {
			return nil, err
		}
		for k := 1; k < opts.Repeat; k++ {
			if opts.Progress != nil {
				fmt.Fprintf(opts.Progress, "pass %d of %d, seed %d\n", k+1, opts.Repeat, seed+int64(k))
			}
			more, err := runGroups(opts, base, fsys, index, groups, seed+int64(k))
			if err != nil {
				return nil, err
			}
			rep.Results = repeated(rep.Results, more, k == 1)
		}
	}
	if len(rep.Results) == 0 && rep.Shard == nil {
		return nil, fmt.Errorf("conformance: no scenario matches paths %q and tags %q", opts.Paths, opts.Tags)
	}
	if err := rep.retryTiming(opts, base, fsys, index, seed); err != nil {
		return nil, err
	}
	sortResults(rep.Results)
	rep.apply(base, index)
	rep.Divergences = rep.Causes(opts.AppendixA)
	// A shard checks the entries of its own scenarios (apply); the
	// baseline as a whole is Merge's to check.
	if rep.Shard != nil {
		rep.Stale = nil
	} else if opts.AppendixA != nil {
		rep.BaselineProblems = base.Check(index, opts.AppendixA)
	}
	rep.Totals = rep.Counts()
	rep.Duration = time.Since(rep.Started).Seconds()
	return rep, nil
}

// runGroups runs one pass of the selected scenarios. With groups (a run
// grouped by setup), each group is a pass of its own, one after another
// in plan order: godog orders the scenarios of one pass by feature file
// and seed, which would interleave the groups and make a target that keeps
// a process per configuration start it again and again.
func runGroups(opts Options, base *Baseline, fsys fs.FS, index *FeatureIndex, groups [][]string, seed int64) ([]Result, error) {
	if groups == nil {
		return runPass(opts, base, fsys, index, opts.Paths, seed)
	}
	var out []Result
	for _, paths := range groups {
		res, err := runPass(opts, base, fsys, index, paths, seed)
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
		if opts.FailFast && slices.ContainsFunc(res, func(r Result) bool { return r.Status == StatusFailed }) {
			break
		}
	}
	return out, nil
}

// repeated folds the results of one more pass into those of the passes
// before (first: the very first pass, whose counts start now). A
// scenario's first failure stands; a later failure replaces a pass.
func repeated(sofar, more []Result, first bool) []Result {
	key := func(r Result) string { return r.Feature + "\x00" + strconv.Itoa(r.Line) + "\x00" + r.Name }
	at := make(map[string]int, len(sofar))
	for i := range sofar {
		if first {
			sofar[i].Runs = 1
			if sofar[i].Status == StatusFailed {
				sofar[i].Failures = 1
			}
		}
		at[key(sofar[i])] = i
	}
	for _, r := range more {
		i, ok := at[key(r)]
		if !ok {
			r.Runs = 1
			if r.Status == StatusFailed {
				r.Failures = 1
			}
			at[key(r)] = len(sofar)
			sofar = append(sofar, r)
			continue
		}
		prev := &sofar[i]
		runs, failures := prev.Runs+1, prev.Failures
		if r.Status == StatusFailed {
			failures++
		}
		if prev.Status != StatusFailed {
			*prev = r
		}
		prev.Runs, prev.Failures = runs, failures
	}
	return sofar
}

// excludeProfiles adds "~@profile" for every profile to each alternative
// of the godog tag expression tags.
func excludeProfiles(tags string, profiles map[string]string) string {
	if len(profiles) == 0 {
		return tags
	}
	names := make([]string, 0, len(profiles))
	for p := range profiles {
		names = append(names, "~@"+p)
	}
	sort.Strings(names)
	not := strings.Join(names, " && ")
	if strings.TrimSpace(tags) == "" {
		return not
	}
	alts := strings.Split(tags, ",")
	for i, a := range alts {
		alts[i] = strings.TrimSpace(a) + " && " + not
	}
	return strings.Join(alts, ", ")
}

// runPass runs the selected scenarios once and returns their results.
func runPass(opts Options, base *Baseline, fsys fs.FS, index *FeatureIndex, selected []string, seed int64) ([]Result, error) {
	paths, rows, err := selectRows(index, fsys, selected)
	if err != nil {
		return nil, err
	}
	var results []Result
	var mu sync.Mutex
	init := func(sc *godog.ScenarioContext) {
		w := newWorld(opts.Make)
		var started time.Time
		var failedStep string
		var failedErr error
		var skipped bool
		var info ScenarioInfo // the scenario in the index, when indexed
		var indexed bool
		var steps []StepResult
		stepAt := map[string]int{} // pickle step id -> index in steps
		var stepStarted time.Time
		sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
			started = time.Now()
			if rows.skips(index, s.Uri, s.Name) {
				skipped = true // another row of a selected Scenario Outline
				return ctx, godog.ErrSkip
			}
			tags := make([]string, len(s.Tags))
			for i, t := range s.Tags {
				tags[i] = t.Name
			}
			w.setTags(tags)
			info, indexed = index.bySource[featureFile(s.Uri)+"\x00"+s.Name]
			for i, st := range s.Steps {
				sr := StepResult{Text: st.Text, Status: "skipped"}
				if i < len(info.Steps) && info.Steps[i].Text == st.Text {
					sr.Keyword, sr.Line = info.Steps[i].Keyword, info.Steps[i].Line
				}
				stepAt[st.Id] = len(steps)
				steps = append(steps, sr)
			}
			return ctx, nil
		})
		sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
			stepStarted = time.Now()
			return ctx, w.pending(st.Text)
		})
		sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
			if i, ok := stepAt[st.Id]; ok {
				steps[i].Status = status.String()
				steps[i].Duration = time.Since(stepStarted).Seconds()
				if err != nil {
					steps[i].Error = err.Error()
				}
			}
			if err != nil && failedStep == "" {
				failedStep, failedErr = st.Text, err
			}
			if err != nil && errors.Is(err, ErrNotApplicable) {
				// Never counted as passed: the scenario is reported as not
				// applicable with the reason.
				if w.na == nil {
					w.na = err
				}
				return ctx, godog.ErrSkip
			}
			return ctx, err
		})
		sc.After(func(ctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
			w.close()
			if skipped {
				return ctx, nil
			}
			res := Result{Name: s.Name, Status: StatusPassed, Duration: time.Since(started).Seconds(), Steps: steps}
			if indexed {
				res.Feature, res.Line, res.Tags = info.Feature, info.Line, info.Tags
			} else {
				res.Feature = s.Uri
				for _, t := range s.Tags {
					res.Tags = append(res.Tags, t.Name)
				}
			}
			switch {
			case w.na != nil:
				res.Status, res.Error = StatusNotApplicable, w.na.Error()
				res.Signature = SignatureNotApplicable
			case err != nil:
				if failedErr == nil {
					failedErr = err
				}
				// The step's own error: godog joins a step's error with
				// what its after-step hook returned.
				res.Status, res.Error, res.Step = StatusFailed, failedErr.Error(), failedStep
				res.Signature = signature(res.Step, failedErr)
				if m, ok := firstMismatch(failedErr); ok {
					res.Mismatch = &m
				}
			}
			mu.Lock()
			results = append(results, res)
			if opts.Progress != nil {
				// The line shows the verdict: the baseline already applied.
				shown := res
				if base != nil {
					base.classify(&shown)
				}
				fmt.Fprintf(opts.Progress, "%-14s %s:%d %s\n", shown.Status, shown.Feature, shown.Line, shown.Name)
			}
			mu.Unlock()
			return ctx, nil
		})
		w.register(sc)
	}
	concurrency := opts.Concurrency
	if concurrency < 1 {
		concurrency = 1
	}
	suite := godog.TestSuite{
		Name:                "conformance",
		ScenarioInitializer: init,
		Options: &godog.Options{
			Format:        "progress",
			Output:        io.Discard,
			FS:            fsys,
			Paths:         paths,
			Tags:          opts.Tags,
			Strict:        true,
			Randomize:     seed,
			Concurrency:   concurrency,
			StopOnFailure: opts.FailFast,
		},
	}
	suite.Run() // The status is recomputed from the results and the baseline.
	return results, nil
}

// retryTiming runs every failed @timing scenario once more, alone, and
// keeps the second outcome, marked Retried.
func (r *Report) retryTiming(opts Options, base *Baseline, fsys fs.FS, index *FeatureIndex, seed int64) error {
	var again []string
	at := map[string]int{}
	for i, res := range r.Results {
		if res.Status == StatusFailed && slices.Contains(res.Tags, TagTiming) {
			key := fmt.Sprintf("%s:%d", res.Feature, res.Line)
			again = append(again, key)
			at[key] = i
		}
	}
	if len(again) == 0 {
		return nil
	}
	opts.Concurrency = 1
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "retrying %d timing-sensitive scenario(s) once\n", len(again))
	}
	second, err := runPass(opts, base, fsys, index, again, seed)
	if err != nil {
		return err
	}
	for _, res := range second {
		if i, ok := at[fmt.Sprintf("%s:%d", res.Feature, res.Line)]; ok {
			res.Retried = true
			r.Results[i] = res
		}
	}
	return nil
}

func sortResults(results []Result) {
	sort.Slice(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if a.Feature != b.Feature {
			return a.Feature < b.Feature
		}
		return a.Line < b.Line
	})
}

// apply classifies failures against the baseline: a baselined failure is
// expected; a baselined pass is stale and fails the run.
func (r *Report) apply(b *Baseline, index *FeatureIndex) {
	seen := map[string]bool{}
	for i := range r.Results {
		if b.classify(&r.Results[i]) {
			seen[r.Results[i].Name] = true
		}
	}
	for name := range b.Entries {
		if !seen[name] && !index.HasScenario(name) {
			r.Stale = append(r.Stale, name)
		}
	}
	sort.Strings(r.Stale)
}

// Failures formats every unexpected result, one per line, for a test log.
func (r *Report) Failures() string {
	var sb strings.Builder
	for _, res := range r.Results {
		if res.Status == StatusFailed || res.Status == StatusStale || res.Status == StatusDrift {
			fmt.Fprintf(&sb, "%s:%d %s [%s]\n  step: %s\n  %s\n", res.Feature, res.Line, res.Name, res.Status, res.Step,
				strings.ReplaceAll(res.Error, "\n", "\n  "))
			if res.Status == StatusDrift {
				fmt.Fprintf(&sb, "  signature: %s\n  recorded:  %s (%s)\n", res.Signature, res.Expected, res.Reason)
			}
		}
	}
	for _, s := range r.Stale {
		fmt.Fprintf(&sb, "baseline entry %q names no scenario\n", s)
	}
	return sb.String()
}

// countSelected counts the scenarios that paths and the tag filter select
// (what the progress counter counts down).
func countSelected(index *FeatureIndex, paths []string, tags string) (int, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	units, err := plan(index, paths, false)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range units {
		for _, sc := range u.scenarios {
			if tagsMatch(tags, sc.Tags) {
				n++
			}
		}
	}
	return n, nil
}
