package mcpns

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// NamespaceID is the namespace id of MCP namespace bridge requests, and
// GlobalName the guest global that holds the namespace.
const (
	NamespaceID = "mcp"
	GlobalName  = "MCP"
)

// sourceMCP is the catalog source of MCP entries, the first part of their
// ids (CM-11.10).
const sourceMCP = "mcp"

// Operations of an [Entry] (CM-14.23). OpAPI marks the pseudo entries of
// the $api functions that [Model.Resolve] returns; they are answered by
// [Model.API] and never executed as tools.
const (
	OpTool          = "tool"
	OpResourcesList = "resources_list"
	OpResourcesRead = "resources_read"
	OpPromptsList   = "prompts_list"
	OpPromptsGet    = "prompts_get"
	OpAPI           = "$api"
)

// A Server is one MCP server of the run, as the catalog sees it.
type Server struct {
	// Name is the configured server name (mcp.servers.<name>).
	Name string
	// Owner is the sanitized catalog owner (CM-11.10). When empty it is
	// derived from Name with [SafeOwner].
	Owner string
	// Tools are the tools the server lists.
	Tools []Tool
	// Resources and Prompts report the declared capabilities; each adds
	// two utility entries (CM-11.11).
	Resources bool
	Prompts   bool
}

// A Tool is one tool listed by an MCP server.
type Tool struct {
	// Name is the MCP tool name.
	Name        string
	Title       string
	Description string
	// InputSchema is the tool's JSON input schema; empty means none.
	InputSchema json.RawMessage
}

// A Model is the MCP namespace of one run: the visible servers with their
// identifiers and the callable entries of each. It is built once from the
// run catalog and is read-only afterwards, so it is safe for concurrent
// use.
type Model struct {
	// Servers are the visible servers in server order.
	Servers []*ServerNamespace

	byIdentifier map[string]*ServerNamespace
}

// A ServerNamespace is one visible server: the object MCP.<Identifier>.
type ServerNamespace struct {
	// Identifier is the server identifier (CM-14.8).
	Identifier string
	// Name is the configured server name and Owner its catalog owner.
	Name  string
	Owner string
	// Entries are the server's catalog entries: its tools in catalog
	// order, then its utility entries (resources_list, resources_read,
	// prompts_list, prompts_get).
	Entries []*Entry
}

// An Entry is one callable MCP catalog entry: a tool or a utility entry.
type Entry struct {
	// ID is the catalog id mcp:<owner>:<MCP tool name> (CM-11.10).
	ID string
	// Name is the compact name <owner>__<MCP tool name> (CM-11.14).
	Name string
	// Label is the tool's title, else its name; utility entries have the
	// labels of the CM-11.11 table.
	Label string
	// Description is the tool description ("" when none).
	Description string
	// MCPTool is the MCP tool name, or the utility name (resources_list,
	// ...) for utility entries.
	MCPTool string
	// Operation is OpTool or one of the utility operations.
	Operation string
	// Path is the path below the server object (["createIssue"],
	// ["resources", "list"]) and Method the path joined by ".".
	Path   []string
	Method string
	// ServerIdentifier and ServerName name the entry's server.
	ServerIdentifier string
	ServerName       string
	// InputSchema is the parameter schema as the server gave it (the
	// CM-11.11 schema for utility entries).
	InputSchema json.RawMessage

	schema *jsjson.Value // parsed InputSchema; nil when absent, null or invalid
}

// Build builds the MCP namespace from the servers of the run catalog, in
// catalog order (SPEC.md sections 14.2 and 11.2).
//
// Server order is the order of servers; Build does not reorder them. The
// tools of a server are put in catalog order (code point order of the MCP
// tool name, which is the order of their ids) before method identifiers
// are assigned; the utility entries follow the tools. When two entries
// have the same catalog id, the later one is kept (CM-11.6): a tool named
// like a utility entry of a declared capability is replaced by it, and a
// repeated tool name, or a tool of an earlier server with the same owner,
// loses to the later one. A server left without entries is not visible.
func Build(servers []Server) *Model {
	type candidate struct {
		server int
		entry  *Entry
	}
	var all []candidate
	owners := make([]string, len(servers))
	for i, s := range servers {
		owner := s.Owner
		if owner == "" {
			owner = SafeOwner(s.Name)
		}
		owners[i] = owner
		tools := slices.Clone(s.Tools)
		slices.SortStableFunc(tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
		for _, t := range tools {
			label := t.Title
			if label == "" {
				label = t.Name
			}
			all = append(all, candidate{i, &Entry{
				MCPTool: t.Name, Label: label, Description: t.Description,
				Operation: OpTool, InputSchema: t.InputSchema,
			}})
		}
		for _, u := range utilities {
			if u.resources && s.Resources || !u.resources && s.Prompts {
				all = append(all, candidate{i, &Entry{
					MCPTool: u.operation, Label: u.label,
					Description: strings.ReplaceAll(u.description, "<server>", s.Name),
					Operation:   u.operation, InputSchema: json.RawMessage(u.parameters),
					Path: slices.Clone(u.path), Method: strings.Join(u.path, "."),
				}})
			}
		}
	}
	for _, c := range all {
		e, owner := c.entry, owners[c.server]
		e.ID = sourceMCP + ":" + owner + ":" + e.MCPTool
		e.Name = owner + "__" + e.MCPTool
		e.ServerName = servers[c.server].Name
		if len(e.InputSchema) > 0 {
			if v, err := jsjson.Parse(e.InputSchema); err == nil && v.Kind != jsjson.Null {
				e.schema = v
			}
		}
	}
	last := make(map[string]int, len(all))
	for i, c := range all {
		last[c.entry.ID] = i
	}

	kept := make([][]*Entry, len(servers))
	for i, c := range all {
		if last[c.entry.ID] == i {
			kept[c.server] = append(kept[c.server], c.entry)
		}
	}

	m := &Model{byIdentifier: make(map[string]*ServerNamespace)}
	usedServers := make(map[string]bool)
	for i, s := range servers {
		entries := kept[i]
		if len(entries) == 0 {
			continue
		}
		ns := &ServerNamespace{
			Identifier: uniqueIdentifier(toIdentifier(owners[i], "server"), usedServers),
			Name:       s.Name, Owner: owners[i], Entries: entries,
		}
		usedTools := map[string]bool{"$api": true, "resources": true, "prompts": true}
		for _, e := range entries {
			e.ServerIdentifier = ns.Identifier
			if e.Operation == OpTool {
				method := uniqueIdentifier(toIdentifier(e.MCPTool, "tool"), usedTools)
				e.Path, e.Method = []string{method}, method
			}
		}
		m.Servers = append(m.Servers, ns)
		m.byIdentifier[ns.Identifier] = ns
	}
	return m
}

// Server returns the visible server with the given identifier, or nil.
func (m *Model) Server(identifier string) *ServerNamespace {
	return m.byIdentifier[identifier]
}

// Entries returns every entry of every visible server, in server order.
func (m *Model) Entries() []*Entry {
	var out []*Entry
	for _, s := range m.Servers {
		out = append(out, s.Entries...)
	}
	return out
}

// Identifiers returns the visible server identifiers in server order.
func (m *Model) Identifiers() []string {
	out := make([]string, len(m.Servers))
	for i, s := range m.Servers {
		out[i] = s.Identifier
	}
	return out
}
