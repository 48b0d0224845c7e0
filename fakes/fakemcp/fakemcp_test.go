package fakemcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
)

// transports are the ways a test reaches a server.
var transports = []string{StreamableHTTP, SSE, "stdio"}

// A conn is a raw JSON-RPC connection to a fake, after the handshake.
type conn struct {
	t      *testing.T
	tr     transport.Interface
	id     atomic.Int64
	init   json.RawMessage
	server *Server
}

// dial serves def over kind and connects to it with mcp-go's client
// transports, performing the initialize handshake. t.Cleanup closes both.
func dial(t *testing.T, def Definition, host wire.ToolHost, kind string) *conn {
	t.Helper()
	c := dialNoInit(t, def, host, kind)
	res, rpcErr, err := c.call(context.Background(), "initialize", map[string]any{
		"protocolVersion": mcp.LATEST_LEGACY_PROTOCOL_VERSION,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "fakemcp-test", "version": "0"},
	})
	if err != nil || rpcErr != nil {
		t.Fatalf("initialize: %v %v", err, rpcErr)
	}
	c.init = res
	if err := c.tr.SendNotification(context.Background(), mcp.JSONRPCNotification{JSONRPC: "2.0",
		Notification: mcp.Notification{Method: "notifications/initialized"}}); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	return c
}

func dialNoInit(t *testing.T, def Definition, host wire.ToolHost, kind string) *conn {
	t.Helper()
	var tr transport.Interface
	var s *Server
	switch kind {
	case "stdio":
		var err error
		s, err = New(def, host)
		if err != nil {
			t.Fatal(err)
		}
		cr, cw := io.Pipe() // client to server
		sr, sw := io.Pipe() // server to client
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = s.ServeStdio(context.Background(), cr, sw)
			_ = sw.Close()
		}()
		tr = transport.NewIO(sr, cw, nil)
		t.Cleanup(func() {
			_ = cw.Close()
			s.Close()
			<-done
		})
	default:
		s = NewDefinitionServer(t, def, host, kind)
		var err error
		if kind == SSE {
			tr, err = transport.NewSSE(s.URL())
		} else {
			tr, err = transport.NewStreamableHTTP(s.URL())
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Start(context.Background()); err != nil {
		t.Fatalf("start %s: %v", kind, err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return &conn{t: t, tr: tr, server: s}
}

// call sends one request and returns its raw result or JSON-RPC error.
func (c *conn) call(ctx context.Context, method string, params any) (json.RawMessage, *mcp.JSONRPCErrorDetails, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	resp, err := c.tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0",
		ID: mcp.NewRequestId(c.id.Add(1)), Method: method, Params: params})
	if err != nil {
		return nil, nil, err
	}
	return resp.Result, resp.Error, nil
}

// mustCall is call for requests that must succeed.
func (c *conn) mustCall(method string, params any) json.RawMessage {
	c.t.Helper()
	res, rpcErr, err := c.call(context.Background(), method, params)
	if err != nil || rpcErr != nil {
		c.t.Fatalf("%s: %v %+v", method, err, rpcErr)
	}
	return res
}

// decode unmarshals raw JSON into a generic value for cmp.
func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

func str(s string) *string { return &s }

func TestServer_tools(t *testing.T) {
	def := Definition{Name: "docs", Tools: []wire.Spec{
		{Name: "search", Title: "Search", Description: "Search the docs.",
			InputSchema:  json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string"}, "a": {"type": "number"}}, "required": ["q"]}`),
			OutputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "legacy", Parameters: json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer"}}}`)},
		{Name: "bare"},
	}}
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			c := dial(t, def, nil, kind)
			var res struct {
				Tools []struct {
					Name         string          `json:"name"`
					Title        string          `json:"title"`
					Description  string          `json:"description"`
					InputSchema  json.RawMessage `json:"inputSchema"`
					OutputSchema json.RawMessage `json:"outputSchema"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(c.mustCall("tools/list", nil), &res); err != nil {
				t.Fatal(err)
			}
			type tool struct{ Name, Title, Description, In, Out string }
			var got []tool
			for _, tl := range res.Tools {
				got = append(got, tool{tl.Name, tl.Title, tl.Description, string(tl.InputSchema), string(tl.OutputSchema)})
			}
			want := []tool{ // mcp-go lists tools by name
				{Name: "bare", In: `{"type":"object","properties":{}}`},
				{Name: "legacy", In: `{"type":"object","properties":{"x":{"type":"integer"}}}`},
				{Name: "search", Title: "Search", Description: "Search the docs.",
					In:  `{"type":"object","properties":{"q":{"type":"string"},"a":{"type":"number"}},"required":["q"]}`,
					Out: `{"type":"object"}`},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tools/list mismatch (-want +got):\n%s", diff)
			}
			var initRes struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			}
			_ = json.Unmarshal(c.init, &initRes)
			if _, ok := initRes.Capabilities["tools"]; !ok {
				t.Errorf("initialize capabilities = %s, want tools", c.init)
			}
			for _, absent := range []string{"resources", "prompts"} {
				if _, ok := initRes.Capabilities[absent]; ok {
					t.Errorf("initialize capabilities = %s, want no %s", c.init, absent)
				}
			}
		})
	}
}

func TestServer_callTool(t *testing.T) {
	tests := []struct {
		name     string
		behavior *wire.Behavior
		args     string
		want     string
		reason   string
	}{
		{name: "returns", behavior: &wire.Behavior{Returns: json.RawMessage(`{"city": "Oslo", "temp": 21}`)},
			want:   `{"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"temp\":21}"}],"structuredContent":{"city":"Oslo","temp":21}}`,
			reason: "details become structuredContent; the text block is their compact JSON"},
		{name: "text", behavior: &wire.Behavior{Text: str("hello")},
			want:   `{"content":[{"type":"text","text":"hello"}]}`,
			reason: "a text result has no details, so no structuredContent"},
		{name: "echo", behavior: &wire.Behavior{Echo: true}, args: `{"q":"x","n":12345678901234567890}`,
			want:   `{"content":[{"type":"text","text":"{\"q\":\"x\",\"n\":12345678901234567890}"}],"structuredContent":{"q":"x","n":12345678901234567890}}`,
			reason: "arguments reach the host as raw JSON: big integers survive"},
		{name: "fails", behavior: &wire.Behavior{Fails: str("disk full")},
			want:   `{"content":[{"type":"text","text":"disk full"}],"isError":true}`,
			reason: "a failing behaviour is an isError result, not a JSON-RPC error"},
		{name: "default", want: `{"content":[{"type":"text","text":"{\"input\":{},\"tool\":\"t\"}"}],"structuredContent":{"tool":"t","input":{}}}`,
			reason: "faketools' default details are {tool, input}"},
	}
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					host := faketools.NewHost()
					c := dial(t, Definition{Tools: []wire.Spec{{Name: "t", Behavior: tt.behavior}}}, host, kind)
					params := map[string]any{"name": "t"}
					if tt.args != "" {
						params["arguments"] = json.RawMessage(tt.args)
					}
					got := c.mustCall("tools/call", params)
					if diff := cmp.Diff(decodeNumbers(t, []byte(tt.want)), decodeNumbers(t, got)); diff != "" {
						t.Errorf("tools/call result mismatch (-want +got):\n%s\nreason: %s", diff, tt.reason)
					}
					if n := len(host.Calls("t")); n != 1 {
						t.Errorf("host saw %d calls of t, want 1", n)
					}
				})
			}
		})
	}
}

// decodeNumbers is decode keeping numbers as json.Number.
func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

func TestServer_resourcesAndPrompts(t *testing.T) {
	def := Definition{
		Resources: []json.RawMessage{
			json.RawMessage(`{"uri": "memo://one", "name": "one", "mimeType": "text/plain", "text": "first memo"}`),
		},
		Prompts: []json.RawMessage{
			json.RawMessage(`{"name": "brief", "description": "A brief.", "arguments": [{"name": "topic", "required": true}], "text": "Write about {{topic}} ({{topic}}), not {{other}}."}`),
		},
	}
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			c := dial(t, def, nil, kind)
			checks := []struct {
				method string
				params any
				want   string
			}{
				{"resources/list", nil, `{"resources":[{"uri":"memo://one","name":"one","mimeType":"text/plain"}]}`},
				{"resources/read", map[string]any{"uri": "memo://one"}, `{"contents":[{"uri":"memo://one","mimeType":"text/plain","text":"first memo"}]}`},
				{"prompts/list", nil, `{"prompts":[{"name":"brief","description":"A brief.","arguments":[{"name":"topic","required":true}]}]}`},
				{"prompts/get", map[string]any{"name": "brief", "arguments": map[string]string{"topic": "release {{other}}"}},
					`{"description":"A brief.","messages":[{"role":"user","content":{"type":"text","text":"Write about release {{other}} (release {{other}}), not {{other}}."}}]}`},
			}
			for _, ck := range checks {
				got := c.mustCall(ck.method, ck.params)
				if diff := cmp.Diff(decode(t, []byte(ck.want)), decode(t, got)); diff != "" {
					t.Errorf("%s mismatch (-want +got):\n%s", ck.method, diff)
				}
			}
			_, rpcErr, err := c.call(context.Background(), "resources/read", map[string]any{"uri": "memo://missing"})
			if err != nil || rpcErr == nil {
				t.Errorf("resources/read of a missing resource = %v, %v; want a JSON-RPC error", rpcErr, err)
			}
			var initRes struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			}
			_ = json.Unmarshal(c.init, &initRes)
			for _, want := range []string{"tools", "resources", "prompts"} {
				if _, ok := initRes.Capabilities[want]; !ok {
					t.Errorf("initialize capabilities = %s, want %s", c.init, want)
				}
			}
		})
	}
}

func TestServer_pagination(t *testing.T) {
	def := Definition{PageSize: 2}
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		def.Tools = append(def.Tools, wire.Spec{Name: n})
	}
	c := dial(t, def, nil, StreamableHTTP)
	var pages [][]string
	cursor := ""
	for range 10 {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		var res struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(c.mustCall("tools/list", params), &res); err != nil {
			t.Fatal(err)
		}
		var page []string
		for _, tl := range res.Tools {
			page = append(page, tl.Name)
		}
		pages = append(pages, page)
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	want := [][]string{{"a", "b"}, {"c", "d"}, {"e"}}
	if diff := cmp.Diff(want, pages); diff != "" {
		t.Errorf("tools/list pages mismatch (-want +got):\n%s", diff)
	}
}

func TestServer_replies(t *testing.T) {
	verbatim := `{"content": [{"type": "text", "text": "hi"}], "isError": true, "_meta": {"trace": 1.50}, "extra": [null]}`
	def := Definition{
		Tools: []wire.Spec{{Name: "verbatim"}, {Name: "rpc"}, {Name: "junk"}, {Name: "slow"}, {Name: "drop"}, {Name: "fine"}},
		Replies: map[string]Reply{
			"verbatim": {Kind: ReplyResult, Result: json.RawMessage(verbatim)},
			"rpc":      {Kind: ReplyError, Code: -32001, Message: "quota exceeded"},
			"junk":     {Kind: ReplyGarbage},
			"slow":     {Kind: ReplyHang},
			"drop":     {Kind: ReplyClose},
		},
	}
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			host := faketools.NewHost()
			c := dial(t, def, host, kind)
			callTool := func(name string, timeout time.Duration) (json.RawMessage, *mcp.JSONRPCErrorDetails, error) {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				defer cancel()
				return c.call(ctx, "tools/call", map[string]any{"name": name, "arguments": map[string]any{"k": 1}})
			}

			got, _, err := callTool("verbatim", 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if want := string(compact(json.RawMessage(verbatim))); string(got) != want {
				t.Errorf("verbatim result = %s, want exactly %s", got, want)
			}

			_, rpcErr, err := callTool("rpc", 5*time.Second)
			if err != nil || rpcErr == nil || rpcErr.Code != -32001 || rpcErr.Message != "quota exceeded" {
				t.Errorf("rpc reply = %+v, %v; want JSON-RPC error -32001 quota exceeded", rpcErr, err)
			}

			got, rpcErr, err = callTool("junk", 5*time.Second)
			if kind == StreamableHTTP {
				var se *json.SyntaxError
				if !errors.As(err, &se) {
					t.Errorf("garbage reply over %s = %s, %v, %v; want a JSON syntax error", kind, got, rpcErr, err)
				}
			} else if err != nil || string(got) != string(garbageResult) {
				t.Errorf("garbage reply over %s = %s, %v, %v; want result %s", kind, got, rpcErr, err, garbageResult)
			}

			start := time.Now()
			if _, _, err := callTool("slow", 200*time.Millisecond); err == nil {
				t.Errorf("hang reply: err = nil, want a timeout")
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("hang reply took %v to time out", d)
			}

			if _, _, err := callTool("drop", 5*time.Second); err == nil {
				t.Errorf("close reply: err = nil, want an error")
			}

			for _, name := range []string{"verbatim", "rpc", "junk", "slow", "drop"} {
				if n := len(host.Calls(name)); n != 1 {
					t.Errorf("host saw %d calls of %s, want 1", n, name)
				}
			}
		})
	}
}

func TestServer_all(t *testing.T) {
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			c := dialNoInit(t, Definition{All: &Reply{Kind: ReplyError, Message: "nope"}}, nil, kind)
			_, rpcErr, err := c.call(context.Background(), "initialize", map[string]any{})
			if err != nil || rpcErr == nil || rpcErr.Message != "nope" {
				t.Errorf("initialize = %+v, %v; want JSON-RPC error nope", rpcErr, err)
			}
		})
	}
	t.Run("garbage", func(t *testing.T) {
		c := dialNoInit(t, Definition{All: &Reply{Kind: ReplyGarbage}}, nil, StreamableHTTP)
		_, _, err := c.call(context.Background(), "initialize", map[string]any{})
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("initialize against a garbage server: err = %v, want a JSON syntax error", err)
		}
	})
}

func TestServer_closeReleasesHangs(t *testing.T) {
	s := NewDefinitionServer(t, Definition{Tools: []wire.Spec{{Name: "slow"}},
		Replies: map[string]Reply{"slow": {Kind: ReplyHang}}}, nil, StreamableHTTP)
	tr, err := transport.NewStreamableHTTP(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	c := &conn{t: t, tr: tr}
	errc := make(chan error, 1)
	go func() {
		_, _, err := c.call(context.Background(), "tools/call", map[string]any{"name": "slow"})
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return while a request hung")
	}
	if err := <-errc; err == nil {
		t.Error("hanging call after Close: err = nil, want an error")
	}
}

func TestNew_errors(t *testing.T) {
	tests := []struct {
		name string
		def  Definition
		want string
	}{
		{"unnamed tool", Definition{Tools: []wire.Spec{{}}}, "tool 0 has no name"},
		{"bad schema", Definition{Tools: []wire.Spec{{Name: "x", InputSchema: json.RawMessage(`{`)}}}, "not valid JSON"},
		{"bad resource", Definition{Resources: []json.RawMessage{json.RawMessage(`{"name":"x"}`)}}, "resource 0"},
		{"bad prompt", Definition{Prompts: []json.RawMessage{json.RawMessage(`[]`)}}, "prompt 0"},
		{"bad reply", Definition{Replies: map[string]Reply{"x": {Kind: "explode"}}}, "unknown reply kind"},
		{"bad result", Definition{All: &Reply{Kind: ReplyResult}}, "result is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.def, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New() error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestServeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "server.json")
	def := `{"name": "files", "tools": [{"name": "ping", "behavior": {"text": "pong"}}], "replies": {"bye": {"kind": "close"}}}`
	if err := os.WriteFile(path, []byte(def), 0o600); err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{}}}`,
		"",
	}, "\n"))
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ServeFile(ctx, path, in, &out); err != nil {
		t.Fatalf("ServeFile() = %v", err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		got[string(m.ID)] = string(m.Result)
	}
	if want := `{"content":[{"type":"text","text":"pong"}]}`; got["2"] != want {
		t.Errorf("tools/call result = %s, want %s", got["2"], want)
	}
	if !strings.Contains(got["1"], `"name":"files"`) {
		t.Errorf("initialize result = %s, want serverInfo name files", got["1"])
	}
}

func TestServeStdio_closeReply(t *testing.T) {
	s, err := New(Definition{Tools: []wire.Spec{{Name: "bye"}}, Replies: map[string]Reply{"bye": {Kind: ReplyClose}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cr, cw := io.Pipe()
	sr, sw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), cr, sw) }()
	go func() {
		_, _ = io.WriteString(cw, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bye"}}`+"\n")
	}()
	if b, err := io.ReadAll(sr); err != nil || len(b) != 0 {
		t.Errorf("output after a close reply = %q, %v; want nothing and EOF", b, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio() = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after a close reply")
	}
}

// A syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
