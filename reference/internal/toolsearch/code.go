package toolsearch

import (
	"encoding/json"
	"strings"
)

// Messages of tool_search_code.
const (
	MsgCodeRequired = "code must be a non-empty string."
	MsgCodeTimeout  = "tool_search_code timed out"
	MsgCodeAborted  = "tool_search_code aborted"

	// MsgCodeShell and MsgCodeModuleAccess stand for code mode's
	// preparation refusals (SPEC.md CM-5.10), whose texts point to
	// code mode's API, when a tool_search_code source meets them.
	MsgCodeShell        = "tool_search_code runs JavaScript, not shell commands. Call tools from the code with openclaw.tools.call and an exact id from openclaw.tools.search."
	MsgCodeModuleAccess = "tool_search_code module access is disabled."
)

// CodeArgs reads tool_search_code's arguments and returns the exec
// arguments of its run: the code alone, as JavaScript.
func CodeArgs(args json.RawMessage) (json.RawMessage, *Result) {
	code, ok := asString(params(args)["code"])
	if !ok || strings.TrimSpace(code) == "" {
		r := failed(SearchCodeName, MsgCodeRequired)
		return nil, &r
	}
	b, _ := json.Marshal(struct {
		Code string `json:"code"`
	}{code})
	return b, nil
}

// Telemetry is what a tool_search_code result reports of the run's
// catalog and of its Tool Search calls so far.
type Telemetry struct {
	CatalogSize   int     `json:"catalogSize"`
	Sources       Sources `json:"sources"`
	CounterScope  string  `json:"counterScope"`
	SearchCount   int     `json:"searchCount"`
	DescribeCount int     `json:"describeCount"`
	CallCount     int     `json:"callCount"`
}

// Sources counts catalog entries per source.
type Sources struct {
	OpenClaw int `json:"openclaw"`
	MCP      int `json:"mcp"`
	Client   int `json:"client"`
}

type codeResult struct {
	OK        bool            `json:"ok"`
	Value     json.RawMessage `json:"value"`
	Logs      []string        `json:"logs"`
	Telemetry Telemetry       `json:"telemetry"`
}

// CodeCompleted is tool_search_code's result for a program that returned
// value (JSON; null when it returned nothing) after logging logs.
func CodeCompleted(value json.RawMessage, logs []string, t Telemetry) Result {
	if len(value) == 0 {
		value = json.RawMessage("null")
	}
	if logs == nil {
		logs = []string{}
	}
	return result(codeResult{OK: true, Value: value, Logs: logs, Telemetry: t})
}

// CodeFailed is tool_search_code's result for a program that failed.
func CodeFailed(msg string) Result { return failed(SearchCodeName, msg) }
