// Package config resolves the OpenClaw-style configuration of one run: the
// tools.codeMode settings with their defaults and clamps, the per-agent
// override, and the tool policy. Configuration never fails: an invalid value
// falls back to its default (SPEC.md chapter 2).
package config

import (
	"encoding/json"
	"math"
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

// read applies the number rule: a value that is not a positive integer falls
// back to the default; a positive integer is clamped into the range.
func (f Field) read(obj map[string]json.RawMessage, max int) int {
	v := float64(f.Default)
	if raw, ok := obj[f.Name]; ok {
		var n float64
		if err := json.Unmarshal(raw, &n); err == nil && n > 0 && n == math.Trunc(n) && !math.IsInf(n, 0) {
			v = n
		}
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
	Enabled             bool
	Runtime             string // as configured; see Supported
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

// Policy is the resolved tool policy of one run.
type Policy struct {
	// Allow is nil when no allow list is configured; an empty non-nil list
	// allows nothing.
	Allow     []string
	AlsoAllow []string
	Deny      []string
}

// Allows reports whether a tool with the given name and catalog id is active
// under the policy. Entries match a name, a catalog id or "*"; deny wins.
func (p Policy) Allows(name, id string) bool {
	for _, d := range p.Deny {
		if matches(d, name, id) {
			return false
		}
	}
	if p.Allow == nil {
		return true
	}
	for _, a := range p.Allow {
		if matches(a, name, id) {
			return true
		}
	}
	for _, a := range p.AlsoAllow {
		if matches(a, name, id) {
			return true
		}
	}
	return false
}

// EmptyAllowList reports an explicitly empty tools.allow: the run
// intentionally uses no tools.
func (p Policy) EmptyAllowList() bool {
	return p.Allow != nil && len(p.Allow) == 0 && len(p.AlsoAllow) == 0
}

func matches(entry, name, id string) bool { return entry == "*" || entry == name || entry == id }

// Resolved is everything configuration decides for one run.
type Resolved struct {
	Settings Settings
	Policy   Policy
}

type document struct {
	Tools  toolsSection `json:"tools"`
	Agents struct {
		List []struct {
			ID    string       `json:"id"`
			Tools toolsSection `json:"tools"`
		} `json:"list"`
	} `json:"agents"`
}

type toolsSection struct {
	CodeMode  json.RawMessage `json:"codeMode"`
	Swarm     json.RawMessage `json:"swarm"`
	Allow     *[]string       `json:"allow"`
	AlsoAllow []string        `json:"alsoAllow"`
	Deny      []string        `json:"deny"`
}

// Resolve reads the run's configuration for agentID. A document that is not
// a JSON object resolves like an empty one.
func Resolve(raw json.RawMessage, agentID string) Resolved {
	var doc document
	_ = json.Unmarshal(raw, &doc)
	global := doc.Tools
	var agent *toolsSection
	for i := range doc.Agents.List {
		if doc.Agents.List[i].ID == agentID {
			agent = &doc.Agents.List[i].Tools
		}
	}
	codeMode := global.CodeMode
	swarm := global.Swarm
	pol := Policy{AlsoAllow: global.AlsoAllow, Deny: global.Deny}
	if global.Allow != nil {
		pol.Allow = *global.Allow
		if pol.Allow == nil {
			pol.Allow = []string{}
		}
	}
	if agent != nil {
		if agent.CodeMode != nil {
			codeMode = mergeCodeMode(codeMode, agent.CodeMode)
		}
		if agent.Swarm != nil {
			swarm = agent.Swarm
		}
		if agent.Allow != nil {
			pol.Allow = *agent.Allow
			if pol.Allow == nil {
				pol.Allow = []string{}
			}
		}
		if agent.AlsoAllow != nil {
			pol.AlsoAllow = agent.AlsoAllow
		}
		pol.Deny = append(append([]string(nil), pol.Deny...), agent.Deny...)
	}
	s, _ := resolveCodeMode(codeMode)
	s.Swarm = switchOn(swarm)
	return Resolved{Settings: s, Policy: pol}
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

func asObject(raw json.RawMessage) map[string]json.RawMessage {
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return map[string]json.RawMessage{"enabled": json.RawMessage(boolText(b))}
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return map[string]json.RawMessage{}
	}
	return m
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
	if v, ok := obj["runtime"]; ok {
		var r string
		if json.Unmarshal(v, &r) == nil {
			s.Runtime = r
		} else {
			s.Runtime = string(v)
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
