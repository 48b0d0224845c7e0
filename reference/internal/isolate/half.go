package isolate

import (
	"context"
	"encoding/binary"
	"errors"
	"sync/atomic"
	"time"

	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/codemodekit/kit/reference/internal/prepare"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// Bounds of a worker's answers, beyond what their limits allow.
const (
	// reportSlack is the room a report takes besides its output, value
	// and error texts (each within maxOutputBytes).
	reportSlack = 1 << 20
	// storedBound bounds a stored run: a delta of an image within
	// maxSnapshotBytes (1 GiB at most) compresses to less than that, and
	// the rejection table is smaller than the image.
	storedBound = 3 << 30 / 2
)

var zeroTime time.Time

// half is the guest half of a leg in a worker process: each operation is a
// frame to the worker and its answer.
type half struct {
	p      *Pool
	w      *worker
	leg    uint64 // the leg's number on its worker
	h      sandbox.Handler
	limits sandbox.Limits
	// preparing is set while the worker prepares the source: a kill then
	// is the deadline passing during preparation (CM-5.13).
	preparing atomic.Bool
	closed    bool
	memory    int // the largest VM the leg reported
}

// fault describes a worker lost during an operation.
func (h *half) fault(err error) *sandbox.Fault {
	switch {
	case h.w.killed.Load() && h.preparing.Load():
		return &sandbox.Fault{Kind: sandbox.FaultPrepareTimeout}
	case h.w.killed.Load() && !errors.Is(err, errProtocol):
		return &sandbox.Fault{Kind: sandbox.FaultWatchdog}
	}
	return &sandbox.Fault{Kind: sandbox.FaultRuntime, Text: err.Error()}
}

// first sends the first operation of a leg. A worker that ended while it
// was idle (killed from outside, say) never saw it: the leg moves to
// another worker, once.
func (h *half) first(typ byte, e *encoder, want byte, limit int) ([]byte, error) {
	b, err := h.w.call(typ, e, want, limit)
	if errors.Is(err, errUnsent) && !h.w.killed.Load() {
		h.p.release(h.w, false)
		w, aerr := h.p.acquire(context.Background())
		if aerr != nil {
			return nil, err
		}
		w.setHandler(h.h)
		h.w, h.leg = w, w.legs+1
		b, err = h.w.call(typ, e, want, limit)
	}
	return b, err
}

// Prepare implements sandbox.Half.
func (h *half) Prepare(code string, lang prepare.Language, _ time.Time) (*prepare.Failure, *sandbox.Fault) {
	var e encoder
	prepareMsg{Code: code, Language: string(lang)}.encode(&e)
	h.preparing.Store(true)
	b, err := h.first(msgPrepare, &e, msgPrepared, 64<<10+len(code))
	if err != nil {
		return nil, h.fault(err)
	}
	h.preparing.Store(false)
	var m preparedMsg
	d := decoder{b: b}
	m.decode(&d)
	if d.done() != nil {
		h.w.kill()
		return nil, h.fault(errProtocol)
	}
	if m.Failed {
		return &prepare.Failure{Message: m.Message, Syntax: m.Syntax}, nil
	}
	return nil, nil
}

// Exec implements sandbox.Half: one round trip for preparation and start.
func (h *half) Exec(code string, lang prepare.Language, req sandbox.Start) (*prepare.Failure, sandbox.Report) {
	h.limits = req.Limits
	m := startMsg{Start: req, CatalogKey: req.Catalog.Key, HasJSON: !h.w.catalogs.touch(req.Catalog.Key, nil)}
	var e encoder
	prepareMsg{Code: code, Language: string(lang)}.encode(&e)
	m.encode(&e)
	h.preparing.Store(true)
	b, err := h.first(msgExec, &e, msgExecuted, 64<<10+len(code)+h.reportLimit())
	if err != nil {
		return nil, sandbox.Report{Fault: h.fault(err)}
	}
	h.preparing.Store(false)
	var pm preparedMsg
	d := decoder{b: b}
	pm.decode(&d)
	if d.err != nil {
		h.w.kill()
		return nil, sandbox.Report{Fault: h.fault(errProtocol)}
	}
	if pm.Failed {
		if d.done() != nil {
			h.w.kill()
			return nil, sandbox.Report{Fault: h.fault(errProtocol)}
		}
		return &prepare.Failure{Message: pm.Message, Syntax: pm.Syntax}, sandbox.Report{}
	}
	return nil, h.checked(decodeReport(&d), d.done())
}

// Start implements sandbox.Half.
func (h *half) Start(req sandbox.Start) sandbox.Report {
	h.limits = req.Limits
	m := startMsg{Start: req, CatalogKey: req.Catalog.Key, HasJSON: !h.w.catalogs.touch(req.Catalog.Key, nil)}
	var e encoder
	m.encode(&e)
	return h.report(msgStart, &e)
}

// Resume implements sandbox.Half.
func (h *half) Resume(req sandbox.Resume) sandbox.Report {
	h.limits = req.Limits
	var e encoder
	encodeResume(&e, req)
	return h.reportOf(h.first(msgResume, &e, msgReport, h.reportLimit()))
}

// Step implements sandbox.Half.
func (h *half) Step(settle []sandbox.Settlement) sandbox.Report {
	var e encoder
	encodeSettlements(&e, settle)
	return h.report(msgStep, &e)
}

// report runs an operation answered by a report, and checks the report
// as the host half takes it: a worker is trusted with the guest, not with
// the host.
func (h *half) report(typ byte, e *encoder) sandbox.Report {
	return h.reportOf(h.w.call(typ, e, msgReport, h.reportLimit()))
}

func (h *half) reportLimit() int { return 4*h.limits.MaxOutputBytes + reportSlack }

func (h *half) reportOf(b []byte, err error) sandbox.Report {
	if err != nil {
		return sandbox.Report{Fault: h.fault(err)}
	}
	d := decoder{b: b}
	return h.checked(decodeReport(&d), d.done())
}

// checked takes a report the worker sent, decoded with error err.
func (h *half) checked(rep sandbox.Report, err error) sandbox.Report {
	if err != nil || !checkReport(rep, h.limits) {
		h.w.kill()
		return sandbox.Report{Fault: h.fault(errProtocol)}
	}
	h.memory = max(h.memory, rep.MemoryBytes)
	return rep
}

// checkReport checks what the worker's sandbox checked already: items of
// the two forms, a value that is JSON, texts within maxOutputBytes.
func checkReport(rep sandbox.Report, l sandbox.Limits) bool {
	bytes := 1
	for _, it := range rep.Items {
		if !sandbox.ValidItem(it) {
			return false
		}
		bytes += len(it) + 1
	}
	if bytes > l.MaxOutputBytes {
		return false
	}
	if rep.Value != nil && (len(rep.Value) > l.MaxOutputBytes || !jsjson.Valid(rep.Value, jsjson.MaxGuestDepth)) {
		return false
	}
	for _, g := range []*sandbox.GuestError{rep.Error, rep.Unhandled} {
		if g != nil && len(g.Text) > l.MaxOutputBytes {
			return false
		}
	}
	return rep.Fault == nil || len(rep.Fault.Text) <= 64<<10 || rep.Fault.Kind == sandbox.FaultGuest && len(rep.Fault.Text) <= l.MaxOutputBytes
}

// Snapshot implements sandbox.Half.
func (h *half) Snapshot() (sandbox.Stored, *sandbox.Fault) {
	b, err := h.w.call(msgSnapshot, nil, msgStored, storedBound)
	if err != nil {
		return sandbox.Stored{}, h.fault(err)
	}
	d := decoder{b: b}
	f := decodeFault(&d)
	stored := decodeStored(&d)
	if d.done() != nil {
		h.w.kill()
		return sandbox.Stored{}, h.fault(errProtocol)
	}
	return stored, f
}

// Abort implements sandbox.Half: the leg's number goes down the abort
// pipe, which the worker reads at once.
func (h *half) Abort() {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], h.leg)
	_, _ = h.w.abort.Write(b[:])
}

// Kill implements sandbox.Half: the worker process is killed.
func (h *half) Kill() { h.w.kill() }

// Close implements sandbox.Half: the worker ends the leg and serves the
// next, unless it was killed, broke, or its leg left it large.
func (h *half) Close() {
	if h.closed {
		return
	}
	h.closed = true
	h.w.setHandler(nil)
	// A worker whose VM grew large keeps the memory in its Go heap: it
	// ends, and a fresh one takes its place.
	reuse := h.memory <= retireMemoryBytes && h.w.alive() && h.w.send(msgClose, nil) == nil
	h.w.legs++
	h.p.release(h.w, reuse)
}
