package conformance

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cucumber/godog"
)

// registerTranscript binds the check of a session's transcript (STEPS.md,
// "Observations").
func (w *world) registerTranscript(sc *godog.ScenarioContext) {
	sc.Step(`^the transcript of the session includes:$`, w.transcriptIncludes)
	sc.Step(`^the transcript of the session has a model turn for every model request of the turn$`, w.transcriptModelTurns)
}

// transcriptModelTurns checks the session transcript for one model_turn
// record per model request the turn sent (CM-22.1): a session of one turn,
// ended, whose answers the suite gave; the records must also name every
// tool call the suite answered with.
func (w *world) transcriptModelTurns() error {
	ts := w.latestTurn()
	reqs, err := w.modelRequests(ts)
	if err != nil {
		return err
	}
	recs, err := w.sessionTranscript(ts)
	if err != nil {
		return err
	}
	turns, named := 0, map[string]bool{}
	var calls []string
	for _, raw := range recs {
		var r struct {
			Type        string   `json:"type"`
			ToolCallID  string   `json:"toolCallId"`
			ToolCallIDs []string `json:"toolCallIds"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return fmt.Errorf("transcript record is not a JSON object: %w", err)
		}
		switch r.Type {
		case "model_turn":
			turns++
			for _, id := range r.ToolCallIDs {
				named[id] = true
			}
		case "tool_call":
			calls = append(calls, r.ToolCallID)
		}
	}
	if turns != len(reqs) {
		return mismatch("$.modelTurns", len(reqs), turns, "the transcript has %d model_turn records for %d model requests of the turn", turns, len(reqs))
	}
	for _, id := range calls {
		if !named[id] {
			return mismatch("$.modelTurns.toolCallIds", id, presence(kindMissing), "no model_turn record names the tool call %q", id)
		}
	}
	return nil
}

// sessionTranscript returns the records of the session of ts; a target
// without transcripts makes the scenario not applicable.
func (w *world) sessionTranscript(ts *turnState) ([]json.RawMessage, error) {
	tr, ok := w.target.(Transcripter)
	if !ok {
		return nil, w.notApplicable(NotApplicable("the target exposes no transcript"))
	}
	ctx, cancel := w.ctx()
	defer cancel()
	return tr.Transcript(ctx, ts.spec.SessionKey)
}

func (w *world) transcriptIncludes(d *godog.DocString) error {
	ts, err := w.turn()
	if err != nil {
		return err
	}
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	wa, ok := want.([]any)
	if !ok {
		return errors.New("the transcript of the session includes: want a JSON array")
	}
	recs, err := w.sessionTranscript(ts)
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
