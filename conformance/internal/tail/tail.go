// Package tail keeps the end of a stream: the stderr of an implementation
// the suite runs as a process, quoted in the failures it reports.
package tail

import "sync"

// A Buffer keeps the last Limit bytes written to it. It is safe for
// concurrent use.
type Buffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
	cut   bool
}

// New returns a Buffer that keeps the last limit bytes (none if limit <= 0).
func New(limit int) *Buffer { return &Buffer{limit: limit} }

func (t *Buffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if t.limit <= 0 {
		return n, nil
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return n, nil
}

// String returns what was kept; a cut start is marked "[...]".
func (t *Buffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return "[...]" + string(t.buf)
	}
	return string(t.buf)
}
