// Package catalog builds the hidden tool catalog of one run: eligibility,
// ids, order, compact entries with input and output hints, lookup by id or
// name, convenience names and search ranking (SPEC.md chapters 11-13).
package catalog

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Kind is where a tool comes from.
type Kind int

const (
	Core Kind = iota
	Plugin
	MCP
	Client
)

// Sources of compact entries. Plugin tools use SourceOpenClaw.
const (
	SourceOpenClaw = "openclaw"
	SourceMCP      = "mcp"
	SourceClient   = "client"
)

// ControlTools are tool-search controls: never cataloged, never visible.
var ControlTools = []string{"tool_search_code", "tool_search", "tool_describe", "tool_call"}

// A Tool is the catalog's view of one effective tool.
type Tool struct {
	Name        string
	Label       string
	Description string
	Kind        Kind
	// Owner is the plugin id, the MCP server name or the client owner.
	Owner   string
	Bundled bool
	// MCPToolName is the tool's name on its MCP server.
	MCPToolName string
	// MCPOperation is the member that calls it in the MCP global, for a
	// tool listed from a connected server.
	MCPOperation string
	Parameters   json.RawMessage
	OutputSchema json.RawMessage
	DirectOnly   bool
	// Index is the tool's position in the caller's list.
	Index int
}

// An Entry is one catalog entry.
type Entry struct {
	ID          string
	Name        string
	Label       string
	Description string
	Source      string
	SourceName  string
	Input       string
	Output      string // "" when no complete trusted output hint exists
	Tool        Tool
	group       int
}

// Parameters returns the entry's input schema, {} when absent (or null).
func (e Entry) Parameters() json.RawMessage {
	if p := strings.TrimSpace(string(e.Tool.Parameters)); p == "" || p == "null" {
		return json.RawMessage("{}")
	}
	return e.Tool.Parameters
}

// Catalog is the run-scoped catalog.
type Catalog struct {
	Entries []Entry
	byID    map[string]int
	// withMCP makes MCP entries searchable and resolvable by Lookup, as
	// Tool Search has them; code mode's guest API leaves them out.
	withMCP bool

	indexOnce sync.Once
	ix        *index

	guestOnce sync.Once
	guest     GuestCatalog
}

// GuestCatalog is the part of the guest's globals that depends on the
// catalog alone, as JSON text ({"tools": the compact entries of Visible,
// for ALL_TOOLS; "convenience": Convenience, for the tools object}), and
// its sha256, which names it in the cell runner's pool of VMs that have it
// installed already.
type GuestCatalog struct {
	JSON []byte
	Key  [32]byte
}

// Guest returns the catalog's GuestCatalog, built on first use: a catalog
// does not change after Build, and a turn runs many cells over it.
func (c *Catalog) Guest() GuestCatalog {
	c.guestOnce.Do(func() {
		visible := c.Visible()
		compact := make([]Compact, len(visible))
		for i, e := range visible {
			compact[i] = e.Compact()
		}
		conv := c.Convenience()
		if conv == nil {
			conv = []Convenience{} // an array, never null, for the guest
		}
		b, _ := json.Marshal(struct {
			Tools       []Compact     `json:"tools"`
			Convenience []Convenience `json:"convenience"`
		}{compact, conv}) // strings only: it cannot fail
		c.guest = GuestCatalog{JSON: b, Key: sha256.Sum256(b)}
	})
	return c.guest
}

// ToolSearchCodeGuest is the guest catalog of a tool_search_code run: it
// installs openclaw.tools and console instead of ALL_TOOLS and tools, and
// the entries are reached through the bridge alone.
var ToolSearchCodeGuest = func() GuestCatalog {
	b := []byte(`{"surface":"toolSearchCode","tools":[],"convenience":[]}`)
	return GuestCatalog{JSON: b, Key: sha256.Sum256(b)}
}()

var unsafeOwnerRE = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// SafeServerName is an MCP server name with characters outside
// [A-Za-z0-9_-] replaced by "-".
func SafeServerName(name string) string { return unsafeOwnerRE.ReplaceAllString(name, "-") }

// ID returns a tool's catalog id, <source>:<owner>:<tool-name>.
func ID(t Tool) string {
	switch t.Kind {
	case Plugin:
		return SourceOpenClaw + ":" + strings.TrimSpace(t.Owner) + ":" + t.Name
	case MCP:
		name := t.MCPToolName
		if name == "" {
			name = t.Name
		}
		return SourceMCP + ":" + SafeServerName(t.Owner) + ":" + name
	case Client:
		owner := strings.TrimSpace(t.Owner)
		if owner == "" {
			owner = "client"
		}
		return SourceClient + ":" + owner + ":" + t.Name
	default:
		return SourceOpenClaw + ":core:" + t.Name
	}
}

// IsControl reports whether name is a tool-search control tool.
func IsControl(name string) bool {
	for _, c := range ControlTools {
		if name == c {
			return true
		}
	}
	return false
}

func group(t Tool) int {
	switch t.Kind {
	case Core:
		return 0
	case Plugin:
		if t.Bundled {
			return 1
		}
		return 2
	case MCP:
		return 3
	default:
		return 4
	}
}

// Build catalogs the eligible tools: everything but control and direct-only
// tools, de-duplicated by id (the later tool wins), ordered core, bundled
// plugins, external plugins, MCP, client, each group by id.
func Build(tools []Tool) *Catalog { return build(tools, false) }

// BuildWithMCP catalogs tools as Build does, for Tool Search: search,
// Lookup and its suggestions include the MCP entries (SPEC.md chapter 24).
func BuildWithMCP(tools []Tool) *Catalog { return build(tools, true) }

func build(tools []Tool, withMCP bool) *Catalog {
	byID := map[string]Entry{}
	for _, t := range tools {
		if t.DirectOnly || IsControl(t.Name) {
			continue
		}
		e := Entry{ID: ID(t), Name: t.Name, Label: t.Label, Description: t.Description, Tool: t, group: group(t)}
		switch t.Kind {
		case Core:
			e.Source = SourceOpenClaw
		case Plugin:
			e.Source, e.SourceName = SourceOpenClaw, strings.TrimSpace(t.Owner)
		case MCP:
			e.Source, e.SourceName = SourceMCP, t.Owner
		case Client:
			e.Source, e.SourceName = SourceClient, strings.TrimSpace(t.Owner)
			if e.SourceName == "" {
				e.SourceName = "client"
			}
		}
		if e.Source == SourceOpenClaw {
			e.Input = InputHint(t.Parameters)
			if h, ok := OutputHint(t.OutputSchema); ok {
				e.Output = h
			}
		} else {
			e.Input = "unknown"
		}
		byID[e.ID] = e
	}
	c := &Catalog{Entries: make([]Entry, 0, len(byID)), byID: map[string]int{}, withMCP: withMCP}
	for _, e := range byID {
		c.Entries = append(c.Entries, e)
	}
	sort.Slice(c.Entries, func(i, j int) bool {
		a, b := c.Entries[i], c.Entries[j]
		if a.group != b.group {
			return a.group < b.group
		}
		return a.ID < b.ID
	})
	for i, e := range c.Entries {
		c.byID[e.ID] = i
	}
	return c
}

// Get returns the entry with exactly id.
func (c *Catalog) Get(id string) (Entry, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Entry{}, false
	}
	return c.Entries[i], true
}

// Counts returns the number of entries per source.
func (c *Catalog) Counts() (openclaw, mcp, client int) {
	for _, e := range c.Entries {
		switch e.Source {
		case SourceOpenClaw:
			openclaw++
		case SourceMCP:
			mcp++
		default:
			client++
		}
	}
	return
}

// HasMCP reports whether any entry is an MCP tool.
func (c *Catalog) HasMCP() bool {
	_, m, _ := c.Counts()
	return m > 0
}

// Compact is a compact entry as guest code sees it.
type Compact struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Label       string `json:"label,omitempty"`
	Description string `json:"description"`
	Source      string `json:"source"`
	SourceName  string `json:"sourceName,omitempty"`
	Input       string `json:"input"`
	Output      string `json:"output,omitempty"`
}

// Compact returns e's compact form.
func (e Entry) Compact() Compact {
	return Compact{ID: e.ID, Name: e.Name, Label: e.Label, Description: e.Description,
		Source: e.Source, SourceName: e.SourceName, Input: e.Input, Output: e.Output}
}

// Described is a compact entry with its full schemas.
type Described struct {
	Compact
	Parameters   json.RawMessage `json:"parameters"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// Describe returns e with its schemas; the output schema only for trusted
// (openclaw) entries.
func (e Entry) Describe() Described {
	d := Described{Compact: e.Compact(), Parameters: e.Parameters()}
	if e.Source == SourceOpenClaw && len(strings.TrimSpace(string(e.Tool.OutputSchema))) > 0 {
		d.OutputSchema = e.Tool.OutputSchema
	}
	return d
}

// Visible returns the guest-visible entries: every entry but MCP ones.
func (c *Catalog) Visible() []Entry {
	out := make([]Entry, 0, len(c.Entries))
	for _, e := range c.Entries {
		if e.Source != SourceMCP {
			out = append(out, e)
		}
	}
	return out
}

// A LookupError is a failed tools.describe/call/callValue lookup; its message
// reaches guest code verbatim.
type LookupError struct{ Message string }

func (e *LookupError) Error() string { return e.Message }

// Lookup resolves a guest-supplied id: an exact id of a guest-visible entry
// first, then an exact name among guest-visible entries. An unknown id fails
// with up to three suggestions scored as SPEC.md section 10.3 specifies
// (CM-10.17, CM-10.18).
func (c *Catalog) Lookup(ref string) (Entry, error) {
	return c.LookupFor(ref, GuestRecovery)
}

// Recovery sentences close an unknown-id message: how the caller finds
// the right tool with the API it has.
const (
	GuestRecovery      = "Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
	ToolSearchRecovery = "Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
)

// searchable reports whether search and lookup see e.
func (c *Catalog) searchable(e Entry) bool { return c.withMCP || e.Source != SourceMCP }

// LookupFor is Lookup with the recovery sentence of the caller's API.
func (c *Catalog) LookupFor(ref, recovery string) (Entry, error) {
	key := strings.TrimSpace(ref)
	if e, ok := c.Get(key); ok && c.searchable(e) {
		return e, nil
	}
	var named []Entry
	for _, e := range c.Entries {
		if c.searchable(e) && e.Name == key {
			named = append(named, e)
		}
	}
	switch len(named) {
	case 1:
		return named[0], nil
	case 0:
	default:
		return Entry{}, &LookupError{Message: fmt.Sprintf("Ambiguous tool name: %s; use an exact tool id.", key)}
	}
	sugg := c.suggestions(key)
	msg := "Unknown tool id: " + key + "."
	if len(sugg) > 0 {
		msg += " Did you mean: " + strings.Join(sugg, ", ") + "?"
	}
	msg += " " + recovery
	return Entry{}, &LookupError{Message: msg}
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// reservedConvenience are never installed as convenience functions.
var reservedConvenience = map[string]bool{
	"search": true, "describe": true, "call": true, "callValue": true,
	"__proto__": true, "constructor": true, "prototype": true,
}

// A Convenience is a tools[Name] shortcut for tools.callValue(ID, input).
type Convenience struct {
	Name string `json:"name"`
	ID   string `json:"id"`
}

// Convenience returns the safe, unambiguous convenience names: identifier
// names that occur exactly once among guest-visible entries and are not
// reserved. Collisions get no function; nothing is renamed.
func (c *Catalog) Convenience() []Convenience {
	count := map[string]int{}
	for _, e := range c.Entries {
		if e.Source != SourceMCP {
			count[e.Name]++
		}
	}
	var out []Convenience
	for _, e := range c.Entries {
		if e.Source == SourceMCP || count[e.Name] != 1 || reservedConvenience[e.Name] || !identRE.MatchString(e.Name) {
			continue
		}
		out = append(out, Convenience{Name: e.Name, ID: e.ID})
	}
	return out
}
