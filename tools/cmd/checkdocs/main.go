// Command checkdocs checks the repository's documentation (SPEC.md
// CM-22.10): SPEC clause coverage by scenarios or written exclusions, the
// configuration table against the reference's defaults and ranges, the
// js, ts, go and json code blocks, relative links and anchors, and the
// generated traceability matrix docs/traceability.md. The checks are those
// of package tools/internal/checkdocs.
//
// Usage:
//
//	checkdocs [-root DIR] [-update]
//
// It prints one line per problem ("file:line: message", paths relative to
// the root) and ends with the line "checkdocs: N clauses, M scenarios, K
// problems". -update rewrites docs/traceability.md instead of reporting it
// stale. The root defaults to the nearest directory at or above the working
// directory that holds SPEC.md and go.work. The exit status is 1 when there
// are problems and 2 on a usage error or a tree that cannot be checked.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/codemodekit/kit/tools/internal/checkdocs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("checkdocs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "repository root (default: the nearest directory above with SPEC.md and go.work)")
	update := fs.Bool("update", false, "rewrite "+checkdocs.MatrixPath+" instead of reporting it stale")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "checkdocs: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *root == "" {
		r, err := findRoot()
		if err != nil {
			fmt.Fprintf(stderr, "checkdocs: %v\n", err)
			return 2
		}
		*root = r
	}
	rep, err := checkdocs.Check(*root, checkdocs.Options{Update: *update})
	if err != nil {
		fmt.Fprintf(stderr, "checkdocs: %v\n", err)
		return 2
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(stdout, p)
	}
	if rep.Updated {
		fmt.Fprintf(stdout, "checkdocs: wrote %s\n", checkdocs.MatrixPath)
	}
	fmt.Fprintf(stdout, "checkdocs: %d clauses, %d scenarios, %d problems\n", rep.Clauses, rep.Scenarios, len(rep.Problems))
	if len(rep.Problems) > 0 {
		return 1
	}
	return 0
}

// findRoot returns the nearest directory at or above the working directory
// that holds SPEC.md and go.work.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "SPEC.md")) && isFile(filepath.Join(dir, "go.work")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no directory with SPEC.md and go.work at or above the working directory; use -root")
		}
		dir = parent
	}
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir()
}
