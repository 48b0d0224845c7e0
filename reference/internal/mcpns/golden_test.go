package mcpns

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenUsed records the golden files the tests read, so TestMain can fail
// on orphans.
var (
	goldenMu   sync.Mutex
	goldenUsed = map[string]bool{}
)

// TestMain runs the tests, then fails when a full run left a golden file
// in testdata that no test reads (an orphan).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && flag.Lookup("test.skip").Value.String() == "" {
		if orphans := orphanGoldens(); len(orphans) > 0 {
			println("orphaned golden files (delete them or run with -update after removing):")
			for _, o := range orphans {
				println("  " + o)
			}
			code = 1
		}
	}
	os.Exit(code)
}

func orphanGoldens() []string {
	var orphans []string
	_ = filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".golden" && !goldenUsed[filepath.ToSlash(path)] {
			orphans = append(orphans, path)
		}
		return nil
	})
	sort.Strings(orphans)
	return orphans
}

// expectGolden compares got with testdata/<name>.golden, or rewrites the
// file with -update.
func expectGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.ToSlash(filepath.Join("testdata", name+".golden"))
	goldenMu.Lock()
	goldenUsed[path] = true
	goldenMu.Unlock()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// mustReadSpec returns SPEC.md of the repository.
func mustReadSpec(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "SPEC.md"))
	if err != nil {
		t.Fatalf("read SPEC.md: %v", err)
	}
	return string(b)
}

func TestOrphanGoldens_helper(t *testing.T) {
	// Sanity check of the orphan finder itself: an unregistered file is
	// reported, a registered one is not.
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.golden", "b.golden", "c.txt"} {
		if err := os.WriteFile(filepath.Join("testdata", n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goldenMu.Lock()
	saved := goldenUsed
	goldenUsed = map[string]bool{"testdata/a.golden": true}
	got := orphanGoldens()
	goldenUsed = saved
	goldenMu.Unlock()
	if want := []string{filepath.Join("testdata", "b.golden")}; !slices.Equal(got, want) {
		t.Errorf("orphanGoldens() = %v, want %v", got, want)
	}
}
