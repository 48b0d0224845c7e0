package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// durationsFile is what conform durations writes: a report.json with only
// the target and each scenario's name and duration, which --durations and
// conform plan read as they read a whole report.
type durationsFile struct {
	Target  string            `json:"target"`
	Results []durationsRecord `json:"results"`
}

type durationsRecord struct {
	Name     string  `json:"name"`
	Duration float64 `json:"durationSeconds"`
}

// runDurations is "conform durations --out FILE REPORT.json": it keeps a
// finished run's scenario durations (fixtures/openclaw/<version>/
// durations.json) so that the next split run balances its shards by them.
func runDurations(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform durations", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the file to write")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *out == "" || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "conform durations: usage: conform durations --out FILE REPORT.json")
		return 2
	}
	rep, err := readReport(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "conform durations: %v\n", err)
		return 2
	}
	if rep.Shard != nil {
		fmt.Fprintf(stderr, "conform durations: %s is one shard's report: merge the shards first (conform merge)\n", fs.Arg(0))
		return 2
	}
	f := durationsFile{Target: rep.Target, Results: make([]durationsRecord, 0, len(rep.Results))}
	for _, r := range rep.Results {
		// Tenths of a second: the balance needs no more, and the file
		// stays readable in a diff.
		f.Results = append(f.Results, durationsRecord{Name: r.Name, Duration: float64(int64(r.Duration*10+0.5)) / 10})
	}
	sort.Slice(f.Results, func(i, j int) bool { return f.Results[i].Name < f.Results[j].Name })
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		fmt.Fprintf(stderr, "conform durations: %v\n", err)
		return 2
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fmt.Fprintf(stderr, "conform durations: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s: the durations of %d scenarios\n", *out, len(f.Results))
	return 0
}
