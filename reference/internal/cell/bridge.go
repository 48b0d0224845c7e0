package cell

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"sync"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// MaxBridgeBytes bounds every bridge request's arguments and every bridge
// result, as compact JSON (SPEC.md CM-18.7).
const MaxBridgeBytes = guest.MaxBridgeBytes

// Bridge size messages.
const (
	MsgBridgeRequestTooLarge = guest.MsgBridgeRequestTooLarge
	MsgBridgeResultTooLarge  = guest.MsgBridgeResultTooLarge
)

// A request is one guest bridge request.
type request struct {
	id     string
	method string
	// dispatched is false for a request a restart-safe run refused to
	// dispatch; its work never started.
	dispatched  bool
	settled     bool
	ok          bool
	payload     string // JSON value when ok, else the error message
	order       int    // settlement order, from 1
	delivered   bool
	replaySafe  bool
	yieldReason json.RawMessage
}

// bridge is the host half of one code-mode run's bridge: its requests and
// the work they started. The work outlives suspensions; a stored run keeps
// its bridge. A request is forgotten once its result reached the guest;
// the ledger remembers its id.
type bridge struct {
	turn        *Turn
	parent      string // tool call id of the exec that started the run
	restartSafe bool

	ctx    context.Context // cancelled when the run ends
	cancel context.CancelFunc

	mu         sync.Mutex
	ledger     *guest.Ledger
	reqs       []*request // undelivered, in issue order
	settled    int
	nested     int
	dispatched bool
	bad        bool // the guest half sent a request the ledger refuses
	// reserve, when set, takes the run a slot of the suspended-run cap
	// before the first request with host work to resolve (CM-8.31);
	// overCap records that it found none, and the request was not
	// dispatched.
	reserve func() bool
	overCap bool
	notify  chan struct{}
}

func newBridge(t *Turn, parent string, restartSafe bool) *bridge {
	ctx, cancel := context.WithCancel(context.Background())
	return &bridge{turn: t, parent: parent, restartSafe: restartSafe, ledger: guest.NewLedger(t.Settings.MaxPendingToolCalls),
		ctx: ctx, cancel: cancel, notify: make(chan struct{}, 1)}
}

// dispose cancels every outstanding piece of work.
func (b *bridge) dispose() { b.cancel() }

// Request implements sandbox.Handler: a request the guest half's ledger
// accepted. The host's ledger checks it again; a request it refuses is
// never dispatched, and the leg fails (broken).
func (b *bridge) Request(method, id string, args []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if msg := b.ledger.Check(method, id, args, false); msg != "" {
		b.bad = true
		return
	}
	// A yield suspends the run, and storing it checks the cap; any other
	// request is host work that the run resolves inline, which takes a
	// slot first. Once refused, the run dispatches nothing more: it fails
	// at the end of the leg, and no later request's work may run for it.
	if b.overCap || (method != guest.MethodYield && b.reserve != nil && !b.reserve()) {
		b.overCap = true
		return
	}
	r := &request{id: id, method: method}
	b.reqs = append(b.reqs, r)
	b.dispatched = true
	b.dispatch(r, json.RawMessage(args))
}

// Note implements sandbox.Handler: Swarm's phase and log.
func (b *bridge) Note(kind, text string) { b.turn.Host.Note(kind, text) }

// overLimit reports whether a request found the suspended-run cap full.
func (b *bridge) overLimit() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.overCap
}

// broken reports whether the guest half sent a request it should have
// refused.
func (b *bridge) broken() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bad
}

// ledgerBytes encodes the run's ledger for the guest half of a leg.
func (b *bridge) ledgerBytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	enc, _ := b.ledger.MarshalBinary()
	return enc
}

// dispatch starts a request's work, with b.mu held. Catalog reads finish at
// once; tool and namespace calls run on their own goroutine. A restart-safe
// run dispatches only replay-safe requests.
func (b *bridge) dispatch(r *request, args json.RawMessage) {
	switch r.method {
	case guest.MethodSearch:
		r.replaySafe, r.dispatched = true, true
		b.turn.Count(guest.MethodSearch)
		var a struct {
			Query string   `json:"query"`
			Limit *float64 `json:"limit"`
		}
		_ = json.Unmarshal(args, &a)
		s := b.turn.Settings
		limit := s.SearchDefaultLimit
		if a.Limit != nil && *a.Limit >= 1 {
			// The guest checked that the limit is an integer of at least
			// one; any size is capped (CM-10.11), 2**63 included.
			limit = int(math.Min(*a.Limit, float64(s.MaxSearchLimit)))
		}
		hits := b.turn.Catalog.Search(a.Query, limit)
		out := make([]any, len(hits))
		for i, e := range hits {
			out[i] = b.turn.compact(e)
		}
		b.settleLocked(r, true, mustJSON(out))
	case guest.MethodDescribe:
		r.replaySafe, r.dispatched = true, true
		b.turn.Count(guest.MethodDescribe)
		var a struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(args, &a)
		e, err := b.turn.lookup(a.ID)
		if err != nil {
			b.settleLocked(r, false, err.Error())
			return
		}
		b.settleLocked(r, true, mustJSON(b.turn.describe(e)))
	case guest.MethodCall, guest.MethodCallValue:
		// The input is a slice of args, not a copy: a tool's input can be
		// 16 MiB, and sixteen calls in flight held it several times over.
		m, _ := members(args, "id", "input")
		id, _ := stringValue(m[0])
		e, err := b.turn.lookup(id)
		r.replaySafe = err == nil && strings.TrimSpace(id) == e.ID && b.turn.ReplaySafe[e.ID]
		if b.restartSafe && !r.replaySafe {
			return
		}
		r.dispatched = true
		b.turn.Count(guest.MethodCall)
		if err != nil {
			b.settleLocked(r, false, err.Error())
			return
		}
		b.nested++
		go b.runCall(r, e, m[1], Nested{Parent: b.parent, Seq: b.nested})
	case guest.MethodYield:
		r.replaySafe, r.dispatched = true, true
		var a struct {
			Reason json.RawMessage `json:"reason"`
		}
		_ = json.Unmarshal(args, &a)
		if len(a.Reason) == 0 {
			a.Reason = json.RawMessage("null")
		}
		r.yieldReason = a.Reason
	case guest.MethodSpawn, guest.MethodAgentWait:
		r.replaySafe, r.dispatched = true, true
		var n Nested
		if r.method == guest.MethodSpawn {
			b.turn.Count(guest.MethodCall)
			b.nested++
			n = Nested{Parent: b.parent, Seq: b.nested}
		}
		go func() {
			var v json.RawMessage
			var err error
			if r.method == guest.MethodSpawn {
				v, err = b.turn.Host.SpawnAgent(b.ctx, args, n)
			} else {
				v, err = b.turn.Host.WaitAgent(b.ctx, args)
			}
			if err != nil {
				b.settle(r, false, err.Error())
				return
			}
			b.settle(r, true, string(v))
		}()
	case guest.MethodNamespace:
		if b.restartSafe {
			return
		}
		// The host counts namespace calls that reach a tool ($api does not).
		r.dispatched = true
		b.nested++
		n := Nested{Parent: b.parent, Seq: b.nested}
		go func() {
			v, err := b.turn.Host.Namespace(b.ctx, args, n)
			if err != nil {
				b.settle(r, false, err.Error())
				return
			}
			b.settle(r, true, string(v))
		}()
	}
}

func (b *bridge) runCall(r *request, e catalog.Entry, input json.RawMessage, n Nested) {
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	res, err := b.turn.Host.Call(b.ctx, e, input, n)
	if err != nil {
		b.settle(r, false, err.Error())
		return
	}
	var payload string
	var ok bool
	switch {
	case r.method == guest.MethodCallValue && res.Details != nil:
		payload, ok = string(res.Details), true
	case r.method == guest.MethodCallValue:
		payload, ok = resultJSON(res)
	default:
		payload, ok = resultJSON(struct {
			Tool   any        `json:"tool"`
			Result ToolResult `json:"result"`
		}{b.turn.compact(e), res})
	}
	if !ok {
		b.settle(r, false, MsgBridgeResultTooLarge)
		return
	}
	b.settle(r, true, payload)
}

// resultJSON encodes a bridge result; ok is false when it cannot be
// encoded (a tool's details that are not JSON, or nest past what any
// reader takes), which the guest sees as a result too large.
func resultJSON(v any) (string, bool) {
	b, err := marshal(v)
	if err != nil {
		return "", false
	}
	return string(b), true
}

func mustJSON(v any) string {
	s, ok := resultJSON(v)
	if !ok {
		return "null"
	}
	return s
}

// settle records a request's outcome and wakes whoever waits for host work.
func (b *bridge) settle(r *request, ok bool, payload string) {
	b.mu.Lock()
	b.settleLocked(r, ok, payload)
	b.mu.Unlock()
}

func (b *bridge) settleLocked(r *request, ok bool, payload string) {
	if r.settled {
		return
	}
	if ok && (len(payload) > MaxBridgeBytes || !jsjson.Valid([]byte(payload), jsjson.MaxGuestDepth)) {
		ok, payload = false, MsgBridgeResultTooLarge
	}
	b.settled++
	r.settled, r.ok, r.payload, r.order = true, ok, payload, b.settled
	select {
	case b.notify <- struct{}{}:
	default:
	}
}

// resolveYields settles every pending yield: a wait resumes them.
func (b *bridge) resolveYields() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.reqs {
		if r.method == guest.MethodYield && !r.settled {
			b.settleLocked(r, true, `{"status":"yielded","reason":`+string(r.yieldReason)+`}`)
		}
	}
}

// state reports the undelivered requests: those settled and ready for
// delivery in settlement order, and those still pending, in issue order.
func (b *bridge) state() (ready, pending []*request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.reqs {
		if r.settled {
			ready = append(ready, r)
		} else {
			pending = append(pending, r)
		}
	}
	for i := 1; i < len(ready); i++ {
		for j := i; j > 0 && ready[j].order < ready[j-1].order; j-- {
			ready[j], ready[j-1] = ready[j-1], ready[j]
		}
	}
	return ready, pending
}

// deliver marks settled requests delivered, in the order given, forgets
// them, and returns them as the guest half delivers them.
func (b *bridge) deliver(ready []*request) []sandbox.Settlement {
	out := make([]sandbox.Settlement, len(ready))
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, r := range ready {
		r.delivered = true
		b.ledger.Delivered()
		out[i] = sandbox.Settlement{ID: r.id, OK: r.ok, Payload: r.payload}
	}
	kept := b.reqs[:0]
	for _, r := range b.reqs {
		if !r.delivered {
			kept = append(kept, r)
		}
	}
	clear(b.reqs[len(kept):])
	b.reqs = kept
	return out
}

func (b *bridge) dispatchStarted() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dispatched
}
