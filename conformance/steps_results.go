package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
)

// registerResults binds the checks of what the model received for its
// latest call: the exec or wait payload, its text, a refused wait or tool
// call (STEPS.md, "Observations").
func (w *world) registerResults(sc *godog.ScenarioContext) {
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
	sc.Step(`^the result text is what JSON.stringify writes for the result$`, w.resultTextIsJSStringify)
	sc.Step(`^the result has exactly the members of its status$`, w.resultExactMembers)
	sc.Step(`^the wait is refused with "(.*)"$`, w.waitRefused)
	sc.Step(`^the telemetry includes:$`, func(d *godog.DocString) error { return w.resultMember("telemetry", d.Content, true) })
	sc.Step(`^the tool call is refused with "([^"]*)"$`, w.callRefused)
	sc.Step(`^the tool result details are:$`, func(d *godog.DocString) error { return w.toolResultAt("$", d.Content, false) })
	sc.Step(`^the tool result details include:$`, func(d *godog.DocString) error { return w.toolResultAt("$", d.Content, true) })
	sc.Step(`^the tool result details at "([^"]+)" are:$`, func(p string, d *godog.DocString) error { return w.toolResultAt(p, d.Content, false) })
	sc.Step(`^the tool result details at "([^"]+)" include:$`, func(p string, d *godog.DocString) error { return w.toolResultAt(p, d.Content, true) })
	sc.Step(`^the tool result details at "([^"]+)" are remembered as "([^"]+)"$`, w.rememberToolResultAt)
	sc.Step(`^the tool result details at "([^"]+)" (equal|differ from) the remembered "([^"]+)"$`, func(p, how, name string) error {
		return w.compareRemembered(p, name, how == "equal")
	})
	sc.Step(`^the tool result text is:$`, w.toolResultText)
	sc.Step(`^the tool result text is the pretty JSON of its details$`, w.toolResultTextIsPretty)
	sc.Step(`^the tool result text is the pretty JSON of its details without "([^"]+)"$`, w.toolResultTextIsPrettyWithout)
	sc.Step(`^the tool result details have no "([^"]+)"$`, w.toolResultLacks)
	sc.Step(`^the tool result is not flagged as an error$`, func() error { return w.toolResultFlagged(false) })
	sc.Step(`^the tool result is flagged as an error$`, func() error { return w.toolResultFlagged(true) })
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

// resultTextIsJSStringify checks the latest exec or wait result's text
// byte for byte against ECMAScript's JSON.stringify(result, null, 2),
// computed by the suite from the structured details (from the text itself
// when the target gives none): escapes, number forms and member order as
// section 1.2 says (CM-1.6), which the re-indenting of
// resultTextIsPretty leaves to the target.
func (w *world) resultTextIsJSStringify() error {
	if w.last == nil {
		return errors.New("the model has not called exec or wait yet")
	}
	o := w.last.outcome
	src := o.Details
	if len(src) == 0 {
		src = []byte(o.Text)
	}
	want, err := jsPrettyJSON(src)
	if err != nil {
		return fmt.Errorf("the result is not JSON text: %w", err)
	}
	if o.Text != want {
		return fmt.Errorf("result text is not JSON.stringify(result, null, 2):\n got: %q\nwant: %q", o.Text, want)
	}
	return nil
}

// lastTool returns the model's most recent tool call of any tool.
func (w *world) lastTool() (*callRecord, error) {
	if w.lastAny == nil {
		return nil, errors.New("the model has not called a tool yet")
	}
	return w.lastAny, nil
}

// toolResultAt compares the value at path in the latest tool call's
// payload (its structured details, else its text read as JSON, as for exec
// and wait: CM-1.12) with the expected JSON, exactly or as a subset.
func (w *world) toolResultAt(path, wantJSON string, subset bool) error {
	rec, err := w.lastTool()
	if err != nil {
		return err
	}
	want, err := decodeJSON([]byte(wantJSON))
	if err != nil {
		return fmt.Errorf("expected value is not JSON: %w", err)
	}
	if rec.payload == nil {
		return mismatch("$", presence("JSON payload"), presence("no payload"), "the %s result has no JSON details and its text is not JSON: %q", rec.name, rec.outcome.Text)
	}
	got, err := jsonAt(rec.payload, path)
	if err != nil {
		return err
	}
	if err := matchJSONAt(path, want, got, subset); err != nil {
		return fmt.Errorf("%s result at %s mismatch: %w\nresult: %s", rec.name, path, err, show(rec.payload))
	}
	return nil
}

// rememberToolResultAt keeps the value at path of the latest tool result
// under name.
func (w *world) rememberToolResultAt(path, name string) error {
	_, got, err := w.lastToolAt(path)
	if err != nil {
		return err
	}
	if w.remembered == nil {
		w.remembered = map[string]any{}
	}
	w.remembered[name] = got
	return nil
}

// lastToolAt returns the latest tool call and the value at path of its
// payload.
func (w *world) lastToolAt(path string) (*callRecord, any, error) {
	rec, err := w.lastTool()
	if err != nil {
		return nil, nil, err
	}
	got, err := jsonAt(rec.payload, path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s result: %w\nresult: %s", rec.name, err, show(rec.payload))
	}
	return rec, got, nil
}

// compareRemembered checks the value at path of the latest tool result
// against the one remembered under name: equal, or different.
func (w *world) compareRemembered(path, name string, equal bool) error {
	was, ok := w.remembered[name]
	if !ok {
		return fmt.Errorf("nothing is remembered as %q", name)
	}
	rec, got, err := w.lastToolAt(path)
	if err != nil {
		return err
	}
	switch same := reflect.DeepEqual(was, got); {
	case equal && !same:
		return fmt.Errorf("%s result at %s = %s, want %s (remembered as %q)", rec.name, path, show(got), show(was), name)
	case !equal && same:
		return fmt.Errorf("%s result at %s = %s, the value remembered as %q; want another", rec.name, path, show(got), name)
	}
	return nil
}

// jsonAt returns the value at a JSON path of v: "$", then ".member" and
// "[index]" parts in any order ("$.results[0].candidates").
func jsonAt(v any, path string) (any, error) {
	rest, ok := strings.CutPrefix(path, "$")
	if !ok {
		return nil, fmt.Errorf("path %q does not start with $", path)
	}
	at := "$"
	for rest != "" {
		switch rest[0] {
		case '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			name := rest[1 : end+1]
			rest = rest[end+1:]
			m, ok := v.(map[string]any)
			if !ok {
				return nil, mismatch(at, presence("object"), v, "%s is not an object: %s", at, show(v))
			}
			at += "." + name
			if v, ok = m[name]; !ok {
				return nil, mismatch(at, presence(kindPresent), presence(kindMissing), "%s is missing", at)
			}
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q has an unclosed [", path)
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil {
				return nil, fmt.Errorf("path %q: %q is not an index", path, rest[1:end])
			}
			rest = rest[end+1:]
			a, ok := v.([]any)
			if !ok {
				return nil, mismatch(at, presence("array"), v, "%s is not an array: %s", at, show(v))
			}
			at += fmt.Sprintf("[%d]", i)
			if i < 0 || i >= len(a) {
				return nil, mismatch(at, presence(kindPresent), presence(kindMissing), "%s is out of range (%d elements)", at, len(a))
			}
			v = a[i]
		default:
			return nil, fmt.Errorf("path %q: want . or [ at %q", path, rest)
		}
	}
	return v, nil
}

// toolResultText compares the text of the latest tool call's message with
// the docstring, exactly.
func (w *world) toolResultText(d *godog.DocString) error {
	rec, err := w.lastTool()
	if err != nil {
		return err
	}
	if got := rec.outcome.Text; got != d.Content {
		return &mismatchError{first: Mismatch{Path: "text", Want: "text", Got: "other text"},
			msg: fmt.Sprintf("%s result text mismatch:\n got: %q\nwant: %q", rec.name, got, d.Content), diff: cmp.Diff(d.Content, got)}
	}
	return nil
}

// toolResultTextIsPretty checks that the latest tool call's text is
// JSON.stringify(details, null, 2) of its structured details (a target
// without details: that its text is JSON).
func (w *world) toolResultTextIsPretty() error {
	rec, err := w.lastTool()
	if err != nil {
		return err
	}
	o := rec.outcome
	if len(o.Details) == 0 {
		if _, err := decodeJSON([]byte(o.Text)); err != nil {
			return mismatch("text", presence("JSON"), presence("other text"), "the %s result has no details and its text is not JSON: %q", rec.name, o.Text)
		}
		return nil
	}
	want, err := prettyJSON(o.Details)
	if err != nil {
		return fmt.Errorf("details are not JSON: %w", err)
	}
	if o.Text != want {
		return &mismatchError{first: Mismatch{Path: "text", Want: "pretty JSON", Got: "other text"},
			msg: fmt.Sprintf("%s result text is not the pretty JSON of its details:\n got: %q\nwant: %q", rec.name, o.Text, want), diff: cmp.Diff(want, o.Text)}
	}
	return nil
}

// toolResultLacks checks that the latest tool call's details are an
// object without the member.
func (w *world) toolResultLacks(member string) error {
	rec, err := w.lastTool()
	if err != nil {
		return err
	}
	var details map[string]json.RawMessage
	if err := json.Unmarshal(rec.outcome.Details, &details); err != nil || details == nil {
		return mismatch("details", presence("object"), presence("other"), "the %s result's details are not a JSON object: %s", rec.name, rec.outcome.Details)
	}
	if v, ok := details[member]; ok {
		return mismatch("$."+member, presence(kindAbsent), presence(kindPresent), "the %s result's details have %q: %s", rec.name, member, v)
	}
	return nil
}

// toolResultTextIsPrettyWithout checks that the latest tool call's text
// is pretty-printed JSON of its details object less one member, which the
// details must have (tool_call's status, CM-24.37).
func (w *world) toolResultTextIsPrettyWithout(member string) error {
	rec, err := w.lastTool()
	if err != nil {
		return err
	}
	o := rec.outcome
	var details map[string]any
	if err := json.Unmarshal(o.Details, &details); err != nil || details == nil {
		return mismatch("details", presence("object"), presence("other"), "the %s result's details are not a JSON object: %s", rec.name, o.Details)
	}
	if _, ok := details[member]; !ok {
		return mismatch("$."+member, presence(kindPresent), presence(kindMissing), "the %s result's details have no %q member", rec.name, member)
	}
	delete(details, member)
	var text any
	if err := json.Unmarshal([]byte(o.Text), &text); err != nil {
		return mismatch("text", presence("JSON"), presence("other text"), "the %s result text is not JSON: %q", rec.name, o.Text)
	}
	if pretty, err := prettyJSON([]byte(o.Text)); err != nil || pretty != o.Text {
		return mismatch("text", presence("pretty JSON"), presence("other text"), "the %s result text is not pretty-printed JSON: %q", rec.name, o.Text)
	}
	if diff := cmp.Diff(any(details), text); diff != "" {
		return &mismatchError{first: Mismatch{Path: "text", Want: "pretty JSON", Got: "other text"},
			msg: fmt.Sprintf("%s result text is not its details without %q (-want +got):\n%s", rec.name, member, diff), diff: diff}
	}
	return nil
}

// toolResultFlagged checks whether the latest tool call's message is
// flagged as an error.
func (w *world) toolResultFlagged(want bool) error {
	rec, err := w.lastTool()
	if err != nil {
		return err
	}
	if rec.outcome.IsError != want {
		state := "not flagged"
		if rec.outcome.IsError {
			state = "flagged"
		}
		return mismatch("isError", want, rec.outcome.IsError, "the %s result is %s as an error: %q", rec.name, state, rec.outcome.Text)
	}
	return nil
}
