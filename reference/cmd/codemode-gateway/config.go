package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
)

// A gatewayConfig is the gateway's configuration file: the OpenClaw-style
// document the runtime reads (tools.codeMode, tools.swarm, agents, mcp)
// plus the members the gateway itself reads:
//
//	gateway.bind, gateway.port            where it listens (loopback only)
//	models.providers.<id>                 baseUrl, api, apiKey, headers
//	codemodekit.model                     "<provider>/<model>"
//	codemodekit.stream                    stream model answers (default true)
//	codemodekit.toolHost                  the tool host that runs plugin and client tools
//	codemodekit.tools                     the core and plugin tools (wire.Spec tool specs)
//	codemodekit.namespaces, .rolledBack   internal namespace registrations
//	codemodekit.runtime                   "", "missing", "unreadable" or "corrupt"
//
// The file is read again at every turn, so tools, policy and code-mode
// settings follow it without a restart; the namespaces and the runtime
// are read at start only.
type gatewayConfig struct {
	raw json.RawMessage
	doc map[string]any

	Gateway struct {
		Bind string `json:"bind"`
		Port int    `json:"port"`
	} `json:"gateway"`
	Models struct {
		Providers map[string]providerConfig `json:"providers"`
	} `json:"models"`
	Kit struct {
		Model       string               `json:"model"`
		Stream      *bool                `json:"stream"`
		ToolHost    string               `json:"toolHost"`
		Tools       []wire.Spec          `json:"tools"`
		Namespaces  []protocol.Namespace `json:"namespaces"`
		RolledBack  []string             `json:"rolledBack"`
		Disabled    []string             `json:"disabled"`
		Uninstalled []string             `json:"uninstalled"`
		Runtime     string               `json:"runtime"`
	} `json:"codemodekit"`
}

type providerConfig struct {
	BaseURL string            `json:"baseUrl"`
	API     string            `json:"api"`
	APIKey  string            `json:"apiKey"`
	Headers map[string]string `json:"headers"`
}

func loadConfig(path string) (*gatewayConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return parseConfig(b)
}

func parseConfig(b []byte) (*gatewayConfig, error) {
	c := &gatewayConfig{raw: bytes.TrimSpace(b)}
	if err := json.Unmarshal(b, c); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := json.Unmarshal(b, &c.doc); err != nil || c.doc == nil {
		return nil, fmt.Errorf("config: not a JSON object")
	}
	if c.Gateway.Bind == "" {
		c.Gateway.Bind = "127.0.0.1"
	}
	if c.Gateway.Bind != "127.0.0.1" && c.Gateway.Bind != "loopback" && c.Gateway.Bind != "localhost" {
		return nil, fmt.Errorf("config: gateway.bind %q: the gateway binds loopback only", c.Gateway.Bind)
	}
	switch c.Kit.Runtime {
	case "", "missing", "unreadable", "corrupt":
	default:
		return nil, fmt.Errorf("config: codemodekit.runtime %q: want \"\", \"missing\", \"unreadable\" or \"corrupt\"", c.Kit.Runtime)
	}
	return c, nil
}

// provider returns the configured model provider.
func (c *gatewayConfig) provider() (providerConfig, string, error) {
	id, model, ok := strings.Cut(c.Kit.Model, "/")
	if !ok || id == "" || model == "" {
		return providerConfig{}, "", fmt.Errorf("config: codemodekit.model %q: want \"<provider>/<model>\"", c.Kit.Model)
	}
	p, ok := c.Models.Providers[id]
	if !ok || p.BaseURL == "" {
		return providerConfig{}, "", fmt.Errorf("config: models.providers.%s.baseUrl is not set", id)
	}
	switch p.API {
	case "":
		p.API = apiResponses
	case apiResponses, apiCompletions:
	default:
		return providerConfig{}, "", fmt.Errorf("config: models.providers.%s.api %q: want %q or %q", id, p.API, apiResponses, apiCompletions)
	}
	return p, model, nil
}

func (c *gatewayConfig) stream() bool { return c.Kit.Stream == nil || *c.Kit.Stream }
