package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/codemodekit/kit/fakes/faketools"
)

// stepTimeout bounds every call into the target, so a hung target fails the
// scenario instead of the suite.
const stepTimeout = 60 * time.Second

// world is the state of one scenario. godog makes a fresh one per scenario.
type world struct {
	mk      MakeTarget
	target  Target
	setup   Setup
	host    *faketools.Host // the scripted host behind setup.Host
	config  map[string]any
	started bool

	cur     *turnState
	prev    *turnState
	turns   []*turnState // every turn started, in order; close ends those left open
	runSeq  int
	callSeq int

	last       *callRecord            // the latest exec or wait
	lastByName map[string]*callRecord // the latest exec and the latest wait
	lastAny    *callRecord            // the latest call of any tool
	waitingIDs []string               // run ids of waiting results, in order
	lastWaitID string                 // the run id the latest wait call used
	group      []callRecord
	bg         *backgroundCall // the exec the model started in the background
	na         error

	// turnErr is a turn start failure waiting for `the turn fails with`.
	turnErr error
	// checkedRegistrations counts registration errors a step has checked.
	checkedRegistrations int
	// tags are the scenario's tags ("@CM-4.1", "@core").
	tags map[string]bool
	// remembered holds tool result values kept by name for a later step to
	// compare (values a scenario cannot know, such as a random counterScope).
	remembered map[string]any
	// ended is closed when the scenario ends: watchers a step started stop.
	ended chan struct{}
}

type turnState struct {
	spec        TurnSpec
	turn        Turn
	firstExecID string
	settled     bool // a step ended or aborted it
}

type callRecord struct {
	name    string
	id      string
	args    json.RawMessage
	outcome Outcome
	payload any // decoded payload (details, else the text as JSON), nil if none
}

func newWorld(mk MakeTarget) *world {
	host := faketools.NewHost()
	return &world{mk: mk, config: map[string]any{}, host: host, setup: Setup{Host: host}, ended: make(chan struct{})}
}

func (w *world) setTags(tags []string) {
	w.tags = make(map[string]bool, len(tags))
	for _, t := range tags {
		w.tags[t] = true
	}
}

// asserts reports whether the scenario is tagged with one of the clauses.
// A scenario asserts the requirements its clause tags name, and nothing
// else (CM-1.18): a step that observes more than its scenario's clauses
// concern checks the extra requirement only when one of these clauses
// names it, and otherwise reads the observation through a view that
// leaves it out.
func (w *world) asserts(clauses ...string) bool {
	for _, c := range clauses {
		if w.tags["@"+c] {
			return true
		}
	}
	return false
}

func (w *world) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), stepTimeout)
}

// syncConfig renders the config document into the setup.
func (w *world) syncConfig() error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w.config); err != nil {
		return err
	}
	w.setup.Config = bytes.TrimRight(buf.Bytes(), "\n")
	return nil
}

// start makes and starts the target on first use.
func (w *world) start() error {
	if w.started {
		return nil
	}
	if err := w.syncConfig(); err != nil {
		return err
	}
	t, err := w.mk()
	if err != nil {
		return fmt.Errorf("make target: %w", err)
	}
	w.target = t
	w.started = true
	for _, c := range wholeProcessClauses {
		w.setup.WholeProcess = w.setup.WholeProcess || w.tags[c]
	}
	ctx, cancel := w.ctx()
	defer cancel()
	if err := t.Start(ctx, &w.setup); err != nil {
		if errors.Is(err, ErrNotApplicable) {
			return w.notApplicable(err)
		}
		return fmt.Errorf("start target: %w", err)
	}
	return nil
}

// close ends the current turn, and every earlier turn the scenario left
// open (the leak check opens one turn, then another), latest first, then
// closes the target. An open turn keeps its agent run
// after the scenario: on OpenClaw each one held a slot of the gateway's
// "main" command lane (8), and once 7 were held another session's turn
// queued past the step limit.
func (w *world) close() {
	close(w.ended)
	for i := len(w.turns) - 1; i >= 0; i-- {
		ts := w.turns[i]
		if ts != w.cur && ts.settled {
			continue
		}
		ctx, cancel := w.ctx()
		_ = ts.turn.End(ctx)
		cancel()
	}
	if w.target != nil {
		_ = w.target.Close()
	}
}

func (w *world) startTurn(spec TurnSpec) error {
	if err := w.start(); err != nil {
		return err
	}
	if spec.RunID == "" {
		w.runSeq++
		spec.RunID = fmt.Sprintf("run-%d", w.runSeq)
	}
	ctx, cancel := w.ctx()
	defer cancel()
	t, err := w.target.StartTurn(ctx, spec)
	if err != nil {
		var tf *TurnFailure
		if errors.As(err, &tf) {
			w.turnErr = tf
			w.prev, w.cur = w.cur, nil
			return nil
		}
		return fmt.Errorf("start turn: %w", err)
	}
	w.prev, w.cur = w.cur, &turnState{spec: spec, turn: t}
	w.turns = append(w.turns, w.cur)
	return nil
}

func (w *world) turn() (*turnState, error) {
	if w.cur == nil {
		return nil, errors.New("no turn has started")
	}
	return w.cur, nil
}

func (w *world) nextCallID() string {
	w.callSeq++
	return fmt.Sprintf("call_%d", w.callSeq)
}

// call makes one model tool call in the current turn and records it.
func (w *world) call(name string, args json.RawMessage) (callRecord, error) {
	return w.callWithID(w.nextCallID(), name, args)
}

func (w *world) callWithID(id, name string, args json.RawMessage) (callRecord, error) {
	ts, err := w.turn()
	if err != nil {
		return callRecord{}, err
	}
	if name == "exec" && ts.firstExecID == "" {
		ts.firstExecID = id
	}
	rec, err := w.callOn(ts, id, name, args)
	if err != nil {
		return callRecord{}, err
	}
	w.record(rec)
	return rec, nil
}

// callOn makes one model tool call on ts within a step's time and returns
// its record, which it does not record (a background call records it when
// it is joined).
func (w *world) callOn(ts *turnState, id, name string, args json.RawMessage) (callRecord, error) {
	ctx, cancel := w.ctx()
	defer cancel()
	out, err := ts.turn.Call(ctx, id, name, args)
	if err != nil {
		return callRecord{}, fmt.Errorf("call %s: %w", name, err)
	}
	return callRecord{name: name, id: id, args: args, outcome: out, payload: decodePayload(out)}, nil
}

func (w *world) record(rec callRecord) {
	w.lastAny = &rec
	if rec.name == "exec" || rec.name == "wait" {
		w.last = &rec
		if w.lastByName == nil {
			w.lastByName = map[string]*callRecord{}
		}
		w.lastByName[rec.name] = &rec
		if m, ok := rec.payload.(map[string]any); ok && m["status"] == "waiting" {
			if id, ok := m["runId"].(string); ok {
				w.waitingIDs = append(w.waitingIDs, id)
			}
		}
	}
}

func decodePayload(o Outcome) any {
	if len(o.Details) > 0 {
		if v, err := decodeJSON(o.Details); err == nil {
			return v
		}
	}
	if v, err := decodeJSON([]byte(o.Text)); err == nil {
		return v
	}
	return nil
}

// result returns the latest exec or wait payload as an object.
func (w *world) result() (map[string]any, error) {
	if w.last == nil {
		return nil, errors.New("the model has not called exec or wait yet")
	}
	m, ok := w.last.payload.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the %s result is not a JSON object: %q", w.last.name, w.last.outcome.Text)
	}
	return m, nil
}

func (w *world) latestRunID() (string, error) {
	if len(w.waitingIDs) == 0 {
		return "", errors.New("no waiting result has a runId yet")
	}
	return w.waitingIDs[len(w.waitingIDs)-1], nil
}

// notApplicable records why the target cannot run this scenario.
func (w *world) notApplicable(err error) error {
	w.na = err
	return err
}

// splitList splits "a, b, c" into its trimmed items; "" is an empty list.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return []string{}
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// pending reports a condition the scenario must check before doing
// anything else: an unchecked turn failure or registration error.
func (w *world) pending(step string) error {
	if w.turnErr != nil && !strings.HasPrefix(step, "the turn fails with") {
		return fmt.Errorf("the turn failed to start and no step checked it: %v", w.turnErr)
	}
	if w.started && !strings.HasPrefix(step, "the registration is refused with") {
		if rr, ok := w.target.(RegistrationReporter); ok {
			errs := rr.RegistrationErrors()
			for i := w.checkedRegistrations; i < len(errs); i++ {
				if errs[i] != nil {
					return fmt.Errorf("namespace registration %d was refused and no step checked it: %v", i+1, errs[i])
				}
			}
		}
	}
	return nil
}

// prettyJSON is JSON.stringify(JSON.parse(b), null, 2) for JSON text b
// whose escapes already follow JSON.stringify.
func prettyJSON(b []byte) (string, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return "", err
	}
	return buf.String(), nil
}
