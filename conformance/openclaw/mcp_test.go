package openclaw

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
)

func TestStableScratch(t *testing.T) {
	tmp := t.TempDir()
	scratch := filepath.Join(tmp, "codemodekit-mcp-memory-123")
	if err := os.Mkdir(scratch, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "runner", "mcp-scratch", "memory")
	tests := []struct {
		name    string
		fixture string
		entry   map[string]any
		want    map[string]any
		linked  bool
	}{
		{
			name:    "env and args under the scratch directory",
			fixture: "memory",
			entry: map[string]any{"command": "node", "args": []any{"./server.js", scratch + "/root"},
				"env": map[string]any{"MEMORY_FILE_PATH": scratch + "/memory.jsonl"}},
			want: map[string]any{"command": "node", "args": []any{"./server.js", link + "/root"},
				"env": map[string]any{"MEMORY_FILE_PATH": link + "/memory.jsonl"}},
			linked: true,
		},
		{
			name:    "the scratch directory itself",
			fixture: "memory",
			entry:   map[string]any{"command": "node", "cwd": scratch},
			want:    map[string]any{"command": "node", "cwd": link},
			linked:  true,
		},
		{
			name:    "no scratch directory",
			fixture: "everything",
			entry:   map[string]any{"command": "node", "args": []any{"server.js", "stdio"}},
			want:    map[string]any{"command": "node", "args": []any{"server.js", "stdio"}},
		},
		{
			name:    "another fixture's directory is left alone",
			fixture: "filesystem",
			entry:   map[string]any{"command": "node", "args": []any{scratch}},
			want:    map[string]any{"command": "node", "args": []any{scratch}},
		},
		{
			name:    "a name like a scratch directory that does not exist",
			fixture: "memory",
			entry:   map[string]any{"command": "node", "args": []any{filepath.Join(tmp, "codemodekit-mcp-memory-gone") + "/x"}},
			want:    map[string]any{"command": "node", "args": []any{filepath.Join(tmp, "codemodekit-mcp-memory-gone") + "/x"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_ = os.Remove(link)
			got, err := stableScratch(tt.entry, tt.fixture, link)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entry (-want +got):\n%s", diff)
			}
			target, err := os.Readlink(link)
			if !tt.linked {
				if err == nil {
					t.Errorf("link made to %s, want none", target)
				}
				return
			}
			if err != nil || target != scratch {
				t.Errorf("link points to %q (%v), want %q", target, err, scratch)
			}
		})
	}
}

// fixtures is a driver.MCPFixtures whose every fixture gets a fresh
// scratch directory, as codemodetest's resolver does.
type fixtures struct {
	dir     string
	n       int
	cleaned bool
}

func (f *fixtures) Config(fixture string) (map[string]any, error) {
	if fixture == "hosted" {
		return map[string]any{"url": "http://127.0.0.1:3001/mcp"}, nil
	}
	f.n++
	scratch, err := os.MkdirTemp(f.dir, "codemodekit-mcp-"+fixture+"-")
	if err != nil {
		return nil, err
	}
	return map[string]any{"command": "node", "args": []any{"server.js"},
		"env": map[string]any{"MEMORY_FILE_PATH": scratch + "/memory.jsonl"}}, nil
}

func (f *fixtures) Cleanup() { f.cleaned = true }

func TestMCPConfig(t *testing.T) {
	res := &fixtures{dir: t.TempDir()}
	r := &Runner{root: t.TempDir(), mcp: newMCPFront(), opts: Options{MCPFixtures: func() driver.MCPFixtures { return res }}}
	defer r.mcp.close()
	link := filepath.Join(r.root, "mcp-scratch", "memory")
	setup := func() *conformance.Setup {
		return &conformance.Setup{
			Config: json.RawMessage(`{"tools":{"codeMode":true},"mcp":{"servers":{"notes":{"timeoutMs":300}}}}`),
			Host:   faketools.NewHost(),
			MCPServers: []conformance.MCPServer{
				{Name: "notes", Tools: []wire.Spec{{Name: "lookup_note", Source: "mcp", Owner: "notes"}}},
				{Name: "memory", Fixture: "memory"},
			},
		}
	}
	want := map[string]any{
		"tools": map[string]any{"codeMode": true},
		"mcp": map[string]any{"servers": map[string]any{
			"notes":  map[string]any{"url": r.mcp.url("notes"), "transport": "streamable-http", "timeoutMs": float64(300)},
			"memory": map[string]any{"command": "node", "args": []any{"server.js"}, "env": map[string]any{"MEMORY_FILE_PATH": link + "/memory.jsonl"}},
		}},
	}
	// Two scenarios with the same servers get the same document: they
	// share a gateway.
	for i := range 2 {
		tg := &target{r: r, setup: setup()}
		doc, err := tg.mcpConfig()
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("scenario %d: config (-want +got):\n%s", i, diff)
		}
		resp, err := http.Post(r.mcp.url("notes"), "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			t.Errorf("scenario %d: the front does not reach the fake server notes", i)
		}
		if err := tg.Close(); err != nil {
			t.Fatal(err)
		}
		if !res.cleaned {
			t.Errorf("scenario %d: the fixtures were not cleaned up", i)
		}
		res.cleaned = false
	}
	if res.n != 2 {
		t.Errorf("fixture resolved %d times, want once per scenario", res.n)
	}
	tg := &target{r: r, setup: &conformance.Setup{MCPServers: []conformance.MCPServer{{Name: "hosted", Fixture: "hosted"}}}}
	if _, err := tg.mcpConfig(); !errors.Is(err, conformance.ErrNotApplicable) {
		t.Errorf("a fixture reached by url: err %v, want not applicable", err)
	}
}

func TestMCPFront(t *testing.T) {
	f := newMCPFront()
	defer f.close()
	f.set(map[string]http.Handler{"a b/c": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "a b/c")
	})})
	get := func(u string) (int, string) {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	tests := []struct {
		name   string
		url    string
		status int
		body   string
	}{
		{"the running scenario's server", f.url("a b/c"), http.StatusOK, "a b/c"},
		{"a server the scenario lacks", f.url("other"), http.StatusNotFound, ""},
		{"outside the front's path", f.srv.URL + "/a%20b%2Fc", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		status, body := get(tt.url)
		if status != tt.status || (tt.body != "" && body != tt.body) {
			t.Errorf("%s: got %d %q, want %d %q", tt.name, status, body, tt.status, tt.body)
		}
	}
	f.set(nil)
	if status, _ := get(f.url("a b/c")); status != http.StatusNotFound {
		t.Errorf("after the scenario: got %d, want 404", status)
	}
}
