package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"sort"
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
)

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
	// Paths selects feature files or scenarios ("08-runs-and-wait.feature",
	// "08-runs-and-wait.feature:613"); empty means every feature.
	Paths []string
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
}

// A Report is the outcome of a run.
type Report struct {
	Target  string   `json:"target"`
	Seed    int64    `json:"seed"`
	Tags    string   `json:"tags,omitempty"`
	Results []Result `json:"results"`
	// Stale lists baseline entries that name no scenario of the run.
	Stale []string `json:"staleEntries,omitempty"`
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
	return c[StatusFailed] == 0 && c[StatusStale] == 0 && len(r.Stale) == 0
}

// Summary is the closing line of a run.
func (r *Report) Summary() string {
	c := r.Counts()
	return fmt.Sprintf("conformance: %d passed, %d failed, %d expected-fail", c[StatusPassed], c[StatusFailed]+c[StatusStale]+len(r.Stale), c[StatusExpectedFail])
}

// Run runs the suite against opts.Make and applies the target's baseline.
// The returned error is for harness failures only; scenario failures are in
// the report.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Make == nil {
		return nil, errors.New("conformance: no target factory")
	}
	fsys := opts.FS
	if fsys == nil {
		fsys = features.FS
	}
	index, err := Index(fsys)
	if err != nil {
		return nil, err
	}
	base := opts.Baseline
	if base == nil {
		base, err = LoadBaseline(opts.Target)
		if err != nil {
			return nil, err
		}
	}
	seed := opts.Seed
	if seed == 0 {
		seed = rand.Int64N(1<<53) + 1
	}
	paths, rows, err := selectRows(index, fsys, opts.Paths)
	if err != nil {
		return nil, err
	}
	rep := &Report{Target: opts.Target, Seed: seed, Tags: opts.Tags}
	var mu sync.Mutex
	init := func(sc *godog.ScenarioContext) {
		w := newWorld(opts.Make)
		var started time.Time
		var failedStep string
		var skipped bool
		sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
			started = time.Now()
			if rows.skips(index, s.Uri, s.Name) {
				skipped = true // another row of a selected Scenario Outline
				return ctx, godog.ErrSkip
			}
			return ctx, nil
		})
		sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
			return ctx, w.pending(st.Text)
		})
		sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
			if err != nil && failedStep == "" {
				failedStep = st.Text
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
			res := Result{Name: s.Name, Status: StatusPassed, Duration: time.Since(started).Seconds()}
			if info, ok := index.bySource[featureFile(s.Uri)+"\x00"+s.Name]; ok {
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
			case err != nil:
				res.Status, res.Error, res.Step = StatusFailed, err.Error(), failedStep
			}
			mu.Lock()
			rep.Results = append(rep.Results, res)
			mu.Unlock()
			if opts.Progress != nil {
				mu.Lock()
				fmt.Fprintf(opts.Progress, "%-14s %s:%d %s\n", res.Status, res.Feature, res.Line, res.Name)
				mu.Unlock()
			}
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
			Format:      "progress",
			Output:      io.Discard,
			FS:          fsys,
			Paths:       paths,
			Tags:        opts.Tags,
			Strict:      true,
			Randomize:   seed,
			Concurrency: concurrency,
		},
	}
	suite.Run() // The status is recomputed from the results and the baseline.
	if len(rep.Results) == 0 {
		return nil, fmt.Errorf("conformance: no scenario matches paths %q and tags %q", opts.Paths, opts.Tags)
	}
	sort.Slice(rep.Results, func(i, j int) bool {
		a, b := rep.Results[i], rep.Results[j]
		if a.Feature != b.Feature {
			return a.Feature < b.Feature
		}
		return a.Line < b.Line
	})
	rep.apply(base, index)
	return rep, nil
}

// apply classifies failures against the baseline: a baselined failure is
// expected; a baselined pass is stale and fails the run.
func (r *Report) apply(b *Baseline, index *FeatureIndex) {
	seen := map[string]bool{}
	for i := range r.Results {
		res := &r.Results[i]
		reason, listed := b.Entries[res.Name]
		if !listed {
			continue
		}
		seen[res.Name] = true
		res.Reason = reason
		switch res.Status {
		case StatusFailed, StatusNotApplicable:
			res.Status = StatusExpectedFail
		case StatusPassed:
			res.Status = StatusStale
			res.Error = "baseline entry passes: remove it from the baseline (" + reason + ")"
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
		if res.Status == StatusFailed || res.Status == StatusStale {
			fmt.Fprintf(&sb, "%s:%d %s [%s]\n  step: %s\n  %s\n", res.Feature, res.Line, res.Name, res.Status, res.Step,
				strings.ReplaceAll(res.Error, "\n", "\n  "))
		}
	}
	for _, s := range r.Stale {
		fmt.Fprintf(&sb, "baseline entry %q names no scenario\n", s)
	}
	return sb.String()
}
