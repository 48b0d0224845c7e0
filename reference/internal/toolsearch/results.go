package toolsearch

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// An Entry is a compact catalog entry as Tool Search reports it; its
// member order is OpenClaw's.
type Entry struct {
	ID          string `json:"id"`
	Source      string `json:"source"`
	SourceName  string `json:"sourceName,omitempty"`
	MCP         *MCP   `json:"mcp,omitempty"`
	Name        string `json:"name"`
	Label       string `json:"label,omitempty"`
	Description string `json:"description"`
	Input       string `json:"input"`
	Output      string `json:"output,omitempty"`
}

// MCP names the server and operation of a tool listed from an MCP server.
type MCP struct {
	ServerName     string `json:"serverName"`
	SafeServerName string `json:"safeServerName"`
	ToolName       string `json:"toolName"`
	Operation      string `json:"operation"`
}

// Compact returns e's Tool Search entry: core tools are named by the
// source name "core".
func Compact(e catalog.Entry) Entry {
	sourceName := e.SourceName
	switch {
	case sourceName == "" && e.Source == catalog.SourceOpenClaw:
		sourceName = "core"
	case e.Source == catalog.SourceMCP:
		sourceName = catalog.SafeServerName(sourceName)
	}
	out := Entry{ID: e.ID, Source: e.Source, SourceName: sourceName, Name: e.Name, Label: e.Label,
		Description: e.Description, Input: e.Input, Output: e.Output}
	if t := e.Tool; t.Kind == catalog.MCP && t.MCPOperation != "" {
		out.MCP = &MCP{ServerName: t.Owner, SafeServerName: catalog.SafeServerName(t.Owner), ToolName: t.MCPToolName, Operation: t.MCPOperation}
	}
	return out
}

// described is tool_describe's result: the entry and its schemas.
type described struct {
	Entry
	Parameters   json.RawMessage `json:"parameters"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

// Describe returns tool_describe's result for e: the entry and its schemas.
func Describe(e catalog.Entry) any {
	d := e.Describe()
	return described{Entry: Compact(e), Parameters: d.Parameters, OutputSchema: d.OutputSchema}
}

// failure is the payload of a control that failed.
type failure struct {
	Status string `json:"status"`
	Tool   string `json:"tool"`
	Error  string `json:"error"`
}

// A Result is a control's result: one text block, the pretty JSON of the
// payload, and the payload as details. An error payload is flagged as an
// error, as the result of a tool that threw is in OpenClaw.
type Result struct {
	Text    string
	Details json.RawMessage
	IsError bool
}

// result encodes payload as JSON.stringify(payload, null, 2) would.
func result(payload any) Result {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(payload); err != nil {
		return failed("", "result is not JSON: "+err.Error())
	}
	raw := bytes.TrimRight(buf.Bytes(), "\n")
	if canon, err := jsjson.Canonical(raw); err == nil {
		raw = []byte(canon)
	}
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, raw, "", "  ") // raw is valid JSON
	return Result{Text: pretty.String(), Details: raw}
}

// failed is the result of a control that failed with msg.
func failed(tool, msg string) Result {
	r := result(failure{Status: "error", Tool: tool, Error: msg})
	r.IsError = true
	return r
}

// Batch bounds (OpenClaw's tool-search.ts).
const (
	batchDescriptionChars = 180
	batchMetadataChars    = 2000
	batchResponseChars    = 4000
)

type batchGroup struct {
	Query      string  `json:"query"`
	Candidates []Entry `json:"candidates"`
	Truncated  bool    `json:"truncated,omitempty"`
}

type batchResponse struct {
	Results   []batchGroup `json:"results"`
	Truncated bool         `json:"truncated,omitempty"`
}

// jsLen is the length of s in UTF-16 code units.
func jsLen(s string) int { return jsjson.UTF16Len(s) }

// jsPrefix returns the first n UTF-16 code units of s, never splitting a
// surrogate pair.
func jsPrefix(s string, n int) string {
	units := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// collapse replaces runs of JavaScript white space by one space and trims.
func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, isJSSpace), " ")
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// batchDescription bounds a candidate's description to 180 code units.
func batchDescription(d string) string {
	prefix := jsPrefix(d, batchDescriptionChars*4)
	normalized := collapse(prefix)
	if prefix == d && jsLen(normalized) <= batchDescriptionChars {
		return normalized
	}
	return strings.TrimRightFunc(jsPrefix(normalized, batchDescriptionChars-3), isJSSpace) + "..."
}

// batchCandidate bounds one candidate's metadata; false drops it.
func batchCandidate(c Entry) (Entry, bool) {
	mandatory := jsLen(c.ID) + jsLen(c.Source) + jsLen(c.Name) + jsLen(c.Input)
	if mandatory > batchMetadataChars {
		return Entry{}, false
	}
	remaining := batchMetadataChars - mandatory
	retain := func(v string) string {
		if v == "" || jsLen(v) > remaining {
			return ""
		}
		remaining -= jsLen(v)
		return v
	}
	c.SourceName = retain(c.SourceName)
	c.Label = retain(c.Label)
	if m := c.MCP; m != nil {
		n := jsLen(m.ServerName) + jsLen(m.SafeServerName) + jsLen(m.ToolName) + jsLen(m.Operation)
		if n > remaining {
			c.MCP = nil
		} else {
			remaining -= n
		}
	}
	c.Output = retain(c.Output)
	c.Description = batchDescription(c.Description)
	return c, true
}

// boundBatch bounds a batch response to 4000 characters of pretty JSON by
// dropping the last candidate of the largest group first.
func boundBatch(groups []batchGroup) batchResponse {
	resp := batchResponse{Results: make([]batchGroup, len(groups))}
	for i, g := range groups {
		kept := make([]Entry, 0, len(g.Candidates))
		for _, c := range g.Candidates {
			if b, ok := batchCandidate(c); ok {
				kept = append(kept, b)
			}
		}
		resp.Results[i] = batchGroup{Query: g.Query, Candidates: kept, Truncated: len(kept) < len(g.Candidates)}
		resp.Truncated = resp.Truncated || resp.Results[i].Truncated
	}
	for jsLen(result(resp).Text) > batchResponseChars {
		best, bestLen := -1, 0
		for i, g := range resp.Results {
			if len(g.Candidates) == 0 {
				continue
			}
			last, _ := json.Marshal(g.Candidates[len(g.Candidates)-1])
			n := len(g.Candidates)
			if best < 0 || n > len(resp.Results[best].Candidates) || (n == len(resp.Results[best].Candidates) && jsLen(string(last)) > bestLen) {
				best, bestLen = i, jsLen(string(last))
			}
		}
		if best < 0 {
			break
		}
		g := &resp.Results[best]
		g.Candidates = g.Candidates[:len(g.Candidates)-1]
		g.Truncated, resp.Truncated = true, true
	}
	return resp
}
