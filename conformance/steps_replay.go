package conformance

import (
	"bytes"
	"fmt"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
)

// registerReplay binds the check of what a model request replays of the
// session (STEPS.md, "Observations").
func (w *world) registerReplay(sc *godog.ScenarioContext) {
	sc.Step(`^the model request replays the latest (exec|wait) call with its id, arguments and result text$`, w.modelRequestReplays)
}

// modelRequestReplays checks the conversation of the current turn's latest
// model request for the latest call of name the suite made in the session:
// a function call with its call id, name and arguments, and after it the
// output with its result text (CM-22.2).
func (w *world) modelRequestReplays(name string) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	rec := w.lastByName[name]
	if rec == nil {
		return fmt.Errorf("no %s call was made in the scenario", name)
	}
	mr, ok := ts.turn.(ModelInputReader)
	if !ok {
		return w.notApplicable(NotApplicable("the target sends no model requests"))
	}
	items := mr.ModelInput()
	call, output := -1, -1
	for i, it := range items {
		switch {
		case it.Type == "function_call" && it.CallID == rec.id && call < 0:
			call = i
		case it.Type == "function_call_output" && it.CallID == rec.id && call >= 0 && output < 0:
			output = i
		}
	}
	if call < 0 {
		return mismatch("$.callId", rec.id, presence(kindMissing), "the model request has no %s call with the call id %q:\n%s", name, rec.id, showItems(items))
	}
	if got := items[call].Name; got != name {
		return mismatch("$.name", name, got, "the model request replays call %q as %q, want %q", rec.id, got, name)
	}
	if !sameJSON(rec.args, []byte(items[call].Arguments)) {
		return mismatch("$.arguments", string(rec.args), items[call].Arguments, "the model request replays call %q with other arguments:\n got: %s\nwant: %s", rec.id, items[call].Arguments, rec.args)
	}
	if output < 0 {
		return mismatch("$.output", presence(kindPresent), presence(kindMissing), "the model request has no output for %s call %q after the call:\n%s", name, rec.id, showItems(items))
	}
	if got := items[output].Output; got != rec.outcome.Text {
		return mismatch("$.output", rec.outcome.Text, got, "the model request replays the result of call %q with another text", rec.id)
	}
	return nil
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	va, errA := decodeJSON(a)
	vb, errB := decodeJSON(b)
	return errA == nil && errB == nil && cmp.Equal(va, vb)
}

// showItems lists a conversation one item per line, for a failure message.
func showItems(items []ModelItem) string {
	var b bytes.Buffer
	for _, it := range items {
		switch it.Type {
		case "function_call":
			fmt.Fprintf(&b, "  function_call %s %s %s\n", it.CallID, it.Name, it.Arguments)
		case "function_call_output":
			fmt.Fprintf(&b, "  function_call_output %s %.80q\n", it.CallID, it.Output)
		default:
			fmt.Fprintf(&b, "  %s %s %.80q\n", it.Type, it.Role, it.Text)
		}
	}
	return b.String()
}
