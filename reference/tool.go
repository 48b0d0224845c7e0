package codemode

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
)

// Source is where a tool comes from.
type Source string

const (
	// SourceCore tools are the host's own.
	SourceCore Source = "core"
	// SourcePlugin tools belong to a plugin; Owner is the plugin id.
	SourcePlugin Source = "plugin"
	// SourceMCP tools are served by an MCP server; Owner is the server name.
	SourceMCP Source = "mcp"
	// SourceClient tools are provided by the client of this run; Owner names
	// the client application ("client" when empty).
	SourceClient Source = "client"
)

// A Tool is one effective tool of a turn, before policy.
type Tool struct {
	Name        string
	Label       string
	Description string
	Source      Source
	// Owner is the plugin id, MCP server name or client owner.
	Owner string
	// Bundled marks a plugin that ships with the host; bundled plugin tools
	// come before external ones in the catalog.
	Bundled bool
	// MCPToolName is the tool's name on its MCP server (defaults to Name).
	MCPToolName  string
	Parameters   json.RawMessage
	OutputSchema json.RawMessage
	// DirectOnly tools stay model-visible in code mode and out of the
	// catalog: their results cannot cross the JSON bridge.
	DirectOnly bool
	// ReplaySafe tools may be replayed after a gateway restart.
	ReplaySafe bool
	// RequiresApproval tools ask the turn's approval hook before running.
	RequiresApproval bool
	// Execute runs the tool. An error fails the call with the error's
	// message.
	Execute func(ctx context.Context, call ToolCall) (ToolResult, error)

	mcp *mcpInfo // set for tools listed from MCP servers
}

// mcpInfo keeps what the namespace model needs about an MCP catalog tool.
type mcpInfo struct {
	server, tool, title, operation string
}

// A ToolCall is one invocation of a tool.
type ToolCall struct {
	ToolCallID string
	Name       string
	// CatalogID is set for nested calls made by guest code.
	CatalogID string
	Input     json.RawMessage
	// ParentToolCallID is the exec or wait call a nested call belongs to.
	ParentToolCallID string
}

// A ToolResult is what a tool returns: content blocks for the model and
// optional structured details (what tools.callValue returns).
type ToolResult struct {
	Content []ContentBlock  `json:"content"`
	Details json.RawMessage `json:"details,omitempty"`
	// IsError marks a failed model-level call.
	IsError bool `json:"isError,omitempty"`
}

// A ContentBlock is one piece of tool output.
type ContentBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// TextResult returns a result with one text block.
func TextResult(text string) ToolResult {
	return ToolResult{Content: []ContentBlock{{Type: "text", Text: text}}}
}

// A Definition is one model-visible tool as the provider receives it.
type Definition struct {
	Name        string          `json:"name"`
	Label       string          `json:"label,omitempty"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Hooks are the turn's policy callbacks. Nil hooks allow everything.
type Hooks struct {
	// BeforeToolCall sees every tool call, model-level and nested, before it
	// runs. It may block the call or rewrite its parameters.
	BeforeToolCall func(ctx context.Context, e HookEvent) (HookDecision, error)
	// Approve decides calls to tools that require approval. It may block
	// until a decision is made; ctx is cancelled when the turn aborts.
	Approve func(ctx context.Context, r ApprovalRequest) (bool, error)
}

// A HookEvent describes a tool call to the before_tool_call hook.
type HookEvent struct {
	ToolName         string          `json:"toolName"`
	ToolCallID       string          `json:"toolCallId"`
	Params           json.RawMessage `json:"params"`
	CatalogID        string          `json:"catalogId,omitempty"`
	ParentToolCallID string          `json:"parentToolCallId,omitempty"`
	// ToolKind is "code_mode_exec" for the code-mode exec tool.
	ToolKind string `json:"toolKind,omitempty"`
	// ToolInputKind is "javascript" or "typescript" for code-mode exec.
	ToolInputKind string `json:"toolInputKind,omitempty"`
	// The agent run context of the call.
	AgentID    string `json:"agentId,omitempty"`
	SessionID  string `json:"sessionId,omitempty"`
	SessionKey string `json:"sessionKey,omitempty"`
	SenderID   string `json:"senderId,omitempty"`
	ChannelID  string `json:"channelId,omitempty"`
}

// A HookDecision is the hook's answer.
type HookDecision struct {
	Block  bool
	Reason string
	// Params, when set, replaces the call's parameters.
	Params json.RawMessage
}

// An ApprovalRequest asks to run an approval-gated tool.
type ApprovalRequest struct {
	ToolName   string          `json:"toolName"`
	CatalogID  string          `json:"catalogId,omitempty"`
	ToolCallID string          `json:"toolCallId"`
	Params     json.RawMessage `json:"params"`
}

// A TrajectoryEvent records one tool call of a turn. Nested calls made by
// guest code carry their catalog id and the exec or wait call they ran under.
type TrajectoryEvent struct {
	Type             string `json:"type"`
	ToolCallID       string `json:"toolCallId"`
	Name             string `json:"name"`
	CatalogID        string `json:"catalogId,omitempty"`
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	Status           string `json:"status,omitempty"`
	ToolKind         string `json:"toolKind,omitempty"`
	// Text is the note of a "swarm_note" event (Name is phase or log).
	Text string `json:"text,omitempty"`
}

// Trajectory statuses.
const (
	statusRunning = "running"
	statusOK      = "ok"
	statusError   = "error"
	statusDenied  = "denied"
	statusBlocked = "blocked"
)

// toCatalogTool is t as the catalog takes it; i is its position among the
// turn's tools.
func toCatalogTool(t Tool, i int) catalog.Tool {
	ct := catalog.Tool{Name: t.Name, Label: t.Label, Description: t.Description, Owner: t.Owner, Bundled: t.Bundled,
		MCPToolName: t.MCPToolName, Parameters: t.Parameters, OutputSchema: t.OutputSchema, DirectOnly: t.DirectOnly, Index: i}
	switch t.Source {
	case SourcePlugin:
		ct.Kind = catalog.Plugin
	case SourceMCP:
		ct.Kind = catalog.MCP
		if t.mcp != nil {
			ct.MCPOperation = t.mcp.operation
		}
	case SourceClient:
		ct.Kind = catalog.Client
	default:
		ct.Kind = catalog.Core
	}
	return ct
}

// policyRef names a tool for policy matching (CM-3.6).
func policyRef(t Tool, ct catalog.Tool) config.ToolRef {
	ref := config.ToolRef{Name: t.Name, ID: catalog.ID(ct)}
	switch t.Source {
	case SourcePlugin:
		ref.Owner = t.Owner
	case SourceMCP:
		ref.Owner = "bundle-mcp"
	}
	return ref
}

// definitionOf is t as the model sees it when it is model-visible.
func definitionOf(t Tool) Definition {
	params := t.Parameters
	if len(strings.TrimSpace(string(params))) == 0 {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return Definition{Name: t.Name, Label: t.Label, Description: t.Description, Parameters: params}
}
