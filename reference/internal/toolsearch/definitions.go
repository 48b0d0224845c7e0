// Package toolsearch is Tool Search as far as code mode depends on it
// (SPEC.md chapter 24): the structured controls tool_search,
// tool_describe and tool_call over the run's catalog, their definitions,
// request rules, results and errors. The turn runs the calls tool_call
// makes through the same path as code mode's nested calls.
package toolsearch

import (
	"fmt"

	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/surface"
)

// Control tool names.
const (
	SearchCodeName = "tool_search_code"
	SearchName     = "tool_search"
	DescribeName   = "tool_describe"
	CallName       = "tool_call"
)

// Texts of the control definitions, byte for byte as OpenClaw
// 2026.8.1-beta.1 registers them.
const (
	searchCodeDescription = "Run JavaScript in an isolated Node subprocess over a large tool catalog. APIs: `openclaw.tools.search(query: string, options?)`, `openclaw.tools.describe(id: string)`, and `openclaw.tools.call(id: string, args?)`. Search takes a positional query string, which must be in English: matching is lexical against tool names and descriptions, which are written in English. Call returns `{ tool, result }`; JSON values normally live in `result.details`."
	searchCodeSchema      = `{"type":"object","required":["code"],"properties":{"code":{"type":"string","description":"JavaScript body for an async function. Use return to return the final value. The openclaw.tools bridge is available."}}}`
	searchDescription     = "Search the effective Tool Search catalog. Pass exactly one of query for one search or queries for several independent searches in one call. Batch results stay grouped in request order. Queries must be in English: matching is lexical against tool names and descriptions, which are written in English, so another language will usually match nothing. Pass an exact result id or name to tool_call; use tool_describe only when you need its input schema."
	describeDescription   = "Load the full schema and metadata for one search result when its input is not already clear."
	callDescription       = "Call an exact Tool Search result id or name through OpenClaw."

	describeSchema = `{"type":"object","required":["id"],"properties":{"id":{"type":"string","description":"Tool search result id or tool name."}}}`
	callSchema     = `{"type":"object","required":["id"],"properties":{"id":{"type":"string","description":"Tool search result id or tool name."},"args":{"type":"object","patternProperties":{"^.*$":{}},"description":"Tool input."}}}`
)

// searchSchema is tool_search's input schema; it names the default limit.
func searchSchema(defaultLimit int) string {
	return `{"type":"object","properties":{` +
		`"query":{"type":"string","description":"Single search query, in English. Do not set this when queries is present."},` +
		`"limit":{"type":"integer","minimum":1,"description":"Maximum number of single-search results."},` +
		`"queries":{"type":"array","items":{"type":"object","required":["query"],"properties":{` +
		`"query":{"type":"string","minLength":1,"maxLength":512,"description":"Search query, in English. Describe the capability you need."},` +
		fmt.Sprintf(`"limit":{"type":"integer","minimum":1,"description":"Maximum results for this query. Defaults to %d when omitted."}}},`, defaultLimit) +
		fmt.Sprintf(`"minItems":1,"maxItems":16,"description":"Independent searches. Do not set query when this is present. Their effective limits may total at most 50; an omitted item limit counts as %d. The serialized query strings may use at most 512 UTF-8 bytes in total."}}}`, defaultLimit)
}

// Definitions returns the model-visible controls of mode, in order:
// tool_search_code in mode code, the structured controls otherwise.
func Definitions(s config.ToolSearch) []surface.Definition {
	if s.Mode == config.ToolSearchCode {
		return []surface.Definition{{Name: SearchCodeName, Label: "Tool Search Code", Description: searchCodeDescription, Parameters: []byte(searchCodeSchema)}}
	}
	return []surface.Definition{
		{Name: SearchName, Label: "Tool Search", Description: searchDescription, Parameters: []byte(searchSchema(s.SearchDefaultLimit))},
		{Name: DescribeName, Label: "Tool Describe", Description: describeDescription, Parameters: []byte(describeSchema)},
		{Name: CallName, Label: "Tool Call", Description: callDescription, Parameters: []byte(callSchema)},
	}
}

// IsControl reports whether name is a Tool Search control.
func IsControl(name string) bool {
	return name == SearchCodeName || name == SearchName || name == DescribeName || name == CallName
}

// coreCodingTools stay model-visible beside the controls when they are core
// tools; they are cataloged too.
var coreCodingTools = map[string]bool{"read": true, "edit": true, "write": true, "apply_patch": true, "exec": true, "process": true}

// StaysVisible reports whether a cataloged tool stays model-visible on the
// Tool Search surface: a core coding tool, or in mode directory a client
// tool.
func StaysVisible(mode, name string, core, client bool) bool {
	return (core && coreCodingTools[name]) || (mode == config.ToolSearchDirectory && client)
}
