package driver

import "sync"

// A tail keeps the last limit bytes written to it: the implementation's
// stderr, attached to failures.
type tail struct {
	mu    sync.Mutex
	limit int
	buf   []byte
	cut   bool
}

func (t *tail) Write(p []byte) (int, error) {
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

// String returns what was kept; a cut start is marked.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return "[...]" + string(t.buf)
	}
	return string(t.buf)
}
