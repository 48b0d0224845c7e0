package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/tools/internal/report"
)

// runStatus is "conform status --out FILE REPORT.json...".
func runStatus(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the page to write (docs/conformance-status.md)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "conform status: usage: conform status --out FILE REPORT.json...")
		return 2
	}
	var reports []*conformance.Report
	for _, p := range fs.Args() {
		rep, err := readReport(p)
		if err != nil {
			fmt.Fprintf(stderr, "conform status: %v\n", err)
			return 2
		}
		if rep.Shard != nil {
			fmt.Fprintf(stderr, "conform status: %s is one shard's report: merge the shards first (conform merge)\n", p)
			return 2
		}
		reports = append(reports, rep)
	}
	ix, err := conformance.DefaultIndex()
	if err != nil {
		fmt.Fprintf(stderr, "conform status: %v\n", err)
		return 2
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintf(stderr, "conform status: %v\n", err)
		return 2
	}
	if err := report.StatusPage(f, reports, appendixA(), ix); err != nil {
		f.Close()
		fmt.Fprintf(stderr, "conform status: %v\n", err)
		return 2
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(stderr, "conform status: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "conform status: wrote %s from %d reports\n", *out, len(reports))
	return 0
}
