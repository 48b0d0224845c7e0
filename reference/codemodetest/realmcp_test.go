package codemodetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/reference/internal/mcpclient"
	"github.com/google/go-cmp/cmp"
)

// fixtureTests are the fixtures of fixtures/mcp with the files their scratch
// directory holds and the tools they must list.
var fixtureTests = []struct {
	fixture string
	scratch []string // slash-separated, relative to the scratch directory
	tools   []string // a subset of tools/list
	reason  string
}{
	{
		fixture: "everything",
		tools:   []string{"echo", "get-sum", "get-structured-content", "trigger-long-running-operation"},
		reason:  "features/14-mcp-real.feature calls echo, getSum, getStructuredContent and triggerLongRunningOperation",
	},
	{
		fixture: "memory",
		tools:   []string{"create_entities", "read_graph"},
		reason:  "MEMORY_FILE_PATH points into the scratch directory; the file appears on the first write",
	},
	{
		fixture: "filesystem",
		scratch: []string{"root/README.md", "root/notes/hello.txt", "root/data/numbers.json"},
		tools:   []string{"list_allowed_directories", "read_text_file"},
	},
	{
		fixture: "gosdk-hello",
		tools:   []string{"greet"},
	},
}

// requireRealMCPConfig returns r.config(fixture). When the fixture is not
// installed it skips the test, except in CI, where `make deps` installs
// every fixture and the test fails instead.
func requireRealMCPConfig(t *testing.T, r *realMCP, fixture string) map[string]any {
	t.Helper()
	entry, err := r.config(fixture)
	if errors.Is(err, conformance.ErrNotApplicable) && os.Getenv("CI") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("config(%q) error: %v", fixture, err)
	}
	return entry
}

// lastScratch returns the scratch directory r created last, or "".
func (r *realMCP) lastScratch() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.dirs) == 0 {
		return ""
	}
	return r.dirs[len(r.dirs)-1]
}

// scratchOf returns the scratch directory entry's args or env mention, or "".
func scratchOf(entry map[string]any) string {
	vals, _ := entry["args"].([]any)
	env, _ := entry["env"].(map[string]any)
	for _, v := range env {
		vals = append(vals, v)
	}
	tmp := filepath.Clean(os.TempDir())
	for _, v := range vals {
		rest, err := filepath.Rel(tmp, v.(string))
		first, _, _ := strings.Cut(filepath.ToSlash(rest), "/")
		if err == nil && strings.HasPrefix(first, "codemodekit-mcp-") {
			return filepath.Join(tmp, first)
		}
	}
	return ""
}

func TestRealMCPConfig_fixtures(t *testing.T) {
	for _, tt := range fixtureTests {
		t.Run(tt.fixture, func(t *testing.T) {
			var r realMCP
			t.Cleanup(r.cleanup)
			entry := requireRealMCPConfig(t, &r, tt.fixture)
			args, _ := entry["args"].([]any)
			cmdPath := entry["command"].(string)
			if cmdPath != "node" && !filepath.IsAbs(cmdPath) {
				t.Errorf("command = %q, want node or an absolute path", cmdPath)
			}
			for _, a := range args {
				if s := a.(string); strings.Contains(s, "${") || strings.HasPrefix(s, "./") {
					t.Errorf("argument %q is not resolved", s)
				}
			}
			if _, err := os.Stat(cmdPath); cmdPath != "node" && err != nil {
				t.Errorf("command: %v", err)
			}
			if len(args) > 0 && strings.HasSuffix(args[0].(string), ".js") {
				if p := args[0].(string); !filepath.IsAbs(p) {
					t.Errorf("server script %q is not absolute", p)
				} else if _, err := os.Stat(p); err != nil {
					t.Errorf("server script: %v", err)
				}
			}

			dir := scratchOf(entry)
			wantScratch := tt.scratch != nil || tt.fixture == "memory"
			if (dir != "") != wantScratch {
				t.Fatalf("scratch directory = %q, want one: %v (%s)", dir, wantScratch, tt.reason)
			}
			if dir == "" {
				return
			}
			var got []string
			err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(dir, p)
					got = append(got, filepath.ToSlash(rel))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(tt.scratch)
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("scratch files mismatch (-want +got):\n%s", diff)
			}
			r.cleanup()
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after cleanup, stat %s: %v, want it removed", dir, err)
			}
		})
	}
}

func TestRealMCPConfig_scratchPerCall(t *testing.T) {
	var r realMCP
	t.Cleanup(r.cleanup)
	a := scratchOf(requireRealMCPConfig(t, &r, "memory"))
	b := scratchOf(requireRealMCPConfig(t, &r, "memory"))
	if a == "" || a == b {
		t.Errorf("two calls got scratch directories %q and %q, want two distinct ones", a, b)
	}
}

func TestRealMCPConfig_errors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", "{}")
	write("missing.json", `{"command": "node", "args": ["./node_modules/nothing/dist/index.js"]}`)
	write("nocommand.json", `{"args": []}`)
	t.Setenv(mcpFixturesEnv, dir)

	tests := []struct {
		fixture  string
		wantNA   bool
		wantText string
		reason   string
	}{
		{fixture: "missing", wantNA: true, wantText: "make deps", reason: "the npm packages are not installed"},
		{fixture: "unknown", wantText: "unknown real MCP server fixture", reason: "a misspelt fixture is a suite bug, not a missing install"},
		{fixture: "nocommand", wantText: "no command"},
		{fixture: "../missing", wantText: "not a plain name"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			var r realMCP
			_, err := r.config(tt.fixture)
			if err == nil {
				t.Fatalf("config(%q) = nil error, want one (%s)", tt.fixture, tt.reason)
			}
			if got := errors.Is(err, conformance.ErrNotApplicable); got != tt.wantNA {
				t.Errorf("config(%q) error %q: not applicable = %v, want %v (%s)", tt.fixture, err, got, tt.wantNA, tt.reason)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("config(%q) error = %q, want it to contain %q", tt.fixture, err, tt.wantText)
			}
		})
	}
}

// fixtureCalls are the tool calls the connect tests make, one per fixture;
// want returns a substring of the result, given the scratch directory.
var fixtureCalls = map[string]struct {
	tool string
	args string
	want func(scratch string) string
}{
	"everything":  {"get-sum", `{"a": 2, "b": 3}`, func(string) string { return "The sum of 2 and 3 is 5." }},
	"memory":      {"read_graph", `{}`, func(string) string { return `"entities":[]` }},
	"filesystem":  {"list_allowed_directories", `{}`, func(s string) string { return "Allowed directories:\\n" + filepath.Join(s, "root") }},
	"gosdk-hello": {"greet", `{"name": "Ada"}`, func(string) string { return "Hi Ada" }},
}

// TestRealMCPFixtures_connect starts every fixture through the reference's
// MCP client, lists its tools and calls one.
func TestRealMCPFixtures_connect(t *testing.T) {
	for _, tt := range fixtureTests {
		t.Run(tt.fixture, func(t *testing.T) {
			var r realMCP
			t.Cleanup(r.cleanup)
			entry := requireRealMCPConfig(t, &r, tt.fixture)
			c := fixtureCalls[tt.fixture]
			checkConnect(t, tt.fixture, entry, tt.tools, c.tool, c.args, c.want(r.lastScratch()))
		})
	}
}

// checkConnect connects to the mcp.servers entry named name through the
// reference's MCP client, checks that tools/list includes tools, calls
// tool with args and checks that the result contains want.
func checkConnect(t *testing.T, name string, entry map[string]any, tools []string, tool, args, want string) {
	t.Helper()
	raw, err := json.Marshal(map[string]any{name: entry})
	if err != nil {
		t.Fatal(err)
	}
	servers, _ := mcpclient.ParseServers(raw)
	cfg, ok := servers[name]
	if !ok {
		t.Fatalf("mcpclient.ParseServers(%s) dropped the server", raw)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcpclient.Connect(ctx, name, cfg)
	if err != nil {
		t.Fatalf("mcpclient.Connect(%q) error: %v", name, err)
	}
	defer s.Close()
	list, err := s.ListTools(ctx)
	if err != nil {
		t.Fatalf("ListTools error: %v", err)
	}
	var names []string
	for _, tool := range list {
		names = append(names, tool.Name)
	}
	for _, want := range tools {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list = %v, want it to include %q", names, want)
		}
	}
	res, err := s.CallTool(ctx, tool, json.RawMessage(args))
	if err != nil {
		t.Fatalf("CallTool(%q) error: %v", tool, err)
	}
	if !strings.Contains(string(res), want) {
		t.Errorf("CallTool(%q) = %s, want it to contain %q", tool, res, want)
	}
}

// TestRealMCP_concurrentTargets closes half of several targets while the
// others still use their real MCP fixtures, and checks that each Close
// removes its own scratch directories and no others. The scratch registry
// was once per process, so with `conform --concurrency 8` one scenario's
// Close deleted the memory files and filesystem roots of the others.
// Run it under the race detector.
func TestRealMCP_concurrentTargets(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"package.json":  "{}",
		"bin/server":    "",
		"scratchy.json": `{"command": "./bin/server", "args": ["${scratch}/root"], "scratch": {"root/a.txt": "a\n"}}`,
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(mcpFixturesEnv, dir)

	const targets, callsPerTarget = 8, 3
	var configured, halfClosed, done sync.WaitGroup
	configured.Add(targets)
	halfClosed.Add(targets / 2)
	errs := make(chan error, targets*(callsPerTarget+1))
	for i := range targets {
		done.Go(func() {
			tg := &target{}
			var dirs []string
			for range callsPerTarget {
				if _, err := tg.realMCP.config("scratchy"); err != nil {
					errs <- fmt.Errorf("target %d: config: %w", i, err)
				}
				dirs = append(dirs, tg.realMCP.lastScratch())
			}
			configured.Done()
			configured.Wait()
			if i%2 == 1 {
				_ = tg.Close()
				halfClosed.Done()
			} else {
				halfClosed.Wait()
				for _, d := range dirs {
					if _, err := os.Stat(filepath.Join(d, "root", "a.txt")); err != nil {
						errs <- fmt.Errorf("target %d, after other targets closed: %w", i, err)
					}
				}
				_ = tg.Close()
			}
			for _, d := range dirs {
				if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
					errs <- fmt.Errorf("target %d, after its Close: stat %s: %v, want it removed", i, d, err)
				}
			}
		})
	}
	done.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
