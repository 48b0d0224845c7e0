package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fixtures"
)

// register binds every step of STEPS.md to w.
func (w *world) register(sc *godog.ScenarioContext) {
	// Setup.
	sc.Step(`^code mode is enabled$`, func() error { return w.setCodeMode(true) })
	sc.Step(`^code mode is disabled$`, func() error { delete(w.tools(), "codeMode"); return w.syncConfig() })
	sc.Step(`^code mode is configured as:$`, w.codeModeConfigured)
	sc.Step(`^the config also has:$`, w.configAlsoHas)
	sc.Step(`^the config is:$`, w.configIs)
	sc.Step(`^the catalog "([^"]+)"$`, w.catalogFile)
	sc.Step(`^the tools:$`, w.toolsDoc)
	sc.Step(`^the tool:$`, w.toolsDoc)
	sc.Step(`^the tool "([^"]+)" returns:$`, w.toolReturns)
	sc.Step(`^the tool "([^"]+)" returns the text "([^"]*)"$`, w.toolReturnsText)
	sc.Step(`^the tool "([^"]+)" fails with "([^"]*)"$`, w.toolFails)
	sc.Step(`^the tool "([^"]+)" is held until released$`, func(name string) error { w.host.Hold(name); return nil })
	sc.Step(`^the tool "([^"]+)" takes (\d+) ms$`, w.toolTakes)
	sc.Step(`^the tool "([^"]+)" requires approval$`, w.toolRequiresApproval)
	sc.Step(`^approval for "([^"]+)" is (granted|denied|held)$`, func(name, d string) error { w.host.SetApproval(name, d); return nil })
	sc.Step(`^the before_tool_call hook blocks "([^"]+)"$`, func(name string) error { w.host.BlockHook(name, ""); return nil })
	sc.Step(`^the before_tool_call hook blocks "([^"]+)" with "([^"]*)"$`, func(name, reason string) error { w.host.BlockHook(name, reason); return nil })
	sc.Step(`^the before_tool_call hook rewrites "([^"]+)" params to:$`, w.hookRewrites)
	sc.Step(`^the tool policy denies "([^"]+)"$`, w.policyDenies)
	sc.Step(`^the tool policy allows only "([^"]*)"$`, w.policyAllowsOnly)
	sc.Step(`^the MCP server "([^"]+)" with tools:$`, w.mcpServer)
	sc.Step(`^the MCP server "([^"]+)" also offers resources:$`, w.mcpResources)
	sc.Step(`^the MCP server "([^"]+)" also offers prompts:$`, w.mcpPrompts)
	sc.Step(`^the real MCP server "([^"]+)"$`, w.realMCPServer)
	sc.Step(`^the plugin "([^"]+)" registers the namespace:$`, w.registerNamespace)
	sc.Step(`^the plugin "([^"]+)" is rolled back$`, func(p string) error { w.setup.RolledBack = append(w.setup.RolledBack, p); return nil })
	sc.Step(`^sub-agents answer "([^"]*)"$`, func(t string) error { w.setup.SubAgentAnswer = t; return nil })
	sc.Step(`^sub-agents answer:$`, func(d *godog.DocString) error { w.setup.SubAgentAnswer = d.Content; return nil })
	sc.Step(`^the target environment has "([^"]+)" set to "([^"]*)"$`, w.setEnv)
	sc.Step(`^the registration is refused with:$`, w.registrationRefused)
	sc.Step(`^the quickjs-wasi binary is (missing|corrupt)$`, func(m string) error { w.setup.Runtime = m; return nil })

	// Turns.
	sc.Step(`^a turn starts$`, func() error { return w.startTurn(defaultTurn()) })
	sc.Step(`^a turn starts for agent "([^"]+)"$`, func(agent string) error {
		t := defaultTurn()
		t.AgentID, t.SessionKey = agent, "agent:"+agent+":main"
		return w.startTurn(t)
	})
	sc.Step(`^a turn starts in session "([^"]+)"$`, func(s string) error { return w.startTurn(sessionTurn(s)) })
	sc.Step(`^a turn starts in session "([^"]+)" within the same agent run$`, w.sameRunTurn)
	sc.Step(`^a turn starts with tools disabled$`, func() error { t := defaultTurn(); t.DisableTools = true; return w.startTurn(t) })
	sc.Step(`^a raw model call starts$`, func() error { t := defaultTurn(); t.NoTools = true; return w.startTurn(t) })
	sc.Step(`^the turn is aborted$`, w.abortTurn)
	sc.Step(`^the turn ends$`, w.endTurn)
	sc.Step(`^the gateway restarts$`, w.restart)
	sc.Step(`^the session ends$`, func() error { return w.endSession("") })
	sc.Step(`^the session "([^"]+)" ends$`, func(s string) error { return w.endSession(sessionTurn(s).SessionKey) })

	// Model calls.
	sc.Step(`^the model calls exec with:$`, func(d *godog.DocString) error { return w.exec(map[string]any{"code": d.Content}) })
	sc.Step(`^the model calls exec in typescript with:$`, func(d *godog.DocString) error {
		return w.exec(map[string]any{"code": d.Content, "language": "typescript"})
	})
	sc.Step(`^the model calls exec restart-safe with:$`, func(d *godog.DocString) error {
		return w.exec(map[string]any{"code": d.Content, "restartSafe": true})
	})
	sc.Step(`^the model calls exec with arguments:$`, w.execArgs)
	sc.Step(`^the model calls exec with tool call id "([^"]*)":$`, w.execWithID)
	sc.Step(`^the model calls wait with run id arguments:$`, w.waitRunIDArgs)
	sc.Step(`^the turn will be aborted in (\d+) ms$`, w.abortLater)
	sc.Step(`^the model calls wait$`, w.waitLatest)
	sc.Step(`^the model calls wait with arguments:$`, w.waitArgs)
	sc.Step(`^the model calls wait twice at the same time$`, w.waitTwice)
	sc.Step(`^the model calls "([^"]+)" with:$`, w.callTool)
	sc.Step(`^the tool "([^"]+)" is released$`, func(name string) error { w.host.Release(name); return nil })
	sc.Step(`^approval for "([^"]+)" is released as (granted|denied)$`, func(name, d string) error {
		w.host.Decide(name, d == "granted")
		return nil
	})
	sc.Step(`^(\d+) ms pass$`, func(n int) error { time.Sleep(time.Duration(n) * time.Millisecond); return nil })
	sc.Step(`^the model calls exec (\d+) times at the same time with:$`, w.execConcurrently)

	// Observations.
	sc.Step(`^the model-visible tools are "([^"]*)"$`, w.visibleToolsAre)
	sc.Step(`^the model-visible tools include "([^"]+)"$`, func(n string) error { return w.visibleHas(n, true) })
	sc.Step(`^the model-visible tools do not include "([^"]+)"$`, func(n string) error { return w.visibleHas(n, false) })
	sc.Step(`^the "([^"]+)" tool schema is:$`, w.toolSchemaIs)
	sc.Step(`^the "([^"]+)" tool description is:$`, w.toolDescriptionIs)
	sc.Step(`^the "([^"]+)" tool has the label "([^"]*)"$`, w.toolLabelIs)
	sc.Step(`^the exec description contains:$`, func(d *godog.DocString) error { return w.execDescription("contains", d.Content) })
	sc.Step(`^the exec description contains "([^"]*)"$`, func(s string) error { return w.execDescription("contains", s) })
	sc.Step(`^the exec description does not contain "([^"]*)"$`, func(s string) error { return w.execDescription("lacks", s) })
	sc.Step(`^the exec description does not contain:$`, func(d *godog.DocString) error { return w.execDescription("lacks", d.Content) })
	sc.Step(`^the exec description ends with:$`, func(d *godog.DocString) error { return w.execDescription("suffix", d.Content) })
	sc.Step(`^the exec description starts with:$`, func(d *godog.DocString) error { return w.execDescription("prefix", d.Content) })
	sc.Step(`^the result status is "([^"]+)"$`, w.resultStatus)
	sc.Step(`^the result value is:$`, func(d *godog.DocString) error { return w.resultMember("value", d.Content, false) })
	sc.Step(`^the result value is (.+)$`, func(v string) error { return w.resultMember("value", v, false) })
	sc.Step(`^the result value matches:$`, func(d *godog.DocString) error { return w.resultMember("value", d.Content, true) })
	sc.Step(`^the result fails with code "([^"]+)"$`, w.resultCode)
	sc.Step(`^the result error is "(.*)"$`, func(s string) error { return w.resultError("is", s) })
	sc.Step(`^the result error is:$`, func(d *godog.DocString) error { return w.resultError("is", d.Content) })
	sc.Step(`^the result error starts with "(.*)"$`, func(s string) error { return w.resultError("prefix", s) })
	sc.Step(`^the result error contains "(.*)"$`, func(s string) error { return w.resultError("contains", s) })
	sc.Step(`^the result failure phase is "([^"]+)"$`, func(p string) error { return w.resultMember("failurePhase", strconv.Quote(p), false) })
	sc.Step(`^the result output is:$`, func(d *godog.DocString) error { return w.resultMember("output", d.Content, false) })
	sc.Step(`^the result is waiting with reason "([^"]+)"$`, w.resultWaiting)
	sc.Step(`^the result pending tool calls are:$`, func(d *godog.DocString) error { return w.resultMember("pendingToolCalls", d.Content, false) })
	sc.Step(`^the result run id is the previous one$`, w.resultSameRunID)
	sc.Step(`^the result includes:$`, w.resultIncludes)
	sc.Step(`^the result text is the pretty JSON of the result$`, w.resultTextIsPretty)
	sc.Step(`^the result has exactly the members of its status$`, w.resultExactMembers)
	sc.Step(`^the wait is refused with "(.*)"$`, w.waitRefused)
	sc.Step(`^the turn fails with "([^"]*)"$`, w.turnFails)
	sc.Step(`^the telemetry includes:$`, func(d *godog.DocString) error { return w.resultMember("telemetry", d.Content, true) })
	sc.Step(`^the tool call is refused with "([^"]*)"$`, w.callRefused)
	sc.Step(`^the tool "([^"]+)" was called (\d+) times?$`, w.toolCalledTimes)
	sc.Step(`^the tool "([^"]+)" was not called$`, func(n string) error { return w.toolCalledTimes(n, 0) })
	sc.Step(`^the tool "([^"]+)" was last called with:$`, w.toolLastCalledWith)
	sc.Step(`^the hook saw an event including:$`, w.hookSaw)
	sc.Step(`^the trajectory includes:$`, w.trajectoryIncludes)
	sc.Step(`^the trajectory shows "([^"]+)" under the exec call$`, w.trajectoryUnderExec)
	sc.Step(`^the both wait results are:$`, w.groupResults)
	sc.Step(`^(\d+) of the results have status "([^"]+)"$`, w.groupCountStatus)
	sc.Step(`^one of the results fails with "([^"]*)"$`, w.groupOneFails)
	sc.Step(`^the transcript of the session includes:$`, w.transcriptIncludes)
	sc.Step(`^the target log contains "([^"]*)"$`, func(s string) error { return w.logContains(s, true) })
	sc.Step(`^the target log does not contain "([^"]*)"$`, func(s string) error { return w.logContains(s, false) })
	w.registerHostile(sc)
}

func defaultTurn() TurnSpec {
	return TurnSpec{AgentID: "main", SessionID: "session-1", SessionKey: "agent:main:main"}
}

func sessionTurn(s string) TurnSpec {
	return TurnSpec{AgentID: "main", SessionID: s, SessionKey: "agent:main:" + s}
}

// --- setup ---

func (w *world) tools() map[string]any {
	t, ok := w.config["tools"].(map[string]any)
	if !ok {
		t = map[string]any{}
		w.config["tools"] = t
	}
	return t
}

func (w *world) setCodeMode(v any) error {
	w.tools()["codeMode"] = v
	return w.syncConfig()
}

// parseDoc parses a JSON docstring keeping number texts as written, so a
// configuration value such as -0 or 1e-7 reaches the target unchanged.
func parseDoc(content string) (any, error) {
	v, err := decodeJSON([]byte(content))
	if err != nil {
		return nil, fmt.Errorf("docstring is not JSON: %w", err)
	}
	return v, nil
}

func (w *world) codeModeConfigured(d *godog.DocString) error {
	v, err := parseDoc(d.Content)
	if err != nil {
		return err
	}
	return w.setCodeMode(v)
}

func (w *world) configAlsoHas(d *godog.DocString) error {
	v, err := parseDoc(d.Content)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("the config also has: want a JSON object")
	}
	deepMerge(w.config, m)
	return w.syncConfig()
}

func deepMerge(dst, src map[string]any) {
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := dst[k].(map[string]any); ok {
				deepMerge(dv, sv)
				continue
			}
		}
		dst[k] = v
	}
}

func (w *world) configIs(d *godog.DocString) error {
	v, err := parseDoc(d.Content)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errors.New("the config is: want a JSON object")
	}
	w.config = m
	return w.syncConfig()
}

func (w *world) catalogFile(name string) error {
	b, err := fixtures.FS.ReadFile("catalogs/" + name + ".json")
	if err != nil {
		return fmt.Errorf("catalog %q: %w", name, err)
	}
	c, err := wire.ParseCatalog(b)
	if err != nil {
		return err
	}
	w.setup.Tools = append(w.setup.Tools, c.Tools...)
	return nil
}

func (w *world) toolsDoc(d *godog.DocString) error {
	content := strings.TrimSpace(d.Content)
	if strings.HasPrefix(content, "{") {
		content = "[" + content + "]"
	}
	c, err := wire.ParseCatalog([]byte(`{"tools":` + content + `}`))
	if err != nil {
		return err
	}
	w.setup.Tools = append(w.setup.Tools, c.Tools...)
	return nil
}

func (w *world) specs(name string) []*wire.Spec {
	var out []*wire.Spec
	for i := range w.setup.Tools {
		if w.setup.Tools[i].Name == name {
			out = append(out, &w.setup.Tools[i])
		}
	}
	for si := range w.setup.MCPServers {
		for ti := range w.setup.MCPServers[si].Tools {
			if w.setup.MCPServers[si].Tools[ti].Name == name {
				out = append(out, &w.setup.MCPServers[si].Tools[ti])
			}
		}
	}
	return out
}

func (w *world) toolReturns(name string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	w.host.SetBehavior(name, wire.Behavior{Returns: json.RawMessage(d.Content)})
	return nil
}

func (w *world) toolReturnsText(name, text string) error {
	w.host.SetBehavior(name, wire.Behavior{Text: &text})
	return nil
}

func (w *world) toolFails(name, msg string) error {
	w.host.SetBehavior(name, wire.Behavior{Fails: &msg})
	return nil
}

func (w *world) toolTakes(name string, ms int) error {
	specs := w.specs(name)
	if len(specs) == 0 {
		return fmt.Errorf("no tool %q in the setup", name)
	}
	b := wire.Behavior{}
	if specs[0].Behavior != nil {
		b = *specs[0].Behavior
	}
	b.DelayMs = ms
	w.host.SetBehavior(name, b)
	return nil
}

func (w *world) toolRequiresApproval(name string) error {
	specs := w.specs(name)
	if len(specs) == 0 {
		return fmt.Errorf("no tool %q in the setup", name)
	}
	for _, s := range specs {
		s.RequiresApproval = true
	}
	return nil
}

func (w *world) hookRewrites(name string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	w.host.RewriteHook(name, json.RawMessage(d.Content))
	return nil
}

func (w *world) policyDenies(entry string) error {
	t := w.tools()
	deny, _ := t["deny"].([]any)
	t["deny"] = append(deny, entry)
	return w.syncConfig()
}

func (w *world) policyAllowsOnly(list string) error {
	items := splitList(list)
	allow := make([]any, len(items))
	for i, s := range items {
		allow[i] = s
	}
	w.tools()["allow"] = allow
	return w.syncConfig()
}

func (w *world) server(name string) *MCPServer {
	for i := range w.setup.MCPServers {
		if w.setup.MCPServers[i].Name == name {
			return &w.setup.MCPServers[i]
		}
	}
	w.setup.MCPServers = append(w.setup.MCPServers, MCPServer{Name: name})
	return &w.setup.MCPServers[len(w.setup.MCPServers)-1]
}

func (w *world) mcpServer(name string, d *godog.DocString) error {
	c, err := wire.ParseCatalog([]byte(`{"tools":` + d.Content + `}`))
	if err != nil {
		return err
	}
	s := w.server(name)
	for _, t := range c.Tools {
		t.Source, t.Owner = "mcp", name
		s.Tools = append(s.Tools, t)
	}
	return nil
}

func rawList(content string) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(content), &items); err != nil {
		return nil, fmt.Errorf("docstring is not a JSON array: %w", err)
	}
	return items, nil
}

func (w *world) mcpResources(name string, d *godog.DocString) error {
	items, err := rawList(d.Content)
	if err != nil {
		return err
	}
	s := w.server(name)
	s.Resources = append(s.Resources, items...)
	return nil
}

func (w *world) mcpPrompts(name string, d *godog.DocString) error {
	items, err := rawList(d.Content)
	if err != nil {
		return err
	}
	s := w.server(name)
	s.Prompts = append(s.Prompts, items...)
	return nil
}

func (w *world) realMCPServer(fixture string) error {
	w.setup.MCPServers = append(w.setup.MCPServers, MCPServer{Name: fixture, Fixture: fixture})
	return nil
}

func (w *world) registerNamespace(plugin string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	w.setup.Namespaces = append(w.setup.Namespaces, Namespace{PluginID: plugin, Registration: json.RawMessage(d.Content)})
	return nil
}

// --- turns ---

func (w *world) sameRunTurn(session string) error {
	if w.cur == nil {
		return errors.New("no earlier turn to share the agent run with")
	}
	t := sessionTurn(session)
	t.RunID = w.cur.spec.RunID
	return w.startTurn(t)
}

func (w *world) abortTurn() error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	ts.settled = true
	ctx, cancel := w.ctx()
	defer cancel()
	return ts.turn.Abort(ctx)
}

func (w *world) endTurn() error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	ts.settled = true
	ctx, cancel := w.ctx()
	defer cancel()
	return ts.turn.End(ctx)
}

// endSession ends a session as its host does when it is reset or deleted;
// "" is the session of the latest turn.
func (w *world) endSession(key string) error {
	if key == "" {
		ts, err := w.turn()
		if err != nil {
			return err
		}
		key = ts.spec.SessionKey
	}
	ender, ok := w.target.(SessionEnder)
	if !ok {
		return w.notApplicable(NotApplicable("the target cannot end a session"))
	}
	ctx, cancel := w.ctx()
	defer cancel()
	if err := ender.EndSession(ctx, key); err != nil {
		if errors.Is(err, ErrNotApplicable) {
			return w.notApplicable(err)
		}
		return fmt.Errorf("end session %s: %w", key, err)
	}
	return nil
}

func (w *world) restart() error {
	if err := w.start(); err != nil {
		return err
	}
	r, ok := w.target.(Restarter)
	if !ok {
		return w.notApplicable(NotApplicable("the target cannot restart"))
	}
	if err := w.syncConfig(); err != nil {
		return err
	}
	ctx, cancel := w.ctx()
	defer cancel()
	return r.Restart(ctx)
}

// --- model calls ---

func (w *world) exec(args map[string]any) error {
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	_, err = w.call("exec", b)
	return err
}

func (w *world) execArgs(d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	_, err := w.call("exec", json.RawMessage(d.Content))
	return err
}

func (w *world) waitLatest() error {
	id, err := w.latestRunID()
	if err != nil {
		return err
	}
	w.lastWaitID = id
	b, _ := json.Marshal(map[string]string{"runId": id})
	_, err = w.call("wait", b)
	return err
}

func (w *world) waitArgs(d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	var a struct {
		RunID string `json:"runId"`
	}
	_ = json.Unmarshal([]byte(d.Content), &a)
	w.lastWaitID = a.RunID
	_, err := w.call("wait", json.RawMessage(d.Content))
	return err
}

func (w *world) concurrently(n int, name string, args json.RawMessage) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = w.nextCallID()
	}
	if name == "exec" && ts.firstExecID == "" {
		ts.firstExecID = ids[0]
	}
	recs := make([]callRecord, n)
	if bc, ok := ts.turn.(BatchCaller); ok {
		calls := make([]ToolCall, n)
		for i := range n {
			calls[i] = ToolCall{ID: ids[i], Name: name, Arguments: args}
		}
		ctx, cancel := w.ctx()
		defer cancel()
		outs, err := bc.CallBatch(ctx, calls)
		if err != nil {
			return err
		}
		if len(outs) != n {
			return fmt.Errorf("CallBatch returned %d outcomes for %d calls", len(outs), n)
		}
		for i, out := range outs {
			recs[i] = callRecord{name: name, id: ids[i], outcome: out, payload: decodePayload(out)}
		}
		w.group = recs
		for _, r := range recs {
			w.record(r)
		}
		return nil
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := w.ctx()
			defer cancel()
			out, err := ts.turn.Call(ctx, ids[i], name, args)
			recs[i], errs[i] = callRecord{name: name, id: ids[i], outcome: out, payload: decodePayload(out)}, err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	w.group = recs
	for _, r := range recs {
		w.record(r)
	}
	return nil
}

func (w *world) waitTwice() error {
	id, err := w.latestRunID()
	if err != nil {
		return err
	}
	w.lastWaitID = id
	b, _ := json.Marshal(map[string]string{"runId": id})
	return w.concurrently(2, "wait", b)
}

func (w *world) execConcurrently(n int, d *godog.DocString) error {
	b, _ := json.Marshal(map[string]string{"code": d.Content})
	return w.concurrently(n, "exec", b)
}

func (w *world) callTool(name string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	_, err := w.call(name, json.RawMessage(d.Content))
	return err
}

// --- observations ---

func (w *world) visible() ([]ToolDefinition, error) {
	ts, err := w.turn()
	if err != nil {
		return nil, err
	}
	return ts.turn.Tools(), nil
}

// visibleToolsAre compares the model-visible tools with a list. The exact
// set is CM-4.1's requirement and the order CM-4.2's, so a scenario that
// names neither clause reads the tools through a view: every listed tool
// is visible, and no other tool is, except tools the scenario never
// defined (the target's own direct-only tools); exec and wait always
// count.
func (w *world) visibleToolsAre(list string) error {
	defs, err := w.visible()
	if err != nil {
		return err
	}
	got := make([]string, len(defs))
	for i, d := range defs {
		got[i] = d.Name
	}
	want := splitList(list)
	exact, ordered := w.asserts("CM-4.1"), w.asserts("CM-4.2")
	fail := func(path string, wantKind, gotKind presence, format string, args ...any) error {
		return &mismatchError{first: Mismatch{Path: path, Want: string(wantKind), Got: string(gotKind)},
			msg:  fmt.Sprintf(format, args...) + fmt.Sprintf("\nmodel-visible tools = %q, want %q", got, want),
			diff: cmp.Diff(want, got)}
	}
	for _, n := range want {
		if !slices.Contains(got, n) {
			return fail("tools."+n, kindPresent, kindMissing, "the model-visible tools do not include %q", n)
		}
	}
	var kept []string
	for _, n := range got {
		if slices.Contains(want, n) {
			kept = append(kept, n)
			continue
		}
		if exact || n == "exec" || n == "wait" || w.definedTool(n) {
			return fail("tools."+n, kindAbsent, kindPresent, "the model-visible tools include %q", n)
		}
	}
	if ordered && strings.Join(kept, ", ") != strings.Join(want, ", ") {
		return fail("tools", "order", "other order", "the model-visible tools are not in the order %q", want)
	}
	return nil
}

// definedTool reports whether the scenario defined a tool of that
// model-visible name: a core, plugin or client tool, or a tool of one of
// its MCP servers (<server>__<tool>).
func (w *world) definedTool(name string) bool {
	for _, t := range w.setup.Tools {
		if t.Name == name {
			return true
		}
	}
	for _, s := range w.setup.MCPServers {
		if strings.HasPrefix(name, s.Name+"__") {
			return true
		}
	}
	return false
}

func (w *world) visibleHas(name string, want bool) error {
	defs, err := w.visible()
	if err != nil {
		return err
	}
	for _, d := range defs {
		if d.Name == name {
			if !want {
				return fmt.Errorf("model-visible tools include %q", name)
			}
			return nil
		}
	}
	if want {
		return fmt.Errorf("model-visible tools do not include %q", name)
	}
	return nil
}

func (w *world) definition(name string) (ToolDefinition, error) {
	defs, err := w.visible()
	if err != nil {
		return ToolDefinition{}, err
	}
	for _, d := range defs {
		if d.Name == name {
			return d, nil
		}
	}
	return ToolDefinition{}, fmt.Errorf("no model-visible tool %q", name)
}

func (w *world) toolSchemaIs(name string, d *godog.DocString) error {
	def, err := w.definition(name)
	if err != nil {
		return err
	}
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	got, err := decodeJSON(def.Parameters)
	if err != nil {
		return fmt.Errorf("%s schema is not JSON: %w", name, err)
	}
	return matchJSON(want, got, false)
}

func (w *world) toolDescriptionIs(name string, d *godog.DocString) error {
	def, err := w.definition(name)
	if err != nil {
		return err
	}
	if def.Description != d.Content {
		return fmt.Errorf("%s description mismatch:\n got: %q\nwant: %q", name, def.Description, d.Content)
	}
	return nil
}

func (w *world) toolLabelIs(name, label string) error {
	def, err := w.definition(name)
	if err != nil {
		return err
	}
	if def.Label == "" {
		return w.notApplicable(NotApplicable("the target does not report tool labels"))
	}
	if def.Label != label {
		return fmt.Errorf("%s label = %q, want %q", name, def.Label, label)
	}
	return nil
}

func (w *world) execDescription(mode, text string) error {
	def, err := w.definition("exec")
	if err != nil {
		return err
	}
	got := def.Description
	ok := false
	switch mode {
	case "contains":
		ok = strings.Contains(got, text)
	case "lacks":
		ok = !strings.Contains(got, text)
	case "suffix":
		ok = strings.HasSuffix(got, text)
	case "prefix":
		ok = strings.HasPrefix(got, text)
	}
	if !ok {
		return fmt.Errorf("exec description check %q failed for %q\ndescription:\n%s", mode, text, got)
	}
	return nil
}

func (w *world) resultStatus(status string) error {
	m, err := w.result()
	if err != nil {
		return err
	}
	if m["status"] != status {
		return mismatch("$.status", status, m["status"], "result status = %v, want %q; result: %s", m["status"], status, show(m))
	}
	return nil
}

// resultExactMembers checks CM-7.2 to CM-7.4 and CM-7.9: the payload has
// exactly the members of its status, nothing added.
func (w *world) resultExactMembers() error {
	m, err := w.result()
	if err != nil {
		return err
	}
	status, _ := m["status"].(string)
	want, ok := payloadMembers[status]
	if !ok {
		return mismatch("$.status", "completed", m["status"], "result status %v is not completed, waiting or failed", m["status"])
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			return mismatch("$."+k, presence(kindPresent), presence(kindMissing), "a %s payload has no %q member; result: %s", status, k, show(m))
		}
	}
	var extra []string
	for k := range m {
		if !slices.Contains(want, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return mismatch("$."+extra[0], presence(kindAbsent), presence(kindPresent), "a %s payload has members %q beyond %q; result: %s", status, extra, want, show(m))
	}
	return nil
}

// waitRefused checks that the latest wait was refused with msg. The form
// of a refusal (a failed payload with invalid_input in the input phase,
// not a rejected tool call) is CM-8.18's and CM-8.20's requirement: a
// scenario that names neither checks only that the refusal reached the
// model with that message (as a payload's error, quoted inside one, or as
// the text of a rejected call) and resumed nothing.
func (w *world) waitRefused(msg string) error {
	if w.last == nil || w.last.name != "wait" {
		return errors.New("the model has not called wait yet")
	}
	m, _ := w.last.payload.(map[string]any)
	if w.asserts("CM-8.18", "CM-8.20") {
		if m == nil {
			return mismatch("$", presence("failed payload"), presence("no payload"), "the refused wait has no payload: %q", w.last.outcome.Text)
		}
		want := map[string]any{"status": "failed", "code": "invalid_input", "failurePhase": "input", "error": msg,
			"bridgeDispatchStarted": false, "output": []any{}, "replaySafe": false}
		if err := matchJSON(want, any(m), true); err != nil {
			return fmt.Errorf("the refusal is not a failed invalid_input payload (CM-8.20): %w", err)
		}
		return nil
	}
	errText, _ := m["error"].(string)
	switch {
	case m != nil && (m["status"] == "completed" || m["status"] == "waiting"):
		return mismatch("$.status", "failed", m["status"], "the wait was not refused: result %s", show(m))
	case errText == msg, strings.Contains(errText, strconv.Quote(msg)):
		return nil
	case w.last.outcome.IsError && strings.Contains(w.last.outcome.Text, msg):
		return nil
	}
	return mismatch("$.error", presence("refusal message"), presence("other text"), "the wait was refused, but not with %q: error %q, tool message %q", msg, errText, w.last.outcome.Text)
}

func (w *world) resultMember(member, wantJSON string, subset bool) error {
	m, err := w.result()
	if err != nil {
		return err
	}
	want, err := decodeJSON([]byte(wantJSON))
	if err != nil {
		return fmt.Errorf("expected %s is not JSON: %w", member, err)
	}
	got, ok := m[member]
	if !ok {
		return fmt.Errorf("result has no %q member; result: %s", member, show(m))
	}
	if err := matchJSON(want, got, subset); err != nil {
		return fmt.Errorf("result %s mismatch: %w\nresult: %s", member, err, show(m))
	}
	return nil
}

func (w *world) resultCode(code string) error {
	m, err := w.result()
	if err != nil {
		return err
	}
	if m["status"] != "failed" {
		return mismatch("$.status", "failed", m["status"], "result = status %v code %v, want failed with code %q; result: %s", m["status"], m["code"], code, show(m))
	}
	if m["code"] != code {
		return mismatch("$.code", code, m["code"], "result = status %v code %v, want failed with code %q; result: %s", m["status"], m["code"], code, show(m))
	}
	return nil
}

func (w *world) resultError(mode, text string) error {
	m, err := w.result()
	if err != nil {
		return err
	}
	got, _ := m["error"].(string)
	ok := false
	switch mode {
	case "is":
		ok = got == text
	case "prefix":
		ok = strings.HasPrefix(got, text)
	case "contains":
		ok = strings.Contains(got, text)
	}
	if !ok {
		return &mismatchError{first: Mismatch{Path: "$.error", Want: mode + " text", Got: "other text"},
			msg: fmt.Sprintf("result error %s check failed:\n got: %q\nwant: %q", mode, got, text), diff: cmp.Diff(text, got)}
	}
	return nil
}

func (w *world) resultWaiting(reason string) error {
	m, err := w.result()
	if err != nil {
		return err
	}
	if m["status"] != "waiting" {
		return mismatch("$.status", "waiting", m["status"], "result = status %v reason %v, want waiting with reason %q; result: %s", m["status"], m["reason"], reason, show(m))
	}
	if m["reason"] != reason {
		return mismatch("$.reason", reason, m["reason"], "result = status %v reason %v, want waiting with reason %q; result: %s", m["status"], m["reason"], reason, show(m))
	}
	return nil
}

func (w *world) resultSameRunID() error {
	m, err := w.result()
	if err != nil {
		return err
	}
	if w.lastWaitID == "" || m["runId"] != w.lastWaitID {
		return fmt.Errorf("result runId = %v, want the waited run id %q", m["runId"], w.lastWaitID)
	}
	return nil
}

func (w *world) resultIncludes(d *godog.DocString) error {
	m, err := w.result()
	if err != nil {
		return err
	}
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	return matchJSON(want, any(m), true)
}

func (w *world) callRefused(text string) error {
	if w.lastAny == nil {
		return errors.New("the model has not called a tool yet")
	}
	o := w.lastAny.outcome
	if !o.IsError || !strings.Contains(o.Text, text) {
		return fmt.Errorf("call of %s = error %v text %q, want an error containing %q", w.lastAny.name, o.IsError, o.Text, text)
	}
	return nil
}

func (w *world) toolCalledTimes(name string, n int) error {
	if got := len(w.host.Calls(name)); got != n {
		return fmt.Errorf("tool %q was called %d times, want %d", name, got, n)
	}
	return nil
}

func (w *world) toolLastCalledWith(name string, d *godog.DocString) error {
	calls := w.host.Calls(name)
	if len(calls) == 0 {
		return fmt.Errorf("tool %q was not called", name)
	}
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	got, err := decodeJSON(calls[len(calls)-1].Input)
	if err != nil {
		return err
	}
	return matchJSON(want, got, true)
}

func (w *world) hookSaw(d *godog.DocString) error {
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	events := w.host.HookEvents()
	for _, e := range events {
		got, err := decodeJSON(e)
		if err == nil && matchJSON(want, got, true) == nil {
			return nil
		}
	}
	all := make([]string, len(events))
	for i, e := range events {
		all[i] = string(e)
	}
	return fmt.Errorf("no hook event matches %s; events:\n%s", show(want), strings.Join(all, "\n"))
}

func (w *world) trajectory() ([]any, error) {
	ts, err := w.turn()
	if err != nil {
		return nil, err
	}
	ctx, cancel := w.ctx()
	defer cancel()
	raw, err := ts.turn.Trajectory(ctx)
	if err != nil {
		if errors.Is(err, ErrNotApplicable) {
			return nil, w.notApplicable(err)
		}
		return nil, err
	}
	out := make([]any, 0, len(raw))
	for _, r := range raw {
		v, err := decodeJSON(r)
		if err != nil {
			return nil, fmt.Errorf("trajectory event is not JSON: %w", err)
		}
		out = append(out, v)
	}
	return out, nil
}

func (w *world) trajectoryIncludes(d *godog.DocString) error {
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	wa, ok := want.([]any)
	if !ok {
		return errors.New("the trajectory includes: want a JSON array")
	}
	got, err := w.trajectory()
	if err != nil {
		return err
	}
	return matchSequence(wa, got)
}

func (w *world) trajectoryUnderExec(tool string) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	if ts.firstExecID == "" {
		return errors.New("the turn has no exec call")
	}
	got, err := w.trajectory()
	if err != nil {
		return err
	}
	for _, e := range got {
		m, _ := e.(map[string]any)
		if m["name"] == tool && m["parentToolCallId"] == ts.firstExecID {
			return nil
		}
	}
	return fmt.Errorf("no trajectory event for %q under exec call %q; trajectory: %s", tool, ts.firstExecID, show(got))
}

func (w *world) groupPayloads() ([]any, error) {
	if len(w.group) == 0 {
		return nil, errors.New("no concurrent calls were made")
	}
	out := make([]any, len(w.group))
	for i, r := range w.group {
		out[i] = r.payload
	}
	return out, nil
}

func (w *world) groupResults(d *godog.DocString) error {
	got, err := w.groupPayloads()
	if err != nil {
		return err
	}
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	wa, ok := want.([]any)
	if !ok || len(wa) != len(got) {
		return fmt.Errorf("want a JSON array of %d results", len(got))
	}
	// Order-insensitive: try both assignments for two results, else greedy.
	used := make([]bool, len(got))
	for _, wv := range wa {
		found := false
		for i, gv := range got {
			if !used[i] && matchJSON(wv, gv, true) == nil {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return fmt.Errorf("no result matches %s; results: %s", show(wv), show(got))
		}
	}
	return nil
}

func (w *world) groupCountStatus(n int, status string) error {
	got, err := w.groupPayloads()
	if err != nil {
		return err
	}
	count := 0
	for _, g := range got {
		if m, ok := g.(map[string]any); ok && m["status"] == status {
			count++
		}
	}
	if count != n {
		return fmt.Errorf("%d results have status %q, want %d", count, status, n)
	}
	return nil
}

func (w *world) groupOneFails(msg string) error {
	got, err := w.groupPayloads()
	if err != nil {
		return err
	}
	for _, g := range got {
		if m, ok := g.(map[string]any); ok && m["status"] == "failed" && m["error"] == msg {
			return nil
		}
	}
	return fmt.Errorf("no result failed with %q", msg)
}

func (w *world) transcriptIncludes(d *godog.DocString) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	tr, ok := w.target.(Transcripter)
	if !ok {
		return w.notApplicable(NotApplicable("the target exposes no transcript"))
	}
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	wa, ok := want.([]any)
	if !ok {
		return errors.New("the transcript of the session includes: want a JSON array")
	}
	ctx, cancel := w.ctx()
	defer cancel()
	recs, err := tr.Transcript(ctx, ts.spec.SessionKey)
	if err != nil {
		return err
	}
	got := make([]any, 0, len(recs))
	for _, r := range recs {
		v, err := decodeJSON(r)
		if err != nil {
			return err
		}
		got = append(got, v)
	}
	return matchSequence(wa, got)
}

func (w *world) logContains(text string, want bool) error {
	if err := w.start(); err != nil {
		return err
	}
	lr, ok := w.target.(LogReader)
	if !ok {
		return w.notApplicable(NotApplicable("the target exposes no debug log"))
	}
	if strings.Contains(lr.Log(), text) != want {
		return fmt.Errorf("target log contains %q = %v, want %v", text, !want, want)
	}
	return nil
}

func (w *world) execWithID(id string, d *godog.DocString) error {
	b, _ := json.Marshal(map[string]string{"code": d.Content})
	_, err := w.callWithID(id, "exec", b)
	return err
}

var runIDRefRE = regexp.MustCompile(`<run-id:(latest|\d+)>`)

// waitRunIDArgs substitutes <run-id:latest> and <run-id:N> (the Nth waiting
// result's run id, from 1) in the docstring, then calls wait with it.
func (w *world) waitRunIDArgs(d *godog.DocString) error {
	var bad error
	content := runIDRefRE.ReplaceAllStringFunc(d.Content, func(m string) string {
		ref := runIDRefRE.FindStringSubmatch(m)[1]
		if len(w.waitingIDs) == 0 {
			bad = errors.New("no waiting result has a runId yet")
			return m
		}
		if ref == "latest" {
			return w.waitingIDs[len(w.waitingIDs)-1]
		}
		n, _ := strconv.Atoi(ref)
		if n < 1 || n > len(w.waitingIDs) {
			bad = fmt.Errorf("there is no waiting result number %d", n)
			return m
		}
		return w.waitingIDs[n-1]
	})
	if bad != nil {
		return bad
	}
	return w.waitArgs(&godog.DocString{Content: content})
}

func (w *world) abortLater(ms int) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	time.AfterFunc(time.Duration(ms)*time.Millisecond, func() {
		ctx, cancel := w.ctx()
		defer cancel()
		_ = ts.turn.Abort(ctx)
	})
	return nil
}

func (w *world) setEnv(name, value string) error {
	if w.setup.Env == nil {
		w.setup.Env = map[string]string{}
	}
	w.setup.Env[name] = value
	return nil
}

// registrationRefused checks the error of the latest namespace registration.
func (w *world) registrationRefused(d *godog.DocString) error {
	if len(w.setup.Namespaces) == 0 {
		return errors.New("no namespace was registered")
	}
	if err := w.start(); err != nil {
		return err
	}
	rr, ok := w.target.(RegistrationReporter)
	if !ok {
		return w.notApplicable(NotApplicable("the target does not report namespace registration errors"))
	}
	errs := rr.RegistrationErrors()
	i := len(w.setup.Namespaces) - 1
	if i >= len(errs) || errs[i] == nil {
		return fmt.Errorf("the latest namespace registration was accepted, want it refused with %q", d.Content)
	}
	w.checkedRegistrations = len(errs)
	if errs[i].Error() != d.Content {
		return fmt.Errorf("registration error = %q, want %q", errs[i].Error(), d.Content)
	}
	return nil
}

// resultTextIsPretty checks CM-1.10 and CM-1.11: the text is
// JSON.stringify(details, null, 2) of the structured details.
func (w *world) resultTextIsPretty() error {
	if w.last == nil {
		return errors.New("the model has not called exec or wait yet")
	}
	o := w.last.outcome
	if len(o.Details) == 0 {
		if _, err := decodeJSON([]byte(o.Text)); err != nil {
			return fmt.Errorf("the result has no details and its text is not JSON: %q", o.Text)
		}
		return nil
	}
	want, err := prettyJSON(o.Details)
	if err != nil {
		return fmt.Errorf("details are not JSON: %w", err)
	}
	if o.Text != want {
		return fmt.Errorf("result text is not the pretty JSON of its details:\n got: %q\nwant: %q", o.Text, want)
	}
	return nil
}

func (w *world) turnFails(text string) error {
	if w.turnErr == nil {
		return errors.New("the latest turn started without failing")
	}
	got := w.turnErr.Error()
	w.turnErr = nil
	if got != text {
		return fmt.Errorf("turn failed with %q, want %q", got, text)
	}
	return nil
}
