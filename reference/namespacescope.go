package codemode

// This file holds the registered namespaces of a turn (SPEC.md chapter
// 15): which are visible, their part of exec's description, the scopes
// each run makes, and the calls guest code makes through them.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/nsscope"
)

// namespacePromptHeading opens the registered-namespace section of exec's
// description (SPEC.md section 4.3).
const namespacePromptHeading = "Registered namespace globals are available in code mode:"

// visibleNamespaces returns the registrations whose required tools are all
// catalog entries owned by the registering plugin (CM-15.7, CM-15.8).
func (t *Turn) visibleNamespaces() []registered {
	var out []registered
	for _, r := range t.rt.namespaces.snapshot() {
		ok := true
		for _, name := range r.reg.RequiredToolNames {
			if _, found := t.catalog.Get(catalog.SourceOpenClaw + ":" + r.pluginID + ":" + name); !found {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

func (t *Turn) nsContext() NamespaceContext {
	return NamespaceContext{AgentID: t.opts.AgentID, SessionKey: t.opts.SessionKey, SessionID: t.opts.SessionID,
		RunID: t.opts.RunID, Config: t.opts.Config, Abort: t.ctx.Done()}
}

// namespacePrompt renders the registered-namespace section, or "".
func (t *Turn) namespacePrompt(visible []registered) string {
	if len(visible) == 0 {
		return ""
	}
	lines := []string{namespacePromptHeading}
	for _, r := range visible {
		line := "- " + r.reg.GlobalName
		if d := strings.TrimSpace(r.reg.Description); d != "" {
			line += ": " + d
		}
		lines = append(lines, line)
		p := r.reg.Prompt
		if r.reg.PromptFunc != nil {
			p = r.reg.PromptFunc(t.nsContext())
		}
		if p = strings.TrimSpace(p); p != "" {
			lines = append(lines, p)
		}
	}
	return strings.Join(lines, "\n")
}

// scopes calls createScope for every visible namespace of a new run and
// serializes the results (CM-15.9 to CM-15.12).
func (t *Turn) scopes(execCallID string) ([]guest.Namespace, error) {
	out := []guest.Namespace{}
	runs := map[string]*nsRun{}
	for _, r := range t.visibleNamespaces() {
		v, err := r.reg.CreateScope(t.nsContext())
		if err != nil {
			return nil, err
		}
		if _, ok := v.(map[string]any); !ok {
			return nil, fmt.Errorf("Code mode namespace %q createScope must return an object.", r.reg.ID)
		}
		sc, err := nsscope.Serialize(v)
		if err != nil {
			return nil, err
		}
		runs[r.reg.ID] = &nsRun{pluginID: r.pluginID, reg: r.reg, scope: sc}
		out = append(out, guest.Namespace{ID: r.reg.ID, GlobalName: r.reg.GlobalName, Root: sc.Root})
	}
	t.mu.Lock()
	if t.nsRuns == nil {
		t.nsRuns = map[string]map[string]*nsRun{}
	}
	t.nsRuns[execCallID] = runs
	t.mu.Unlock()
	return out, nil
}

// namespaceCall answers a call of a member of a registered namespace: a
// nested call of the catalog tool the member names.
func (t *Turn) namespaceCall(ctx context.Context, req namespaceRequest, n cell.Nested) (json.RawMessage, error) {
	t.mu.Lock()
	ns := t.nsRuns[n.Parent][req.Namespace]
	t.mu.Unlock()
	if ns == nil {
		return nil, fmt.Errorf("Unknown code mode namespace: %s", req.Namespace)
	}
	tool, err := ns.scope.Resolve(req.Path)
	if err != nil {
		return nil, err
	}
	declared := false
	for _, name := range ns.reg.RequiredToolNames {
		declared = declared || name == tool.Name
	}
	if !declared {
		return nil, fmt.Errorf("Code mode namespace path targets undeclared tool: %s", tool.Name)
	}
	guestArgs := make([]any, len(req.Args))
	for i, a := range req.Args {
		_ = json.Unmarshal(a, &guestArgs[i])
	}
	var input any = map[string]any{}
	if tool.Mapper != nil {
		input = tool.Mapper(guestArgs)
	} else if len(guestArgs) > 0 && guestArgs[0] != nil {
		input = guestArgs[0]
	}
	in, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	t.cell.Count(guest.MethodCall)
	e, ok := t.catalog.Get(catalog.SourceOpenClaw + ":" + ns.pluginID + ":" + tool.Name)
	if !ok {
		return nil, fmt.Errorf("Code mode namespace path targets undeclared tool: %s", tool.Name)
	}
	res, err := t.nestedCall(ctx, e, in, n)
	if err != nil {
		return nil, err
	}
	if res.Details != nil {
		return res.Details, nil
	}
	return json.Marshal(res)
}
