package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
	"github.com/codemodekit/kit/fakes/fakemcp"
)

// FakeMCP holds the fake MCP servers of a setup: one fakemcp server on
// 127.0.0.1 for every MCPServer without a Fixture, run by the setup's
// host. The suite starts them for a driven implementation; an in-process
// target may use it too. The zero value is ready to use and safe for
// concurrent use.
type FakeMCP struct {
	mu      sync.Mutex
	servers map[string]*fakemcp.Server
	sse     map[string]bool     // servers served over SSE
	gated   map[string][]string // approval-gated tools, by server
	order   []string
}

// Start starts a server for every fake MCP server of s not started yet,
// so it may be called again after the setup grew.
func (m *FakeMCP) Start(s *conformance.Setup) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.servers == nil {
		m.servers = map[string]*fakemcp.Server{}
	}
	for _, srv := range s.MCPServers {
		if srv.Fixture != "" || m.servers[srv.Name] != nil {
			continue
		}
		transport := srv.Transport
		if transport == "" {
			transport = fakemcp.StreamableHTTP
		}
		def := fakemcp.Definition{Name: srv.Name, Tools: srv.Tools, Resources: srv.Resources, Prompts: srv.Prompts}
		fs, err := fakemcp.StartDefinition(def, s.Host, transport)
		if err != nil {
			return fmt.Errorf("start fake MCP server %q: %w", srv.Name, err)
		}
		m.servers[srv.Name] = fs
		for _, t := range srv.Tools {
			if t.RequiresApproval {
				if m.gated == nil {
					m.gated = map[string][]string{}
				}
				m.gated[srv.Name] = append(m.gated[srv.Name], t.Name)
			}
		}
		if transport == fakemcp.SSE {
			if m.sse == nil {
				m.sse = map[string]bool{}
			}
			m.sse[srv.Name] = true
		}
		m.order = append(m.order, srv.Name)
	}
	return nil
}

// Entries returns the mcp.servers entry of every started server: its url,
// "transport": "sse" for a server served over SSE, and "requireApproval"
// with the tools that require approval.
func (m *FakeMCP) Entries() map[string]map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]map[string]any, len(m.servers))
	for name, s := range m.servers {
		out[name] = map[string]any{"url": s.URL()}
		if m.sse[name] {
			out[name]["transport"] = fakemcp.SSE
		}
		if g := m.gated[name]; len(g) > 0 {
			out[name]["requireApproval"] = slices.Clone(g)
		}
	}
	return out
}

// Close stops every server.
func (m *FakeMCP) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, name := range m.order {
		m.servers[name].Close()
	}
	m.servers, m.sse, m.gated, m.order = nil, nil, nil, nil
}

// MCPSetup runs the MCP servers of a setup for an implementation in
// another process: the fake ones (FakeMCP) and, with a resolver, the real
// server fixtures. Config renders them into the setup's configuration.
// Targets of this package and of conformance/gateway share it.
type MCPSetup struct {
	newFixtures func() MCPFixtures

	fake     FakeMCP
	mu       sync.Mutex
	fixtures map[string]map[string]any // resolved real servers, by server name
	resolver MCPFixtures
}

// NewMCPSetup returns an MCPSetup; newFixtures (nil: none) makes the
// resolver of real server fixtures on first use.
func NewMCPSetup(newFixtures func() MCPFixtures) *MCPSetup {
	return &MCPSetup{newFixtures: newFixtures}
}

// Start starts the fake servers of s and resolves its real ones, those
// not done yet, so it may be called again after the setup grew. Without a
// resolver, real servers stay unresolved (Unresolved).
func (m *MCPSetup) Start(s *conformance.Setup) error {
	if err := m.fake.Start(s); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, srv := range s.MCPServers {
		if _, done := m.fixtures[srv.Name]; srv.Fixture == "" || done || m.newFixtures == nil {
			continue
		}
		if m.resolver == nil {
			m.resolver = m.newFixtures()
		}
		entry, err := m.resolver.Config(srv.Fixture)
		if err != nil {
			return err
		}
		if m.fixtures == nil {
			m.fixtures = map[string]map[string]any{}
		}
		m.fixtures[srv.Name] = entry
	}
	return nil
}

// Unresolved returns the real servers of s that Start did not resolve.
func (m *MCPSetup) Unresolved(s *conformance.Setup) []conformance.MCPServer {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []conformance.MCPServer
	for _, srv := range s.MCPServers {
		if _, resolved := m.fixtures[srv.Name]; srv.Fixture != "" && !resolved {
			out = append(out, srv)
		}
	}
	return out
}

// Config returns the setup's configuration with an mcp.servers entry for
// every server started or resolved (MergeMCPServers).
func (m *MCPSetup) Config(s *conformance.Setup) (json.RawMessage, error) {
	cfg := s.Config
	if len(cfg) == 0 {
		cfg = json.RawMessage("{}")
	}
	entries := m.fake.Entries()
	m.mu.Lock()
	for name, e := range m.fixtures {
		entries[name] = e
	}
	m.mu.Unlock()
	return MergeMCPServers(cfg, entries)
}

// Close stops the fake servers and cleans the resolved ones up.
func (m *MCPSetup) Close() {
	m.fake.Close()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.resolver != nil {
		m.resolver.Cleanup()
	}
}

// WithoutBehavior returns the specs without their behaviours: what a tool
// does is the suite's business, not the implementation's.
func WithoutBehavior(specs []wire.Spec) []wire.Spec {
	out := make([]wire.Spec, len(specs))
	for i, s := range specs {
		s.Behavior = nil
		out[i] = s
	}
	return out
}

// MergeMCPServers returns config with mcp.servers.<name> set for every
// entry: the entry's members, then every member the config already has
// for that server on top, so that what a scenario configures for a server
// (timeoutMs, headers) always wins. Without entries, config is returned
// unchanged.
func MergeMCPServers(config json.RawMessage, entries map[string]map[string]any) (json.RawMessage, error) {
	if len(entries) == 0 {
		return config, nil
	}
	var cfg map[string]any
	dec := json.NewDecoder(bytes.NewReader(config))
	dec.UseNumber() // numbers keep their text
	if err := dec.Decode(&cfg); err != nil || cfg == nil {
		cfg = map[string]any{}
	}
	mcp, _ := cfg["mcp"].(map[string]any)
	if mcp == nil {
		mcp = map[string]any{}
		cfg["mcp"] = mcp
	}
	servers, _ := mcp["servers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
		mcp["servers"] = servers
	}
	for name, entry := range entries {
		merged := make(map[string]any, len(entry))
		for k, v := range entry {
			merged[k] = v
		}
		if prev, ok := servers[name].(map[string]any); ok {
			for k, v := range prev {
				merged[k] = v
			}
		}
		servers[name] = merged
	}
	return protocol.Marshal(cfg)
}
