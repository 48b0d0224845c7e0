package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/codemodekit/kit/reference/internal/nsscope"
)

// A NamespaceRegistration describes an internal namespace: a guest global
// such as Issues whose callable members map to tools of the registering
// plugin (SPEC.md chapter 15).
type NamespaceRegistration struct {
	ID          string
	GlobalName  string
	Description string
	// Prompt is appended to exec's description when the namespace is
	// visible; PromptFunc, when set, computes it from the run context.
	Prompt            string
	PromptFunc        func(NamespaceContext) string
	RequiredToolNames []string
	// CreateScope returns the namespace object: plain JSON-like values
	// (maps, slices, strings, numbers, booleans, nil) and NamespaceTool
	// markers. Raw functions, cycles and unsafe keys are refused.
	CreateScope func(NamespaceContext) (any, error)
}

// NamespaceContext is the run context createScope and prompt functions see.
type NamespaceContext struct {
	AgentID    string
	SessionKey string
	SessionID  string
	RunID      string
	Config     json.RawMessage
	// Abort is closed when the agent run is aborted.
	Abort <-chan struct{}
}

// NamespaceTool makes a scope member callable: calls run the plugin's
// catalog tool toolName. mapper turns the guest arguments into the tool
// input; nil means the first argument, or {} when there is none. The
// value is a marker to place in the object CreateScope returns.
func NamespaceTool(toolName string, mapper func(args []any) any) (any, error) {
	if strings.TrimSpace(toolName) == "" {
		return nil, errors.New("Code mode namespace toolName must be non-empty.")
	}
	return &nsscope.Tool{Name: toolName, Mapper: mapper}, nil
}

// NamespaceRegistry is the process-local registry of internal namespaces,
// keyed by namespace id. The zero value is an empty registry. It is safe
// for concurrent use.
type NamespaceRegistry struct {
	mu   sync.Mutex
	regs map[string]registered
}

type registered struct {
	pluginID string
	reg      NamespaceRegistration
}

// nsRun is one visible namespace as serialized for one run.
type nsRun struct {
	pluginID string
	reg      NamespaceRegistration
	scope    *nsscope.Scope
}

// namespaceRequest is the argument of a namespace bridge request: a call
// of a member of the MCP global or of a registered namespace.
type namespaceRequest struct {
	Namespace string            `json:"namespace"`
	Path      string            `json:"path"`
	Args      []json.RawMessage `json:"args"`
	Argc      int               `json:"argc"`
}

var identifierRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// reservedGlobals are the guest globals of code mode and Appendix B.5:
// namespaces never take these names.
var reservedGlobals = []string{
	"ALL_TOOLS", "tools", "namespaces", "text", "json", "yield_control", "MCP", "API",
	"agents", "Array", "Boolean", "Date", "Error", "globalThis", "log", "JSON", "Map", "Math",
	"Number", "Object", "Promise", "phase", "Set", "String",
}

// Register adds a namespace owned by pluginID, validating it in the order of
// SPEC.md CM-15.2. Errors carry the exact messages.
func (r *NamespaceRegistry) Register(pluginID string, reg NamespaceRegistration) error {
	switch {
	case strings.TrimSpace(reg.ID) == "":
		return errors.New("Code mode namespace id must be non-empty.")
	case strings.TrimSpace(pluginID) == "":
		return errors.New("Code mode namespace pluginId must be non-empty.")
	case !identifierRE.MatchString(reg.GlobalName):
		return errors.New("Code mode namespace globalName must be a JavaScript identifier.")
	case isReservedGlobal(reg.GlobalName):
		return fmt.Errorf("Code mode namespace globalName %q is reserved.", reg.GlobalName)
	case nsscope.IsBuiltinGlobal(reg.GlobalName):
		return fmt.Errorf("Code mode namespace globalName %q collides with a global.", reg.GlobalName)
	case reg.CreateScope == nil:
		return errors.New("Code mode namespace createScope must be a function.")
	case len(reg.RequiredToolNames) == 0:
		return errors.New("Code mode namespace requiredToolNames must include at least one tool name.")
	}
	for _, n := range reg.RequiredToolNames {
		if strings.TrimSpace(n) == "" {
			return errors.New("Code mode namespace requiredToolNames must be non-empty strings.")
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.regs == nil {
		r.regs = map[string]registered{}
	}
	if _, dup := r.regs[reg.ID]; dup {
		return fmt.Errorf("Code mode namespace id %q is already registered.", reg.ID)
	}
	for id, e := range r.regs {
		if e.reg.GlobalName == reg.GlobalName {
			return fmt.Errorf("Code mode namespace globalName %q is already registered by %q.", reg.GlobalName, id)
		}
	}
	r.regs[reg.ID] = registered{pluginID: pluginID, reg: reg}
	return nil
}

func isReservedGlobal(name string) bool {
	if strings.HasPrefix(name, "__openclaw") {
		return true
	}
	for _, g := range reservedGlobals {
		if g == name {
			return true
		}
	}
	return false
}

// ClearPlugin removes every namespace of pluginID (plugin disabled,
// uninstalled or rolled back).
func (r *NamespaceRegistry) ClearPlugin(pluginID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, e := range r.regs {
		if e.pluginID == pluginID {
			delete(r.regs, id)
		}
	}
}

// Unregister removes the registration id, if there is one (CM-15.6,
// unregisterCodeModeNamespace). A new NamespaceRegistry is the cleared one
// (clearCodeModeNamespacesForTest).
func (r *NamespaceRegistry) Unregister(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.regs, id)
}

// List returns the ids of the registrations in ascending code point order
// (CM-15.6, listCodeModeNamespaces).
func (r *NamespaceRegistry) List() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.regs))
	for id := range r.regs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (r *NamespaceRegistry) snapshot() []registered {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]registered, 0, len(r.regs))
	for _, e := range r.regs {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].reg.ID < out[j].reg.ID })
	return out
}
