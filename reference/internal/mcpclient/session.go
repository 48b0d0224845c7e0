package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// ClientName is the clientInfo name sent in the initialize request.
const ClientName = "codemodekit"

// maxToolPages bounds tools/list pagination against servers that never stop
// returning new cursors.
const maxToolPages = 1000

// Capabilities are the server capabilities the catalog needs (CM-11.11).
type Capabilities struct {
	Tools     bool
	Resources bool
	Prompts   bool
}

// A Tool is one entry of tools/list. InputSchema and OutputSchema are the
// server's JSON text, byte for byte (so property order survives), or nil
// when absent or null.
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
}

// A Session is a connection to one MCP server, after the initialize
// handshake. It is safe for concurrent use; Close it when done.
type Session struct {
	name    string
	timeout time.Duration // nested-call requests
	setup   time.Duration // starting, initialize, tools/list
	tr      transport.Interface
	cmd     *exec.Cmd       // stdio servers
	httpTr  *http.Transport // HTTP servers
	caps    Capabilities

	ids       atomic.Int64
	life      context.Context // ends when the session closes
	stop      context.CancelFunc
	gone      chan struct{} // closed when the session closes or its SSE stream is lost
	goneOnce  sync.Once
	closeOnce sync.Once
}

// Connect starts or reaches the server name as cfg says, performs the
// initialize handshake and returns the session. Starting the transport and
// each handshake step are bounded by cfg's setup timeout; later requests by
// cfg's timeout (tools/list pages by the setup timeout too).
//
// A stdio server runs cfg.Command with cfg.Args in cfg.Cwd, in its own
// process group, with an environment made of HOME, LOGNAME, PATH, SHELL,
// TERM and USER from this process plus cfg.Env; its stderr is discarded.
// An HTTP server gets cfg.Headers on every request.
//
// Errors are *Error values (KindUnavailable when the process or connection
// cannot be set up) or ctx's error when ctx ends first.
func Connect(ctx context.Context, name string, cfg ServerConfig) (*Session, error) {
	s := &Session{name: name, timeout: cfg.Timeout(), setup: cfg.SetupTimeout(), gone: make(chan struct{})}
	s.life, s.stop = context.WithCancel(context.Background())
	if err := s.open(cfg); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.start(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.initialize(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// Name returns the configured server name.
func (s *Session) Name() string { return s.name }

// Timeout returns the bound of nested-call requests.
func (s *Session) Timeout() time.Duration { return s.timeout }

// Capabilities returns the capabilities the server declared.
func (s *Session) Capabilities() Capabilities { return s.caps }

// open builds the transport.
func (s *Session) open(cfg ServerConfig) error {
	discard := slog.New(slog.DiscardHandler)
	switch {
	case cfg.Command != "":
		cmd := exec.Command(cfg.Command, cfg.Args...)
		cmd.Env = environ(cfg.Env)
		cmd.Dir = cfg.Cwd
		cmd.Stderr = nil // the null device: stderr is discarded
		cmd.WaitDelay = time.Second
		setProcessGroup(cmd)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return s.fail(KindUnavailable)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return s.fail(KindUnavailable)
		}
		if err := cmd.Start(); err != nil {
			return s.fail(KindUnavailable)
		}
		s.cmd = cmd
		pipes := transport.NewIO(stdout, stdin, nil)
		transport.WithCommandLogger(discard)(pipes) // options are plain setters
		s.tr = pipes
	case cfg.URL != "":
		u, err := url.Parse(cfg.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return s.fail(KindUnavailable)
		}
		s.httpTr = http.DefaultTransport.(*http.Transport).Clone()
		hc := &http.Client{Transport: s.httpTr}
		if strings.EqualFold(cfg.Transport, TransportSSE) {
			sse, err := transport.NewSSE(cfg.URL, transport.WithHeaders(cfg.Headers), transport.WithHTTPClient(hc),
				transport.WithSSELogger(discard), transport.WithEndpointTimeout(s.setup),
				transport.WithResponseTimeout(2*max(s.timeout, s.setup)))
			if err != nil {
				return s.fail(KindUnavailable)
			}
			sse.SetConnectionLostHandler(func(error) { s.lose() })
			s.tr = sse
		} else {
			h, err := transport.NewStreamableHTTP(cfg.URL, transport.WithHTTPHeaders(cfg.Headers),
				transport.WithHTTPBasicClient(hc), transport.WithHTTPLogger(discard))
			if err != nil {
				return s.fail(KindUnavailable)
			}
			s.tr = h
		}
	default:
		return s.fail(KindUnavailable)
	}
	if b, ok := s.tr.(transport.BidirectionalInterface); ok {
		b.SetRequestHandler(answerServerRequest)
	}
	return nil
}

// environ returns the environment of a stdio server.
func environ(extra map[string]string) []string {
	var env []string
	for _, k := range inheritedEnv {
		if v, ok := os.LookupEnv(k); ok && !strings.HasPrefix(v, "()") {
			env = append(env, k+"="+v)
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k]) // exec keeps the last value of a key
	}
	return env
}

// answerServerRequest answers requests the server sends: ping, and
// "method not found" for everything else (the client declares no
// capability).
func answerServerRequest(_ context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method == string(mcp.MethodPing) {
		return transport.NewJSONRPCResultResponse(req.ID, json.RawMessage(`{}`)), nil
	}
	return transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "Method not found", nil), nil
}

// start starts the transport (for SSE: opens the event stream and waits
// for the endpoint), bounded by the timeout and ctx.
func (s *Session) start(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.tr.Start(s.life) }()
	timer := time.NewTimer(s.setup)
	defer timer.Stop()
	select {
	case err := <-errc:
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return s.fail(classify(err))
		}
		return nil
	case <-timer.C:
		return s.fail(KindTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// initialize performs the initialize handshake of protocol revision
// 2025-11-25 and records the server's capabilities.
func (s *Session) initialize(ctx context.Context) error {
	raw, err := s.request(ctx, s.setup, string(mcp.MethodInitialize), map[string]any{
		"protocolVersion": mcp.LATEST_LEGACY_PROTOCOL_VERSION,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": ClientName, "version": "1.0.0"},
	})
	if err != nil {
		return err
	}
	var res struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return s.fail(KindInvalid)
	}
	declared := func(name string) bool {
		v, ok := res.Capabilities[name]
		return ok && string(v) != "null"
	}
	s.caps = Capabilities{Tools: declared("tools"), Resources: declared("resources"), Prompts: declared("prompts")}
	if h, ok := s.tr.(transport.HTTPConnection); ok && res.ProtocolVersion != "" {
		h.SetProtocolVersion(res.ProtocolVersion)
	}
	return s.notify(ctx, s.setup, string(mcp.MethodNotificationInitialized), nil)
}

// ListTools lists every tool of the server, following pagination (each page
// bounded by the setup timeout). Entries that are not objects or have no
// name are skipped; a repeated cursor is an invalid response.
func (s *Session) ListTools(ctx context.Context) ([]Tool, error) {
	tools := []Tool{}
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page == maxToolPages {
			return nil, s.fail(KindInvalid)
		}
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		raw, err := s.request(ctx, s.setup, string(mcp.MethodToolsList), params)
		if err != nil {
			return nil, err
		}
		var res struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor *string           `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, s.fail(KindInvalid)
		}
		for _, t := range res.Tools {
			var m map[string]json.RawMessage
			if json.Unmarshal(t, &m) != nil || readString(m["name"]) == "" {
				continue
			}
			tools = append(tools, Tool{Name: readString(m["name"]), Title: readString(m["title"]),
				Description: readString(m["description"]), InputSchema: schemaOf(m["inputSchema"]),
				OutputSchema: schemaOf(m["outputSchema"])})
		}
		if res.NextCursor == nil || *res.NextCursor == "" {
			return tools, nil
		}
		cursor = *res.NextCursor
		if seen[cursor] {
			return nil, s.fail(KindInvalid)
		}
		seen[cursor] = true
	}
}

func schemaOf(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}

// CallTool calls the tool name with args (a JSON object; empty means {}) and
// returns the whole result object exactly as the server sent it: content,
// structuredContent, isError, _meta and any other member. A result with
// isError true is a result, not an error (CM-14.16).
func (s *Session) CallTool(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	if !json.Valid(args) {
		return nil, errors.New("mcpclient: tool arguments are not valid JSON")
	}
	return s.request(ctx, s.timeout, string(mcp.MethodToolsCall), struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}{name, args})
}

// ListResources sends resources/list with params (a JSON object, or empty
// for none) and returns the server's result object as it was sent.
func (s *Session) ListResources(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	return s.rawRequest(ctx, string(mcp.MethodResourcesList), params)
}

// ReadResource sends resources/read with params and returns the server's
// result object as it was sent.
func (s *Session) ReadResource(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	return s.rawRequest(ctx, string(mcp.MethodResourcesRead), params)
}

// ListPrompts sends prompts/list with params (a JSON object, or empty for
// none) and returns the server's result object as it was sent.
func (s *Session) ListPrompts(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	return s.rawRequest(ctx, string(mcp.MethodPromptsList), params)
}

// GetPrompt sends prompts/get with params and returns the server's result
// object as it was sent.
func (s *Session) GetPrompt(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	return s.rawRequest(ctx, string(mcp.MethodPromptsGet), params)
}

func (s *Session) rawRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(params)) == 0 {
		return s.request(ctx, s.timeout, method, nil)
	}
	if !json.Valid(params) {
		return nil, errors.New("mcpclient: request params are not valid JSON")
	}
	return s.request(ctx, s.timeout, method, params)
}

// A reply is what a transport's SendRequest returned.
type reply struct {
	resp *transport.JSONRPCResponse
	err  error
}

// request sends one request, bounded by bound, and returns its result
// object: the bytes of the response's "result" member as the transport
// read them. Every failure is an *Error, except ctx's own end.
func (s *Session) request(ctx context.Context, bound time.Duration, method string, params any) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.isGone() {
		return nil, s.fail(KindClosed)
	}
	tctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	id := mcp.NewRequestId(s.ids.Add(1))
	req := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: method, Params: params}
	// The transport runs on its own goroutine: a stdio write to a server
	// that stopped reading blocks without regard for the context, and must
	// not hold the caller past the timeout. Close unblocks it.
	ch := make(chan reply, 1)
	go func() {
		resp, err := s.tr.SendRequest(tctx, req)
		ch <- reply{resp, err}
	}()
	var r reply
	select {
	case r = <-ch:
	case <-tctx.Done():
		r.err = tctx.Err()
	case <-s.gone:
		r.err = transport.ErrTransportClosed
	}
	if r.err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case s.isGone():
			return nil, s.fail(KindClosed)
		case tctx.Err() != nil:
			s.cancelRequest(id)
			return nil, s.fail(KindTimeout)
		default:
			return nil, s.fail(classify(r.err))
		}
	}
	switch {
	case r.resp == nil:
		return nil, s.fail(KindInvalid)
	case r.resp.Error != nil:
		return nil, &Error{Server: s.name, Kind: KindRPC, Code: r.resp.Error.Code, Message: r.resp.Error.Message}
	case !isObject(r.resp.Result):
		return nil, s.fail(KindInvalid)
	}
	return r.resp.Result, nil
}

// notify sends a notification, bounded by bound.
func (s *Session) notify(ctx context.Context, bound time.Duration, method string, params map[string]any) error {
	tctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{Method: method, Params: mcp.NotificationParams{AdditionalFields: params}}}
	errc := make(chan error, 1)
	go func() { errc <- s.tr.SendNotification(tctx, n) }()
	var err error
	select {
	case err = <-errc:
	case <-tctx.Done():
		err = tctx.Err()
	case <-s.gone:
		err = transport.ErrTransportClosed
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case s.isGone():
		return s.fail(KindClosed)
	case tctx.Err() != nil:
		return s.fail(KindTimeout)
	default:
		return s.fail(classify(err))
	}
}

// cancelRequest tells a stream-transport server, best effort and off the
// caller's path, that the client stopped waiting for request id. Over
// streamable HTTP ending the HTTP request already says so.
func (s *Session) cancelRequest(id mcp.RequestId) {
	if _, ok := s.tr.(*transport.StreamableHTTP); ok {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(s.life, s.timeout)
		defer cancel()
		_ = s.tr.SendNotification(ctx, mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION,
			Notification: mcp.Notification{Method: string(mcp.MethodNotificationCancelled),
				Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": id, "reason": "timeout"}}}})
	}()
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}

func (s *Session) fail(k Kind) *Error { return &Error{Server: s.name, Kind: k} }

// lose marks the connection lost: pending and later requests fail with
// KindClosed.
func (s *Session) lose() { s.goneOnce.Do(func() { close(s.gone) }) }

func (s *Session) isGone() bool {
	select {
	case <-s.gone:
		return true
	default:
		return false
	}
}

// closeWait bounds how long Close waits for a transport to close (an HTTP
// session's DELETE, for example).
const closeWait = 2 * time.Second

// Close ends the session: pending requests fail with "closed the
// connection", a stdio server's process group is killed and waited for, and
// HTTP connections are released. It is safe to call more than once and
// always returns nil.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		s.lose()
		s.stop()
		if s.cmd != nil {
			killProcessGroup(s.cmd)
		}
		if s.tr != nil {
			done := make(chan struct{})
			go func() {
				_ = s.tr.Close()
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(min(closeWait, s.timeout)):
			}
		}
		if s.cmd != nil {
			_ = s.cmd.Wait()
		}
		if s.httpTr != nil {
			s.httpTr.CloseIdleConnections()
		}
	})
	return nil
}

var _ io.Closer = (*Session)(nil)
