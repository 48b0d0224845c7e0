package engine

import (
	"encoding/binary"
	"errors"
	"slices"
)

// QuickJS reports a promise rejected without a handler (host_promise_rejection
// with handled 0), and reports it again when a handler is attached later
// (handled 1). A run that ends with such a promise fails with its reason
// (SPEC.md CM-7.26).
//
// The engine keeps, for each such promise, the value boxes of the promise
// and of its reason in guest memory, not the reason's text: what they cost
// is counted by the guest's memory limit and travels in snapshots, and the
// host keeps a few words per promise. A guest that rejects a million
// promises with a long message once had the host copy the message a
// million times, outside every limit. The text is read once, bounded, for
// the earliest rejection still unhandled when the run ends
// (FirstRejection).

// A rejection is one promise rejected without a handler.
type rejection struct {
	seq     uint64 // order of the rejections, from 1
	promise uint32 // owned box of the promise, which keeps its address
	reason  uint32 // owned box of the reason
}

// rejections are a VM's promises rejected without a handler, by the
// address of the promise object.
type rejections struct {
	byAddr map[uint32]rejection
	next   uint64
}

func newRejections() rejections { return rejections{byAddr: map[uint32]rejection{}, next: 1} }

// track records a report of the rejection tracker. It takes ownership of
// both boxes.
func (vm *VM) track(promise, reason uint32, handled bool) {
	ptr, err := vm.call(xGetValuePtr, uint64(promise))
	if err != nil || ptr == 0 {
		vm.free(promise)
		vm.free(reason)
		return
	}
	rs := &vm.rejections
	if old, ok := rs.byAddr[uint32(ptr)]; ok {
		delete(rs.byAddr, uint32(ptr))
		vm.free(old.promise)
		vm.free(old.reason)
	}
	if handled {
		vm.free(promise)
		vm.free(reason)
		return
	}
	rs.byAddr[uint32(ptr)] = rejection{seq: rs.next, promise: promise, reason: reason}
	rs.next++
}

// UnhandledCount reports how many promises are rejected without a handler.
func (vm *VM) UnhandledCount() int { return len(vm.rejections.byAddr) }

// FirstRejection describes the reason of the earliest rejection that is
// still unhandled, as a guest error text ("Name: message", or the string
// form of a primitive). found is false when there is none; ok is false when
// the text would be longer than limit bytes, and then it is not read.
func (vm *VM) FirstRejection(limit int) (text string, ok, found bool, err error) {
	if err := vm.enter(); err != nil {
		return "", false, false, err
	}
	defer vm.exit()
	var first rejection
	for _, r := range vm.rejections.byAddr {
		if !found || r.seq < first.seq {
			first, found = r, true
		}
	}
	if !found {
		return "", false, false, nil
	}
	text, ok = vm.describe(first.reason, limit)
	return text, ok, true, vm.broken
}

// rejectionEntry is the encoded size of one rejection: the promise address,
// the order and the two boxes.
const rejectionEntry = 4 + 8 + 4 + 4

// Rejections encodes the VM's unhandled rejections for a snapshot: the boxes
// live in the image, and SetRejections gives them back to a VM restored
// from it.
func (vm *VM) Rejections() []byte {
	rs := vm.rejections
	addrs := make([]uint32, 0, len(rs.byAddr))
	for a := range rs.byAddr {
		addrs = append(addrs, a)
	}
	slices.Sort(addrs)
	b := make([]byte, 12, 12+rejectionEntry*len(addrs))
	binary.LittleEndian.PutUint64(b, rs.next)
	binary.LittleEndian.PutUint32(b[8:], uint32(len(addrs)))
	for _, a := range addrs {
		r := rs.byAddr[a]
		b = binary.LittleEndian.AppendUint32(b, a)
		b = binary.LittleEndian.AppendUint64(b, r.seq)
		b = binary.LittleEndian.AppendUint32(b, r.promise)
		b = binary.LittleEndian.AppendUint32(b, r.reason)
	}
	return b
}

var errRejections = errors.New("engine: malformed rejection table")

// SetRejections replaces the VM's unhandled rejections with a table made by
// Rejections from the VM's image. An empty b means none.
func (vm *VM) SetRejections(b []byte) error {
	rs := newRejections()
	if len(b) > 0 {
		if len(b) < 12 {
			return errRejections
		}
		rs.next = binary.LittleEndian.Uint64(b)
		n := binary.LittleEndian.Uint32(b[8:])
		b = b[12:]
		if uint64(len(b)) != uint64(n)*rejectionEntry {
			return errRejections
		}
		for ; len(b) > 0; b = b[rejectionEntry:] {
			a := binary.LittleEndian.Uint32(b)
			r := rejection{seq: binary.LittleEndian.Uint64(b[4:]), promise: binary.LittleEndian.Uint32(b[12:]),
				reason: binary.LittleEndian.Uint32(b[16:])}
			if r.seq == 0 || r.seq >= rs.next {
				return errRejections
			}
			rs.byAddr[a] = r
		}
	}
	vm.rejections = rs
	return nil
}
