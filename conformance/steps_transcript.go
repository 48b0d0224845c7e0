package conformance

import (
	"errors"

	"github.com/cucumber/godog"
)

// registerTranscript binds the check of a session's transcript (STEPS.md,
// "Observations").
func (w *world) registerTranscript(sc *godog.ScenarioContext) {
	sc.Step(`^the transcript of the session includes:$`, w.transcriptIncludes)
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
