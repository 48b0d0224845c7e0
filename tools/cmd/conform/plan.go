package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/codemodekit/kit/conformance"
)

// runPlan prints how a run of the scenarios a finished run's report ran
// would split into shards: each shard's scenarios and their seconds by the
// report's durations, and the slowest shard, which bounds the wall time of
// the run spread over that many machines.
func runPlan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shards := fs.Int("shards", 8, "how many shards")
	durations := fs.String("durations", "", "a previous report.json: its scenario durations balance the shards and give their seconds (without, the split is by name hash and each scenario counts a second)")
	target := fs.String("target", "", "the target whose baseline's unclaimed profiles are left out (default: the durations report's target, else the reference)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "conform plan: usage: conform plan [--shards N] [--durations report.json] [--target NAME]")
		return 2
	}
	opts := conformance.Options{Target: *target}
	if *durations != "" {
		rep, err := readReport(*durations)
		if err != nil {
			fmt.Fprintf(stderr, "conform plan: %v\n", err)
			return 2
		}
		if rep.Shard != nil {
			fmt.Fprintf(stderr, "conform plan: %s is one shard's report: merge the shards first (conform merge)\n", *durations)
			return 2
		}
		if opts.Target == "" {
			opts.Target = rep.Target
		}
		opts.Tags = rep.Tags
		opts.Durations = rep.Durations()
	}
	if opts.Target == "" {
		opts.Target = "reference"
	}
	// conform groups the OpenClaw target's scenarios by setup, and so
	// does the plan.
	opts.GroupBySetup = strings.HasPrefix(opts.Target, openclawTarget+"-")
	parts, err := conformance.PlanShards(opts, *shards)
	if err != nil {
		fmt.Fprintf(stderr, "conform plan: %v\n", err)
		return 2
	}
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "shard\tscenarios\tseconds\t")
	slowest, total := parts[0], 0.0
	for _, p := range parts {
		fmt.Fprintf(tw, "%d\t%d\t%.0f\t\n", p.Index, p.Scenarios, p.Seconds)
		total += p.Seconds
		if p.Seconds > slowest.Seconds {
			slowest = p
		}
	}
	tw.Flush()
	fmt.Fprintf(stdout, "%s on %d shards: the slowest, shard %d, takes %.0f s (%.1f min); all shards %.0f s\n",
		opts.Target, len(parts), slowest.Index, slowest.Seconds, slowest.Seconds/60, total)
	return 0
}
