package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/cucumber/godog"
)

// registerConcurrent binds the steps of concurrent model calls and the
// checks of their results as a group (STEPS.md, "Model calls" and
// "Observations").
func (w *world) registerConcurrent(sc *godog.ScenarioContext) {
	sc.Step(`^the model calls wait twice at the same time$`, w.waitTwice)
	sc.Step(`^the model calls exec (\d+) times at the same time with:$`, w.execConcurrently)
	sc.Step(`^the both wait results are:$`, w.groupResults)
	sc.Step(`^(\d+) of the results have status "([^"]+)"$`, w.groupCountStatus)
	sc.Step(`^one of the results fails with "([^"]*)"$`, w.groupOneFails)
	sc.Step(`^the model starts exec in the background with:$`, w.execInBackground)
	sc.Step(`^the model starts wait in the background$`, w.waitInBackground)
	sc.Step(`^the background (?:exec|wait) is still running$`, w.backgroundRunning)
	sc.Step(`^the background (?:exec|wait) ends$`, w.backgroundEnds)
}

// A backgroundCall is an exec or wait call of one turn that runs while the
// scenario goes on, in that turn or another (CM-17.11, CM-22.6, CM-8.31).
type backgroundCall struct {
	done chan struct{}
	rec  callRecord
	err  error
}

// execInBackground starts an exec call of the current turn and returns at
// once; the background exec ends joins it.
func (w *world) execInBackground(d *godog.DocString) error {
	args, _ := json.Marshal(map[string]string{"code": d.Content})
	return w.inBackground("exec", args)
}

// waitInBackground starts a wait for the latest waiting run in the current
// turn and returns at once; the background wait ends joins it.
func (w *world) waitInBackground() error {
	args, err := w.waitLatestArgs()
	if err != nil {
		return err
	}
	return w.inBackground("wait", args)
}

func (w *world) inBackground(name string, args json.RawMessage) error {
	if w.bg != nil {
		return errors.New("a background call is running already")
	}
	ts, err := w.turn()
	if err != nil {
		return err
	}
	id := w.nextCallID()
	if name == "exec" && ts.firstExecID == "" {
		ts.firstExecID = id
	}
	bg := &backgroundCall{done: make(chan struct{})}
	w.bg = bg
	go func() {
		defer close(bg.done)
		bg.rec, bg.err = w.callOn(ts, id, name, args)
	}()
	return nil
}

// backgroundRunning checks that the background call has not answered yet.
func (w *world) backgroundRunning() error {
	if w.bg == nil {
		return errors.New("no background call was started")
	}
	select {
	case <-w.bg.done:
		return mismatch("background call", presence("running"), presence("ended"), "the background call has ended already: %s", w.bg.rec.outcome.Text)
	default:
		return nil
	}
}

// backgroundEnds waits for the background call and makes its result the
// latest one.
func (w *world) backgroundEnds() error {
	bg := w.bg
	if bg == nil {
		return errors.New("no background call was started")
	}
	ctx, cancel := w.ctx()
	defer cancel()
	select {
	case <-bg.done:
	case <-ctx.Done():
		return fmt.Errorf("the background call did not end within %v", stepTimeout)
	}
	w.bg = nil
	if bg.err != nil {
		return fmt.Errorf("background call: %w", bg.err)
	}
	w.record(bg.rec)
	return nil
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
			recs[i] = callRecord{name: name, id: ids[i], args: args, outcome: out, payload: decodePayload(out)}
		}
		w.group = recs
		for _, r := range recs {
			w.record(r)
		}
		return nil
	}
	turns := make([]*turnState, n)
	for i := range turns {
		turns[i] = ts
	}
	return w.callGroup(turns, ids, name, args)
}

// callGroup makes one call in each of turns at once, with the ids given,
// and records the results as a group in that order.
func (w *world) callGroup(turns []*turnState, ids []string, name string, args json.RawMessage) error {
	recs := make([]callRecord, len(turns))
	errs := make([]error, len(turns))
	var wg sync.WaitGroup
	for i, ts := range turns {
		wg.Go(func() { recs[i], errs[i] = w.callOn(ts, ids[i], name, args) })
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
	b, err := w.waitLatestArgs()
	if err != nil {
		return err
	}
	return w.concurrently(2, "wait", b)
}

func (w *world) execConcurrently(n int, d *godog.DocString) error {
	b, _ := json.Marshal(map[string]string{"code": d.Content})
	return w.concurrently(n, "exec", b)
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
