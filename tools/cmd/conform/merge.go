package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/tools/internal/repo"
	"github.com/codemodekit/kit/tools/internal/report"
)

// runMerge is "conform merge --report OUT [--update-baseline] DIR...": it
// merges the report.json of every shard directory into the whole run's
// report (conformance.Merge), writes every format into OUT, checks the
// target's baseline as a whole and exits like a whole run would.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("report", "", "directory to write the merged report into (report.json, summary.md, report.html, junit.xml, cucumber.json, badges)")
	updateBaseline := fs.Bool("update-baseline", false, "update conformance/baselines/<target>.txt from the merged run, as a whole run's --update-baseline does")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	dirs := fs.Args()
	if *out == "" || len(dirs) == 0 {
		fmt.Fprintln(stderr, "conform merge: usage: conform merge --report OUT DIR... (each DIR holds one shard's report.json)")
		return 2
	}
	var shards []*conformance.Report
	for _, d := range dirs {
		rep, err := readReport(filepath.Join(d, "report.json"))
		if err != nil {
			fmt.Fprintf(stderr, "conform merge: %v\n", err)
			return 2
		}
		shards = append(shards, rep)
	}
	ix, err := conformance.DefaultIndex()
	if err != nil {
		fmt.Fprintf(stderr, "conform merge: %v\n", err)
		return 2
	}
	base, err := conformance.LoadBaseline(shards[0].Target)
	if err != nil {
		fmt.Fprintf(stderr, "conform merge: %v\n", err)
		return 2
	}
	rep, err := conformance.Merge(shards, base, ix, appendixA())
	if err != nil {
		fmt.Fprintf(stderr, "conform merge: %v\n", err)
		return 2
	}
	if err := report.WriteAll(*out, rep, rep.Claimed); err != nil {
		fmt.Fprintf(stderr, "conform merge: %v\n", err)
		return 2
	}
	if *updateBaseline {
		path, err := writeBaseline(rep.Target, rep)
		if err != nil {
			fmt.Fprintf(stderr, "conform merge: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "baseline rewritten: %s (review the reasons)\n", path)
	}
	fmt.Fprintf(stdout, "merged %d shards of %s (seed %d) into %s\n", len(shards), rep.Target, rep.Seed, *out)
	return finish(stdout, rep)
}

// readReport reads a report.json.
func readReport(path string) (*conformance.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep conformance.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &rep, nil
}

// readDurations reads the durations of a previous report.json.
func readDurations(path string) (conformance.Durations, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return conformance.ReadDurations(f)
}

// sourceCommit names the suite's source: the repository's HEAD, with
// "+dirty" when tracked files differ from it; "" outside a git checkout.
func sourceCommit() string {
	root, err := repo.Root()
	if err != nil {
		return ""
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	commit := strings.TrimSpace(string(head))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		commit += "+dirty"
	}
	return commit
}
