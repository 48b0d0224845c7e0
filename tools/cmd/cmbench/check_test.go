package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a repository with one commit holding reference/a.go.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	writeFile(t, filepath.Join(dir, "reference", "a.go"), "package a\n")
	run("add", "reference")
	run("commit", "-q", "-m", "one")
	return dir
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckCurrent(t *testing.T) {
	dir := gitRepo(t)
	tree := gitOut(dir, "rev-parse", "HEAD:reference")
	if tree == "" {
		t.Fatal("no tree hash")
	}
	writeFile(t, filepath.Join(dir, "BENCHMARKS.md"), "# B\n\n"+treeLinePrefix+tree+"`\n")
	var out bytes.Buffer
	if err := checkCurrent(dir, &out); err != nil {
		t.Fatalf("checkCurrent on the measured tree: %v (%s)", err, out.String())
	}
	if !strings.Contains(out.String(), "is current") {
		t.Errorf("output %q does not say current", out.String())
	}

	// A commit that changes reference/ makes the file stale.
	writeFile(t, filepath.Join(dir, "reference", "a.go"), "package a\n\nconst X = 1\n")
	cmd := exec.Command("git", "-C", dir, "commit", "-q", "-am", "two")
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, b)
	}
	out.Reset()
	if err := checkCurrent(dir, &out); !errors.Is(err, errStale) {
		t.Errorf("checkCurrent after a reference/ commit = %v, want errStale", err)
	}
	if !strings.Contains(out.String(), tree) {
		t.Errorf("output %q does not name the measured tree", out.String())
	}
}
