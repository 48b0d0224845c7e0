package config

import "encoding/json"

// Tool Search modes (SPEC.md chapter 24).
const (
	ToolSearchCode      = "code"
	ToolSearchTools     = "tools"
	ToolSearchDirectory = "directory"
)

// Tool Search's numeric settings. Its maxSearchLimit default is 20, not
// code mode's 50.
var (
	ToolSearchCodeTimeoutMs      = Field{Name: "codeTimeoutMs", Default: 10000, Range: Range{1000, 60000}}
	ToolSearchMaxSearchLimit     = Field{Name: "maxSearchLimit", Default: 20, Range: Range{1, 50}}
	ToolSearchSearchDefaultLimit = Field{Name: "searchDefaultLimit", Default: 8, Range: Range{1, 50}}
)

// ToolSearch are the resolved tools.toolSearch settings of one run.
type ToolSearch struct {
	Enabled bool
	// Mode is the configured mode: code, tools or directory.
	Mode               string
	CodeTimeoutMs      int
	SearchDefaultLimit int
	MaxSearchLimit     int
}

// resolveToolSearch reads tools.toolSearch: true enables the code mode of
// Tool Search, false and anything but an object disable it, and an object
// is enabled by its boolean enabled or, without one, by having any other
// member (CM-24.1 to CM-24.4).
func resolveToolSearch(raw json.RawMessage) ToolSearch {
	var obj map[string]json.RawMessage
	var b bool
	switch {
	case json.Unmarshal(raw, &b) == nil:
		if b {
			obj = map[string]json.RawMessage{"enabled": json.RawMessage("true")}
		}
	case json.Unmarshal(raw, &obj) != nil:
		obj = nil
	}
	s := ToolSearch{Mode: ToolSearchCode}
	configured := false
	for k := range obj {
		configured = configured || k != "enabled"
	}
	s.Enabled = configured
	var enabled bool
	if v, ok := obj["enabled"]; ok && json.Unmarshal(v, &enabled) == nil {
		s.Enabled = enabled
	}
	var mode string
	if json.Unmarshal(obj["mode"], &mode) == nil && (mode == ToolSearchTools || mode == ToolSearchDirectory) {
		s.Mode = mode
	}
	s.CodeTimeoutMs = ToolSearchCodeTimeoutMs.read(obj, ToolSearchCodeTimeoutMs.Range.Max)
	s.MaxSearchLimit = ToolSearchMaxSearchLimit.read(obj, ToolSearchMaxSearchLimit.Range.Max)
	s.SearchDefaultLimit = ToolSearchSearchDefaultLimit.read(obj, s.MaxSearchLimit)
	return s
}
