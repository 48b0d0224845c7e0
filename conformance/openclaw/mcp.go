package openclaw

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/fakes/fakemcp"
)

// mcpPath is the path under which the MCP front serves a fake server:
// mcpPath + the escaped server name.
const mcpPath = "/mcp/"

// An mcpFront serves the running scenario's fake MCP servers
// (fakes/fakemcp, streamable HTTP) at URLs that stay the same from
// scenario to scenario: <front>/mcp/<escaped server name> reaches the
// current scenario's server of that name. A gateway's configuration then
// depends on the server names only, so scenarios with the same names share
// a gateway. OpenClaw connects to MCP servers per session, and every
// scenario has sessions of its own, so a session never outlives the
// servers it listed.
type mcpFront struct {
	srv *httptest.Server

	mu       sync.Mutex
	handlers map[string]http.Handler // the running scenario's, by server name
}

func newMCPFront() *mcpFront {
	f := &mcpFront{}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	f.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	f.srv.Start()
	return f
}

// url is the URL of the fake server named name.
func (f *mcpFront) url(name string) string {
	return f.srv.URL + mcpPath + url.PathEscape(name)
}

func (f *mcpFront) serve(w http.ResponseWriter, r *http.Request) {
	var h http.Handler
	if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), mcpPath); ok {
		if name, err := url.PathUnescape(rest); err == nil {
			f.mu.Lock()
			h = f.handlers[name]
			f.mu.Unlock()
		}
	}
	if h == nil {
		// A session of an earlier scenario: OpenClaw drops an HTTP
		// session answered with 404.
		http.Error(w, "no such MCP server in the running scenario", http.StatusNotFound)
		return
	}
	h.ServeHTTP(w, r)
}

// set makes handlers the servers the front reaches (nil: none).
func (f *mcpFront) set(handlers map[string]http.Handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers = handlers
}

// close ends every connection (OpenClaw keeps an event stream open per
// session) and stops the front.
func (f *mcpFront) close() {
	f.set(nil)
	f.srv.CloseClientConnections()
	f.srv.Close()
}

// mcpServers are the MCP servers of one scenario as its gateway reaches
// them: the fake ones behind the runner's front, the real fixtures as
// stdio children of OpenClaw.
type mcpServers struct {
	fakes    map[string]*fakemcp.Server
	handlers map[string]http.Handler
	entries  map[string]map[string]any // mcp.servers entries, by server name
	resolver driver.MCPFixtures
}

// startMCP starts the setup's fake MCP servers and resolves its real ones,
// those not done yet (the setup may grow between turns), and puts the
// fake ones behind the front.
func (t *target) startMCP() error {
	m := &t.mcp
	if m.entries == nil {
		m.fakes, m.handlers, m.entries = map[string]*fakemcp.Server{}, map[string]http.Handler{}, map[string]map[string]any{}
	}
	for _, srv := range t.setup.MCPServers {
		if _, done := m.entries[srv.Name]; done {
			continue
		}
		if srv.Fixture == "" {
			fs, err := fakemcp.New(fakemcp.Definition{Name: srv.Name, Tools: srv.Tools, Resources: srv.Resources, Prompts: srv.Prompts}, t.setup.Host)
			if err != nil {
				return fmt.Errorf("fake MCP server %q: %w", srv.Name, err)
			}
			m.fakes[srv.Name] = fs
			m.handlers[srv.Name] = fs.Handler()
			// The fake speaks streamable HTTP; OpenClaw takes a url
			// without a transport for SSE (SPEC.md Appendix A #70).
			m.entries[srv.Name] = map[string]any{"url": t.r.mcp.url(srv.Name), "transport": "streamable-http"}
			continue
		}
		entry, err := t.fixture(srv)
		if err != nil {
			return err
		}
		m.entries[srv.Name] = entry
	}
	t.r.mcp.set(m.handlers)
	return nil
}

// fixture resolves a real MCP server fixture to the stdio entry that runs
// it as a child of OpenClaw, inside the gateway's network namespace.
func (t *target) fixture(srv conformance.MCPServer) (map[string]any, error) {
	m := &t.mcp
	if m.resolver == nil {
		if t.r.opts.MCPFixtures == nil {
			return nil, conformance.NotApplicable("openclaw target: real MCP server fixture %q: no fixture resolver (Options.MCPFixtures)", srv.Fixture)
		}
		m.resolver = t.r.opts.MCPFixtures()
	}
	entry, err := m.resolver.Config(srv.Fixture)
	if err != nil {
		return nil, err
	}
	if _, stdio := entry["command"]; !stdio {
		return nil, conformance.NotApplicable("openclaw target: real MCP server fixture %q is not a process (%v): only loopback and stdio children reach the gateway's network namespace", srv.Fixture, entry["url"])
	}
	link := filepath.Join(t.r.root, "mcp-scratch", url.PathEscape(srv.Name))
	return stableScratch(entry, srv.Fixture, link)
}

// mcpConfig returns the setup's configuration document with an
// mcp.servers entry for every server of the setup; what the scenario
// configures for a server (timeoutMs, headers, env) is kept on top.
func (t *target) mcpConfig() (json.RawMessage, error) {
	if len(t.setup.MCPServers) == 0 {
		return t.setup.Config, nil
	}
	if err := t.startMCP(); err != nil {
		return nil, err
	}
	cfg := t.setup.Config
	if len(cfg) == 0 {
		cfg = json.RawMessage("{}")
	}
	return driver.MergeMCPServers(cfg, t.mcp.entries)
}

// closeMCP takes the scenario's fake servers off the front, stops them
// and removes the fixtures' scratch directories.
func (t *target) closeMCP() {
	if t.mcp.entries == nil {
		return
	}
	t.r.mcp.set(nil)
	for _, fs := range t.mcp.fakes {
		fs.Close()
	}
	if t.mcp.resolver != nil {
		t.mcp.resolver.Cleanup()
	}
	t.mcp = mcpServers{}
}

// stableScratch returns entry with its fixture's fresh scratch directory
// ($TMPDIR/codemodekit-mcp-<fixture>-*, fixtures/mcp/README.md) replaced
// by link, a symbolic link repointed at that directory, so that the entry,
// and with it the gateway's configuration, stays the same from scenario
// to scenario. OpenClaw starts a stdio server for each session, after the
// scenario repointed the link. An entry without a scratch directory is
// returned as it is.
func stableScratch(entry map[string]any, fixture, link string) (map[string]any, error) {
	dir := ""
	marker := string(filepath.Separator) + "codemodekit-mcp-" + fixture + "-"
	walkStrings(entry, func(s string) string {
		if i := strings.Index(s, marker); dir == "" && i >= 0 {
			end := i + len(marker)
			if j := strings.IndexRune(s[end:], filepath.Separator); j >= 0 {
				end += j
			} else {
				end = len(s)
			}
			if st, err := os.Stat(s[:end]); err == nil && st.IsDir() && filepath.IsAbs(s[:end]) {
				dir = s[:end]
			}
		}
		return s
	})
	if dir == "" {
		return entry, nil
	}
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		return nil, err
	}
	tmp := link + ".new"
	_ = os.Remove(tmp)
	if err := os.Symlink(dir, tmp); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, link); err != nil {
		return nil, err
	}
	out, _ := walkStrings(entry, func(s string) string {
		if s == dir || strings.HasPrefix(s, dir+string(filepath.Separator)) {
			return link + s[len(dir):]
		}
		return s
	}).(map[string]any)
	return out, nil
}

// walkStrings returns a copy of v (decoded JSON) with f applied to every
// string value.
func walkStrings(v any, f func(string) string) any {
	switch v := v.(type) {
	case string:
		return f(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = walkStrings(e, f)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = walkStrings(e, f)
		}
		return out
	case []string:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = f(e)
		}
		return out
	case map[string]string:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = f(e)
		}
		return out
	}
	return v
}
