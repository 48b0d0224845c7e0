package fakemcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
)

// HTTP transports a Server can listen with.
const (
	// StreamableHTTP serves the streamable HTTP transport at /mcp.
	StreamableHTTP = "streamable-http"
	// SSE serves the HTTP+SSE transport: the event stream at /sse and
	// messages at /message.
	SSE = "sse"
)

// A Server is one fake MCP server. Create it with [New] (unstarted), [Start]
// or [NewServer]; serve it with [Server.StartHTTP] or [Server.ServeStdio].
// It is safe for concurrent use.
type Server struct {
	def     Definition
	host    wire.ToolHost
	mcp     *server.MCPServer
	specs   map[string]wire.Spec
	replies map[string]Reply
	all     *Reply

	closing   chan struct{}
	closeOnce sync.Once

	mu  sync.Mutex
	ts  *httptest.Server
	sse *server.SSEServer
	url string
}

// New returns an unstarted server for def whose tool calls run through
// host (a new host when nil).
func New(def Definition, host wire.ToolHost) (*Server, error) {
	if host == nil {
		host = faketools.NewHost()
	}
	s := &Server{def: def, host: host, specs: map[string]wire.Spec{},
		replies: map[string]Reply{}, closing: make(chan struct{})}
	name := def.Name
	if name == "" {
		name = "fakemcp"
	}
	opts := []server.ServerOption{server.WithToolCapabilities(false)}
	if def.Resources != nil {
		opts = append(opts, server.WithResourceCapabilities(false, false))
	}
	if def.Prompts != nil {
		opts = append(opts, server.WithPromptCapabilities(false))
	}
	if def.PageSize > 0 {
		opts = append(opts, server.WithPaginationLimit(def.PageSize))
	}
	s.mcp = server.NewMCPServer(name, "1.0.0", opts...)

	for i, spec := range def.Tools {
		if spec.Name == "" {
			return nil, fmt.Errorf("fakemcp: tool %d has no name", i)
		}
		in := schema(spec)
		if !json.Valid(in) {
			return nil, fmt.Errorf("fakemcp: tool %q: input schema is not valid JSON", spec.Name)
		}
		tool := mcp.Tool{Name: spec.Name, Title: spec.Title, Description: spec.Description,
			RawInputSchema: compact(in)}
		if len(spec.OutputSchema) > 0 {
			if !json.Valid(spec.OutputSchema) {
				return nil, fmt.Errorf("fakemcp: tool %q: output schema is not valid JSON", spec.Name)
			}
			tool.RawOutputSchema = compact(spec.OutputSchema)
		}
		s.specs[spec.Name] = spec
		s.mcp.AddTool(tool, s.callTool(spec))
	}
	for i, raw := range def.Resources {
		var r resource
		if err := json.Unmarshal(raw, &r); err != nil || r.URI == "" {
			return nil, fmt.Errorf("fakemcp: resource %d: want an object with a uri", i)
		}
		s.mcp.AddResource(mcp.Resource{URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType},
			func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}}, nil
			})
	}
	for i, raw := range def.Prompts {
		var p prompt
		if err := json.Unmarshal(raw, &p); err != nil || p.Name == "" {
			return nil, fmt.Errorf("fakemcp: prompt %d: want an object with a name", i)
		}
		mp := mcp.Prompt{Name: p.Name, Description: p.Description}
		for _, a := range p.Arguments {
			mp.Arguments = append(mp.Arguments, mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		s.mcp.AddPrompt(mp, func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: p.Description, Messages: []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(render(p.Text, req.Params.Arguments))),
			}}, nil
		})
	}
	for name, r := range def.Replies {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("fakemcp: tool %q: %w", name, err)
		}
		r.Result = compact(r.Result)
		s.replies[name] = r
	}
	if def.All != nil {
		if err := def.All.check(); err != nil {
			return nil, fmt.Errorf("fakemcp: all: %w", err)
		}
		r := *def.All
		r.Result = compact(r.Result)
		s.all = &r
	}
	return s, nil
}

// Start starts a server named name with the given tools, resources and
// prompts (see [Definition]) over streamable HTTP on 127.0.0.1. Its tool
// calls run through host (a new host when nil). Close it when done.
func Start(name string, tools []wire.Spec, resources, prompts []json.RawMessage, host wire.ToolHost) (*Server, error) {
	return StartDefinition(Definition{Name: name, Tools: tools, Resources: resources, Prompts: prompts}, host, StreamableHTTP)
}

// StartDefinition starts a server for def over the given HTTP transport
// ([StreamableHTTP] or [SSE]) on 127.0.0.1. Close it when done.
func StartDefinition(def Definition, host wire.ToolHost, transport string) (*Server, error) {
	s, err := New(def, host)
	if err != nil {
		return nil, err
	}
	if err := s.StartHTTP(transport); err != nil {
		return nil, err
	}
	return s, nil
}

// NewServer is [Start] for tests: it fails t on error and closes the server
// when t ends.
func NewServer(t testing.TB, name string, tools []wire.Spec, resources, prompts []json.RawMessage, host wire.ToolHost) *Server {
	t.Helper()
	return NewDefinitionServer(t, Definition{Name: name, Tools: tools, Resources: resources, Prompts: prompts}, host, StreamableHTTP)
}

// NewDefinitionServer is [StartDefinition] for tests: it fails t on error
// and closes the server when t ends.
func NewDefinitionServer(t testing.TB, def Definition, host wire.ToolHost, transport string) *Server {
	t.Helper()
	s, err := StartDefinition(def, host, transport)
	if err != nil {
		t.Fatalf("fakemcp: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// StartHTTP starts serving over transport ("" means [StreamableHTTP]) on
// 127.0.0.1 with a random port. A server listens at most once.
func (s *Server) StartHTTP(transport string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ts != nil {
		return errors.New("fakemcp: server already started")
	}
	mux := http.NewServeMux()
	var path string
	switch transport {
	case "", StreamableHTTP:
		mux.Handle("/mcp", s.Handler())
		path = "/mcp"
	case SSE:
		s.sse = server.NewSSEServer(s.mcp)
		mux.Handle("/sse", s.sse.SSEHandler())
		mux.Handle("/message", s.sseMessages(s.sse.MessageHandler()))
		path = "/sse"
	default:
		return fmt.Errorf("fakemcp: unknown transport %q", transport)
	}
	ts := httptest.NewUnstartedServer(mux)
	ts.Config.ErrorLog = log.New(io.Discard, "", 0)
	ts.Start()
	s.ts = ts
	s.url = ts.URL + path
	return nil
}

// URL returns the endpoint clients connect to: http://127.0.0.1:<port>/mcp
// for streamable HTTP, .../sse for SSE, or "" before StartHTTP.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// Close releases hanging requests, stops serving and waits for the HTTP
// handlers to return. It is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closing) })
	s.mu.Lock()
	ts, sse := s.ts, s.sse
	s.ts = nil
	s.mu.Unlock()
	if ts == nil {
		return
	}
	if sse != nil {
		sse.CloseSessions()
	}
	ts.CloseClientConnections()
	ts.Close()
}

// Handler returns the streamable HTTP handler of the server, for tests that
// mount it themselves (for example to inspect request headers).
func (s *Server) Handler() http.Handler {
	streamable := server.NewStreamableHTTPServer(s.mcp,
		server.WithStreamableHTTPLogger(slog.New(slog.DiscardHandler)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, "read error", http.StatusBadRequest)
				return
			}
			if m, rep := s.replyFor(r.Context(), body); rep != nil {
				s.replyHTTP(w, r, m, *rep)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		streamable.ServeHTTP(w, r)
	})
}

// sseMessages wraps the SSE message endpoint with the scripted replies.
func (s *Server) sseMessages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "read error", http.StatusBadRequest)
			return
		}
		m, rep := s.replyFor(r.Context(), body)
		if rep == nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			next.ServeHTTP(w, r)
			return
		}
		if rep.Kind == ReplyClose {
			panic(http.ErrAbortHandler) // closes the connection without a response
		}
		w.WriteHeader(http.StatusAccepted)
		var event json.RawMessage
		switch rep.Kind {
		case ReplyResult:
			event = resultMessage(m.ID, rep.Result)
		case ReplyError:
			event = errorMessage(m.ID, *rep)
		case ReplyGarbage:
			event = resultMessage(m.ID, garbageResult)
		default: // ReplyHang: accepted, never answered
			return
		}
		_ = s.sse.SendEventToSession(r.URL.Query().Get("sessionId"), event)
	})
}

// replyHTTP answers one streamable HTTP request as rep says.
func (s *Server) replyHTTP(w http.ResponseWriter, r *http.Request, m message, rep Reply) {
	switch rep.Kind {
	case ReplyResult:
		writeJSON(w, resultMessage(m.ID, rep.Result))
	case ReplyError:
		writeJSON(w, errorMessage(m.ID, rep))
	case ReplyGarbage:
		writeJSON(w, []byte("this is not JSON-RPC\n"))
	case ReplyClose:
		panic(http.ErrAbortHandler) // closes the connection without a response
	case ReplyHang:
		select {
		case <-r.Context().Done():
		case <-s.closing:
			panic(http.ErrAbortHandler) // the server goes away without answering
		}
	}
}

func writeJSON(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// A message is the part of an incoming JSON-RPC message replies look at.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
}

// replyFor returns the scripted reply to the message b, or nil when the
// server answers it normally. A scripted tools/call first runs through the
// host, so it is recorded and honours holds and delays.
func (s *Server) replyFor(ctx context.Context, b []byte) (message, *Reply) {
	var m message
	if err := json.Unmarshal(b, &m); err != nil || m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return message{}, nil
	}
	if s.all != nil {
		return m, s.all
	}
	if m.Method != string(mcp.MethodToolsCall) {
		return m, nil
	}
	rep, ok := s.replies[m.Params.Name]
	if !ok {
		return m, nil
	}
	if spec, ok := s.specs[m.Params.Name]; ok {
		_, _ = s.host.Invoke(ctx, -1, spec, m.Params.Arguments)
	}
	return m, &rep
}

// garbageResult is the result of ReplyGarbage on stream transports: a
// string where a result object belongs.
var garbageResult = json.RawMessage(`"this is not a result"`)

func resultMessage(id, result json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":`)
	b.Write(result)
	b.WriteString(`}`)
	return b.Bytes()
}

func errorMessage(id json.RawMessage, rep Reply) json.RawMessage {
	code := rep.Code
	if code == 0 {
		code = mcp.INTERNAL_ERROR
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, rep.Message}})
	return b
}

// callTool returns the tools/call handler of spec.
func (s *Server) callTool(spec wire.Spec) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.RawArguments
		if len(args) == 0 && req.Params.Arguments != nil {
			b, err := json.Marshal(req.Params.Arguments)
			if err != nil {
				return nil, err
			}
			args = b
		}
		res, err := s.host.Invoke(ctx, -1, spec, args)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(err.Error())}, IsError: true}, nil
		}
		out := &mcp.CallToolResult{Content: []mcp.Content{}}
		for _, b := range res.Content {
			out.Content = append(out.Content, mcp.NewTextContent(b.Text))
		}
		if len(res.Details) > 0 {
			out.RawStructuredContent = res.Details
		}
		return out, nil
	}
}

// render replaces every {{name}} in text with the value of argument name.
// Replacement is one pass: argument values are not searched again.
func render(text string, args map[string]string) string {
	if len(args) == 0 {
		return text
	}
	names := make([]string, 0, len(args))
	for n := range args {
		names = append(names, n)
	}
	sort.Strings(names)
	pairs := make([]string, 0, 2*len(names))
	for _, n := range names {
		pairs = append(pairs, "{{"+n+"}}", args[n])
	}
	return strings.NewReplacer(pairs...).Replace(text)
}
