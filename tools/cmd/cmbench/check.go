package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// treeLine is the line of BENCHMARKS.md that names the reference/ tree it
// measured; renderMarkdown writes it and parseTree reads it.
const treeLinePrefix = "Reference tree measured: `"

var treeLineRE = regexp.MustCompile("(?m)^" + regexp.QuoteMeta(treeLinePrefix) + "([0-9a-f]{40}|[0-9a-f]{64})`")

// parseTree returns the reference/ tree hash BENCHMARKS.md states.
func parseTree(md string) (string, error) {
	m := treeLineRE.FindStringSubmatch(md)
	if m == nil {
		return "", fmt.Errorf("no line %q<hash>` in BENCHMARKS.md", treeLinePrefix)
	}
	return m[1], nil
}

// errStale is returned by checkCurrent when BENCHMARKS.md measured another tree.
var errStale = fmt.Errorf("BENCHMARKS.md is stale: run make bench")

// checkCurrent compares the tree BENCHMARKS.md measured with `git rev-parse
// HEAD:reference`.
func checkCurrent(root string, w io.Writer) error {
	raw, err := os.ReadFile(filepath.Join(root, "BENCHMARKS.md"))
	if err != nil {
		return err
	}
	measured, err := parseTree(string(raw))
	if err != nil {
		return err
	}
	now := gitOut(root, "rev-parse", "HEAD:reference")
	if now == "" {
		return fmt.Errorf("git rev-parse HEAD:reference failed in %s", root)
	}
	if measured != now {
		fmt.Fprintf(w, "BENCHMARKS.md measured reference/ tree %s; HEAD has %s\n", measured, now)
		return errStale
	}
	fmt.Fprintf(w, "BENCHMARKS.md is current: it measured reference/ tree %s\n", now)
	return nil
}
