package harness

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
)

// registry builds the namespace registry of a setup from its JSON
// registrations (fixtures/namespaces/README.md), then applies rollbacks. It
// returns each registration's error, index by index: a refused
// registration is an observation, not a failure of the target.
func registry(namespaces []protocol.Namespace, cleared ...[]string) (*codemode.NamespaceRegistry, []error, error) {
	reg := &codemode.NamespaceRegistry{}
	errs := make([]error, len(namespaces))
	for i, ns := range namespaces {
		var r struct {
			ID                string          `json:"id"`
			GlobalName        string          `json:"globalName"`
			Description       string          `json:"description"`
			Prompt            json.RawMessage `json:"prompt"`
			RequiredToolNames []string        `json:"requiredToolNames"`
			Scope             json.RawMessage `json:"scope"`
		}
		if err := json.Unmarshal(ns.Registration, &r); err != nil {
			return nil, nil, fmt.Errorf("namespace registration: %w", err)
		}
		scope := r.Scope
		nr := codemode.NamespaceRegistration{ID: r.ID, GlobalName: r.GlobalName, Description: r.Description,
			RequiredToolNames: r.RequiredToolNames}
		if err := setPrompt(&nr, r.Prompt); err != nil {
			return nil, nil, fmt.Errorf("namespace registration %q: %w", r.ID, err)
		}
		if len(scope) > 0 {
			nr.CreateScope = func(ctx codemode.NamespaceContext) (any, error) { return buildScope(scope, ctx) }
		}
		if err := checkMarkers(r.Scope); err != nil {
			errs[i] = err
			continue
		}
		errs[i] = reg.Register(ns.PluginID, nr)
	}
	for _, plugins := range cleared {
		for _, p := range plugins {
			reg.ClearPlugin(p)
		}
	}
	return reg, errs, nil
}

// setPrompt sets the prompt of a registration: a JSON string is the text,
// and {"$template": "... {agentId} ..."} is a function of the run context
// that replaces each {field} with that run-context field.
func setPrompt(nr *codemode.NamespaceRegistration, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, &nr.Prompt); err == nil {
		return nil
	}
	var t struct {
		Template *string `json:"$template"`
	}
	if err := json.Unmarshal(raw, &t); err != nil || t.Template == nil {
		return fmt.Errorf("prompt is neither a string nor {\"$template\": string}: %s", raw)
	}
	template := *t.Template
	nr.PromptFunc = func(ctx codemode.NamespaceContext) string {
		return strings.NewReplacer("{agentId}", ctx.AgentID, "{sessionKey}", ctx.SessionKey,
			"{sessionId}", ctx.SessionID, "{runId}", ctx.RunID).Replace(template)
	}
	return nil
}

// checkMarkers calls createCodeModeNamespaceTool for every $tool marker of a
// scope description, as a loader does when it builds its registration, so
// a blank tool name is refused at registration.
func checkMarkers(raw json.RawMessage) error {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var walk func(x any) error
	walk = func(x any) error {
		switch t := x.(type) {
		case map[string]any:
			if name, ok := t["$tool"].(string); ok {
				_, err := codemode.NamespaceTool(name, nil)
				return err
			}
			for _, c := range t {
				if err := walk(c); err != nil {
					return err
				}
			}
		case []any:
			for _, c := range t {
				if err := walk(c); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(v)
}

// buildScope turns a JSON scope description into Go values: $tool markers,
// raw functions, shared or circular $ref references, $context fields and
// $bigint values.
func buildScope(raw json.RawMessage, ctx codemode.NamespaceContext) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	root := v
	var refs []func() error
	var build func(x any) (any, error)
	build = func(x any) (any, error) {
		switch t := x.(type) {
		case map[string]any:
			if name, ok := t["$tool"].(string); ok {
				var mapper func([]any) any
				if names, ok := t["$args"].([]any); ok {
					mapper = func(args []any) any {
						out := map[string]any{}
						for i, n := range names {
							if s, ok := n.(string); ok && i < len(args) {
								out[s] = args[i]
							}
						}
						return out
					}
				}
				return codemode.NamespaceTool(name, mapper)
			}
			if _, ok := t["$function"]; ok {
				return func() {}, nil
			}
			if f, ok := t["$context"].(string); ok {
				return map[string]string{"agentId": ctx.AgentID, "sessionKey": ctx.SessionKey,
					"sessionId": ctx.SessionID, "runId": ctx.RunID}[f], nil
			}
			if d, ok := t["$bigint"].(string); ok {
				n, ok := new(big.Int).SetString(d, 10)
				if !ok {
					return nil, fmt.Errorf("bad $bigint %q", d)
				}
				return n, nil
			}
			out := map[string]any{}
			for k, c := range t {
				if p, ok := c.(map[string]any); ok {
					if ref, ok := p["$ref"].(string); ok {
						k := k
						refs = append(refs, func() error {
							target, err := lookup(root, ref)
							if err != nil {
								return err
							}
							out[k] = target
							return nil
						})
						continue
					}
				}
				b, err := build(c)
				if err != nil {
					return nil, err
				}
				out[k] = b
			}
			return out, nil
		case []any:
			out := make([]any, len(t))
			for i, c := range t {
				b, err := build(c)
				if err != nil {
					return nil, err
				}
				out[i] = b
			}
			return out, nil
		default:
			return x, nil
		}
	}
	built, err := build(v)
	if err != nil {
		return nil, err
	}
	root = built
	for _, r := range refs {
		if err := r(); err != nil {
			return nil, err
		}
	}
	return built, nil
}

func lookup(root any, path string) (any, error) {
	cur := root
	if path == "" {
		return cur, nil
	}
	for _, seg := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q does not name an object", path)
		}
		cur = m[seg]
	}
	return cur, nil
}
