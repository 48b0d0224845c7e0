// Command mutate measures the conformance suite's strength by mutation
// testing: it asks gremlins (github.com/go-gremlins/gremlins, in its
// dry-run mode) for the mutants of the reference's internal packages, takes
// a sample, and runs the in-process suite against each mutant, applied as a
// build overlay. A mutant is killed when a scenario fails or the suite does
// not finish in time, and lives when every scenario passes. Scenarios
// tagged @timing are left out of the oracle.
//
// Usage:
//
//	mutate [-size 150] [-seed 1] [-packages cell,catalog,...] [-timeout 10m]
//	       [-equivalent docs/mutation-equivalent.txt] [-out docs/mutation.md]
//	       [-budget 90m] [-resume] [-rejudge] [-report]
//
// It writes the score and the surviving mutants to -out, and every result
// to -json as each mutant is judged; a surviving mutant is either killed by
// a new or sharpened scenario, or recorded in the -equivalent file with the
// reason no behaviour can tell it from the original. A sample can be judged
// in parts: -budget stops taking new mutants after that long, and -resume
// keeps the results -json holds for mutants of the same sample and judges
// only the rest. The score of a partly judged sample says how many of the
// sample it covers. -rejudge judges again, against the suite as it is now,
// the mutants that lived in -json (after scenarios were added to kill
// them), and judges no new ones. -report only writes -out again from the
// results in -json, with the equivalents recorded since.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/codemodekit/kit/tools/internal/mutation"
	"github.com/codemodekit/kit/tools/internal/repo"
)

// gremlins is the pinned mutation tool that finds the mutants.
const gremlins = "github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.Int("size", 150, "mutants to sample")
	seed := fs.Uint64("seed", 1, "sample seed")
	packages := fs.String("packages", "cell,catalog,config,surface,prepare,mcpns,guest,engine", "reference/internal packages to mutate")
	timeout := fs.Duration("timeout", 10*time.Minute, "how long the suite may run against one mutant")
	equivalent := fs.String("equivalent", "docs/mutation-equivalent.txt", "mutants recorded as equivalent (a relative path is from the repository root)")
	out := fs.String("out", "docs/mutation.md", "where the score goes (a relative path is from the repository root)")
	jsonOut := fs.String("json", "reports/mutation.json", "where every result goes (a relative path is from the repository root)")
	budget := fs.Duration("budget", 0, "stop taking new mutants after this long (0: judge the whole sample); -resume continues (-rejudge judges every survivor)")
	resume := fs.Bool("resume", false, "keep the results in -json for mutants of this sample and judge only the rest")
	rejudge := fs.Bool("rejudge", false, "judge again the mutants that lived in -json, and no new ones")
	reportOnly := fs.Bool("report", false, "write -out again from the results in -json and the -equivalent file, judging nothing (after recording equivalents)")
	oracleFlags := fs.String("oracle-flags", "", "more conform flags for the oracle, e.g. \"--path 02-configuration.feature\" for a quick look (the score counts only with the whole suite)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	root, err := repo.Root()
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	at := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	eq, err := equivalents(at(*equivalent))
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %s: %v\n", *equivalent, err)
		return 2
	}
	if *reportOnly {
		// The results are in sample order already; -size says how large
		// the sample they come from is.
		results, err := readResults(at(*jsonOut))
		if err != nil {
			fmt.Fprintf(stderr, "mutate: %v\n", err)
			return 2
		}
		return score(stdout, stderr, results, eq, *size, *seed, *packages, at(*out))
	}
	var all []mutation.Mutant
	for _, p := range strings.Split(*packages, ",") {
		ms, err := mutants(root, "internal/"+strings.TrimSpace(p))
		if err != nil {
			fmt.Fprintf(stderr, "mutate: %v\n", err)
			return 2
		}
		all = append(all, ms...)
	}
	sample := mutation.Sample(all, *size, *seed)
	fmt.Fprintf(stdout, "mutate: %d mutants found, %d sampled (seed %d)\n", len(all), len(sample), *seed)

	judged := map[string]mutation.Result{}
	if *resume || *rejudge {
		if judged, err = earlier(at(*jsonOut), sample); err != nil {
			fmt.Fprintf(stderr, "mutate: %s: %v\n", *jsonOut, err)
			return 2
		}
		fmt.Fprintf(stdout, "mutate: %d of the sample judged already (%s)\n", len(judged), *jsonOut)
	}
	// known holds every result of the sample so far, earlier ones
	// included; each save writes them all, in sample order, so a run that
	// stops midway loses only the mutant it was judging.
	known := judged
	inOrder := func() []mutation.Result {
		var out []mutation.Result
		for _, m := range sample {
			if r, ok := known[m.ID()]; ok {
				out = append(out, r)
			}
		}
		return out
	}
	save := func() error {
		b, _ := json.MarshalIndent(inOrder(), "", "  ")
		_ = os.MkdirAll(filepath.Dir(at(*jsonOut)), 0o755)
		return os.WriteFile(at(*jsonOut), append(b, '\n'), 0o644)
	}

	work, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	defer os.RemoveAll(work)
	// The oracle must pass unmutated, or every mutant would look killed.
	extra := strings.Fields(*oracleFlags)
	start := time.Now()
	if r := oracle(root, work, nil, *timeout, extra); r.Outcome != mutation.Lived {
		fmt.Fprintf(stderr, "mutate: the suite does not pass on the unmutated reference (%s: %s)\n", r.Outcome, r.By)
		return 2
	}
	for i, m := range sample {
		r, ok := known[m.ID()]
		switch {
		case *rejudge && !ok:
			continue
		case *rejudge && r.Outcome == mutation.Lived && eq[m.ID()] == "":
			r = judge(root, work, &m, *timeout, extra)
			fmt.Fprintf(stdout, "%3d/%d %-10s %5.0fs %s %s (judged again)\n", i+1, len(sample), r.Outcome, r.Seconds, m.ID(), r.By)
		case ok:
		case *budget > 0 && time.Since(start) > *budget:
			continue
		default:
			r = judge(root, work, &m, *timeout, extra)
			fmt.Fprintf(stdout, "%3d/%d %-10s %5.0fs %s %s\n", i+1, len(sample), r.Outcome, r.Seconds, m.ID(), r.By)
		}
		if r == known[m.ID()] {
			continue // an earlier result, kept as it is
		}
		known[m.ID()] = r
		if err := save(); err != nil {
			fmt.Fprintf(stderr, "mutate: %v\n", err)
			return 2
		}
	}
	return score(stdout, stderr, inOrder(), eq, len(sample), *seed, *packages, at(*out))
}

// equivalents reads the mutants recorded as equivalent from path; a file
// that cannot be read records none.
func equivalents(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return map[string]string{}, nil
	}
	return mutation.ParseEquivalents(b)
}

// score writes the score of results, judged from a sample of the given
// size, to out, with the equivalents eq.
func score(stdout, stderr io.Writer, results []mutation.Result, eq map[string]string, size int, seed uint64, packages, out string) int {
	var md bytes.Buffer
	title := fmt.Sprintf("Mutation score of the conformance suite (sample of %d, seed %d)", size, seed)
	if len(results) < size {
		title = fmt.Sprintf("Mutation score of the conformance suite (%d of a sample of %d judged, seed %d)", len(results), size, seed)
	}
	if err := mutation.Markdown(&md, title, results, eq); err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	fmt.Fprintf(&md, "\nMutants: gremlins `%s` (dry run) over reference/internal/{%s}. Oracle: the in-process suite (`conform --fail-fast`), built with each mutant as an overlay. Regenerate: `make mutate MUTATE_FLAGS='-size %d -seed %d'`.\n",
		strings.TrimPrefix(gremlins, "github.com/go-gremlins/gremlins/cmd/"), packages, size, seed)
	if err := os.WriteFile(out, md.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	s := mutation.Tally(results, eq)
	fmt.Fprintf(stdout, "mutate: %.1f%% killed (%d killed, %d lived, %d equivalent, %d not viable); %s\n", s.Percent(), s.Killed, s.Lived, s.Equivalent, s.NotViable, out)
	return 0
}

// earlier reads the results of an earlier run from path, keeping those of
// the sample's mutants; a missing file holds none.
func earlier(path string, sample []mutation.Mutant) (map[string]mutation.Result, error) {
	rs, err := readResults(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]mutation.Result{}, nil
	}
	if err != nil {
		return nil, err
	}
	in := map[string]bool{}
	for _, m := range sample {
		in[m.ID()] = true
	}
	out := map[string]mutation.Result{}
	for _, r := range rs {
		if in[r.Mutant.ID()] {
			out[r.Mutant.ID()] = r
		}
	}
	return out, nil
}

// readResults reads the results -json holds.
func readResults(path string) ([]mutation.Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rs []mutation.Result
	if err := json.Unmarshal(b, &rs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rs, nil
}

// mutants asks gremlins for the mutants of one reference package.
func mutants(root, pkg string) ([]mutation.Mutant, error) {
	tmp, err := os.CreateTemp("", "gremlins-*.json")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.Command("go", "run", gremlins, "unleash", "--dry-run", "--silent", "-o", tmp.Name(), "./"+pkg)
	cmd.Dir = filepath.Join(root, "reference")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("gremlins %s: %v\n%s", pkg, err, out)
	}
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	var rep struct {
		Files []struct {
			Name      string `json:"file_name"`
			Mutations []struct {
				Type   string `json:"type"`
				Status string `json:"status"`
				Line   int    `json:"line"`
				Column int    `json:"column"`
			} `json:"mutations"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("gremlins %s: %w", pkg, err)
	}
	var out []mutation.Mutant
	for _, f := range rep.Files {
		for _, m := range f.Mutations {
			if m.Status == "NOT VIABLE" {
				continue
			}
			out = append(out, mutation.Mutant{Package: pkg, File: filepath.Base(f.Name), Line: m.Line, Column: m.Column, Type: m.Type})
		}
	}
	return out, nil
}

// oracle builds conform with the mutant as an overlay (none for nil) and
// runs the in-process suite with it.
func oracle(root, work string, m *mutation.Mutant, timeout time.Duration, extra []string) mutation.Result {
	start := time.Now()
	if r, ok := build(root, work, m, start); !ok {
		return r
	}
	return suite(root, work, m, start, timeout, extra, 2)
}

// result is m's result of the given outcome, timed from start.
func result(m *mutation.Mutant, start time.Time, outcome, by string) mutation.Result {
	r := mutation.Result{Outcome: outcome, By: by, Seconds: time.Since(start).Seconds()}
	if m != nil {
		r.Mutant = *m
	}
	return r
}

// build builds conform with m as an overlay (unmutated for nil) into work;
// a mutant that does not build is not viable.
func build(root, work string, m *mutation.Mutant, start time.Time) (mutation.Result, bool) {
	res := func(outcome, by string) (mutation.Result, bool) { return result(m, start, outcome, by), false }
	bin := filepath.Join(work, "conform")
	build := []string{"build", "-o", bin}
	if m != nil {
		path := filepath.Join(root, "reference", m.Package, m.File)
		src, err := os.ReadFile(path)
		if err != nil {
			return res(mutation.NotViable, err.Error())
		}
		mutated, err := m.Apply(src)
		if err != nil {
			return res(mutation.NotViable, err.Error())
		}
		file := filepath.Join(work, "mutant.go")
		if err := os.WriteFile(file, mutated, 0o644); err != nil {
			return res(mutation.NotViable, err.Error())
		}
		overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{path: file}})
		ov := filepath.Join(work, "overlay.json")
		if err := os.WriteFile(ov, overlay, 0o644); err != nil {
			return res(mutation.NotViable, err.Error())
		}
		build = append(build, "-overlay", ov)
	}
	cmd := exec.Command("go", append(build, "./cmd/conform")...)
	cmd.Dir = filepath.Join(root, "tools")
	if out, err := cmd.CombinedOutput(); err != nil {
		return res(mutation.NotViable, "build: "+firstLine(string(out)))
	}
	return mutation.Result{}, true
}

// suite runs the whole suite, fail-fast, with the conform build last built.
func suite(root, work string, m *mutation.Mutant, start time.Time, timeout time.Duration, extra []string, concurrency int) mutation.Result {
	res := func(outcome, by string) mutation.Result { return result(m, start, outcome, by) }
	bin := filepath.Join(work, "conform")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// Timing-sensitive scenarios are no oracle: under load they would kill
	// mutants that change nothing.
	run := exec.CommandContext(ctx, bin, append([]string{"--fail-fast", "--concurrency", strconv.Itoa(concurrency), "--format", "junit", "--tags", "~@timing"}, extra...)...)
	run.Dir = filepath.Join(root, "tools")
	var stderr bytes.Buffer
	run.Stdout, run.Stderr = io.Discard, &stderr
	err := run.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return res(mutation.TimedOut, "the suite ran past "+timeout.String())
	case err == nil:
		return res(mutation.Lived, "")
	case errors.As(err, &exit):
		return res(mutation.Killed, firstFailure(stderr.String()))
	default:
		return res(mutation.Killed, err.Error())
	}
}

// judge builds m once and runs the suite against it, crediting a kill only
// when the scenario that killed it fails again when it runs alone against
// the same mutant: on a loaded machine a scenario can fail beside others
// for want of a core, which says nothing about the mutant. An unconfirmed
// kill runs the suite once more; unconfirmed twice, the mutant counts as
// lived (a mutant that breaks only scenarios running side by side goes
// uncounted, which errs on the side of a lower score). The second run
// takes one scenario at a time.
func judge(root, work string, m *mutation.Mutant, timeout time.Duration, extra []string) mutation.Result {
	start := time.Now()
	r, ok := build(root, work, m, start)
	if !ok {
		return r
	}
	// The second run takes one scenario at a time, so that a scenario that
	// failed only for want of a core does not stop it first again.
	for attempt := 0; attempt < 2; attempt++ {
		r = suite(root, work, m, start, timeout, extra, 2-attempt)
		scenario, _, _ := strings.Cut(r.By, " ")
		if r.Outcome != mutation.Killed || !strings.Contains(scenario, ".feature:") {
			return r
		}
		if confirmed(root, work, scenario, timeout) {
			r.By += " (failed again alone)"
			return r
		}
	}
	r.Outcome = mutation.Lived
	r.By = "killed twice only beside other scenarios, never alone: " + r.By
	return r
}

// confirmed reports whether scenario (FEATURE:LINE) fails when it runs alone
// against the binary the last build wrote.
func confirmed(root, work, scenario string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	run := exec.CommandContext(ctx, filepath.Join(work, "conform"), "--path", scenario, "--format", "junit")
	run.Dir = filepath.Join(root, "tools")
	run.Stdout, run.Stderr = io.Discard, io.Discard
	return run.Run() != nil && ctx.Err() == nil
}

// firstFailure finds the first failing scenario in conform's progress, or,
// when conform stopped before any scenario failed (a mutant that crashes
// the process), its panic or fatal error, else its last line.
func firstFailure(progress string) string {
	lines := strings.Split(progress, "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "failed ") {
			return strings.TrimSpace(strings.TrimPrefix(l, "failed"))
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			return firstLine(l)
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return firstLine(l)
		}
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}
