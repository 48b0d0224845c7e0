package cell

import (
	"encoding/json"
	"sync"

	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// outputLog is a run's cumulative text()/json() output and how much of it
// the model has received. The leg that drives the run appends to it while
// the host watchdog may read it to build a failure, so it has its own lock.
type outputLog struct {
	mu        sync.Mutex
	items     []json.RawMessage
	delivered int
	skip      int // entries delivered before a restart (rebuilt runs)
}

// add appends new entries.
func (o *outputLog) add(items []json.RawMessage) {
	if len(items) == 0 {
		return
	}
	o.mu.Lock()
	o.items = append(o.items, items...)
	o.mu.Unlock()
}

// state is the output so far, as the guest half of a leg counts it.
func (o *outputLog) state() sandbox.Output {
	return sandbox.Output{Bytes: o.bytes(), Count: o.len()}
}

// len is the number of entries so far.
func (o *outputLog) len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.items)
}

// bytes is the byte length of the whole output array as compact JSON.
func (o *outputLog) bytes() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 2
	for i, s := range o.items {
		if i > 0 {
			n++
		}
		n += len(s)
	}
	return n
}

// take returns the entries not yet reported to the model and marks them
// reported.
func (o *outputLog) take() []json.RawMessage {
	o.mu.Lock()
	defer o.mu.Unlock()
	from := min(max(o.delivered, o.skip), len(o.items))
	out := make([]json.RawMessage, 0, len(o.items)-from)
	out = append(out, o.items[from:]...)
	o.delivered = len(o.items)
	return out
}

// drop marks every entry reported without returning them (an output that
// broke maxOutputBytes is never sent).
func (o *outputLog) drop() {
	o.mu.Lock()
	o.delivered = len(o.items)
	o.mu.Unlock()
}
