// Package config resolves the OpenClaw-style configuration of one run: the
// tools.codeMode settings with their defaults and clamps, the per-agent
// override, and the tool policy. Configuration never fails: an invalid value
// falls back to its default (SPEC.md chapter 2).
package config

import (
	"encoding/json"
	"math"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// Runtime is the only supported value of tools.codeMode.runtime.
const Runtime = "quickjs-wasi"

// Mode is the only supported value of tools.codeMode.mode.
const Mode = "only"

// Languages are the supported exec languages, in their default order.
var Languages = []string{"javascript", "typescript"}

// A Range is the inclusive range a numeric setting is clamped into.
type Range struct{ Min, Max int }

// Numeric settings: name, default and range, as SPEC.md's configuration
// table lists them. The docs check compares that table with these values.
var (
	TimeoutMs           = Field{Name: "timeoutMs", Default: 10000, Range: Range{100, 60000}}
	MemoryLimitBytes    = Field{Name: "memoryLimitBytes", Default: 67108864, Range: Range{1048576, 1073741824}}
	MaxOutputBytes      = Field{Name: "maxOutputBytes", Default: 65536, Range: Range{1024, 10485760}}
	MaxSnapshotBytes    = Field{Name: "maxSnapshotBytes", Default: 10485760, Range: Range{1024, 268435456}}
	MaxPendingToolCalls = Field{Name: "maxPendingToolCalls", Default: 16, Range: Range{1, 128}}
	SnapshotTTLSeconds  = Field{Name: "snapshotTtlSeconds", Default: 900, Range: Range{1, 86400}}
	MaxSearchLimit      = Field{Name: "maxSearchLimit", Default: 50, Range: Range{1, 50}}
	// SearchDefaultLimit's upper bound is the resolved maxSearchLimit.
	SearchDefaultLimit = Field{Name: "searchDefaultLimit", Default: 8, Range: Range{1, 50}}
)

// Fields lists every numeric setting in SPEC order.
var Fields = []Field{TimeoutMs, MemoryLimitBytes, MaxOutputBytes, MaxSnapshotBytes,
	MaxPendingToolCalls, SnapshotTTLSeconds, SearchDefaultLimit, MaxSearchLimit}

// A Field is one numeric setting.
type Field struct {
	Name    string
	Default int
	Range   Range
}

// Read applies the number rule of CM-2.6 and CM-2.7 to one configured
// value: raw that is absent (nil) or not a positive integer gives the
// default; a positive integer is clamped into the range.
func (f Field) Read(raw json.RawMessage) int { return f.readMax(raw, f.Range.Max) }

// read applies the number rule to the member of obj that f names.
func (f Field) read(obj map[string]json.RawMessage, max int) int { return f.readMax(obj[f.Name], max) }

// readMax is Read with max in place of the range's upper bound.
func (f Field) readMax(raw json.RawMessage, max int) int {
	v := float64(f.Default)
	var n float64
	if err := json.Unmarshal(raw, &n); err == nil && n > 0 && n == math.Trunc(n) && !math.IsInf(n, 0) {
		v = n
	}
	if v < float64(f.Range.Min) {
		return f.Range.Min
	}
	if v > float64(max) {
		return max
	}
	return int(v)
}

// Settings are the resolved tools.codeMode settings of one run.
type Settings struct {
	Enabled bool
	Runtime string // as configured; see RuntimeSupported
	// RuntimeJSON is the JSON text of the configured runtime value.
	RuntimeJSON         string
	Mode                string
	Languages           []string
	TimeoutMs           int
	MemoryLimitBytes    int
	MaxOutputBytes      int
	MaxSnapshotBytes    int
	MaxPendingToolCalls int
	SnapshotTTLSeconds  int
	SearchDefaultLimit  int
	MaxSearchLimit      int
	// Swarm reports tools.swarm; it only matters when code mode is enabled.
	Swarm bool
}

// RuntimeSupported reports whether the configured runtime is quickjs-wasi.
func (s Settings) RuntimeSupported() bool { return s.Runtime == Runtime }

// LanguageEnabled reports whether lang is one of the enabled languages.
func (s Settings) LanguageEnabled(lang string) bool {
	for _, l := range s.Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// Defaults returns the settings of `tools.codeMode: true`.
func Defaults() Settings {
	s, _ := resolveCodeMode(json.RawMessage("true"))
	return s
}

// A ToolRef names a tool for policy matching.
type ToolRef struct {
	Name string
	ID   string // catalog id
	// Owner is the plugin id of a plugin tool, "bundle-mcp" for an MCP
	// tool, and empty otherwise.
	Owner string
}

// Rules are one level of tool policy (global or per agent).
type Rules struct {
	// Allow is nil when no allow list is configured; an empty non-nil list
	// allows nothing.
	Allow     []string
	AlsoAllow []string
	Deny      []string
}

func (r Rules) allows(t ToolRef) bool {
	for _, d := range r.Deny {
		if matches(d, t) {
			return false
		}
	}
	if r.Allow == nil {
		return true
	}
	for _, a := range r.Allow {
		if matches(a, t) {
			return true
		}
	}
	for _, a := range r.AlsoAllow {
		if matches(a, t) {
			return true
		}
	}
	return false
}

// Policy is the resolved tool policy of one run: the global rules, the
// agent's rules when the run's agent has its own (CM-3.5 to CM-3.8), and
// the rules of tools.toolsBySender for the run's requester (CM-3.18).
type Policy struct {
	Global Rules
	Agent  *Rules
	Sender *Rules

	bySender map[string]Rules
}

// Allows reports whether a tool is active: it must pass each level of
// rules, evaluated on its own; deny wins within a level.
func (p Policy) Allows(t ToolRef) bool {
	return p.Global.allows(t) && (p.Agent == nil || p.Agent.allows(t)) && (p.Sender == nil || p.Sender.allows(t))
}

// ForRequester returns the policy of a run whose message came from
// senderID on channelID: tools.toolsBySender's rules under the first
// configured key of "channel:<channelId>:<senderId>", "id:<senderId>", the
// bare sender id and "*" become a level of their own (CM-3.18).
func (p Policy) ForRequester(senderID, channelID string) Policy {
	var keys []string
	if senderID != "" {
		if channelID != "" {
			keys = append(keys, "channel:"+channelID+":"+senderID)
		}
		keys = append(keys, "id:"+senderID, senderID)
	}
	p.Sender = nil
	for _, k := range append(keys, "*") {
		if r, ok := p.bySender[k]; ok {
			p.Sender = &r
			break
		}
	}
	return p
}

// EmptyAllowList reports an explicitly empty tools.allow: the run
// intentionally uses no tools.
func (p Policy) EmptyAllowList() bool {
	empty := func(r Rules) bool { return r.Allow != nil && len(r.Allow) == 0 }
	return empty(p.Global) || (p.Agent != nil && empty(*p.Agent))
}

// matches applies CM-3.6: a tool name, a catalog id, the owning plugin id
// ("bundle-mcp" for MCP tools) or "*".
func matches(entry string, t ToolRef) bool {
	return entry == "*" || entry == t.Name || entry == t.ID || (t.Owner != "" && entry == t.Owner)
}

// Resolved is everything configuration decides for one run.
type Resolved struct {
	Settings Settings
	// ToolSearch is tools.toolSearch, which only a global setting can
	// change: a per-agent one is ignored.
	ToolSearch ToolSearch
	Policy     Policy
	// MCPServers is the document's mcp.servers member as written, nil
	// when there is none (mcpclient.ParseServers reads it).
	MCPServers json.RawMessage
}

type document struct {
	Tools toolsSection `json:"tools"`
	MCP   struct {
		Servers json.RawMessage `json:"servers"`
	} `json:"mcp"`
	Agents struct {
		List []struct {
			ID    string       `json:"id"`
			Tools toolsSection `json:"tools"`
		} `json:"list"`
	} `json:"agents"`
}

type toolsSection struct {
	CodeMode   json.RawMessage `json:"codeMode"`
	Swarm      json.RawMessage `json:"swarm"`
	ToolSearch json.RawMessage `json:"toolSearch"`
	Allow      *[]string       `json:"allow"`
	AlsoAllow  []string        `json:"alsoAllow"`
	Deny       []string        `json:"deny"`
	// ToolsBySender is read from the global tools section only.
	ToolsBySender map[string]toolsSection `json:"toolsBySender"`
}

func (t toolsSection) rules() Rules {
	r := Rules{AlsoAllow: t.AlsoAllow, Deny: t.Deny}
	if t.Allow != nil {
		r.Allow = *t.Allow
		if r.Allow == nil {
			r.Allow = []string{}
		}
	}
	return r
}

// Resolve reads the run's configuration for agentID: the document is
// decoded here, once per run. A document that is not a JSON object
// resolves like an empty one.
func Resolve(raw json.RawMessage, agentID string) Resolved {
	var doc document
	_ = json.Unmarshal(raw, &doc)
	var agent *toolsSection
	for i := range doc.Agents.List {
		if doc.Agents.List[i].ID == agentID {
			agent = &doc.Agents.List[i].Tools
			break
		}
	}
	codeMode, swarm := doc.Tools.CodeMode, doc.Tools.Swarm
	pol := Policy{Global: doc.Tools.rules()}
	for k, sec := range doc.Tools.ToolsBySender {
		if pol.bySender == nil {
			pol.bySender = map[string]Rules{}
		}
		pol.bySender[k] = sec.rules()
	}
	if agent != nil {
		if agent.CodeMode != nil {
			codeMode = mergeCodeMode(codeMode, agent.CodeMode)
		}
		if agent.Swarm != nil {
			swarm = mergeCodeMode(swarm, agent.Swarm)
		}
		if agent.Allow != nil || agent.AlsoAllow != nil || agent.Deny != nil {
			r := agent.rules()
			pol.Agent = &r
		}
	}
	s, _ := resolveCodeMode(codeMode)
	s.Swarm = switchOn(swarm)
	return Resolved{Settings: s, ToolSearch: resolveToolSearch(doc.Tools.ToolSearch), Policy: pol, MCPServers: doc.MCP.Servers}
}

// mergeCodeMode shallow-merges an agent's tools.codeMode over the global one,
// after normalising booleans to {"enabled": bool}.
func mergeCodeMode(global, agent json.RawMessage) json.RawMessage {
	g, a := asObject(global), asObject(agent)
	for k, v := range a {
		g[k] = v
	}
	b, _ := json.Marshal(g)
	return b
}

// asObject normalises a tools.codeMode (or tools.swarm) value before the
// per-agent merge (CM-2.16): a boolean b becomes {"enabled": b}, an absent
// value {}, an object stays, anything else becomes {"enabled": false}.
func asObject(raw json.RawMessage) map[string]json.RawMessage {
	if len(raw) == 0 {
		return map[string]json.RawMessage{}
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return map[string]json.RawMessage{"enabled": json.RawMessage(boolText(b))}
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return map[string]json.RawMessage{"enabled": json.RawMessage("false")}
	}
	return m
}

// compactJSON returns the JSON.stringify text of raw.
func compactJSON(raw json.RawMessage) string {
	s, err := jsjson.Canonical(raw)
	if err != nil {
		return string(raw)
	}
	return s
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// switchOn implements the activation rule shared by tools.codeMode and
// tools.swarm: only true, or an object whose enabled is exactly true.
func switchOn(raw json.RawMessage) bool {
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return b
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return false
	}
	return string(obj["enabled"]) == "true"
}

func resolveCodeMode(raw json.RawMessage) (Settings, bool) {
	obj := asObject(raw)
	s := Settings{
		Enabled:   switchOn(raw),
		Runtime:   Runtime,
		Mode:      Mode,
		Languages: Languages,
	}
	s.RuntimeJSON = `"` + Runtime + `"`
	if v, ok := obj["runtime"]; ok {
		s.RuntimeJSON = compactJSON(v)
		var r string
		if json.Unmarshal(v, &r) == nil {
			s.Runtime = r
		} else {
			s.Runtime = s.RuntimeJSON
		}
	}
	var langs []any
	if v, ok := obj["languages"]; ok && json.Unmarshal(v, &langs) == nil {
		var keep []string
		for _, l := range langs {
			str, ok := l.(string)
			if !ok || (str != "javascript" && str != "typescript") {
				continue
			}
			dup := false
			for _, k := range keep {
				dup = dup || k == str
			}
			if !dup {
				keep = append(keep, str)
			}
		}
		if len(keep) > 0 {
			s.Languages = keep
		}
	}
	s.TimeoutMs = TimeoutMs.read(obj, TimeoutMs.Range.Max)
	s.MemoryLimitBytes = MemoryLimitBytes.read(obj, MemoryLimitBytes.Range.Max)
	s.MaxOutputBytes = MaxOutputBytes.read(obj, MaxOutputBytes.Range.Max)
	s.MaxSnapshotBytes = MaxSnapshotBytes.read(obj, MaxSnapshotBytes.Range.Max)
	s.MaxPendingToolCalls = MaxPendingToolCalls.read(obj, MaxPendingToolCalls.Range.Max)
	s.SnapshotTTLSeconds = SnapshotTTLSeconds.read(obj, SnapshotTTLSeconds.Range.Max)
	s.MaxSearchLimit = MaxSearchLimit.read(obj, MaxSearchLimit.Range.Max)
	s.SearchDefaultLimit = SearchDefaultLimit.read(obj, s.MaxSearchLimit)
	return s, s.Enabled
}
