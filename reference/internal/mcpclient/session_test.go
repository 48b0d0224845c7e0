package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/fakemcp"
)

func str(s string) *string { return &s }

// compactJSON returns s without insignificant white space.
func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("compact %s: %v", s, err)
	}
	return b.String()
}

// docs is the server most tests use.
var docs = fakemcp.Definition{
	Name: "docs",
	Tools: []wire.Spec{
		{Name: "search", Title: "Search docs", Description: "Search the documentation.",
			InputSchema:  json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer", "default": 5}}, "required": ["q"]}`),
			OutputSchema: json.RawMessage(`{"type": "object", "properties": {"hits": {"type": "array"}}}`),
			Behavior:     &wire.Behavior{Returns: json.RawMessage(`{"hits": ["a", "b"]}`)}},
		{Name: "greet", Behavior: &wire.Behavior{Text: str("hello")}},
		{Name: "echo", Behavior: &wire.Behavior{Echo: true}},
		{Name: "broken", Behavior: &wire.Behavior{Fails: str("disk full")}},
	},
	Resources: []json.RawMessage{json.RawMessage(`{"uri": "memo://one", "name": "one", "mimeType": "text/plain", "text": "first memo"}`)},
	Prompts: []json.RawMessage{json.RawMessage(
		`{"name": "brief", "description": "A brief.", "arguments": [{"name": "topic", "required": true}], "text": "Write about {{topic}}."}`)},
}

func TestSession_tools(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "docs", serve(t, docs, nil, kind, 0))
			if diff := cmp.Diff(Capabilities{Tools: true, Resources: true, Prompts: true}, s.Capabilities()); diff != "" {
				t.Errorf("Capabilities() mismatch (-want +got):\n%s", diff)
			}
			tools, err := s.ListTools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			type row struct{ Name, Title, Description, In, Out string }
			var got []row
			for _, tl := range tools {
				got = append(got, row{tl.Name, tl.Title, tl.Description, string(tl.InputSchema), string(tl.OutputSchema)})
			}
			empty := `{"type":"object","properties":{}}`
			want := []row{ // the server lists by name
				{Name: "broken", In: empty},
				{Name: "echo", In: empty},
				{Name: "greet", In: empty},
				{Name: "search", Title: "Search docs", Description: "Search the documentation.",
					In:  `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","default":5}},"required":["q"]}`,
					Out: `{"type":"object","properties":{"hits":{"type":"array"}}}`},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ListTools() mismatch (-want +got):\n%s\nreason: schemas are the server's bytes, property order included", diff)
			}
		})
	}
}

func TestSession_CallTool(t *testing.T) {
	tests := []struct {
		tool, args, want, reason string
	}{
		{"search", `{"q": "x"}`, `{"content":[{"type":"text","text":"{\"hits\":[\"a\",\"b\"]}"}],"structuredContent":{"hits":["a","b"]}}`, ""},
		{"greet", ``, `{"content":[{"type":"text","text":"hello"}]}`, "empty arguments are sent as {}"},
		{"echo", `{"n": 12345678901234567890, "s": "\u00e9"}`, `{"content":[{"type":"text","text":"{\"n\":12345678901234567890,\"s\":\"\\u00e9\"}"}],"structuredContent":{"n":12345678901234567890,"s":"\u00e9"}}`,
			"arguments travel as raw JSON both ways"},
		{"broken", `{}`, `{"content":[{"type":"text","text":"disk full"}],"isError":true}`, "isError results are values (CM-14.16)"},
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "docs", serve(t, docs, nil, kind, 0))
			for _, tt := range tests {
				got, err := s.CallTool(context.Background(), tt.tool, json.RawMessage(tt.args))
				if err != nil {
					t.Errorf("CallTool(%s) error = %v", tt.tool, err)
					continue
				}
				if diff := cmp.Diff(tt.want, string(got)); diff != "" {
					t.Errorf("CallTool(%s) mismatch (-want +got):\n%s\nreason: %s", tt.tool, diff, tt.reason)
				}
			}
		})
	}
}

func TestSession_rawResult(t *testing.T) {
	result := `{"_meta": {"progressToken": null, "trace": "t-1"}, "content": [{"type": "text", "text": "hi", "annotations": {"priority": 0.50}}],
		"structuredContent": {"z": 1, "a": [1e3, -0.0, 1.50]}, "isError": true, "vendorExtension": {"nested": ["\u00e9", "\ud83d\ude00"]}, "resultType": "complete"}`
	def := fakemcp.Definition{Tools: []wire.Spec{{Name: "odd"}},
		Replies: map[string]fakemcp.Reply{"odd": {Kind: fakemcp.ReplyResult, Result: json.RawMessage(result)}}}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "odd", serve(t, def, nil, kind, 0))
			got, err := s.CallTool(context.Background(), "odd", nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := compactJSON(t, result); string(got) != want {
				t.Errorf("CallTool() = %s\nwant exactly %s\nreason: member order, number spelling, escapes, _meta and unknown members survive", got, want)
			}
		})
	}
}

func TestSession_resourcesAndPrompts(t *testing.T) {
	tests := []struct {
		method string
		call   func(*Session, context.Context, json.RawMessage) (json.RawMessage, error)
		params string
		want   string
	}{
		{"resources/list", (*Session).ListResources, ``, `{"resources":[{"uri":"memo://one","name":"one","mimeType":"text/plain"}]}`},
		{"resources/read", (*Session).ReadResource, `{"uri": "memo://one"}`, `{"contents":[{"uri":"memo://one","mimeType":"text/plain","text":"first memo"}]}`},
		{"prompts/list", (*Session).ListPrompts, `{}`, `{"prompts":[{"name":"brief","description":"A brief.","arguments":[{"name":"topic","required":true}]}]}`},
		{"prompts/get", (*Session).GetPrompt, `{"name": "brief", "arguments": {"topic": "release"}}`,
			`{"description":"A brief.","messages":[{"role":"user","content":{"type":"text","text":"Write about release."}}]}`},
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "docs", serve(t, docs, nil, kind, 0))
			for _, tt := range tests {
				got, err := tt.call(s, context.Background(), json.RawMessage(tt.params))
				if err != nil {
					t.Errorf("%s error = %v", tt.method, err)
					continue
				}
				if diff := cmp.Diff(tt.want, string(got)); diff != "" {
					t.Errorf("%s mismatch (-want +got):\n%s", tt.method, diff)
				}
			}
			_, err := s.ReadResource(context.Background(), json.RawMessage(`{"uri": "memo://missing"}`))
			var e *Error
			if !errors.As(err, &e) || e.Kind != KindRPC || !strings.HasPrefix(err.Error(), "MCP server docs error: ") {
				t.Errorf("ReadResource(missing) error = %v, want a JSON-RPC error of MCP server docs", err)
			}
		})
	}
}

func TestSession_pagination(t *testing.T) {
	def := fakemcp.Definition{PageSize: 2, Resources: []json.RawMessage{}}
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		def.Tools = append(def.Tools, wire.Spec{Name: n})
		def.Resources = append(def.Resources, json.RawMessage(fmt.Sprintf(`{"uri": "memo://%s", "name": %q, "text": ""}`, n, n)))
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "paged", serve(t, def, nil, kind, 0))
			tools, err := s.ListTools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range tools {
				names = append(names, tl.Name)
			}
			if diff := cmp.Diff([]string{"a", "b", "c", "d", "e"}, names); diff != "" {
				t.Errorf("ListTools() names mismatch (-want +got):\n%s\nreason: every page is followed", diff)
			}

			page, err := s.ListResources(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Resources  []struct{ URI string } `json:"resources"`
				NextCursor string                 `json:"nextCursor"`
			}
			if err := json.Unmarshal(page, &res); err != nil || len(res.Resources) != 2 || res.NextCursor == "" {
				t.Fatalf("ListResources() = %s, want one page of 2 with a nextCursor", page)
			}
			next, err := s.ListResources(context.Background(), json.RawMessage(fmt.Sprintf(`{"cursor": %q}`, res.NextCursor)))
			if err != nil || !strings.Contains(string(next), "memo://c") {
				t.Errorf("ListResources(cursor) = %s, %v; want the second page", next, err)
			}
		})
	}
}

func TestSession_failures(t *testing.T) {
	tests := []struct {
		name    string
		reply   fakemcp.Reply
		want    string
		kind    Kind
		maxTime time.Duration
	}{
		{name: "hang", reply: fakemcp.Reply{Kind: fakemcp.ReplyHang}, want: "MCP server flaky timed out.", kind: KindTimeout, maxTime: 3 * time.Second},
		{name: "close", reply: fakemcp.Reply{Kind: fakemcp.ReplyClose}, want: "MCP server flaky closed the connection.", kind: KindClosed},
		{name: "garbage", reply: fakemcp.Reply{Kind: fakemcp.ReplyGarbage}, want: "MCP server flaky returned an invalid response.", kind: KindInvalid},
		{name: "array result", reply: fakemcp.Reply{Kind: fakemcp.ReplyResult, Result: json.RawMessage(`[{"content": []}]`)},
			want: "MCP server flaky returned an invalid response.", kind: KindInvalid},
		{name: "null result", reply: fakemcp.Reply{Kind: fakemcp.ReplyResult, Result: json.RawMessage(`null`)},
			want: "MCP server flaky returned an invalid response.", kind: KindInvalid},
		{name: "rpc error", reply: fakemcp.Reply{Kind: fakemcp.ReplyError, Code: -32001, Message: "quota exceeded"},
			want: "MCP server flaky error: quota exceeded", kind: KindRPC},
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					t.Parallel()
					def := fakemcp.Definition{Tools: []wire.Spec{{Name: "bad"}, {Name: "good"}},
						Replies: map[string]fakemcp.Reply{"bad": tt.reply}}
					// Only the hang needs a short call timeout; the others
					// must not turn into timeouts on a loaded machine.
					timeoutMs := 5000
					if tt.reply.Kind == fakemcp.ReplyHang {
						timeoutMs = 200
					}
					s := mustConnect(t, "flaky", serve(t, def, nil, kind, timeoutMs))
					start := time.Now()
					got, err := s.CallTool(context.Background(), "bad", json.RawMessage(`{}`))
					if err == nil || err.Error() != tt.want {
						t.Fatalf("CallTool() = %s, %v; want error %q", got, err, tt.want)
					}
					if d := time.Since(start); tt.maxTime > 0 && d > tt.maxTime {
						t.Errorf("CallTool() took %v, want at most %v", d, tt.maxTime)
					}
					var e *Error
					if !errors.As(err, &e) || e.Kind != tt.kind || e.Server != "flaky" {
						t.Errorf("CallTool() error = %#v, want an *Error of kind %s for flaky", err, tt.kind)
					}
					if tt.kind == KindTimeout && !errors.Is(err, context.DeadlineExceeded) {
						t.Errorf("errors.Is(%v, context.DeadlineExceeded) = false, want true", err)
					}
					// The session survives every failure but a closed stdio
					// stream, which ends the server process.
					_, err = s.CallTool(context.Background(), "good", nil)
					if kind == stdio && tt.kind == KindClosed {
						if err == nil || err.Error() != "MCP server flaky closed the connection." {
							t.Errorf("CallTool() after the server exited = %v, want closed the connection", err)
						}
					} else if err != nil {
						t.Errorf("CallTool() after a failure = %v, want success", err)
					}
				})
			}
		})
	}
}

func TestConnect_failures(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// dropper accepts connections and closes them at once.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	dropper := "http://" + l.Addr().String()
	all := func(r fakemcp.Reply, kind string) ServerConfig {
		cfg := serve(t, fakemcp.Definition{All: &r}, nil, kind, 200)
		// stdio: time for the child process (this test binary, under
		// -race, on a loaded machine) to start and answer; 1.5 s was not
		// always enough. A server that hangs takes all of it.
		cfg.SetupTimeoutMs = 4000
		return cfg
	}
	notFound := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notFound.Close)

	tests := []struct {
		name string
		cfg  ServerConfig
		want string
	}{
		{"nothing to start", ServerConfig{}, "MCP server x could not be started."},
		{"missing command", ServerConfig{Command: "/nonexistent/mcp-server"}, "MCP server x could not be started."},
		{"bad url", ServerConfig{URL: "ftp://example.test/mcp"}, "MCP server x could not be started."},
		{"dropped", ServerConfig{URL: dropper + "/mcp", TimeoutMs: 2000}, "MCP server x closed the connection."},
		{"dropped sse", ServerConfig{URL: dropper + "/sse", Transport: "sse", TimeoutMs: 2000}, "MCP server x closed the connection."},
		{"sse not found", ServerConfig{URL: notFound.URL + "/sse", Transport: "sse", TimeoutMs: 2000}, "MCP server x returned an invalid response."},
		{"http garbage", all(fakemcp.Reply{Kind: fakemcp.ReplyGarbage}, streamable), "MCP server x returned an invalid response."},
		{"http hang", all(fakemcp.Reply{Kind: fakemcp.ReplyHang}, streamable), "MCP server x timed out."},
		{"http close", all(fakemcp.Reply{Kind: fakemcp.ReplyClose}, streamable), "MCP server x closed the connection."},
		{"http rpc error", all(fakemcp.Reply{Kind: fakemcp.ReplyError, Message: "go away"}, streamable), "MCP server x error: go away"},
		{"sse hang", all(fakemcp.Reply{Kind: fakemcp.ReplyHang}, sse), "MCP server x timed out."},
		{"stdio hang", all(fakemcp.Reply{Kind: fakemcp.ReplyHang}, stdio), "MCP server x timed out."},
		{"stdio garbage", all(fakemcp.Reply{Kind: fakemcp.ReplyGarbage}, stdio), "MCP server x returned an invalid response."},
		{"stdio exits", ServerConfig{Command: exe, Env: map[string]string{envServe: "/nonexistent.json"}, TimeoutMs: 5000},
			"MCP server x closed the connection."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			s, err := Connect(context.Background(), "x", tt.cfg)
			if err == nil {
				_ = s.Close()
				t.Fatalf("Connect() error = nil, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Connect() error = %q, want %q", err, tt.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Connect() took %v", d)
			}
		})
	}
}

func TestSession_concurrentCalls(t *testing.T) {
	const workers, calls = 16, 8
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "docs", serve(t, docs, nil, kind, 0))
			var wg sync.WaitGroup
			errs := make(chan error, workers*calls)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for c := range calls {
						args := fmt.Sprintf(`{"worker":%d,"call":%d}`, w, c)
						got, err := s.CallTool(context.Background(), "echo", json.RawMessage(args))
						if err != nil {
							errs <- err
							return
						}
						var res struct {
							StructuredContent json.RawMessage `json:"structuredContent"`
						}
						if err := json.Unmarshal(got, &res); err != nil || string(res.StructuredContent) != args {
							errs <- fmt.Errorf("echo %s answered %s", args, got)
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

func TestSession_Close(t *testing.T) {
	def := fakemcp.Definition{Tools: []wire.Spec{{Name: "slow"}},
		Replies: map[string]fakemcp.Reply{"slow": {Kind: fakemcp.ReplyHang}}}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "slow", serve(t, def, nil, kind, 0))
			errc := make(chan error, 1)
			go func() {
				_, err := s.CallTool(context.Background(), "slow", nil)
				errc <- err
			}()
			time.Sleep(100 * time.Millisecond)
			start := time.Now()
			_ = s.Close()
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("Close() took %v", d)
			}
			if err := <-errc; err == nil || err.Error() != "MCP server slow closed the connection." {
				t.Errorf("in-flight CallTool() after Close = %v, want closed the connection", err)
			}
			if _, err := s.CallTool(context.Background(), "slow", nil); err == nil || err.Error() != "MCP server slow closed the connection." {
				t.Errorf("CallTool() after Close = %v, want closed the connection", err)
			}
			_ = s.Close() // idempotent
		})
	}
}

func TestSession_serverGoesAway(t *testing.T) {
	def := fakemcp.Definition{Tools: []wire.Spec{{Name: "slow"}},
		Replies: map[string]fakemcp.Reply{"slow": {Kind: fakemcp.ReplyHang}}}
	for _, kind := range []string{streamable, sse} {
		t.Run(kind, func(t *testing.T) {
			srv := fakemcp.NewDefinitionServer(t, def, nil, kind)
			cfg := ServerConfig{URL: srv.URL()}
			if kind == sse {
				cfg.Transport = TransportSSE
			}
			s := mustConnect(t, "gone", cfg)
			errc := make(chan error, 1)
			go func() {
				_, err := s.CallTool(context.Background(), "slow", nil)
				errc <- err
			}()
			time.Sleep(100 * time.Millisecond)
			srv.Close()
			select {
			case err := <-errc:
				if err == nil || err.Error() != "MCP server gone closed the connection." {
					t.Errorf("CallTool() while the server shut down = %v, want closed the connection", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("CallTool() did not return after the server shut down")
			}
		})
	}
}

func TestSession_callerCancel(t *testing.T) {
	def := fakemcp.Definition{Tools: []wire.Spec{{Name: "slow"}},
		Replies: map[string]fakemcp.Reply{"slow": {Kind: fakemcp.ReplyHang}}}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			s := mustConnect(t, "slow", serve(t, def, nil, kind, 0))
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			_, err := s.CallTool(ctx, "slow", nil)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("CallTool() with a cancelled context = %v, want context.Canceled", err)
			}
			var e *Error
			if errors.As(err, &e) {
				t.Errorf("CallTool() with a cancelled context = %#v, want the caller's error, not an MCP failure", e)
			}
		})
	}
}

// TestSession_noSecrets checks CM-14.7: headers reach the server, and no
// error message carries header, URL credential or environment values.
func TestSession_noSecrets(t *testing.T) {
	const secret = "s3cr3t-value"
	def := fakemcp.Definition{Tools: []wire.Spec{{Name: "bad"}},
		Replies: map[string]fakemcp.Reply{"bad": {Kind: fakemcp.ReplyGarbage}}}

	srv, err := fakemcp.New(def, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	h := srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)

	cfgs := map[string]ServerConfig{
		"http": {URL: strings.Replace(ts.URL, "http://", "http://user:"+secret+"@", 1) + "/mcp",
			Headers: map[string]string{"Authorization": "Bearer " + secret}, TimeoutMs: 500},
		"stdio": func() ServerConfig {
			c := serve(t, def, nil, stdio, 500)
			c.Env["API_TOKEN"] = secret
			return c
		}(),
	}
	for name, cfg := range cfgs {
		t.Run(name, func(t *testing.T) {
			s := mustConnect(t, "vault", cfg)
			_, err := s.CallTool(context.Background(), "bad", nil)
			if err == nil || strings.Contains(err.Error(), secret) || err.Error() != "MCP server vault returned an invalid response." {
				t.Errorf("CallTool() error = %v, want the bare invalid-response message", err)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 || seen[0] != "Bearer "+secret {
		t.Errorf("Authorization headers seen by the server = %q, want the configured one", seen)
	}
}

func TestSession_stderrIsDiscarded(t *testing.T) {
	cfg := serve(t, docs, nil, stdio, 0)
	cfg.Env[envStderr] = fmt.Sprint(4 << 20) // far more than a pipe holds
	s := mustConnect(t, "noisy", cfg)
	if _, err := s.CallTool(context.Background(), "greet", nil); err != nil {
		t.Errorf("CallTool() on a server that filled stderr = %v", err)
	}
}
