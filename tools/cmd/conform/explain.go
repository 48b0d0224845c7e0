package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/tools/internal/repo"
	"github.com/codemodekit/kit/tools/internal/report"
)

// appendixA reads the rows of SPEC.md's Appendix A when conform runs inside
// the repository, and nil otherwise (a standalone conform then reports
// causes without row topics and cannot check its baseline's citations).
func appendixA() conformance.AppendixA {
	root, err := repo.Root()
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(root, "SPEC.md"))
	if err != nil {
		return nil
	}
	rows, err := conformance.ParseAppendixA(b)
	if err != nil {
		return nil
	}
	return rows
}

// explain prints one scenario's steps with their outcomes and, for the
// failing step, its error with the diff of expected against actual; then
// the failure's signature and what the baseline records for it.
func explain(w io.Writer, rep *conformance.Report) {
	for _, res := range rep.Results {
		fmt.Fprintf(w, "%s:%d %s [%s]\n", res.Feature, res.Line, res.Name, res.Status)
		fmt.Fprintf(w, "  tags: %s\n", strings.Join(res.Tags, " "))
		for _, st := range res.Steps {
			mark := map[string]string{"passed": "ok  ", "failed": "FAIL", "skipped": "--  "}[st.Status]
			if mark == "" {
				mark = st.Status
			}
			fmt.Fprintf(w, "  %s %4d %s%s\n", mark, st.Line, st.Keyword, st.Text)
			if st.Error != "" {
				fmt.Fprintf(w, "         %s\n", strings.ReplaceAll(strings.TrimRight(st.Error, "\n"), "\n", "\n         "))
			}
		}
		if res.Status == conformance.StatusNotApplicable && res.Error != "" {
			fmt.Fprintf(w, "  not applicable: %s\n", res.Error)
		}
		if res.Signature != "" {
			fmt.Fprintf(w, "  signature: %s\n", res.Signature)
		}
		if res.Reason != "" {
			fmt.Fprintf(w, "  baseline:  %s\n", res.Reason)
		}
		if res.Expected != "" {
			fmt.Fprintf(w, "  recorded:  %s\n", res.Expected)
		}
		if res.Retried {
			fmt.Fprintln(w, "  retried once (@timing)")
		}
	}
}

// printCauses prints the ranked causes, one line each.
func printCauses(w io.Writer, causes []conformance.Cause, limit int) {
	if len(causes) == 0 {
		return
	}
	fmt.Fprintln(w, "\ndivergences, by scenarios failed:")
	for i, c := range causes {
		if i == limit {
			fmt.Fprintf(w, "  ... %d more causes (summary.md lists them all)\n", len(causes)-limit)
			break
		}
		fmt.Fprintf(w, "  %4d  %s\n", len(c.Scenarios), report.CauseText(c))
	}
}
