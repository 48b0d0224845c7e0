package guest

import (
	"encoding/binary"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// MaxBridgeBytes bounds every bridge request's arguments and every bridge
// result, as compact JSON (SPEC.md CM-18.7).
const MaxBridgeBytes = 16 << 20

// The messages a refused bridge request is thrown into the guest with
// (SPEC.md CM-10.34, CM-18.8, CM-18.9).
const (
	MsgTooManyPending        = "too many pending code mode tool calls"
	MsgUnsupportedMethod     = "unsupported code mode bridge method"
	MsgInvalidBridgeID       = "invalid code mode bridge id"
	MsgDuplicateBridgeID     = "duplicate code mode bridge id"
	MsgBridgeRequestTooLarge = "code mode bridge request too large"
	MsgBridgeResultTooLarge  = "code mode bridge result too large"
)

// A Ledger checks the bridge requests of one run and remembers their ids.
// Both halves of the bridge keep one: the guest half refuses a bad request
// in the guest, synchronously, before anything crosses to the host; the
// host half checks every request that reaches it again, so that a guest
// half that lets a bad request through (a bug, or a worker that is no
// longer itself) is caught instead of obeyed.
//
// A request is unsettled from the moment it is accepted until its result
// is delivered to the guest (Delivered). Ids are remembered compactly: the
// controller numbers each method's requests 1, 2, 3, ..., and a run of
// consecutive ids costs one number however long the run lasts.
type Ledger struct {
	maxPending int
	unsettled  int
	// next[m] is the count of consecutive ids of method m issued from 1.
	next map[string]uint64
	// extra holds the ids ("method:n") issued out of that order.
	extra map[string]struct{}
}

// NewLedger returns the ledger of a new run.
func NewLedger(maxPending int) *Ledger {
	return &Ledger{maxPending: maxPending, next: map[string]uint64{}, extra: map[string]struct{}{}}
}

// Check applies the checks of a bridge request in SPEC order (size, the
// pending limit, the method, the id's form, a repeated id) and records an
// accepted request as unsettled. args is the request's arguments as JSON
// text; tooLarge reports arguments the caller did not even read. The
// message is "" when the request is accepted.
func (l *Ledger) Check(method, id string, args []byte, tooLarge bool) string {
	if tooLarge || len(args) > MaxBridgeBytes || !jsjson.Valid(args, jsjson.MaxGuestDepth) {
		// Arguments nested past MaxGuestDepth are too large too; arguments
		// that are not JSON text at all are never written by the
		// controller, and the host would only read them as nothing.
		return MsgBridgeRequestTooLarge
	}
	if l.unsettled >= l.maxPending {
		return MsgTooManyPending
	}
	if !Methods[method] {
		return MsgUnsupportedMethod
	}
	n, ok := strings.CutPrefix(id, "bridge:"+method+":")
	if !ok || !validCount(n) {
		return MsgInvalidBridgeID
	}
	if !l.record(method, n) {
		return MsgDuplicateBridgeID
	}
	l.unsettled++
	return ""
}

// validCount reports whether n is a positive decimal integer without a
// leading zero.
func validCount(n string) bool {
	if n == "" || n[0] == '0' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// record remembers id n of method and reports whether it is new.
func (l *Ledger) record(method, n string) bool {
	next := l.next[method]
	if v, err := strconv.ParseUint(n, 10, 64); err == nil {
		if v <= next {
			return false
		}
		if v == next+1 {
			next++
			for {
				k := method + ":" + strconv.FormatUint(next+1, 10)
				if _, ok := l.extra[k]; !ok {
					break
				}
				delete(l.extra, k)
				next++
			}
			l.next[method] = next
			return true
		}
	}
	k := method + ":" + n
	if _, ok := l.extra[k]; ok {
		return false
	}
	l.extra[k] = struct{}{}
	return true
}

// Delivered records that the result of an unsettled request reached the
// guest.
func (l *Ledger) Delivered() {
	if l.unsettled > 0 {
		l.unsettled--
	}
}

// Unsettled reports how many accepted requests have no result delivered.
func (l *Ledger) Unsettled() int { return l.unsettled }

// MaxPending reports the run's maxPendingToolCalls.
func (l *Ledger) MaxPending() int { return l.maxPending }

// MarshalBinary encodes the ledger for the guest half of the next leg.
func (l *Ledger) MarshalBinary() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(l.maxPending))
	b = binary.AppendUvarint(b, uint64(l.unsettled))
	methods := make([]string, 0, len(l.next))
	for m := range l.next {
		methods = append(methods, m)
	}
	slices.Sort(methods)
	b = binary.AppendUvarint(b, uint64(len(methods)))
	for _, m := range methods {
		b = appendString(b, m)
		b = binary.AppendUvarint(b, l.next[m])
	}
	extra := make([]string, 0, len(l.extra))
	for k := range l.extra {
		extra = append(extra, k)
	}
	slices.Sort(extra)
	b = binary.AppendUvarint(b, uint64(len(extra)))
	for _, k := range extra {
		b = appendString(b, k)
	}
	return b, nil
}

var errLedger = errors.New("guest: malformed bridge ledger")

// UnmarshalBinary decodes a ledger made by MarshalBinary.
func (l *Ledger) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	out := Ledger{maxPending: int(r.uvarint()), unsettled: int(r.uvarint()),
		next: map[string]uint64{}, extra: map[string]struct{}{}}
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		m := r.string()
		out.next[m] = r.uvarint()
	}
	for n := r.uvarint(); n > 0 && r.err == nil; n-- {
		out.extra[r.string()] = struct{}{}
	}
	if r.err != nil || len(r.b) != 0 || out.maxPending < 0 || out.unsettled < 0 {
		return errLedger
	}
	*l = out
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// reader decodes uvarints and length-prefixed strings; the first failure
// sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > 1<<53 {
		r.err = errLedger
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) string() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errLedger
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}
