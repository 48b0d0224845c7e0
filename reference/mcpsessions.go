package codemode

// This file holds the runtime's MCP sessions: one per configured server,
// shared by the runtime's turns, and the catalog tools they list.

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/codemodekit/kit/reference/internal/mcpclient"
	"github.com/codemodekit/kit/reference/internal/mcpns"
)

// mcpManager keeps one session per configured MCP server, shared by the
// runtime's turns and closed with the runtime.
type mcpManager struct {
	mu       sync.Mutex
	sessions map[string]*mcpConn // server name + config fingerprint
}

type mcpConn struct {
	once sync.Once
	sess *mcpclient.Session
	err  error
}

func (m *mcpManager) session(ctx context.Context, name string, cfg mcpclient.ServerConfig) (*mcpclient.Session, error) {
	fp, _ := json.Marshal(cfg)
	key := name + "\x00" + string(fp)
	m.mu.Lock()
	if m.sessions == nil {
		m.sessions = map[string]*mcpConn{}
	}
	c, ok := m.sessions[key]
	if !ok {
		c = &mcpConn{}
		m.sessions[key] = c
	}
	m.mu.Unlock()
	c.once.Do(func() { c.sess, c.err = mcpclient.Connect(ctx, name, cfg) })
	if c.err != nil {
		// A failed server is retried by the next agent run.
		m.mu.Lock()
		if m.sessions[key] == c {
			delete(m.sessions, key)
		}
		m.mu.Unlock()
	}
	return c.sess, c.err
}

func (m *mcpManager) close() {
	m.mu.Lock()
	conns := m.sessions
	m.sessions = nil
	m.mu.Unlock()
	for _, c := range conns {
		if c.sess != nil {
			_ = c.sess.Close()
		}
	}
}

// tools lists the tools of every MCP server of a configuration's
// mcp.servers at the start of an agent run (CM-14.2) and turns them into
// catalog tools; a server that cannot be started or listed contributes
// nothing.
func (m *mcpManager) tools(ctx context.Context, servers json.RawMessage) []Tool {
	cfgs, names := mcpclient.ParseServers(servers)
	var listedServers []mcpns.Server
	sessions := map[string]*mcpclient.Session{}
	for _, name := range names {
		sess, err := m.session(ctx, name, cfgs[name])
		if err != nil {
			continue
		}
		listed, err := sess.ListTools(ctx)
		if err != nil {
			continue
		}
		srv := mcpns.Server{Name: name, Resources: sess.Capabilities().Resources, Prompts: sess.Capabilities().Prompts}
		for _, t := range listed {
			srv.Tools = append(srv.Tools, mcpns.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema})
		}
		listedServers = append(listedServers, srv)
		sessions[name] = sess
	}
	var out []Tool
	for _, s := range mcpns.Build(listedServers).Servers {
		sess := sessions[s.Name]
		for _, e := range s.Entries {
			t := mcpTool(s.Name, e, sess)
			t.RequiresApproval = e.Operation == mcpns.OpTool && slices.Contains(cfgs[s.Name].RequireApproval, e.MCPTool)
			out = append(out, t)
		}
	}
	return out
}

// mcpTool is the catalog tool of one MCP entry; calling it sends the entry's
// MCP request and returns the server's whole result as the details.
func mcpTool(server string, e *mcpns.Entry, sess *mcpclient.Session) Tool {
	op, mcpName := e.Operation, e.MCPTool
	return Tool{
		Name: e.Name, Label: e.Label, Description: e.Description, Source: SourceMCP, Owner: server,
		MCPToolName: mcpName, Parameters: e.InputSchema,
		mcp: &mcpInfo{server: server, tool: e.MCPTool, title: mcpTitle(e), operation: op},
		Execute: func(ctx context.Context, c ToolCall) (ToolResult, error) {
			var raw json.RawMessage
			var err error
			switch op {
			case mcpns.OpResourcesList:
				raw, err = sess.ListResources(ctx, c.Input)
			case mcpns.OpResourcesRead:
				raw, err = sess.ReadResource(ctx, c.Input)
			case mcpns.OpPromptsList:
				raw, err = sess.ListPrompts(ctx, c.Input)
			case mcpns.OpPromptsGet:
				raw, err = sess.GetPrompt(ctx, c.Input)
			default:
				raw, err = sess.CallTool(ctx, mcpName, c.Input)
			}
			if err != nil {
				return ToolResult{}, err
			}
			return ToolResult{Content: mcpContent(raw), Details: raw}, nil
		},
	}
}

func mcpTitle(e *mcpns.Entry) string {
	if e.Operation == mcpns.OpTool && e.Label != e.MCPTool {
		return e.Label
	}
	return ""
}

// mcpContent keeps the text blocks of an MCP result for model-level use.
func mcpContent(raw json.RawMessage) []ContentBlock {
	var r struct {
		Content []ContentBlock `json:"content"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.Content
}
