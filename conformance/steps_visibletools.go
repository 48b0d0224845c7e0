package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
)

// registerVisibleTools binds the checks of the model-visible tools: their
// names, schemas, descriptions and labels (STEPS.md, "Observations").
func (w *world) registerVisibleTools(sc *godog.ScenarioContext) {
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
}

func (w *world) visible() ([]ToolDefinition, error) {
	ts, err := w.turn()
	if err != nil {
		return nil, err
	}
	return ts.turn.Tools(), nil
}

// visibleToolsAre compares the model-visible tools with a list. The exact
// set is CM-4.1's requirement (CM-24.7's on the Tool Search surface) and
// the order CM-4.2's (CM-24.8's), so a scenario that names none of them
// reads the tools through a view: every listed tool is visible, and no
// other tool is, except tools the scenario never defined (the target's
// own direct-only tools); exec and wait always count.
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
	exact, ordered := w.asserts("CM-4.1", "CM-24.7"), w.asserts("CM-4.2", "CM-24.8")
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
