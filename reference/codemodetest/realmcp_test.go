package codemodetest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// requireRealMCPConfig returns realMCPConfig(fixture). When the fixture is
// not installed it skips the test, except in CI, where `make deps` installs
// every fixture and the test fails instead.
func requireRealMCPConfig(t *testing.T, fixture string) map[string]any {
	t.Helper()
	entry, err := realMCPConfig(fixture)
	if errors.Is(err, conformance.ErrNotApplicable) && os.Getenv("CI") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("realMCPConfig(%q) error: %v", fixture, err)
	}
	return entry
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
			t.Cleanup(cleanupRealMCP)
			entry := requireRealMCPConfig(t, tt.fixture)
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
			cleanupRealMCP()
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("after cleanupRealMCP, stat %s: %v, want it removed", dir, err)
			}
		})
	}
}

func TestRealMCPConfig_scratchPerCall(t *testing.T) {
	t.Cleanup(cleanupRealMCP)
	a := scratchOf(requireRealMCPConfig(t, "memory"))
	b := scratchOf(requireRealMCPConfig(t, "memory"))
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
			_, err := realMCPConfig(tt.fixture)
			if err == nil {
				t.Fatalf("realMCPConfig(%q) = nil error, want one (%s)", tt.fixture, tt.reason)
			}
			if got := errors.Is(err, conformance.ErrNotApplicable); got != tt.wantNA {
				t.Errorf("realMCPConfig(%q) error %q: not applicable = %v, want %v (%s)", tt.fixture, err, got, tt.wantNA, tt.reason)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("realMCPConfig(%q) error = %q, want it to contain %q", tt.fixture, err, tt.wantText)
			}
		})
	}
}

// TestRealMCPFixtures_connect starts every fixture through the reference's
// MCP client, lists its tools and calls one.
func TestRealMCPFixtures_connect(t *testing.T) {
	calls := map[string]struct {
		tool string
		args string
		want func(entry map[string]any) string // a substring of the result
	}{
		"everything": {"get-sum", `{"a": 2, "b": 3}`, func(map[string]any) string { return "The sum of 2 and 3 is 5." }},
		"memory":     {"read_graph", `{}`, func(map[string]any) string { return `"entities":[]` }},
		"filesystem": {"list_allowed_directories", `{}`, func(e map[string]any) string {
			return "Allowed directories:\\n" + filepath.Join(scratchOf(e), "root")
		}},
		"gosdk-hello": {"greet", `{"name": "Ada"}`, func(map[string]any) string { return "Hi Ada" }},
	}
	for _, tt := range fixtureTests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Cleanup(cleanupRealMCP)
			entry := requireRealMCPConfig(t, tt.fixture)
			doc, err := json.Marshal(map[string]any{"mcp": map[string]any{"servers": map[string]any{tt.fixture: entry}}})
			if err != nil {
				t.Fatal(err)
			}
			servers, _ := mcpclient.ParseServers(doc)
			cfg, ok := servers[tt.fixture]
			if !ok {
				t.Fatalf("mcpclient.ParseServers(%s) dropped the server", doc)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s, err := mcpclient.Connect(ctx, tt.fixture, cfg)
			if err != nil {
				t.Fatalf("mcpclient.Connect(%q) error: %v", tt.fixture, err)
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
			for _, want := range tt.tools {
				if !slices.Contains(names, want) {
					t.Errorf("tools/list = %v, want it to include %q", names, want)
				}
			}
			c := calls[tt.fixture]
			res, err := s.CallTool(ctx, c.tool, json.RawMessage(c.args))
			if err != nil {
				t.Fatalf("CallTool(%q) error: %v", c.tool, err)
			}
			if want := c.want(entry); !strings.Contains(string(res), want) {
				t.Errorf("CallTool(%q) = %s, want it to contain %q", c.tool, res, want)
			}
		})
	}
}
