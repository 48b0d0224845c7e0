package mcpns

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// Notes of the $api results (CM-14.20, CM-14.21).
const (
	rootAPINote   = "Call MCP.<server>.$api() for a TypeScript-style header, then call tools with one object argument matching the shown input type."
	serverAPINote = "Call MCP tools with one object argument, for example MCP.server.tool({ requiredField: value })."
)

// RootAPI returns the result of MCP.$api() (CM-14.20): the root
// declaration and the servers in server order, each with the number of its
// entries (utility entries included). Members are written in the order of
// the SPEC example.
func (m *Model) RootAPI() json.RawMessage {
	servers := jsonArray()
	for _, s := range m.Servers {
		servers.Arr = append(servers.Arr, jsonObject(
			"identifier", jsonString(s.Identifier),
			"serverName", jsonString(s.Name),
			"toolCount", jsonNumber(float64(len(s.Entries))),
		))
	}
	out := jsonObject(
		"kind", jsonString("mcp_api"),
		"scope", jsonString("root"),
		"header", jsonString(m.IndexFile()),
		"servers", servers,
		"note", jsonString(rootAPINote),
	)
	return json.RawMessage(out.String())
}

// ServerAPI returns the result of MCP.<identifier>.$api(selector,
// {schema}) (CM-14.21 to CM-14.23). The selector is trimmed; an empty one
// selects every entry, otherwise the entries whose method, dotted path or
// MCP tool name equals it. Selected entries are listed, and declared in
// the header, in declaration order (see [Model.ServerFile]). An unknown
// identifier is a path that is not callable (CM-15.15).
func (m *Model) ServerAPI(identifier, selector string, schema bool) (json.RawMessage, error) {
	s := m.Server(identifier)
	if s == nil {
		return nil, notCallable(identifier + "." + OpAPI)
	}
	selector = trimJS(selector)
	var selected []*Entry
	for _, e := range s.Entries {
		if selector == "" || e.Method == selector || strings.Join(e.Path, ".") == selector || e.MCPTool == selector {
			selected = append(selected, e)
		}
	}
	top, groups := declarationOrder(selected)
	ordered := top
	for _, g := range groups {
		ordered = append(ordered, g.entries...)
	}
	scope := "server"
	if len(ordered) == 1 {
		scope = "tool"
	}
	tools := jsonArray()
	schemas := jsonObject()
	for _, e := range ordered {
		path := jsonArray()
		for _, seg := range e.Path {
			path.Arr = append(path.Arr, jsonString(seg))
		}
		tools.Arr = append(tools.Arr, jsonObject(
			"method", jsonString(e.Method),
			"path", path,
			"mcpTool", jsonString(e.MCPTool),
			"operation", jsonString(e.Operation),
			"description", jsonString(e.Description),
		))
		sch := jsonObject()
		if e.schema != nil {
			sch = *e.schema
		}
		schemas.Set(e.Method, sch)
	}
	out := jsonObject(
		"kind", jsonString("mcp_api"),
		"scope", jsonString(scope),
		"server", jsonObject("identifier", jsonString(s.Identifier), "serverName", jsonString(s.Name)),
		"header", jsonString(renderServer(s, selected)),
		"tools", tools,
	)
	if schema {
		out.Set("schemas", schemas)
	}
	out.Set("note", jsonString(serverAPINote))
	return json.RawMessage(out.String()), nil
}

// API answers a call of an $api pseudo entry returned by [Model.Resolve]
// with the guest arguments: MCP.$api() ignores them; MCP.<server>.$api
// takes a selector (a string; any other value counts as absent) and
// options whose schema member must be exactly true to add schemas.
func (m *Model) API(e *Entry, args []json.RawMessage) (json.RawMessage, error) {
	if e == nil || e.Operation != OpAPI {
		return nil, errors.New("mcpns: API needs an $api entry")
	}
	if e.ServerIdentifier == "" {
		return m.RootAPI(), nil
	}
	var selector string
	if len(args) > 0 {
		if v, err := jsjson.Parse(args[0]); err == nil && v.Kind == jsjson.String {
			selector = v.Str
		}
	}
	schema := false
	if len(args) > 1 {
		if v, err := jsjson.Parse(args[1]); err == nil {
			if s := v.Get("schema"); s != nil && s.Kind == jsjson.Bool && s.Bool {
				schema = true
			}
		}
	}
	return m.ServerAPI(e.ServerIdentifier, selector, schema)
}
