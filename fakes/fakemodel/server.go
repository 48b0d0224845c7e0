package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
)

// ErrClosed is returned by [Server.Next] once the server is closed.
var ErrClosed = errors.New("fakemodel: server closed")

// maxBody bounds a request body.
const maxBody = 64 << 20

// A Server is one fake model provider. It is safe for concurrent use.
type Server struct {
	ts        *httptest.Server
	closing   chan struct{}
	closeOnce sync.Once
	ids       atomic.Int64

	mu       sync.Mutex
	closed   bool
	fallback *string
	keyFunc  func([]Item) string
	expected map[string]bool
	queues   map[string]*queue
	requests []*Request
}

// A queue holds the unclaimed requests of one conversation. wake is closed
// and replaced whenever a request is added.
type queue struct {
	reqs []*Request
	wake chan struct{}
}

// NewServer starts a fake provider on 127.0.0.1 with a random port. Close it
// when done.
func NewServer() *Server {
	s := &Server{closing: make(chan struct{}), expected: map[string]bool{}, queues: map[string]*queue{}}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// URL returns the base URL of the API, including "/v1", such as
// http://127.0.0.1:4242/v1.
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Close closes the listener, fails every pending request (503) and waits
// for the handlers to return. Next then returns ErrClosed.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.closing)
	})
	s.ts.Close()
}

// SetFallback sets the final text answered at once to every later request
// whose conversation key was not registered with [Server.Expect]. Without a
// fallback (the default) such requests are queued for [Server.Next] like
// the others.
func (s *Server) SetFallback(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = &text
}

// SetKeyFunc replaces how later requests are keyed: key receives the
// normalized conversation and returns its key. The default key is the text
// of the first user message; a client that decorates user messages (with a
// timestamp, say) or repeats a session's earlier turns in every request
// needs its own. A nil key restores the default.
func (s *Server) SetKeyFunc(key func(items []Item) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keyFunc = key
}

// Expect registers a conversation key the test drives with [Server.Next]:
// its requests are queued, never answered by the fallback.
func (s *Server) Expect(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expected[key] = true
}

// Next waits for the next unclaimed request of the conversation key and
// returns it. Requests are returned in arrival order, each once, including
// those whose client has gone away meanwhile (their Done is closed). It
// returns ctx.Err() when ctx ends first, and ErrClosed once the server is
// closed.
func (s *Server) Next(ctx context.Context, key string) (*Request, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, ErrClosed
		}
		q := s.queue(key)
		if len(q.reqs) > 0 {
			r := q.reqs[0]
			q.reqs = q.reqs[1:]
			s.mu.Unlock()
			return r, nil
		}
		wake := q.wake
		s.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.closing:
			return nil, ErrClosed
		}
	}
}

// queue returns the queue of key; s.mu must be held.
func (s *Server) queue(key string) *queue {
	q, ok := s.queues[key]
	if !ok {
		q = &queue{wake: make(chan struct{})}
		s.queues[key] = q
	}
	return q
}

// Requests returns every request received so far, in arrival order:
// queued, fallback-answered and rejected ones.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	var api string
	switch r.URL.Path {
	case "/v1/models":
		if r.Method != http.MethodGet {
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "", fmt.Sprintf("Method %s not allowed for /v1/models.", r.Method))
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "fake", "object": "model", "created": 0, "owned_by": "codemodekit"},
		}})
		return
	case "/v1/responses":
		api = "responses"
	case "/v1/chat/completions":
		api = "chat"
	default:
		writeError(w, http.StatusNotFound, "unknown_url", "", fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path))
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "", fmt.Sprintf("Method %s not allowed for %s.", r.Method, r.URL.Path))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_body", "", "Could not read the request body: "+err.Error())
		return
	}
	req := newRequest(api, r.Header.Clone(), body)
	perr := req.parse()

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		writeError(w, http.StatusServiceUnavailable, "server_closed", "", "The fake model server is closed.")
		return
	}
	s.requests = append(s.requests, req)
	if perr == nil && s.keyFunc != nil {
		req.Key = s.keyFunc(req.Items)
	}
	var fallback *string
	if perr == nil && !s.expected[req.Key] && s.fallback != nil {
		fallback = s.fallback
	}
	if perr == nil && fallback == nil {
		q := s.queue(req.Key)
		q.reqs = append(q.reqs, req)
		close(q.wake)
		q.wake = make(chan struct{})
	} else {
		req.answered = true
	}
	s.mu.Unlock()

	switch {
	case perr != nil:
		writeError(w, http.StatusBadRequest, perr.code, perr.param, perr.msg)
		return
	case fallback != nil:
		_ = s.write(w, req, Reply{Text: *fallback})
		return
	}
	select {
	case rep := <-req.replies:
		if err := r.Context().Err(); err != nil {
			req.written <- errors.New("fakemodel: the client went away before the reply")
			return
		}
		req.written <- s.write(w, req, rep)
	case <-r.Context().Done():
		req.abort(errors.New("fakemodel: the client went away before the reply"))
	case <-s.closing:
		req.abort(ErrClosed)
		writeError(w, http.StatusServiceUnavailable, "server_closed", "", "The fake model server is closed.")
	}
}

// write renders rep in the API and mode of req.
func (s *Server) write(w http.ResponseWriter, req *Request, rep Reply) error {
	r := s.render(req, rep)
	if req.API == "chat" {
		return r.chat(w)
	}
	return r.responses(w)
}

// An apiError is a rejected request.
type apiError struct{ code, param, msg string }

func writeError(w http.ResponseWriter, status int, code, param, msg string) {
	e := map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": code}
	if status >= 500 {
		e["type"] = "server_error"
	}
	if param != "" {
		e["param"] = param
	}
	writeJSON(w, status, map[string]any{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if _, err := w.Write(append(b, '\n')); err != nil {
		return err
	}
	return http.NewResponseController(w).Flush()
}
