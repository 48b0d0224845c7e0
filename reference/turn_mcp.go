package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/guest"
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

// mcpTools lists the tools of every MCP server of a configuration's
// mcp.servers at the start of an agent run (CM-14.2) and turns them into
// catalog tools; a server that cannot be started or listed contributes
// nothing.
func (rt *Runtime) mcpTools(ctx context.Context, servers json.RawMessage) []Tool {
	cfgs, names := mcpclient.ParseServers(servers)
	var found []mcpns.Server
	sessions := map[string]*mcpclient.Session{}
	for _, name := range names {
		sess, err := rt.mcp.session(ctx, name, cfgs[name])
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
		found = append(found, srv)
		sessions[name] = sess
	}
	var out []Tool
	for _, s := range mcpns.Build(found).Servers {
		sess := sessions[s.Name]
		for _, e := range s.Entries {
			out = append(out, mcpTool(s.Name, e, sess))
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

// mcpInfo keeps what the namespace model needs about an MCP catalog tool.
type mcpInfo struct {
	server, tool, title, operation string
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

// buildMCP builds the run's MCP namespace from the MCP entries that survived
// policy, in catalog order.
func (t *Turn) buildMCP() {
	var servers []mcpns.Server
	index := map[string]int{}
	for _, e := range t.catalog.Entries {
		if e.Source != catalog.SourceMCP {
			continue
		}
		tool := t.byID[e.ID]
		if tool.mcp == nil {
			continue
		}
		i, ok := index[tool.mcp.server]
		if !ok {
			i = len(servers)
			index[tool.mcp.server] = i
			servers = append(servers, mcpns.Server{Name: tool.mcp.server})
		}
		switch tool.mcp.operation {
		case mcpns.OpResourcesList, mcpns.OpResourcesRead:
			servers[i].Resources = true
		case mcpns.OpPromptsList, mcpns.OpPromptsGet:
			servers[i].Prompts = true
		default:
			servers[i].Tools = append(servers[i].Tools, mcpns.Tool{Name: tool.mcp.tool, Title: tool.mcp.title,
				Description: tool.Description, InputSchema: tool.Parameters})
		}
	}
	if len(servers) > 0 {
		t.mcp = mcpns.Build(servers)
	}
}

// promptBlock joins the MCP and registered-namespace sections (SPEC.md 4.3).
func (t *Turn) promptBlock() string {
	var parts []string
	if t.mcp != nil {
		if p := t.mcp.Prompt(); p != "" {
			parts = append(parts, p)
		}
	}
	if p := t.namespacePrompt(t.visibleNamespaces()); p != "" {
		parts = append(parts, p)
	}
	return strings.Join(parts, "\n\n")
}

// mcpNamespace is the guest descriptor of the MCP global, or nil.
func (t *Turn) mcpNamespace() *guest.Namespace {
	if t.mcp == nil {
		return nil
	}
	b, err := json.Marshal(t.mcp.Guest())
	if err != nil {
		return nil
	}
	var ns guest.Namespace
	if json.Unmarshal(b, &ns) != nil {
		return nil
	}
	return &ns
}

// apiFiles are the virtual declaration files of the run: agents.d.ts with
// Swarm, then the MCP files (CM-14.27).
func (t *Turn) apiFiles() []guest.APIFile {
	files := []guest.APIFile{}
	if t.swarmOn() {
		files = append(files, guest.APIFile{Path: "agents.d.ts", Description: AgentsFileDescription, Content: AgentsFile, Bytes: len(AgentsFile)})
	}
	if t.mcp != nil {
		for _, f := range t.mcp.Files() {
			files = append(files, guest.APIFile{Path: f.Path, Description: f.Description, Content: f.Content, Bytes: f.Bytes})
		}
	}
	return files
}

// mcpCall answers an MCP namespace request: $api from the model, every other
// path as a nested call by exact catalog id (CM-14.15, CM-14.24).
func (t *Turn) mcpCall(ctx context.Context, req namespaceRequest, n cell.Nested) ([]byte, error) {
	if t.mcp == nil {
		return nil, mcpns.UnknownNamespace(req.Namespace)
	}
	e, err := t.mcp.Resolve(req.Path)
	if err != nil {
		return nil, err
	}
	if e.Operation == mcpns.OpAPI {
		return t.mcp.API(e, req.Args)
	}
	input, err := mcpns.PrepareInput(e, req.Args, req.Argc)
	if err != nil {
		return nil, err
	}
	entry, ok := t.catalog.Get(e.ID)
	if !ok {
		return nil, mcpns.UnknownNamespace(req.Namespace)
	}
	t.Count(guest.MethodCall)
	res, err := t.nestedCall(ctx, entry, input, n)
	if err != nil {
		return nil, err
	}
	if res.Details == nil {
		return []byte("null"), nil
	}
	return res.Details, nil
}
