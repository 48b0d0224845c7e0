package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/codemodekit/kit/reference/internal/prepare"
)

// A Handler is the host half of a leg's bridge. Its methods run on the
// leg's goroutine while the guest waits for them, so they must not block.
type Handler interface {
	// Request receives a bridge request that the run's ledger accepted:
	// its method, id and arguments (JSON text). The guest half keeps no
	// reference to args.
	Request(method, id string, args []byte)
	// Note receives a Swarm progress note: kind is "phase" or "log".
	Note(kind, text string)
}

// A Leg is one stretch of guest execution of a run, on one VM: Prepare
// and Start (an exec), or Resume (a wait), then any number of Steps, and
// Snapshot when the run suspends. Close ends it. A Leg is used by one
// goroutine at a time, except Abort.
type Leg struct {
	s *Sandbox
	h Handler

	mu sync.Mutex // guards vm for Abort
	vm *engine.VM

	ctl    engine.Handle
	script string
	shift  int // lines of the script before the model's first line
	limits Limits
	ledger *guest.Ledger
	out    Output

	fresh   bool // the VM came from the pool
	resumed bool // the VM was restored
	cat     catalog.GuestCatalog
	config  []byte // the guest configuration the pool warms VMs with next
}

// NewLeg starts a leg whose bridge requests and notes go to h.
func (s *Sandbox) NewLeg(h Handler) *Leg { return &Leg{s: s, h: h} }

// Prepare prepares the source of an exec cell (SPEC.md chapter 5) for
// Start. Preparation failures are data: a *prepare.Failure. In this
// process the deadline is the caller's to watch.
func (l *Leg) Prepare(code string, lang prepare.Language, _ time.Time) (*prepare.Failure, *Fault) {
	script, pf := prepare.Script(code, lang)
	if pf != nil {
		return pf, nil
	}
	l.script = script
	if lang == prepare.JavaScript {
		l.shift = prepare.WrapperLines
	}
	return nil, nil
}

// Exec prepares code and starts it (Half.Exec).
func (l *Leg) Exec(code string, lang prepare.Language, start Start) (*prepare.Failure, Report) {
	if pf, f := l.Prepare(code, lang, start.Deadline); pf != nil || f != nil {
		return pf, Report{Fault: f}
	}
	if time.Now().After(start.Deadline) {
		return nil, Report{Fault: &Fault{Kind: FaultPrepareTimeout}}
	}
	return nil, l.Start(start)
}

// Start runs the prepared cell in a VM no run has touched, with the run's
// globals installed, until the guest is idle.
func (l *Leg) Start(req Start) Report {
	p := l.s.pool
	pv, err := p.get(req.Catalog, req.Config)
	if err != nil {
		return runtimeFault(err)
	}
	if pv.hot && pv.allocated > req.Limits.MemoryBytes {
		// ALL_TOOLS (and the configuration) alone pass this run's memory
		// limit: installing them in the cell fails as it always did.
		pv.vm.Close()
		if pv, err = p.get(catalog.GuestCatalog{}, nil); err != nil {
			return runtimeFault(err)
		}
	}
	l.setVM(pv.vm)
	l.ctl, l.fresh, l.cat, l.config = pv.ctl, true, req.Catalog, req.Config
	l.limits, l.ledger, l.out = req.Limits, guest.NewLedger(req.MaxPending), Output{Bytes: 2}
	vm := pv.vm
	if err := vm.SetMemoryLimit(uint32(req.Limits.MemoryBytes)); err != nil {
		return l.fault(err)
	}
	l.bind()
	if !pv.hot {
		if _, err := vm.CallMethod(l.ctl, guest.Catalog, string(req.Catalog.JSON)); err != nil {
			return l.fault(err)
		}
	}
	if !pv.configured {
		if _, err := vm.CallMethod(l.ctl, guest.Configure, string(req.Config)); err != nil {
			return l.fault(err)
		}
	}
	vm.SetDeadline(req.Deadline)
	_, err = vm.EvalCallMethod(l.script, guest.UserFile, l.ctl, guest.Start)
	l.script = ""
	return l.report(err)
}

// Resume restores a suspended run's VM and delivers req.Settle.
func (l *Leg) Resume(req Resume) Report {
	l.resumed = true
	var ledger guest.Ledger
	if err := ledger.UnmarshalBinary(req.Ledger); err != nil {
		return Report{Fault: &Fault{Kind: FaultRestore}}
	}
	vm, err := l.s.eng.RestoreDelta(context.Background(), l.s.pool.blank(), l.s.pool.baseImage(),
		req.Stored.Delta, req.Stored.RawSize, engine.Limits{MemoryBytes: uint32(req.Limits.MemoryBytes)})
	if err != nil {
		return Report{Fault: &Fault{Kind: FaultRestore}}
	}
	l.setVM(vm)
	l.ctl, l.limits, l.ledger, l.out = engine.Handle(req.Stored.Control), req.Limits, &ledger, req.Output
	if err := vm.SetRejections(req.Stored.Rejections); err != nil {
		return Report{Fault: &Fault{Kind: FaultRestore}}
	}
	l.bind()
	vm.SetDeadline(req.Deadline)
	return l.Step(req.Settle)
}

// bind binds the host functions of the controller to this leg.
func (l *Leg) bind() {
	l.vm.Bind(guest.HostRequest, l.hostRequest)
	l.vm.Bind(guest.HostNote, l.hostNote)
	bindRandom(l.vm)
}

// Step delivers settled bridge requests in order and runs the guest until
// it is idle again.
func (l *Leg) Step(settle []Settlement) Report {
	for _, q := range settle {
		l.ledger.Delivered()
		ok := "0"
		if q.OK {
			ok = "1"
		}
		if _, err := l.vm.CallMethod(l.ctl, guest.Settle, q.ID, ok, q.Payload); err != nil {
			return l.report(err)
		}
	}
	return l.report(nil)
}

// Snapshot stores the idle VM (SPEC.md CM-8.4).
func (l *Leg) Snapshot() (Stored, *Fault) {
	z, size, err := l.vm.SnapshotDelta(l.s.pool.baseImage())
	if err != nil {
		return Stored{}, l.fault(err).Fault
	}
	return Stored{Delta: z, RawSize: size, Control: uint32(l.ctl), Rejections: l.vm.Rejections()}, nil
}

// Kill stops the guest where it can be: with the engine's
// StrictPreemption, inside any built-in call (the VM is closed at its next
// check); without it, at its next interrupt poll, like Abort. It is safe
// to call from any goroutine.
func (l *Leg) Kill() {
	l.mu.Lock()
	vm := l.vm
	l.mu.Unlock()
	if vm != nil {
		vm.Kill()
	}
}

// Abort makes the guest stop at its next interrupt poll. It is safe to
// call from any goroutine.
func (l *Leg) Abort() {
	l.mu.Lock()
	vm := l.vm
	l.mu.Unlock()
	if vm != nil {
		vm.Abort()
	}
}

// Close ends the leg: its VM is discarded, never used by another run, and
// the pool makes the VMs of the next legs.
func (l *Leg) Close() {
	l.mu.Lock()
	vm := l.vm
	l.vm = nil
	l.mu.Unlock()
	if vm != nil {
		vm.Close()
	}
	p := l.s.pool
	if l.fresh {
		// The leg took a pooled VM: replace it now that the cell has its
		// answer, not while it ran (BENCHMARKS.md, P1).
		p.refill()
		if l.config != nil {
			p.warm(l.cat, l.config)
		}
	} else if l.resumed {
		// A resume: make the instance of the next one ahead.
		p.refillBlanks()
	}
}

func (l *Leg) setVM(vm *engine.VM) {
	l.mu.Lock()
	l.vm = vm
	l.mu.Unlock()
}

// hostRequest is __openclawHostRequest: the ledger's checks, thrown into
// the guest, then the request to the host half.
func (l *Leg) hostRequest(c *engine.HostCall) (any, error) {
	if len(c.Args) < 3 || c.Args[0].Kind != engine.String || c.Args[1].Kind != engine.String || c.Args[2].Kind != engine.String {
		return nil, errors.New(guest.MsgUnsupportedMethod)
	}
	method, id := c.Args[0].Str, c.Args[2].Str
	args := []byte(c.Args[1].Str)
	if msg := l.ledger.Check(method, id, args, c.Args[1].TooLarge); msg != "" {
		return nil, errors.New(msg)
	}
	l.h.Request(method, id, args)
	return nil, nil
}

// hostNote is the host side of Swarm's phase and log.
func (l *Leg) hostNote(c *engine.HostCall) (any, error) {
	if len(c.Args) == 2 && c.Args[0].Kind == engine.String && c.Args[1].Kind == engine.String {
		l.h.Note(c.Args[0].Str, c.Args[1].Str)
	}
	return nil, nil
}

func runtimeFault(err error) Report {
	return Report{Fault: &Fault{Kind: FaultRuntime, Text: err.Error()}}
}

// fault reports err, an engine error that ended an operation, with the
// output the guest produced before it.
func (l *Leg) fault(err error) Report {
	rep := Report{Interrupted: l.vm.Interrupted(), Aborted: l.vm.Aborted()}
	var ge *engine.GuestError
	if !errors.As(err, &ge) {
		rep.Fault = &Fault{Kind: FaultRuntime, Text: err.Error()}
		return rep
	}
	switch {
	case ge.Interrupted && l.vm.Aborted():
		rep.Fault = &Fault{Kind: FaultAborted}
	case ge.Interrupted:
		rep.Fault = &Fault{Kind: FaultTimeout}
	case ge.Name == "ReferenceError" && moduleRefRE.MatchString(ge.Message):
		rep.Fault = &Fault{Kind: FaultModule}
	default:
		text := ErrorText(true, ge.Name, ge.Message, ge.Stack, l.shift)
		if len(text) > l.limits.MaxOutputBytes {
			// An error text is guest output too (CM-7.28).
			rep.Fault = &Fault{Kind: FaultOutputLimit}
		} else {
			rep.Fault = &Fault{Kind: FaultGuest, Text: text}
		}
	}
	// The output written before the error is the run's (CM-7.15): read it
	// with the interrupt conditions cleared and room for the read, which
	// the run's own heap may have used up (out of memory).
	l.vm.ClearInterrupts()
	if l.vm.SetMemoryLimit(uint32(min(l.limits.MemoryBytes+pollCap(l.limits.MaxOutputBytes), 1<<30+64<<20))) == nil {
		if p, err := l.poll(); err == nil && p.fault == nil {
			rep.Items = p.items
		}
	}
	rep.MemoryBytes = l.vm.MemorySize()
	return rep
}

// polled is a checked poll: its items, the state, or the fault it found.
type polled struct {
	poll
	fault *Fault
}

// poll takes the output produced since the last poll and checks it. The
// poll runs no model code; it runs without the deadline, so that a guest
// that settled just before it never loses its output to it.
func (l *Leg) poll() (polled, error) {
	vm := l.vm
	d := vm.Deadline()
	vm.SetDeadline(time.Time{})
	raw, ok, err := vm.CallMethodMax(l.ctl, guest.Poll, pollCap(l.limits.MaxOutputBytes))
	if !d.IsZero() {
		vm.SetDeadline(d)
	}
	if err != nil {
		return polled{}, err
	}
	if !ok {
		return polled{fault: &Fault{Kind: FaultController}}, nil
	}
	p, err := parsePoll([]byte(raw))
	if err != nil {
		return polled{fault: &Fault{Kind: FaultController}}, nil
	}
	if p.overflow || p.deep {
		return polled{fault: &Fault{Kind: FaultOutputLimit}}, nil
	}
	out := l.out
	for _, it := range p.items {
		if out.Count > 0 {
			out.Bytes++
		}
		out.Bytes += len(it)
		out.Count++
	}
	if out.Bytes > l.limits.MaxOutputBytes {
		return polled{fault: &Fault{Kind: FaultOutputLimit}}, nil
	}
	l.out = out
	return polled{poll: p}, nil
}

// report drains the guest's jobs after an operation that returned err, and
// reports its output and state.
func (l *Leg) report(err error) Report {
	vm := l.vm
	if err == nil {
		err = vm.DrainJobs()
	}
	if err != nil {
		return l.fault(err)
	}
	rep := Report{Interrupted: vm.Interrupted(), Aborted: vm.Aborted()}
	p, err := l.poll()
	if err != nil {
		// Only an abort, a trap or the heap's end stops a poll.
		return l.fault(err)
	}
	if p.fault != nil {
		rep.Fault, rep.MemoryBytes = p.fault, vm.MemorySize()
		return rep
	}
	rep.Items, rep.Done, rep.OK = p.items, p.done, p.ok
	if rep.Done && l.ledger.Unsettled() == 0 {
		// Nothing more can reach the guest: the run completes or fails
		// with what it has now.
		if r, failed := l.outcome(&rep, p.inline); failed {
			r.Items = rep.Items
			return r
		}
	}
	rep.MemoryBytes = vm.MemorySize()
	return rep
}

// outcome reads the value, the error or the earliest unhandled rejection
// into rep. Reading the value or the error may run model code; when the
// deadline stops it, the fault is returned instead.
func (l *Leg) outcome(rep *Report, inline []byte) (Report, bool) {
	vm, max := l.vm, l.limits.MaxOutputBytes
	if !rep.OK {
		raw, ok, err := vm.CallMethodMax(l.ctl, guest.ErrorFn, errorCap(max))
		if err != nil {
			return l.fault(err), true
		}
		var d errorDescriptor
		if !ok {
			rep.Error = &GuestError{TooLong: true}
		} else if json.Unmarshal([]byte(raw), &d) != nil {
			return Report{Fault: &Fault{Kind: FaultController}}, true
		} else {
			rep.Error = thrownError(d, max, l.shift)
		}
		return Report{}, false
	}
	value := inline
	if value == nil {
		raw, ok, err := vm.CallMethodMax(l.ctl, guest.ValueFn, max)
		if err != nil {
			return l.fault(err), true
		}
		if !ok {
			rep.ValueTooLarge = true
		} else {
			value = []byte(raw)
		}
	}
	if value != nil {
		switch end, err := jsjson.Scan(value, 0, jsjson.MaxGuestDepth); {
		case errors.Is(err, jsjson.ErrTooDeep):
			rep.ValueTooLarge = true
		case err != nil || end != len(value):
			return Report{Fault: &Fault{Kind: FaultController}}, true
		default:
			size := len(value)
			if l.out.Count > 0 {
				size += l.out.Bytes
			}
			if size > max {
				rep.ValueTooLarge = true
			} else {
				rep.Value = value
			}
		}
	}
	text, ok, found, err := vm.FirstRejection(max)
	if err != nil {
		return l.fault(err), true
	}
	if found {
		if ok {
			rep.Unhandled = boundedError(text, max)
		} else {
			rep.Unhandled = &GuestError{TooLong: true}
		}
	}
	return Report{}, false
}
