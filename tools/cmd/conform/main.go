// Command conform runs the code-mode conformance suite against a target and
// reports per scenario, per profile and per SPEC clause.
//
// Usage:
//
//	conform [--target reference] [--tags EXPR] [--format pretty|cucumber|junit]
//	        [--report DIR] [--list] [--seed N] [--concurrency N]
//
// It prints one line per scenario while it runs and ends with the line
// "conformance: N passed, M failed, K expected-fail". The exit status is 1
// on any unexpected result (a failure outside the target's baseline, or a
// baseline entry that passes) and 2 on a usage or harness error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/reference/codemodetest"
	"github.com/codemodekit/kit/tools/internal/report"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// targets are the targets conform knows, by name.
var targets = map[string]conformance.MakeTarget{
	codemodetest.Name: codemodetest.NewTarget,
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("target", codemodetest.Name, "target to run: "+strings.Join(targetNames(), ", "))
	tags := fs.String("tags", "", "godog tag expression selecting scenarios, e.g. \"@core && ~@security\"")
	format := fs.String("format", "pretty", "stdout format: pretty, cucumber or junit")
	reportDir := fs.String("report", "", "directory to write report.json and summary.md into")
	list := fs.Bool("list", false, "list every scenario with its tags and exit")
	seed := fs.Int64("seed", 0, "scenario order seed (0 picks one and prints it)")
	concurrency := fs.Int("concurrency", 1, "scenarios run at the same time")
	var paths multiFlag
	fs.Var(&paths, "path", "feature file or file:line to run (repeatable); default every feature")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *list {
		return listScenarios(stdout, stderr)
	}
	mk, ok := targets[*target]
	if !ok {
		fmt.Fprintf(stderr, "conform: unknown target %q (known: %s)\n", *target, strings.Join(targetNames(), ", "))
		return 2
	}
	var progress io.Writer
	switch *format {
	case "pretty":
		progress = stdout
	case "cucumber", "junit":
		progress = stderr
	default:
		fmt.Fprintf(stderr, "conform: unknown format %q\n", *format)
		return 2
	}
	tagExpr := "~@wip"
	if *tags != "" {
		tagExpr = "(" + *tags + ") && ~@wip"
	}
	rep, err := conformance.Run(context.Background(), conformance.Options{
		Target: *target, Make: mk, Tags: tagExpr, Seed: *seed, Progress: progress, Concurrency: *concurrency, Paths: paths,
	})
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return 2
	}
	switch *format {
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
		if err := report.Write(*reportDir, rep); err != nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return 2
		}
	}
	if f := rep.Failures(); f != "" {
		fmt.Fprintf(progress, "\nunexpected results:\n%s", f)
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

func targetNames() []string {
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, n)
	}
	return names
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
