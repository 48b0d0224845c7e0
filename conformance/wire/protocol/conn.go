package protocol

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// A Handler answers one incoming request with a result (encoded as JSON)
// or an error. The error becomes the error member of the response: an
// *RPCError as it is, a *ToolError as tool_failed, the end of ctx as
// cancelled, and anything else as internal_error. ctx ends when the peer
// cancels the request or the Conn ends.
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// A Conn is one end of the protocol over a line stream, for either side:
// Call sends a request and waits for its response, and Read runs every
// incoming request in its own goroutine, so both sides may have many
// requests in flight in both directions. It is safe for concurrent use.
type Conn struct {
	handle Handler
	// after, when set, is called with the method of every request once
	// its response is written.
	after func(method string)

	wmu sync.Mutex
	w   io.Writer

	mu        sync.Mutex
	nextID    int64
	pending   map[int64]chan *message       // our requests awaiting a response
	abandoned map[int64]bool                // our cancelled requests; a late response is ignored
	incoming  map[string]context.CancelFunc // their requests in flight, by id
	err       error                         // why the Conn ended; set once
	done      chan struct{}                 // closed when the Conn ends
	inErr     error                         // why the input ended; set once
	inDone    chan struct{}                 // closed when the input ends: no response can come
	ctx       context.Context               // parent of every handler's context
	cancel    context.CancelFunc
	handlers  sync.WaitGroup
}

// writeGrace is how long a failed write waits for the read loop to say why
// the peer went away.
const writeGrace = 2 * time.Second

// NewConn returns a Conn that writes to w and answers requests with h.
// Call Read to receive.
func NewConn(w io.Writer, h Handler) *Conn {
	ctx, cancel := context.WithCancel(context.Background())
	return &Conn{handle: h, w: w, pending: map[int64]chan *message{}, abandoned: map[int64]bool{},
		incoming: map[string]context.CancelFunc{}, done: make(chan struct{}), inDone: make(chan struct{}), ctx: ctx, cancel: cancel}
}

// A MessageError is something the peer should never have written: a line
// that is not a protocol message, a response to no request, a result of
// the wrong shape.
type MessageError struct {
	Reason string
	Line   []byte
}

func (e *MessageError) Error() string {
	const show = 200
	l := e.Line
	cut := ""
	if len(l) > show {
		l, cut = l[:show], fmt.Sprintf("... (%d bytes)", len(e.Line))
	}
	return fmt.Sprintf("%s: %q%s", e.Reason, l, cut)
}

// Read dispatches the lines of r until r ends or a line is not a valid
// message. It returns io.EOF at the end of r, a *MessageError for a bad
// line, or the read error. It does not end the Conn: the caller decides
// why it ended and calls End.
func (c *Conn) Read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return &MessageError{Reason: fmt.Sprintf("message longer than %d bytes", maxLine), Line: line}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if perr := c.dispatch(line); perr != nil {
				return perr
			}
		}
		line = line[:0]
		if err != nil {
			return err
		}
	}
}

// dispatch handles one non-blank line.
func (c *Conn) dispatch(line []byte) error {
	m, err := decodeMessage(line)
	if err != nil {
		return &MessageError{Reason: "invalid message: " + err.Error(), Line: append([]byte(nil), line...)}
	}
	switch m.kind {
	case kindResponse:
		id, ok := intID(m.ID)
		c.mu.Lock()
		ch, isPending := c.pending[id]
		late := c.abandoned[id]
		delete(c.pending, id)
		delete(c.abandoned, id)
		c.mu.Unlock()
		switch {
		case ok && isPending:
			ch <- m
		case ok && late:
		default:
			return &MessageError{Reason: "response to no request in flight", Line: append([]byte(nil), line...)}
		}
	case kindNotification:
		if m.Method == MethodCancel {
			var p CancelParams
			if json.Unmarshal(m.Params, &p) == nil {
				if id, err := compactID(p.ID); err == nil {
					c.mu.Lock()
					cancel := c.incoming[string(id)]
					c.mu.Unlock()
					if cancel != nil {
						cancel()
					}
				}
			}
		}
		// Other notifications are ignored.
	case kindRequest:
		key := string(m.ID)
		c.mu.Lock()
		if c.err != nil {
			c.mu.Unlock()
			return nil
		}
		if _, dup := c.incoming[key]; dup {
			c.mu.Unlock()
			return &MessageError{Reason: "request id already in flight", Line: append([]byte(nil), line...)}
		}
		ctx, cancel := context.WithCancel(c.ctx)
		c.incoming[key] = cancel
		c.handlers.Add(1)
		c.mu.Unlock()
		go c.serve(ctx, cancel, m)
	}
	return nil
}

// serve runs one incoming request and writes its response.
func (c *Conn) serve(ctx context.Context, cancel context.CancelFunc, m *message) {
	defer c.handlers.Done()
	res, err := c.handle(ctx, m.Method, m.Params)
	cancelled := ctx.Err() != nil
	cancel()
	c.mu.Lock()
	delete(c.incoming, string(m.ID))
	c.mu.Unlock()
	out := &message{kind: kindResponse, ID: m.ID}
	if err == nil {
		b, merr := Marshal(res)
		if merr != nil {
			err = fmt.Errorf("encode result: %w", merr)
		} else {
			out.Result = b
		}
	}
	if err != nil {
		out.Error = rpcError(err, cancelled)
	}
	_ = c.write(out)
	if c.after != nil {
		c.after(m.Method)
	}
}

// write sends one message. A write error does not end the Conn: the peer
// is gone, and the read loop's end says why.
func (c *Conn) write(m *message) error {
	b, err := encodeMessage(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.done:
		return c.err
	default:
	}
	if _, err := c.w.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", describe(m), err)
	}
	return nil
}

func describe(m *message) string {
	if m.Method != "" {
		return m.Method
	}
	return "response " + string(m.ID)
}

// Call sends a request and decodes its result into result (nil to
// discard it). When ctx ends first, it sends $/cancel and returns
// ctx.Err(); an error response is returned as an *RPCError, a result
// that does not decode as a *MessageError; when the Conn ends first, it
// returns the error End was given.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	p, err := Marshal(params)
	if err != nil {
		return fmt.Errorf("encode %s params: %w", method, err)
	}
	if p[0] != '{' && p[0] != '[' {
		return fmt.Errorf("%s params are not an object or an array: %s", method, p)
	}
	ch := make(chan *message, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	if c.inErr != nil {
		c.mu.Unlock()
		return c.inErr
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	idRaw := json.RawMessage(fmt.Sprint(id))
	if err := c.write(&message{kind: kindRequest, ID: idRaw, Method: method, Params: p}); err != nil {
		c.forget(id)
		// The peer is gone: prefer the reason the read loop finds.
		t := time.NewTimer(writeGrace)
		defer t.Stop()
		select {
		case <-c.done:
			return c.Err()
		case <-t.C:
			return err
		case <-ctx.Done():
			return err
		}
	}
	var m *message
	select {
	case m = <-ch:
	case <-ctx.Done():
		c.mu.Lock()
		_, stillPending := c.pending[id]
		delete(c.pending, id)
		if stillPending {
			c.abandoned[id] = true
		}
		c.mu.Unlock()
		if stillPending {
			_ = c.Notify(MethodCancel, CancelParams{ID: idRaw})
		}
		return ctx.Err()
	case <-c.done:
		select {
		case m = <-ch: // answered before the end
		default:
			c.forget(id)
			return c.Err()
		}
	case <-c.inDone:
		select {
		case m = <-ch:
		default:
			c.forget(id)
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.inErr
		}
	}
	if m.Error != nil {
		return m.Error
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(m.Result, result); err != nil {
		return &MessageError{Reason: fmt.Sprintf("%s result does not decode: %v", method, err), Line: m.Result}
	}
	return nil
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	p, err := Marshal(params)
	if err != nil {
		return err
	}
	return c.write(&message{kind: kindNotification, Method: method, Params: p})
}

// End ends the Conn with err (the first call wins): calls in flight and
// later ones return err, nothing more is written, and every handler's
// context is cancelled.
func (c *Conn) End(err error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = err
	close(c.done)
	c.mu.Unlock()
	c.cancel()
}

// endInput records that no message will arrive any more: calls in flight
// and later calls return err, but responses can still be written.
func (c *Conn) endInput(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inErr == nil {
		c.inErr = err
		close(c.inDone)
	}
}

// Err returns the error the Conn ended with, or nil.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Wait waits for every handler to return.
func (c *Conn) Wait() { c.handlers.Wait() }

// rpcError maps a handler error to the error member of its response.
func rpcError(err error, cancelled bool) *RPCError {
	var re *RPCError
	var te *ToolError
	switch {
	case errors.As(err, &re):
		return re
	case errors.As(err, &te):
		return &RPCError{Code: CodeToolFailed, Message: te.Message}
	case cancelled && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		return &RPCError{Code: CodeCancelled, Message: "request cancelled"}
	default:
		return &RPCError{Code: CodeInternalError, Message: err.Error()}
	}
}
