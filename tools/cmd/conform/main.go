// Command conform runs the code-mode conformance suite against a target and
// reports per scenario, per profile and per SPEC clause.
//
// Usage:
//
//	conform [--target reference] [--tags EXPR] [--profile core,mcp]
//	        [--format pretty|cucumber|junit] [--report DIR] [--list]
//	        [--seed N] [--concurrency N] [--path FILE[:LINE]] [--repeat N] [--update-baseline]
//	conform --shard K/N [--durations report.json] [flags as above]
//	conform merge --report OUT [--update-baseline] DIR...
//	conform update-baseline REPORT.json...
//	conform status --out FILE REPORT.json...
//	conform plan [--shards N] [--durations report.json] [--target NAME]
//	conform durations --out FILE REPORT.json
//	conform --explain FEATURE:LINE [--target ...]
//	conform --driver 'COMMAND [ARG...]' [--target NAME] [flags as above]
//	conform --target gateway [--gateway-cmd 'COMMAND {config}'] [--gateway-api API]
//	        [--gateway-replicas N [--gateway-nats 1|3]] [flags as above]
//	conform --target openclaw [--openclaw-version V] [flags as above]
//
// --driver runs the suite against any implementation that speaks the
// driver protocol (SPEC.md Appendix D) on its stdin and
// stdout, one process per scenario: COMMAND is split into words like a
// shell does (quotes and backslashes, no expansion). The target's name,
// and so its baseline, is the implementation's name from the handshake
// unless --target names another; its claimed profiles are those of the
// handshake. --target driver is the same as leaving --target unset. The
// suite configures the real MCP server fixtures (fixtures/mcp) in the
// implementation's config, as it does the fake ones.
//
// --target gateway runs every scenario over the wire (conformance/gateway):
// a gateway process per scenario, started with a generated configuration
// whose path replaces {config} in COMMAND, talking to the suite's fake
// model and tool host. Without --gateway-cmd it builds and runs the
// reference gateway (reference/cmd/codemode-gateway), with --isolation
// and --strict-preemption passed on, and reports as reference-gateway;
// with it, as gateway (conformance/baselines/gateway.txt).
// --gateway-replicas N runs N replicas of a clustered gateway behind a
// round-robin front, each turn on the next replica, sharing one NATS
// JetStream server or, with --gateway-nats 3, a three-server cluster;
// they claim the cluster profile too and report as <name>-cluster.
//
// --repeat N runs the selected scenarios N times, pass after pass, each
// ordered by the next seed: a scenario fails when any run fails, and the
// report counts its runs and failures.
//
// --target openclaw runs every scenario through the published OpenClaw
// gateway (conformance/openclaw), release --openclaw-version installed
// from npm on first use (scripts/openclaw-install.sh), in a loopback-only
// network namespace (conform runs itself again under unshare -n), one
// scenario at a time; it reports as openclaw-<version>.
//
// --shard K/N runs part K of N of the selected scenarios: the same
// partition in every process given the same scenarios, balanced by the
// durations of a previous report.json (--durations) or else split by a hash
// of the scenario names; the example rows of a Scenario Outline stay
// together. A shard's report says which part it is and which scenarios it
// owns; a shard fails on its own unexpected results, and conform merge
// combines the shards' report directories into the whole run's report,
// checks the baseline as a whole and exits as the whole run would.
//
// conform update-baseline applies the results of finished runs' reports
// (a shard's, a narrowed run's) to their targets' baselines as
// --update-baseline would have: only the scenarios the reports ran change.
//
// conform plan prints how the scenarios a finished run ran would split
// into N shards, balanced by that run's durations as --durations balances
// them: each shard's scenarios and seconds, and the slowest shard, which
// is the wall time of the run spread over N machines.
//
// conform durations keeps a finished run's scenario durations in a small
// file that --durations and conform plan read as they read a report.json
// (fixtures/openclaw/<version>/durations.json, which the openclaw
// workflow's shards balance by).
//
// conform status writes the conformance status page (docs/conformance-
// status.md, make status): a row per run report, and the committed
// baselines by kind of reason.
//
// --explain runs one scenario and prints its steps with their outcomes,
// the failing step's error with a diff of expected against actual, its
// failure signature and what the target's baseline records for it.
//
// It prints one line per scenario while it runs, then the failures grouped
// by cause and ranked (the divergences), and ends with the line
// "conformance: N passed, M failed, K expected-fail". The exit status is 1
// on any unexpected result (a failure outside the target's baseline, or a
// baseline entry that passes) and 2 on a usage or harness error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/conformance/wire"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/codemodetest"
	"github.com/codemodekit/kit/tools/internal/repo"
	"github.com/codemodekit/kit/tools/internal/report"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// A targetInfo is a target conform knows: its factory and the profiles it
// claims (the report states conformance per claimed profile).
type targetInfo struct {
	make    conformance.MakeTarget
	claimed []string
	version string // the implementation's version, when known
	// stats returns the target's counters of the run (Report.TargetStats).
	stats func() map[string]float64
}

// targets are the targets conform knows, by name.
var targets = map[string]targetInfo{
	codemodetest.Name: {make: codemodetest.NewTarget, claimed: wire.ProcessProfiles()},
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return runMerge(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "update-baseline" {
		return runUpdateBaseline(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "status" {
		return runStatus(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "plan" {
		return runPlan(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "durations" {
		return runDurations(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("target", codemodetest.Name, "target to run: "+strings.Join(targetNames(), ", "))
	tags := fs.String("tags", "", "godog tag filter selecting scenarios: alternatives separated by \",\", each tags joined by \"&&\", ~ negates; e.g. \"@core && ~@security, @mcp\"")
	format := fs.String("format", "pretty", "stdout format: pretty, cucumber or junit")
	reportDir := fs.String("report", "", "directory to write the reports into: report.json, summary.md, report.html, junit.xml, cucumber.json and badges/")
	list := fs.Bool("list", false, "list every scenario with its tags and exit")
	seed := fs.Int64("seed", 0, "scenario order seed (0 picks one and prints it)")
	concurrency := fs.Int("concurrency", 1, "scenarios run at the same time")
	failFast := fs.Bool("fail-fast", false, "stop at the first failing scenario")
	profile := fs.String("profile", "", "comma-separated profiles to run, e.g. core,mcp (default all)")
	updateBaseline := fs.Bool("update-baseline", false, "update conformance/baselines/<target>.txt for the scenarios of this run (failures listed with their signatures, passes removed), for review")
	shardFlag := fs.String("shard", "", "K/N: run part K of N of the selected scenarios (conform merge combines the parts' reports)")
	repeat := fs.Int("repeat", 1, "run the selected scenarios N times, pass after pass (like go test -count); a scenario fails when any of its runs fails, and report.json counts its runs and failures")
	durationsFile := fs.String("durations", "", "with --shard: a previous report.json whose scenario durations balance the parts")
	var paths multiFlag
	fs.Var(&paths, "path", "feature file or file:line to run (repeatable); default every feature")
	driverCmd := fs.String("driver", "", "command of an implementation speaking the driver protocol (SPEC.md Appendix D), e.g. \"codemode serve-driver\"")
	gatewayCmd := fs.String("gateway-cmd", "", "with --target gateway: the gateway command, {config} standing for its configuration file (default: the reference gateway)")
	gatewayReplicas := fs.Int("gateway-replicas", 1, "with --target gateway: run that many replicas of a clustered gateway behind a front that sends each request to the next replica, sharing a NATS JetStream server built from the version the reference pins (SPEC.md Appendix G); a --gateway-cmd then has {nats}, {cluster-key} and {replica} placeholders")
	gatewayNATS := fs.Int("gateway-nats", 1, "with --gateway-replicas: the NATS servers the replicas share, 1 or 3 (a three-server JetStream cluster, replica k on server k, every stream held by all three)")
	gatewayAPI := fs.String("gateway-api", "openai-responses", "with --target gateway: the provider API the gateway is configured with: openai-responses or openai-completions")
	openclawVersion := fs.String("openclaw-version", defaultOpenClawVersion, "with --target openclaw: the OpenClaw release to install (npm) and run")
	explainAt := fs.String("explain", "", "FEATURE:LINE: run that one scenario and print its steps, the failing step's diff of expected against actual, and its failure signature")
	isolation := fs.String("isolation", "process", "with the embedded reference or the reference gateway: where it runs guest code, process (worker processes) or in-process")
	strict := fs.Bool("strict-preemption", false, "with the embedded reference or the reference gateway: make every wasm loop a safepoint (what lets the watchdog stop a guest inside a long built-in call with --isolation in-process)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *list {
		return listScenarios(stdout, stderr)
	}
	var shard conformance.Shard
	var durations conformance.Durations
	var err error
	if *shardFlag != "" {
		if shard, err = conformance.ParseShard(*shardFlag); err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
	}
	if *durationsFile != "" {
		if *shardFlag == "" {
			fmt.Fprintln(stderr, "conform: --durations balances shards: it needs --shard")
			return 2
		}
		if durations, err = readDurations(*durationsFile); err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
	}
	iso, err := codemode.ParseIsolation(*isolation)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2
	}
	targetSet := false
	isolationSet := false
	fs.Visit(func(f *flag.Flag) {
		targetSet = targetSet || f.Name == "target"
		isolationSet = isolationSet || f.Name == "isolation" || f.Name == "strict-preemption"
	})
	var info targetInfo
	groupBySetup := false
	if *driverCmd != "" || *target == driverTarget {
		name := ""
		if targetSet && *target != driverTarget {
			name = *target
		}
		var err error
		info, name, err = driverInfo(*driverCmd, name)
		if err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
		*target = name
	} else if *target == gatewayTarget || *gatewayCmd != "" {
		var err error
		var cleanup func()
		if *gatewayCmd != "" && isolationSet {
			fmt.Fprintln(stderr, "conform: --isolation and --strict-preemption apply to the reference gateway, not to --gateway-cmd (pass the flags in the command)")
			return 2
		}
		info, *target, cleanup, err = gatewayInfo(*gatewayCmd, *gatewayAPI, *isolation, *strict, *gatewayReplicas, *gatewayNATS)
		if err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
		defer cleanup()
	} else if *target == openclawTarget {
		// OpenClaw runs in a loopback-only network namespace: installed
		// first (npm registry), then conform runs again inside it.
		if _, err := repo.Root(); err == nil && os.Getenv(netnsEnv) == "" {
			if _, err := openclawInstallFor(*openclawVersion, stderr); err != nil {
				fmt.Fprintf(stderr, "conform: %v\n", err)
				return 2
			}
		}
		if code, ok := inNetns(args, stdout, stderr); ok {
			return code
		}
		var err error
		var cleanup func()
		info, *target, cleanup, err = openclawInfo(*openclawVersion, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
		defer cleanup()
		*concurrency = 1
		// A gateway start costs ten times a scenario on a running one:
		// scenarios with the same setup run one after another.
		groupBySetup = true
	} else {
		var ok bool
		info, ok = targets[*target]
		if !ok {
			fmt.Fprintf(stderr, "conform: unknown target %q (known: %s)\n", *target, strings.Join(targetNames(), ", "))
			return 2
		}
		opts := codemodetest.Options{Isolation: iso, StrictPreemption: *strict}
		info.make = func() (conformance.Target, error) { return codemodetest.NewTargetWith(opts) }
		info.version = referenceVersion()
	}
	mk := info.make
	if *explainAt != "" {
		if !strings.Contains(*explainAt, ":") || len(paths) > 0 {
			fmt.Fprintln(stderr, "conform: --explain takes one FEATURE:LINE and no --path")
			return 2
		}
		paths = multiFlag{*explainAt}
		*format = "explain"
	}
	var progress io.Writer
	switch *format {
	case "pretty":
		progress = stdout
		if isTerminal(stdout) {
			live := newLiveCounter(stdout)
			defer live.Close()
			progress = live
		}
	case "cucumber", "junit":
		progress = stderr
	case "explain":
		progress = io.Discard
	default:
		fmt.Fprintf(stderr, "conform: unknown format %q\n", *format)
		return 2
	}
	var profiles []string
	if *profile != "" {
		for _, p := range strings.Split(*profile, ",") {
			p = strings.TrimSpace(p)
			if !slices.Contains(report.Profiles, p) {
				fmt.Fprintf(stderr, "conform: unknown profile %q (known: %s)\n", p, strings.Join(report.Profiles, ", "))
				return 2
			}
			profiles = append(profiles, p)
		}
	}
	if *repeat < 1 {
		fmt.Fprintf(stderr, "conform: --repeat %d: want 1 or more\n", *repeat)
		return 2
	}
	tagExpr, err := tagFilter(*tags, profiles)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2
	}
	rep, err := conformance.Run(context.Background(), conformance.Options{
		Target: *target, Make: mk, Tags: tagExpr, Seed: *seed, Progress: progress, Concurrency: *concurrency, Paths: paths, FailFast: *failFast, AppendixA: appendixA(),
		Shard: shard, Durations: durations, Commit: sourceCommit(), GroupBySetup: groupBySetup, Repeat: *repeat,
	})
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2
	}
	if *repeat > 1 {
		for _, r := range rep.Results {
			fmt.Fprintf(progress, "%d of %d runs failed: %s:%d %s\n", r.Failures, r.Runs, r.Feature, r.Line, r.Name)
		}
	}
	if interrupted.Load() {
		select {} // the signal handler exits once the gateways are stopped
	}
	rep.Claimed, rep.TargetVersion = info.claimed, info.version
	if info.stats != nil {
		rep.TargetStats = info.stats()
	}
	switch *format {
	case "explain":
		explain(stdout, rep)
		if !rep.OK() {
			return 1
		}
		return 0
	case "cucumber":
		err = report.Cucumber(stdout, rep)
	case "junit":
		err = report.JUnit(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2
	}
	if *reportDir != "" {
		if err := report.WriteAll(*reportDir, rep, rep.Claimed); err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
	}
	if *updateBaseline {
		path, err := writeBaseline(*target, rep)
		if err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
		fmt.Fprintf(progress, "baseline rewritten: %s (review the reasons)\n", path)
	}
	if rep.Shard != nil {
		fmt.Fprintf(progress, "shard %d/%d: %d scenarios owned, %d run\n", rep.Shard.Index, rep.Shard.Count, len(rep.Shard.Owned), len(rep.Results))
	}
	return finish(progress, rep)
}

// finish prints the end of a run (its unexpected results, causes, baseline
// problems, seed and summary line) and returns the exit status.
func finish(progress io.Writer, rep *conformance.Report) int {
	if f := rep.Failures(); f != "" {
		fmt.Fprintf(progress, "\nunexpected results:\n%s", f)
	}
	printCauses(progress, rep.Divergences, 20)
	if n := len(rep.BaselineProblems); n > 0 {
		fmt.Fprintf(progress, "baseline problems: %d (over-assertions and entries for unclaimed profiles; summary.md lists them)\n", n)
	}
	fmt.Fprintf(progress, "seed: %d\n", rep.Seed)
	if n := rep.Counts()[conformance.StatusNotApplicable]; n > 0 {
		fmt.Fprintf(progress, "not applicable: %d\n", n)
	}
	fmt.Fprintln(progress, rep.Summary())
	if !rep.OK() {
		return 1
	}
	return 0
}

// writeBaseline updates the target's baseline from the run, for the
// scenarios the run ran and no other: a failing or not-applicable scenario
// is listed, keeping the reason of an existing entry (new entries carry the
// first line of their error, for review) and recording the failure's
// signature; a passing scenario leaves the baseline. The header, the
// profile lines and the entries of scenarios the run did not run stay.
func writeBaseline(target string, rep *conformance.Report) (string, error) {
	dir, err := findUp(filepath.Join("conformance", "baselines"))
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, target+".txt")
	header := "Scenarios the " + target + " target is expected to fail, one per line:\n<scenario name> :: <reason>[ :: <failure signature>]\nAn entry whose scenario passes fails the run: this list only shrinks."
	next := &conformance.Baseline{Entries: map[string]string{}, Signatures: map[string]string{}, NotClaimed: map[string]string{}}
	if b, err := os.ReadFile(path); err == nil {
		if next, err = conformance.ParseBaseline(b); err != nil {
			return "", err
		}
		if h := commentHeader(b); h != "" {
			header = h
		}
	}
	for _, r := range rep.Results {
		delete(next.Signatures, r.Name)
		switch r.Status {
		case conformance.StatusFailed, conformance.StatusExpectedFail, conformance.StatusDrift, conformance.StatusNotApplicable:
			if next.Entries[r.Name] == "" {
				reason, _, _ := strings.Cut(r.Error, "\n")
				next.Entries[r.Name] = "UNREVIEWED: " + reason
			}
			if r.Signature != "" {
				next.Signatures[r.Name] = r.Signature
			}
		default:
			delete(next.Entries, r.Name)
		}
	}
	return path, os.WriteFile(path, next.Format(header), 0o644)
}

// commentHeader returns the leading comment lines of a baseline file,
// without their "# ".
func commentHeader(b []byte) string {
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
	}
	return strings.Join(lines, "\n")
}

// findUp finds rel in the working directory or one of its parents.
func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s not found above the working directory", rel)
		}
		dir = parent
	}
}

func targetNames() []string {
	names := make([]string, 0, len(targets)+1)
	for n := range targets {
		names = append(names, n)
	}
	return append(names, gatewayTarget, openclawTarget, driverTarget+" (with --driver)")
}

// driverTarget is the --target value that stands for --driver's
// implementation.
const driverTarget = "driver"

// driverInfo makes the target of the implementation command cmd: it runs
// the handshake once and returns the target with its claimed profiles,
// and its name (name, else the implementation's own).
func driverInfo(cmd, name string) (targetInfo, string, error) {
	if cmd == "" {
		return targetInfo{}, "", errors.New("--target driver needs --driver 'COMMAND [ARG...]'")
	}
	argv, err := splitCommand(cmd)
	if err != nil {
		return targetInfo{}, "", fmt.Errorf("--driver: %w", err)
	}
	if len(argv) == 0 {
		return targetInfo{}, "", errors.New("--driver: empty command")
	}
	// The suite runs real MCP server fixtures as it does in process, so
	// any implementation gets them configured.
	d := driver.New(argv, driver.WithMCPFixtures(codemodetest.RealMCPFixtures))
	hello, err := d.Hello(context.Background())
	if err != nil {
		return targetInfo{}, "", err
	}
	if name == "" {
		name = hello.Implementation.Name
	}
	return targetInfo{make: d.MakeTarget, claimed: hello.Profiles, version: hello.Implementation.Version}, name, nil
}

// splitCommand splits s into words as a POSIX shell does, without any
// expansion: white space separates words, single quotes keep everything,
// double quotes keep everything but \" and \\, and a backslash outside
// quotes keeps the next character.
func splitCommand(s string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			word.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				word.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				word.WriteByte(s[i])
			}
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

func listScenarios(stdout, stderr io.Writer) int {
	ix, err := conformance.DefaultIndex()
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2
	}
	for _, s := range ix.Scenarios {
		fmt.Fprintf(stdout, "%s:%d\t%s\t%s\n", s.Feature, s.Line, s.Name, strings.Join(s.Tags, " "))
	}
	fmt.Fprintf(stdout, "%d scenarios\n", len(ix.Scenarios))
	return 0
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// referenceVersion is the version of the reference module conform is built
// with: a release's module version, or "(devel)" in the repository.
func referenceVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range bi.Deps {
		if m.Path == "github.com/codemodekit/kit/reference" {
			if m.Replace != nil && m.Replace.Version != "" {
				return m.Replace.Version
			}
			return m.Version
		}
	}
	return "(devel)"
}
