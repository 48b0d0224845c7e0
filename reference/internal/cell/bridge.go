package cell

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// MaxBridgeBytes bounds every bridge request's arguments and every bridge
// result, as compact JSON (SPEC.md CM-18.7).
const MaxBridgeBytes = 16 << 20

// Bridge size messages.
const (
	MsgBridgeRequestTooLarge = "code mode bridge request too large"
	MsgBridgeResultTooLarge  = "code mode bridge result too large"
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
// its bridge.
type bridge struct {
	host        Host
	maxPend     int
	parent      string // tool call id of the exec that started the run
	restartSafe bool

	ctx    context.Context // cancelled when the run ends
	cancel context.CancelFunc

	mu         sync.Mutex
	reqs       []*request
	byID       map[string]*request
	settled    int
	nested     int
	dispatched bool
	notify     chan struct{}
}

func newBridge(host Host, maxPending int, parent string, restartSafe bool) *bridge {
	ctx, cancel := context.WithCancel(context.Background())
	return &bridge{host: host, maxPend: maxPending, parent: parent, restartSafe: restartSafe,
		ctx: ctx, cancel: cancel, byID: map[string]*request{}, notify: make(chan struct{}, 1)}
}

// dispose cancels every outstanding piece of work.
func (b *bridge) dispose() { b.cancel() }

var bridgeIDRE = regexp.MustCompile(`^bridge:[A-Za-z]+:[1-9][0-9]*$`)

// handle is the __openclawHostRequest host function. Its checks run in SPEC
// order and throw into the guest synchronously; a refused request is never
// dispatched.
func (b *bridge) handle(c *engine.HostCall) (any, error) {
	if len(c.Args) < 3 || c.Args[0].Kind != engine.String || c.Args[1].Kind != engine.String || c.Args[2].Kind != engine.String {
		return nil, errors.New(MsgUnsupportedMethod)
	}
	method, argsJSON, id := c.Args[0].Str, c.Args[1].Str, c.Args[2].Str
	if c.Args[1].TooLarge || len(argsJSON) > MaxBridgeBytes {
		return nil, errors.New(MsgBridgeRequestTooLarge)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	// A request stays pending for the guest until its promise settles, that
	// is until its result is delivered; host-side completion does not free
	// a slot while the guest is still running synchronously.
	unsettled := 0
	for _, r := range b.reqs {
		if !r.delivered {
			unsettled++
		}
	}
	if unsettled >= b.maxPend {
		return nil, errors.New(MsgTooManyPending)
	}
	if !guest.Methods[method] {
		return nil, errors.New(MsgUnsupportedMethod)
	}
	if !strings.HasPrefix(id, "bridge:"+method+":") || !bridgeIDRE.MatchString(id) {
		return nil, errors.New(MsgInvalidBridgeID)
	}
	if _, dup := b.byID[id]; dup {
		return nil, errors.New(MsgDuplicateBridgeID)
	}
	r := &request{id: id, method: method}
	b.reqs = append(b.reqs, r)
	b.byID[id] = r
	b.dispatched = true
	b.dispatch(r, json.RawMessage(argsJSON))
	return nil, nil
}

// dispatch starts a request's work, with b.mu held. Catalog reads finish at
// once; tool and namespace calls run on their own goroutine. A restart-safe
// run dispatches only replay-safe requests.
func (b *bridge) dispatch(r *request, args json.RawMessage) {
	switch r.method {
	case guest.MethodSearch:
		r.replaySafe, r.dispatched = true, true
		b.host.Count(guest.MethodSearch)
		var a struct {
			Query string `json:"query"`
			Limit *int   `json:"limit"`
		}
		_ = json.Unmarshal(args, &a)
		s := b.host.Settings()
		limit := s.SearchDefaultLimit
		if a.Limit != nil {
			limit = min(*a.Limit, s.MaxSearchLimit)
		}
		hits := b.host.Catalog().Search(a.Query, limit)
		out := make([]catalog.Compact, len(hits))
		for i, e := range hits {
			out[i] = e.Compact()
		}
		b.settleLocked(r, true, mustJSON(out))
	case guest.MethodDescribe:
		r.replaySafe, r.dispatched = true, true
		b.host.Count(guest.MethodDescribe)
		var a struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(args, &a)
		e, err := b.host.Catalog().Lookup(a.ID)
		if err != nil {
			b.settleLocked(r, false, err.Error())
			return
		}
		b.settleLocked(r, true, mustJSON(e.Describe()))
	case guest.MethodCall, guest.MethodCallValue:
		var a struct {
			ID    string          `json:"id"`
			Input json.RawMessage `json:"input"`
		}
		_ = json.Unmarshal(args, &a)
		e, err := b.host.Catalog().Lookup(a.ID)
		r.replaySafe = err == nil && strings.TrimSpace(a.ID) == e.ID && b.host.ReplaySafe(e)
		if b.restartSafe && !r.replaySafe {
			return
		}
		r.dispatched = true
		b.host.Count(guest.MethodCall)
		if err != nil {
			b.settleLocked(r, false, err.Error())
			return
		}
		b.nested++
		go b.runCall(r, e, a.Input, Nested{Parent: b.parent, Seq: b.nested})
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
			b.host.Count(guest.MethodCall)
			b.nested++
			n = Nested{Parent: b.parent, Seq: b.nested}
		}
		go func() {
			var v json.RawMessage
			var err error
			if r.method == guest.MethodSpawn {
				v, err = b.host.SpawnAgent(b.ctx, args, n)
			} else {
				v, err = b.host.WaitAgent(b.ctx, args)
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
			v, err := b.host.Namespace(b.ctx, args, n)
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
	res, err := b.host.Call(b.ctx, e, input, n)
	if err != nil {
		b.settle(r, false, err.Error())
		return
	}
	if r.method == guest.MethodCallValue {
		if res.Details != nil {
			b.settle(r, true, string(res.Details))
		} else {
			b.settle(r, true, mustJSON(res))
		}
		return
	}
	b.settle(r, true, mustJSON(struct {
		Tool   catalog.Compact `json:"tool"`
		Result ToolResult      `json:"result"`
	}{e.Compact(), res}))
}

func mustJSON(v any) string {
	b, err := marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
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
	if ok && len(payload) > MaxBridgeBytes {
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
		if r.delivered {
			continue
		}
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

func (b *bridge) markDelivered(r *request) {
	b.mu.Lock()
	r.delivered = true
	b.mu.Unlock()
}

func (b *bridge) dispatchStarted() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dispatched
}
