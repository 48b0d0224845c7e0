package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// A Spec describes one tool.
type Spec struct {
	Name             string          `json:"name"`
	Source           string          `json:"source,omitempty"` // core (default), plugin, client, mcp
	Owner            string          `json:"owner,omitempty"`
	Bundled          bool            `json:"bundled,omitempty"`
	Label            string          `json:"label,omitempty"`
	Title            string          `json:"title,omitempty"` // MCP tools
	Description      string          `json:"description,omitempty"`
	Parameters       json.RawMessage `json:"parameters,omitempty"`
	InputSchema      json.RawMessage `json:"inputSchema,omitempty"` // MCP tools
	OutputSchema     json.RawMessage `json:"outputSchema,omitempty"`
	DirectOnly       bool            `json:"directOnly,omitempty"`
	ReplaySafe       bool            `json:"replaySafe,omitempty"`
	RequiresApproval bool            `json:"requiresApproval,omitempty"`
	Behavior         *Behavior       `json:"behavior,omitempty"`
}

// Schema returns the tool's input schema: parameters, or inputSchema for MCP
// tools, defaulting to an empty object schema; nil for "parameters": null,
// a tool that declares no schema at all.
func (s Spec) Schema() json.RawMessage {
	switch {
	case string(bytes.TrimSpace(s.Parameters)) == "null":
		return nil
	case len(s.Parameters) > 0:
		return s.Parameters
	case len(s.InputSchema) > 0:
		return s.InputSchema
	default:
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
}

// A Behavior says what a call does.
type Behavior struct {
	Returns json.RawMessage `json:"returns,omitempty"`
	Text    *string         `json:"text,omitempty"`
	Echo    bool            `json:"echo,omitempty"`
	Fails   *string         `json:"fails,omitempty"`
	Hold    bool            `json:"hold,omitempty"`
	DelayMs int             `json:"delayMs,omitempty"`
}

// A Catalog is a catalog file.
type Catalog struct {
	Tools []Spec `json:"tools"`
}

// ParseCatalog reads a catalog file.
func ParseCatalog(b []byte) (Catalog, error) {
	var c Catalog
	if err := json.Unmarshal(b, &c); err != nil {
		return Catalog{}, fmt.Errorf("wire: catalog: %w", err)
	}
	for i, t := range c.Tools {
		if t.Name == "" {
			return Catalog{}, fmt.Errorf("wire: catalog: tool %d has no name", i)
		}
		switch t.Source {
		case "", "core", "plugin", "client", "mcp":
		default:
			return Catalog{}, fmt.Errorf("wire: catalog: tool %q has unknown source %q", t.Name, t.Source)
		}
	}
	return c, nil
}

// A Block is one content block of a result.
type Block struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// A Result is what a call returned.
type Result struct {
	Content []Block         `json:"content"`
	Details json.RawMessage `json:"details,omitempty"`
}

// Answer returns what a call of the tool named tool with input answers
// when its behaviour is b, holds and delays aside (those are the host's):
// the failure text as an error, the text, the input echoed, the returned
// document, or by default {"tool": tool, "input": input}. Documents are
// compacted into the text and kept as details.
func (b Behavior) Answer(tool string, input json.RawMessage) (Result, error) {
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage("{}")
	}
	switch {
	case b.Fails != nil:
		return Result{}, errors.New(*b.Fails)
	case b.Text != nil:
		return Result{Content: []Block{{Type: "text", Text: *b.Text}}}, nil
	case b.Echo:
		return detailsResult(input), nil
	case len(b.Returns) > 0:
		return detailsResult(b.Returns), nil
	default:
		d, _ := json.Marshal(map[string]any{"tool": tool, "input": input})
		return detailsResult(d), nil
	}
}

func detailsResult(v json.RawMessage) Result {
	var buf bytes.Buffer
	if err := json.Compact(&buf, v); err != nil {
		buf.Reset()
		buf.Write(v)
	}
	d := append(json.RawMessage(nil), buf.Bytes()...)
	return Result{Content: []Block{{Type: "text", Text: buf.String()}}, Details: d}
}
