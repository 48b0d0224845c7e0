package codemode_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFileDeps checks that the package's files use each other's
// declarations without a cycle: a file uses another when it names a
// constant, variable, function, type, method or field declared there.
// The files then read in an order, each after what it builds on.
func TestFileDeps(t *testing.T) {
	fset, files := parseAPI(t, nil)
	deps := fileDeps(t, fset, files)
	if cycle := findCycle(deps); cycle != nil {
		t.Errorf("the package's files use each other in a cycle: %s (filedeps_test.go)\n%s",
			strings.Join(cycle, " -> "), formatDeps(deps))
	}
}

// TestFileDeps_planted checks that a file using a file that uses it, and
// a longer cycle, are found.
func TestFileDeps_planted(t *testing.T) {
	fset, files := parseAPI(t, map[string]string{
		"zz_a.go": "package codemode\n\nfunc plantedA() { plantedB() }\n",
		"zz_b.go": "package codemode\n\nfunc plantedB() { plantedC() }\n",
		"zz_c.go": "package codemode\n\nfunc plantedC() { plantedA(); _ = (*Turn).Active; var tool Tool; _ = tool.Name }\n",
	})
	deps := fileDeps(t, fset, files)
	if diff := cmp.Diff([]string{"tool.go", "turn.go", "zz_a.go"}, deps["zz_c.go"]); diff != "" {
		t.Errorf("uses of zz_c.go mismatch (-want +got):\n%s", diff)
	}
	cycle := findCycle(deps)
	if len(cycle) != 4 || cycle[0] != cycle[3] || !slices.Contains(cycle, "zz_a.go") || !slices.Contains(cycle, "zz_b.go") {
		t.Errorf("findCycle = %q, want the cycle zz_a.go -> zz_b.go -> zz_c.go", cycle)
	}
}

// fileDeps type-checks the package and returns, for each file, the other
// files whose declarations it uses, sorted.
func fileDeps(t *testing.T, fset *token.FileSet, files []*ast.File) map[string][]string {
	t.Helper()
	exports := exportData(t)
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check("github.com/codemodekit/kit/reference", fset, files, info)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	deps := map[string][]string{}
	for _, f := range files {
		deps[fileOf(fset, f.Pos())] = nil
	}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		from, to := fileOf(fset, id.Pos()), fileOf(fset, obj.Pos())
		if from != to && !slices.Contains(deps[from], to) {
			deps[from] = append(deps[from], to)
		}
	}
	for _, d := range deps {
		slices.Sort(d)
	}
	return deps
}

func fileOf(fset *token.FileSet, pos token.Pos) string {
	return filepath.Base(fset.Position(pos).Filename)
}

// exportData maps the package's dependencies to their export data files
// (go list -export), which the type checker reads.
func exportData(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{if .Export}}{{.ImportPath}}={{.Export}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	m := map[string]string{}
	for _, line := range strings.Fields(string(out)) {
		if p, file, ok := strings.Cut(line, "="); ok {
			m[p] = file
		}
	}
	return m
}

// findCycle returns a cycle of deps as the files along it, the first
// repeated at the end, or nil when there is none.
func findCycle(deps map[string][]string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(f string) []string
	visit = func(f string) []string {
		state[f] = onPath
		path = append(path, f)
		for _, g := range deps[f] {
			switch state[g] {
			case onPath:
				i := slices.Index(path, g)
				return append(slices.Clone(path[i:]), g)
			case unseen:
				if c := visit(g); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[f] = done
		return nil
	}
	names := make([]string, 0, len(deps))
	for f := range deps {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		if state[f] == unseen {
			if c := visit(f); c != nil {
				return c
			}
		}
	}
	return nil
}

func formatDeps(deps map[string][]string) string {
	var b strings.Builder
	names := make([]string, 0, len(deps))
	for f := range deps {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		fmt.Fprintf(&b, "%s uses %s\n", f, strings.Join(deps[f], ", "))
	}
	return b.String()
}
