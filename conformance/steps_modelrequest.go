package conformance

import (
	"fmt"
	"strings"

	"github.com/cucumber/godog"
)

// registerModelRequest binds the checks of what the target's model
// requests ask for beyond their conversation (STEPS.md, "Observations").
// Each needs a turn whose implementation sends model requests
// (ModelRequestReader); elsewhere the scenario is not applicable.
func (w *world) registerModelRequest(sc *godog.ScenarioContext) {
	sc.Step(`^the turn sends model requests$`, func() error { _, err := w.modelRequests(w.latestTurn()); return err })
	sc.Step(`^every model request of the turn offers function tools only$`, w.functionToolsOnly)
	sc.Step(`^the latest two turns asked for the same model with the same credentials$`, w.sameModelAndCredentials)
	sc.Step(`^the model receives the result of the latest (exec|wait) call as one text block$`, w.oneTextBlock)
	sc.Step(`^the target log has a line with "([^"]*)" for every model request of the turn$`, w.logLinePerRequest)
	sc.Step(`^the turn's reply is the model's final answer$`, w.replyIsFinalAnswer)
}

// replyIsFinalAnswer checks what the turn's channel receives once the turn
// has ended: the model's final answer as it gave it, with nothing of code
// mode added (CM-1.3).
func (w *world) replyIsFinalAnswer() error {
	ts := w.latestTurn()
	if ts == nil {
		return fmt.Errorf("no turn has started")
	}
	rr, ok := ts.turn.(ReplyReader)
	if !ok {
		return w.notApplicable(NotApplicable("the target gives no reply to a channel"))
	}
	reply, final, ok := rr.Reply()
	if !ok {
		return fmt.Errorf("the turn has no reply text (has it ended?)")
	}
	if reply != final {
		return mismatch("$.reply", final, reply, "the turn's reply is %q, want the model's final answer %q", reply, final)
	}
	return nil
}

// latestTurn is the current turn, or the latest one once it has ended.
func (w *world) latestTurn() *turnState {
	if w.cur != nil || len(w.turns) == 0 {
		return w.cur
	}
	return w.turns[len(w.turns)-1]
}

// modelRequests returns the model requests of ts so far.
func (w *world) modelRequests(ts *turnState) ([]ModelRequest, error) {
	if ts == nil {
		return nil, fmt.Errorf("no turn has started")
	}
	mr, ok := ts.turn.(ModelRequestReader)
	if !ok {
		return nil, w.notApplicable(NotApplicable("the target sends no model requests"))
	}
	reqs := mr.ModelRequests()
	if len(reqs) == 0 {
		return nil, fmt.Errorf("the turn has sent no model request")
	}
	return reqs, nil
}

// functionToolsOnly checks that no model request of the turn offers a
// provider-native tool (CM-1.2).
func (w *world) functionToolsOnly() error {
	reqs, err := w.modelRequests(w.latestTurn())
	if err != nil {
		return err
	}
	for i, r := range reqs {
		for j, typ := range r.ToolTypes {
			if typ != "function" {
				return mismatch(fmt.Sprintf("$.requests[%d].tools[%d].type", i, j), "function", typ,
					"model request %d of the turn offers a tool of type %q (all: %s)", i+1, typ, strings.Join(r.ToolTypes, ", "))
			}
		}
	}
	return nil
}

// sameModelAndCredentials compares the first model request of the latest
// turn with that of the turn before it: code mode changes neither the
// model nor the credentials a request carries (CM-1.3).
func (w *world) sameModelAndCredentials() error {
	if len(w.turns) < 2 {
		return fmt.Errorf("two turns are needed, %d started", len(w.turns))
	}
	before, err := w.modelRequests(w.turns[len(w.turns)-2])
	if err != nil {
		return err
	}
	latest, err := w.modelRequests(w.turns[len(w.turns)-1])
	if err != nil {
		return err
	}
	a, b := before[0], latest[0]
	switch {
	case a.Model == "" || b.Model == "":
		return fmt.Errorf("a model request names no model (%q, %q)", a.Model, b.Model)
	case a.Model != b.Model:
		return mismatch("$.model", a.Model, b.Model, "the latest turn asks for the model %q, the turn before it for %q", b.Model, a.Model)
	case a.Credential == "" || b.Credential == "":
		return fmt.Errorf("a model request carries no credentials (Authorization or x-api-key)")
	case a.Credential != b.Credential:
		return mismatch("$.credential", presence(kindPresent), presence("another"), "the latest turn's model request carries other credentials than the turn before it")
	}
	return nil
}

// oneTextBlock checks that the latest model request carrying the output of
// the latest call of name gives it as one content block (CM-1.10).
func (w *world) oneTextBlock(name string) error {
	rec := w.lastByName[name]
	if rec == nil {
		return fmt.Errorf("no %s call was made in the scenario", name)
	}
	reqs, err := w.modelRequests(w.latestTurn())
	if err != nil {
		return err
	}
	for i := len(reqs) - 1; i >= 0; i-- {
		n, ok := reqs[i].OutputBlocks[rec.id]
		if !ok {
			continue
		}
		if n != 1 {
			return mismatch("$.output.blocks", 1, n, "the model request gives the result of %s call %q as %d content blocks", name, rec.id, n)
		}
		return nil
	}
	return fmt.Errorf("no model request of the turn carries the output of %s call %q", name, rec.id)
}

// logLinePerRequest checks that the target logged one line containing text
// for every model request of the turn so far (CM-21.4): the target logs a
// request before it sends it, so the counts agree once the suite has it.
func (w *world) logLinePerRequest(text string) error {
	reqs, err := w.modelRequests(w.latestTurn())
	if err != nil {
		return err
	}
	log, err := w.targetLog()
	if err != nil {
		return err
	}
	n := 0
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, text) {
			n++
		}
	}
	if n != len(reqs) {
		return mismatch("$.logLines", len(reqs), n, "the target log has %d lines with %q for %d model requests of the turn", n, text, len(reqs))
	}
	return nil
}
