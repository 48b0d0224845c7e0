package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testRepo is the small repository layout of the checkdocs package tests.
var testRepo = filepath.Join("..", "..", "internal", "checkdocs", "testdata", "repo")

// copyRepo copies testRepo into a temporary directory and applies
// replacements: file, old, new, ... (old must occur in file).
func copyRepo(t *testing.T, edits ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(testRepo)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+2 < len(edits); i += 3 {
		p := filepath.Join(dir, filepath.FromSlash(edits[i]))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), edits[i+1]) {
			t.Fatalf("%s does not contain %q", edits[i], edits[i+1])
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), edits[i+1], edits[i+2], 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRun(t *testing.T) {
	const summary = "checkdocs: 4 clauses, 4 scenarios, "
	tests := []struct {
		name       string
		edits      []string
		args       []string // after -root DIR
		wantCode   int
		wantStdout string
		wantStderr string // a substring
	}{
		{
			name:       "clean",
			wantStdout: summary + "0 problems\n",
		},
		{
			name:     "a default drifts and a block breaks",
			edits:    []string{"SPEC.md", "| `maxSearchLimit` | `50` |", "| `maxSearchLimit` | `40` |", "README.md", "defer rt.Close()", "defer rt.Close("},
			wantCode: 1,
			wantStdout: "README.md:10: go block: does not parse: expected operand, found '}'\n" +
				"SPEC.md:44: maxSearchLimit: default 40, but reference/internal/config/config.go:32 has 50\n" +
				summary + "2 problems\n",
		},
		{
			name:       "stale matrix",
			edits:      []string{"features/02-configuration.feature", "@CM-2.1 @CM-1.1", "@CM-2.1"},
			wantCode:   1,
			wantStdout: "docs/traceability.md:17: out of date (first difference on this line); run `make check-docs CHECKDOCS_FLAGS=-update`\n" + summary + "1 problems\n",
		},
		{
			name:       "update rewrites a stale matrix",
			edits:      []string{"features/02-configuration.feature", "@CM-2.1 @CM-1.1", "@CM-2.1"},
			args:       []string{"-update"},
			wantStdout: "checkdocs: wrote docs/traceability.md\n" + summary + "0 problems\n",
		},
		{
			name:       "unknown flag",
			args:       []string{"-fix"},
			wantCode:   2,
			wantStderr: "flag provided but not defined: -fix",
		},
		{
			name:       "arguments",
			args:       []string{"SPEC.md"},
			wantCode:   2,
			wantStderr: `checkdocs: unexpected arguments ["SPEC.md"]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyRepo(t, tt.edits...)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"-root", dir}, tt.args...), &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("run() = %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.String())
			}
			if diff := cmp.Diff(tt.wantStdout, stdout.String()); diff != "" {
				t.Errorf("run() stdout mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("run() stderr = %q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}

// TestRun_findRoot shows that without -root the nearest directory above
// with SPEC.md and go.work is checked.
func TestRun_findRoot(t *testing.T) {
	dir := copyRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "go.work"), []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "guide"))
	var stdout, stderr bytes.Buffer
	if code := run(nil, &stdout, &stderr); code != 0 {
		t.Fatalf("run() = %d, want 0; stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}

	t.Chdir(t.TempDir())
	stdout.Reset()
	stderr.Reset()
	if code := run(nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "use -root") {
		t.Errorf("run() outside a repository = %d, stderr %q; want 2 and a hint to use -root", code, stderr.String())
	}
}

// TestRun_noSpec shows that a tree that cannot be checked exits 2.
func TestRun_noSpec(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-root", t.TempDir()}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "read SPEC.md") {
		t.Errorf("run(empty root) = %d, stderr %q; want 2 and the read error", code, stderr.String())
	}
}
