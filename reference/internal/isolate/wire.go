package isolate

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// The host and a worker speak in frames over the worker's standard input
// and output: a little-endian u32 length, then a type byte and its fields.
// Fields are uvarints, varints and length-prefixed byte strings, in the
// order each message's encode writes them. There is no self-description:
// both ends are the same binary (the worker is the host's own executable),
// and the hello checks the protocol version.

// protocolVersion changes whenever a message changes.
const protocolVersion = 1

// Message types.
const (
	// host -> worker
	msgInit     byte = 1  // init
	msgPrepare  byte = 2  // prepare
	msgStart    byte = 3  // start
	msgResume   byte = 4  // resume
	msgStep     byte = 5  // settlements
	msgSnapshot byte = 6  // (empty)
	msgClose    byte = 7  // (empty): the leg ends
	msgExit     byte = 9  // (empty): the worker ends
	msgExec     byte = 10 // prepare, start

	// worker -> host
	msgHello    byte = 32 // hello
	msgPrepared byte = 33 // prepared
	msgReport   byte = 34 // report
	msgStored   byte = 35 // stored
	msgRequest  byte = 36 // a bridge request, during an operation
	msgNote     byte = 37 // a Swarm note, during an operation
	msgExecuted byte = 38 // prepared, and a report unless it failed
)

// maxHostFrame bounds a frame from the host (catalogs, settlements,
// snapshots); the worker trusts its host.
const maxHostFrame = 1<<31 - 1

// maxRequestFrame bounds a bridge request or note from a worker: the
// bridge's own bound and room for the method and id.
const maxRequestFrame = 16<<20 + 64<<10

var errFrameTooLarge = errors.New("isolate: frame over its bound")

// writeFrame writes one frame: typ and the encoded fields.
func writeFrame(w io.Writer, typ byte, e *encoder) error {
	var head [5]byte
	n := 1
	if e != nil {
		n += len(e.b)
	}
	binary.LittleEndian.PutUint32(head[:4], uint32(n))
	head[4] = typ
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	if e != nil && len(e.b) > 0 {
		_, err := w.Write(e.b)
		return err
	}
	return nil
}

// readFrame reads one frame. limit bounds its length for the frame's type
// (known after the first byte): a longer frame is refused before anything
// of it is allocated.
func readFrame(r *bufio.Reader, limit func(typ byte) int) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := int(binary.LittleEndian.Uint32(head[:4]))
	typ := head[4]
	if n < 1 || n-1 > limit(typ) {
		return typ, nil, fmt.Errorf("%w: type %d, %d bytes", errFrameTooLarge, typ, n)
	}
	b := make([]byte, n-1)
	if _, err := io.ReadFull(r, b); err != nil {
		return typ, nil, err
	}
	return typ, b, nil
}

// encoder appends fields.
type encoder struct{ b []byte }

func (e *encoder) uint(v uint64)   { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)     { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) bytes(v []byte)  { e.uint(uint64(len(v))); e.b = append(e.b, v...) }
func (e *encoder) string(v string) { e.uint(uint64(len(v))); e.b = append(e.b, v...) }
func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}
func (e *encoder) time(t time.Time) { e.int(unixNano(t)) }

// unixNano is t's Unix time in nanoseconds; 0 for the zero time.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// decoder reads fields; the first failure sticks and every later read
// yields zero values.
type decoder struct {
	b   []byte
	err error
}

var errMalformedFrame = errors.New("isolate: malformed frame")

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errMalformedFrame
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errMalformedFrame
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a non-negative int that fits the platform's int.
func (d *decoder) count() int {
	v := d.uint()
	if v > math.MaxInt32 {
		d.err = errMalformedFrame
		return 0
	}
	return int(v)
}

func (d *decoder) bytes() []byte {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errMalformedFrame
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string { return string(d.bytes()) }

func (d *decoder) bool() bool {
	switch d.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.err = errMalformedFrame
	return false
}

func (d *decoder) time() time.Time {
	if ns := d.int(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// done reports the decoding's error, or one when bytes are left over.
func (d *decoder) done() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = errMalformedFrame
	}
	return d.err
}

// The messages.

// initMsg configures a worker's engine.
type initMsg struct {
	Version          int
	WasmPath         string
	Digest           string
	CacheDir         string
	StrictPreemption bool
	Base             []byte // the base image, or nil: the worker makes one
	AddressSpace     uint64 // RLIMIT_AS the worker sets on itself, 0: none
}

func (m initMsg) encode(e *encoder) {
	e.uint(uint64(m.Version))
	e.string(m.WasmPath)
	e.string(m.Digest)
	e.string(m.CacheDir)
	e.bool(m.StrictPreemption)
	e.bytes(m.Base)
	e.uint(m.AddressSpace)
}

func (m *initMsg) decode(d *decoder) {
	m.Version = d.count()
	m.WasmPath = d.string()
	m.Digest = d.string()
	m.CacheDir = d.string()
	m.StrictPreemption = d.bool()
	if m.Base = d.bytes(); len(m.Base) == 0 {
		m.Base = nil
	}
	m.AddressSpace = d.uint()
}

// helloMsg answers initMsg.
type helloMsg struct {
	Version int
	// Unavailable is the reason the engine cannot run code (an
	// engine.UnavailableError's), or "".
	Unavailable string
	Digest      []byte // the engine binary's sha256
	Base        []byte // the base image the worker made, when init had none
}

func (m helloMsg) encode(e *encoder) {
	e.uint(uint64(m.Version))
	e.string(m.Unavailable)
	e.bytes(m.Digest)
	e.bytes(m.Base)
}

func (m *helloMsg) decode(d *decoder) {
	m.Version = d.count()
	m.Unavailable = d.string()
	m.Digest = d.bytes()
	m.Base = d.bytes()
}

type prepareMsg struct {
	Code     string
	Language string
}

func (m prepareMsg) encode(e *encoder) { e.string(m.Code); e.string(m.Language) }
func (m *prepareMsg) decode(d *decoder) {
	m.Code = d.string()
	m.Language = d.string()
}

// preparedMsg answers prepareMsg: a preparation failure, or none.
type preparedMsg struct {
	Failed  bool
	Syntax  bool
	Message string
}

func (m preparedMsg) encode(e *encoder) { e.bool(m.Failed); e.bool(m.Syntax); e.string(m.Message) }
func (m *preparedMsg) decode(d *decoder) {
	m.Failed = d.bool()
	m.Syntax = d.bool()
	m.Message = d.string()
}

func encodeLimits(e *encoder, l sandbox.Limits) {
	e.uint(uint64(l.MemoryBytes))
	e.uint(uint64(l.MaxOutputBytes))
}

func decodeLimits(d *decoder) sandbox.Limits {
	return sandbox.Limits{MemoryBytes: d.count(), MaxOutputBytes: d.count()}
}

// startMsg is sandbox.Start; the catalog's JSON is left out when the
// worker has it (catalogCache).
type startMsg struct {
	sandbox.Start
	CatalogKey [32]byte
	HasJSON    bool
}

func (m startMsg) encode(e *encoder) {
	e.time(m.Deadline)
	encodeLimits(e, m.Limits)
	e.bytes(m.CatalogKey[:])
	e.bool(m.HasJSON)
	if m.HasJSON {
		e.bytes(m.Catalog.JSON)
	}
	e.bytes(m.Config)
	e.uint(uint64(m.MaxPending))
}

func (m *startMsg) decode(d *decoder) {
	m.Deadline = d.time()
	m.Limits = decodeLimits(d)
	if key := d.bytes(); len(key) == 32 {
		copy(m.CatalogKey[:], key)
	} else {
		d.err = errMalformedFrame
	}
	m.HasJSON = d.bool()
	if m.HasJSON {
		m.Catalog.JSON = d.bytes()
	}
	m.Config = d.bytes()
	m.MaxPending = d.count()
}

func encodeSettlements(e *encoder, s []sandbox.Settlement) {
	e.uint(uint64(len(s)))
	for _, q := range s {
		e.string(q.ID)
		e.bool(q.OK)
		e.string(q.Payload)
	}
}

func decodeSettlements(d *decoder) []sandbox.Settlement {
	n := d.count()
	if n > len(d.b) {
		d.err = errMalformedFrame
		return nil
	}
	out := make([]sandbox.Settlement, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		out = append(out, sandbox.Settlement{ID: d.string(), OK: d.bool(), Payload: d.string()})
	}
	return out
}

func encodeStored(e *encoder, s sandbox.Stored) {
	e.bytes(s.Delta)
	e.uint(uint64(s.RawSize))
	e.uint(uint64(s.Control))
	e.bytes(s.Rejections)
}

func decodeStored(d *decoder) sandbox.Stored {
	s := sandbox.Stored{Delta: d.bytes(), RawSize: d.count()}
	c := d.uint()
	if c > math.MaxUint32 {
		d.err = errMalformedFrame
	}
	s.Control = uint32(c)
	s.Rejections = d.bytes()
	return s
}

func encodeResume(e *encoder, r sandbox.Resume) {
	e.time(r.Deadline)
	encodeLimits(e, r.Limits)
	encodeStored(e, r.Stored)
	e.bytes(r.Ledger)
	e.uint(uint64(r.Output.Bytes))
	e.uint(uint64(r.Output.Count))
	encodeSettlements(e, r.Settle)
}

func decodeResume(d *decoder) sandbox.Resume {
	r := sandbox.Resume{Deadline: d.time(), Limits: decodeLimits(d), Stored: decodeStored(d), Ledger: d.bytes()}
	r.Output = sandbox.Output{Bytes: d.count(), Count: d.count()}
	r.Settle = decodeSettlements(d)
	return r
}

func encodeFault(e *encoder, f *sandbox.Fault) {
	if f == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(f.Kind))
	e.string(f.Text)
}

func decodeFault(d *decoder) *sandbox.Fault {
	k := d.uint()
	if k == 0 || d.err != nil {
		return nil
	}
	if k > uint64(sandbox.FaultPrepareTimeout) {
		d.err = errMalformedFrame
		return nil
	}
	return &sandbox.Fault{Kind: sandbox.FaultKind(k), Text: d.string()}
}

func encodeGuestError(e *encoder, g *sandbox.GuestError) {
	if g == nil {
		e.bool(false)
		return
	}
	e.bool(true)
	e.string(g.Text)
	e.bool(g.Module)
	e.bool(g.TooLong)
}

func decodeGuestError(d *decoder) *sandbox.GuestError {
	if !d.bool() {
		return nil
	}
	return &sandbox.GuestError{Text: d.string(), Module: d.bool(), TooLong: d.bool()}
}

func encodeReport(e *encoder, r sandbox.Report) {
	e.uint(uint64(len(r.Items)))
	for _, it := range r.Items {
		e.bytes(it)
	}
	e.bool(r.Done)
	e.bool(r.OK)
	e.bytes(r.Value)
	e.bool(r.ValueTooLarge)
	encodeGuestError(e, r.Error)
	encodeGuestError(e, r.Unhandled)
	e.bool(r.Interrupted)
	e.bool(r.Aborted)
	encodeFault(e, r.Fault)
	e.uint(uint64(r.MemoryBytes))
}

func decodeReport(d *decoder) sandbox.Report {
	var r sandbox.Report
	n := d.count()
	if n > len(d.b) {
		d.err = errMalformedFrame
		return r
	}
	for i := 0; i < n && d.err == nil; i++ {
		r.Items = append(r.Items, d.bytes())
	}
	r.Done, r.OK = d.bool(), d.bool()
	if v := d.bytes(); len(v) > 0 {
		r.Value = v
	}
	r.ValueTooLarge = d.bool()
	r.Error = decodeGuestError(d)
	r.Unhandled = decodeGuestError(d)
	r.Interrupted, r.Aborted = d.bool(), d.bool()
	r.Fault = decodeFault(d)
	r.MemoryBytes = d.count()
	return r
}
