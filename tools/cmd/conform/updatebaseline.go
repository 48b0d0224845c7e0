package main

import (
	"fmt"
	"io"
)

// runUpdateBaseline is "conform update-baseline REPORT.json...".
func runUpdateBaseline(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: conform update-baseline REPORT.json... (applies each report's results to its target's baseline)")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, path := range args {
		rep, err := readReport(path)
		if err != nil {
			fmt.Fprintf(stderr, "conform update-baseline: %v\n", err)
			return 2
		}
		out, err := writeBaseline(rep.Target, rep)
		if err != nil {
			fmt.Fprintf(stderr, "conform update-baseline: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "%s: %d results applied to %s (review the reasons)\n", path, len(rep.Results), out)
	}
	return 0
}
