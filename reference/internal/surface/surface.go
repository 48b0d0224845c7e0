// Package surface builds what the model sees when code mode is active: the
// exec and wait tool definitions, exec's description and its bounded quick
// index (SPEC.md chapter 4).
package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/codemodekit/kit/reference/internal/catalog"
)

// Tool names of the code-mode controls.
const (
	ExecName = "exec"
	WaitName = "wait"
)

// A Definition is one model-visible tool.
type Definition struct {
	Name                    string          `json:"name"`
	Label                   string          `json:"label,omitempty"`
	Description             string          `json:"description"`
	Parameters              json.RawMessage `json:"parameters"`
	HideFromChannelProgress bool            `json:"hideFromChannelProgress,omitempty"`
}

func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(buf.String(), "\n")
}

// ExecSchema is exec's input schema, byte for byte: language is a flat
// string enum because some providers reject oneOf/anyOf.
var ExecSchema = json.RawMessage(`{"type":"object","required":["code"],"properties":{` +
	`"code":{"type":"string","description":` + quote(CodeDescription) + `},` +
	`"language":{"enum":["javascript","typescript"],"type":"string","description":` + quote(LanguageDescription) + `},` +
	`"restartSafe":{"type":"boolean","description":` + quote(RestartSafeDescription) + `}}}`)

// WaitSchema is wait's input schema.
var WaitSchema = json.RawMessage(`{"type":"object","required":["runId"],"properties":{"runId":{"type":"string","description":` + quote(RunIDDescription) + `}}}`)

// Options are the conditions exec's description depends on.
type Options struct {
	// MCP is set when the run's catalog has MCP entries.
	MCP bool
	// Swarm is set when tools.swarm is on.
	Swarm bool
	// NamespacePrompt is the prompt block of the visible namespaces.
	NamespacePrompt string
}

// Exec returns exec's definition for the catalog.
func Exec(c *catalog.Catalog, o Options) Definition {
	return Definition{Name: ExecName, Label: ExecName, Description: Description(c, o), Parameters: ExecSchema}
}

// Wait returns wait's definition.
func Wait() Definition {
	return Definition{Name: WaitName, Label: WaitName, Description: WaitDescription, Parameters: WaitSchema, HideFromChannelProgress: true}
}

// Description assembles exec's description.
func Description(c *catalog.Catalog, o Options) string {
	var sb strings.Builder
	sb.WriteString(BaseDescription)
	if o.MCP || o.Swarm {
		sb.WriteString(APISentence)
	}
	if o.MCP {
		sb.WriteString(MCPSentence)
	}
	if o.Swarm {
		sb.WriteString(SwarmSentence)
	}
	sb.WriteString(LanguageSentence)
	if o.NamespacePrompt != "" {
		sb.WriteString("\n\n")
		sb.WriteString(o.NamespacePrompt)
	}
	if idx := QuickIndex(c); idx != "" {
		sb.WriteString("\n\n")
		sb.WriteString(idx)
	}
	return sb.String()
}

// Length is the length of s in UTF-16 code units, as JavaScript counts it.
func Length(s string) int { return len(utf16.Encode([]rune(s))) }

// IndexLine is one quick-index line.
func IndexLine(e catalog.Entry) string {
	input := e.Input
	if input == "" {
		input = "unknown"
	}
	output := e.Output
	if output == "" {
		output = "?"
	}
	return "- " + quote(e.ID) + " " + input + " -> " + output
}

// indexFooter is the footer of an index that includes k of n lines.
func indexFooter(n, k int) string {
	if k >= n {
		return IndexFooterAll
	}
	return fmt.Sprintf(IndexFooterOmitted, n-k)
}

// QuickIndex renders the bounded quick index of the catalog's openclaw
// entries: declared outputs first, then by id; lines that would push the
// block past IndexBudget are skipped. An empty set renders "".
func QuickIndex(c *catalog.Catalog) string {
	var entries []catalog.Entry
	for _, e := range c.Entries {
		if e.Source == catalog.SourceOpenClaw {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return ""
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if (a.Output != "") != (b.Output != "") {
			return a.Output != ""
		}
		return a.ID < b.ID
	})
	all := make([]string, len(entries))
	total := Length(IndexHeading) + 2 + Length(IndexFooterAll)
	for i, e := range entries {
		all[i] = IndexLine(e)
		total += 1 + Length(all[i])
	}
	lines := all
	footer := IndexFooterAll
	if total > IndexBudget {
		// CM-4.26: a line is included when the block with it and the footer
		// that would then apply still fits.
		lines = nil
		size := Length(IndexHeading)
		for _, line := range all {
			n := 1 + Length(line)
			if size+n+2+Length(indexFooter(len(entries), len(lines)+1)) <= IndexBudget {
				lines = append(lines, line)
				size += n
			}
		}
		footer = indexFooter(len(entries), len(lines))
	}
	var sb strings.Builder
	sb.WriteString(IndexHeading)
	for _, l := range lines {
		sb.WriteByte('\n')
		sb.WriteString(l)
	}
	sb.WriteString("\n\n")
	sb.WriteString(footer)
	return sb.String()
}
