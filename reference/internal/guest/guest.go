// Package guest holds the guest half of the code-mode host bridge: the
// controller script evaluated in every VM and the names and shapes shared by
// the host half. Only JSON text crosses the bridge.
package guest

import _ "embed"

// Controller is the controller script. It captures the intrinsics it needs
// before model code runs, so patching globals or prototypes cannot reach the
// bridge.
//
//go:embed controller.js
var Controller string

// ControllerFile is the file name the controller is evaluated under.
const ControllerFile = "openclaw-code-mode:controller.js"

// UserFile is the file name model code is evaluated under; guest stack
// traces name it.
const UserFile = "openclaw-code-mode:user.js"

// Host function names. The guest function objects carry these names, so they
// survive snapshots; a restored VM binds them again.
const (
	HostRequest = "__openclawHostRequest"
	HostRandom  = "__openclawRandom"
	HostNote    = "__openclawSwarmNote"
)

// Methods of the controller object (the controller script's completion
// value, held only by the host).
const (
	Catalog   = "catalog"
	Configure = "configure"
	Start     = "start"
	Settle    = "settle"
	Poll      = "poll"
	ValueFn   = "value"
	ErrorFn   = "error"
)

// Bridge methods the guest may request.
const (
	MethodSearch    = "search"
	MethodDescribe  = "describe"
	MethodCall      = "call"
	MethodCallValue = "callValue"
	MethodYield     = "yield"
	MethodNamespace = "namespace"
	MethodSpawn     = "agentSpawn"
	MethodAgentWait = "agentWait"
)

// Methods is the bridge method allowlist.
var Methods = map[string]bool{
	MethodSearch: true, MethodDescribe: true, MethodCall: true, MethodCallValue: true,
	MethodYield: true, MethodNamespace: true, MethodSpawn: true, MethodAgentWait: true,
}

// Config is the run data installed by Configure. ALL_TOOLS and the tools
// object are not part of it: Catalog installs them first, from
// catalog.GuestCatalog, possibly long before, in a pooled VM.
type Config struct {
	MaxOutputBytes int         `json:"maxOutputBytes"`
	APIFiles       []APIFile   `json:"apiFiles"`
	Namespaces     []Namespace `json:"namespaces"`
	// Swarm is set when tools.swarm is on for the run.
	Swarm *Swarm `json:"swarm,omitempty"`
}

// Swarm configures the Swarm globals.
type Swarm struct {
	// Spawn reports a sessions_spawn catalog entry.
	Spawn bool `json:"spawn"`
}

// An APIFile is one read-only virtual declaration file.
type APIFile struct {
	Path        string `json:"path"`
	Description string `json:"description"`
	Content     string `json:"content"`
	Bytes       int    `json:"bytes"`
}

// A Namespace is a guest global (such as MCP) whose callable members are
// bridge requests. Root describes its shape.
type Namespace struct {
	ID         string `json:"id"`
	GlobalName string `json:"globalName"`
	Root       Node   `json:"root"`
}

// A Node is one member of a namespace: an object of members, a callable path
// or a frozen JSON value.
type Node struct {
	Kind    string          `json:"kind"` // "object", "call" or "value"
	Members map[string]Node `json:"members,omitempty"`
	Path    string          `json:"path,omitempty"`
	Value   any             `json:"value"`
}
