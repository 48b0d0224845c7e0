package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// An HTTPHost serves a [ToolHost] over loopback HTTP, so that a target in
// another process (a gateway, say) delegates tool behaviour, the
// before_tool_call hook and approvals to the suite's host through an
// [HTTPClient]. It is safe for concurrent use.
//
// Endpoints (JSON bodies, POST):
//
//	/invoke  {"index": i, "name": n, "input": v} -> {"result": Result} or {"error": {"code", "message"}}
//	/hook    {"event": e}                         -> Decision
//	/approve {"tool": n}                          -> {"granted": bool} or {"error": ...}
//
// /invoke finds the spec at index i when its name is n, else the first spec
// named n; an unknown tool is a 404 with code "unknown_tool". A failing
// behaviour is a 200 with code "tool_failed" and the failure text as
// message. A request's context is the call's: a held call or approval ends
// when the client gives up, and every pending one ends on Close.
type HTTPHost struct {
	h        ToolHost
	srv      *http.Server
	url      string
	cancel   context.CancelFunc
	served   chan struct{}  // closed when Serve returns
	handlers sync.WaitGroup // handlers running
	active   atomic.Int64   // handlers running

	mu    sync.Mutex
	specs []Spec
}

// Error codes of the HTTP host.
const (
	CodeUnknownTool = "unknown_tool"
	CodeToolFailed  = "tool_failed"
	CodeBadRequest  = "bad_request"
	CodeCanceled    = "canceled"
)

// NewHTTPHost serves h on 127.0.0.1 with a random port for the tools specs
// (tool i is specs[i]). Close it when done.
func NewHTTPHost(h ToolHost, specs []Spec) (*HTTPHost, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("wire: tool host: %w", err)
	}
	base, cancel := context.WithCancel(context.Background())
	s := &HTTPHost{h: h, cancel: cancel, url: "http://" + ln.Addr().String(),
		served: make(chan struct{}), specs: append([]Spec(nil), specs...)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /invoke", s.track(s.invoke))
	mux.HandleFunc("POST /hook", s.track(s.hook))
	mux.HandleFunc("POST /approve", s.track(s.approve))
	s.srv = &http.Server{Handler: mux, BaseContext: func(net.Listener) context.Context { return base }}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln) // returns http.ErrServerClosed after Close
	}()
	return s, nil
}

// URL returns the base URL, such as http://127.0.0.1:4242.
func (s *HTTPHost) URL() string { return s.url }

// Close ends every pending call (held calls and approvals see their
// context cancelled), closes the listener and the connections, and waits
// for the handlers.
func (s *HTTPHost) Close() {
	s.cancel()
	_ = s.srv.Close()
	<-s.served
	s.handlers.Wait()
}

// Pending returns the number of requests being answered: held calls and
// approvals included.
func (s *HTTPHost) Pending() int { return int(s.active.Load()) }

// SetSpecs replaces the tool list.
func (s *HTTPHost) SetSpecs(specs []Spec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.specs = append([]Spec(nil), specs...)
}

// lookup returns the spec at index i if it is named name, else the first
// spec named name.
func (s *HTTPHost) lookup(i int, name string) (Spec, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= 0 && i < len(s.specs) && s.specs[i].Name == name {
		return s.specs[i], true
	}
	for _, sp := range s.specs {
		if sp.Name == name {
			return sp, true
		}
	}
	return Spec{}, false
}

func (s *HTTPHost) track(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.handlers.Add(1)
		defer s.handlers.Done()
		s.active.Add(1)
		defer s.active.Add(-1)
		f(w, r)
	}
}

type invokeRequest struct {
	Index int             `json:"index"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
}

type invokeResponse struct {
	Result *Result      `json:"result,omitempty"`
	Error  *RemoteError `json:"error,omitempty"`
}

type hookRequest struct {
	Event json.RawMessage `json:"event"`
}

type approveRequest struct {
	Tool string `json:"tool"`
}

type approveResponse struct {
	Granted bool         `json:"granted"`
	Error   *RemoteError `json:"error,omitempty"`
}

func (s *HTTPHost) invoke(w http.ResponseWriter, r *http.Request) {
	var req invokeRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		reply(w, http.StatusBadRequest, invokeResponse{Error: &RemoteError{Code: CodeBadRequest, Message: "wire: invoke: " + err.Error()}})
		return
	}
	spec, ok := s.lookup(req.Index, req.Name)
	if !ok {
		reply(w, http.StatusNotFound, invokeResponse{Error: &RemoteError{Code: CodeUnknownTool,
			Message: fmt.Sprintf("wire: unknown tool %q (index %d)", req.Name, req.Index)}})
		return
	}
	res, err := s.h.Invoke(r.Context(), req.Index, spec, req.Input)
	if err != nil {
		reply(w, http.StatusOK, invokeResponse{Error: remote(err)})
		return
	}
	reply(w, http.StatusOK, invokeResponse{Result: &res})
}

func (s *HTTPHost) hook(w http.ResponseWriter, r *http.Request) {
	var req hookRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Event) == 0 || string(req.Event) == "null" {
		msg := "wire: hook: want {\"event\": ...}"
		if err != nil {
			msg = "wire: hook: " + err.Error()
		}
		reply(w, http.StatusBadRequest, map[string]any{"error": RemoteError{Code: CodeBadRequest, Message: msg}})
		return
	}
	d, err := s.h.BeforeToolCall(r.Context(), req.Event)
	if err != nil {
		reply(w, http.StatusOK, map[string]any{"error": remote(err)})
		return
	}
	reply(w, http.StatusOK, d)
}

func (s *HTTPHost) approve(w http.ResponseWriter, r *http.Request) {
	var req approveRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		reply(w, http.StatusBadRequest, approveResponse{Error: &RemoteError{Code: CodeBadRequest, Message: "wire: approve: " + err.Error()}})
		return
	}
	granted, err := s.h.Approve(r.Context(), req.Tool)
	if err != nil {
		reply(w, http.StatusOK, approveResponse{Error: remote(err)})
		return
	}
	reply(w, http.StatusOK, approveResponse{Granted: granted})
}

// remote turns a host error into its wire form.
func remote(err error) *RemoteError {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &RemoteError{Code: CodeCanceled, Message: err.Error()}
	}
	return &RemoteError{Code: CodeToolFailed, Message: err.Error()}
}

func reply(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]any{"error": RemoteError{Code: "internal", Message: err.Error()}})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
