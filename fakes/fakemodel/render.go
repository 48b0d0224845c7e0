package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"
)

// pieceSize is the most bytes of text or arguments one stream delta carries,
// so that clients must accumulate deltas.
const pieceSize = 12

// A rendering is one reply with its ids, ready to be written in either API.
type rendering struct {
	req     *Request
	id      string // response or completion id
	created int64
	calls   []renderedCall
	text    string
	msgID   string
	usage   [2]int // input, output tokens
}

type renderedCall struct {
	itemID, callID, name, args string
}

func (s *Server) render(req *Request, rep Reply) *rendering {
	n := s.ids.Add(1)
	g := &rendering{req: req, created: time.Now().Unix(), text: rep.Text,
		msgID: fmt.Sprintf("msg_%d", n)}
	if req.API == "chat" {
		g.id = fmt.Sprintf("chatcmpl-%d", n)
	} else {
		g.id = fmt.Sprintf("resp_%d", n)
	}
	out := len(rep.Text)
	for i, tc := range rep.ToolCalls {
		c := renderedCall{itemID: fmt.Sprintf("fc_%d_%d", n, i), callID: tc.ID, name: tc.Name, args: arguments(tc.Arguments)}
		if c.callID == "" {
			c.callID = fmt.Sprintf("call_%d_%d", n, i)
		}
		out += len(c.name) + len(c.args)
		g.calls = append(g.calls, c)
	}
	g.usage = [2]int{tokens(len(req.Body)), tokens(out)}
	return g
}

// arguments returns the wire form of a call's arguments: compact JSON, {}
// when empty, or the bytes as they are when they are not JSON.
func arguments(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// tokens is a rough token count for n bytes.
func tokens(n int) int { return (n + 3) / 4 }

// pieces splits s into rune-aligned pieces of at most pieceSize bytes.
func pieces(s string) []string {
	var out []string
	for len(s) > 0 {
		n := min(pieceSize, len(s))
		for n < len(s) && n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 {
			_, n = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// --- Responses API ---

type respFunctionCall struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Status    string `json:"status"`
}

type respOutputText struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Annotations []any  `json:"annotations"`
}

type respMessage struct {
	Type    string           `json:"type"`
	ID      string           `json:"id"`
	Status  string           `json:"status"`
	Role    string           `json:"role"`
	Content []respOutputText `json:"content"`
}

type respUsage struct {
	InputTokens         int            `json:"input_tokens"`
	InputTokensDetails  map[string]int `json:"input_tokens_details"`
	OutputTokens        int            `json:"output_tokens"`
	OutputTokensDetails map[string]int `json:"output_tokens_details"`
	TotalTokens         int            `json:"total_tokens"`
}

type respObject struct {
	ID                string     `json:"id"`
	Object            string     `json:"object"`
	CreatedAt         int64      `json:"created_at"`
	Status            string     `json:"status"`
	Error             any        `json:"error"`
	IncompleteDetails any        `json:"incomplete_details"`
	Model             string     `json:"model"`
	Output            []any      `json:"output"`
	ParallelToolCalls bool       `json:"parallel_tool_calls"`
	ToolChoice        string     `json:"tool_choice"`
	Usage             *respUsage `json:"usage"`
}

func (g *rendering) hasMessage() bool { return g.text != "" || len(g.calls) == 0 }

func (g *rendering) respCall(c renderedCall, done bool) respFunctionCall {
	if done {
		return respFunctionCall{Type: "function_call", ID: c.itemID, CallID: c.callID, Name: c.name, Arguments: c.args, Status: "completed"}
	}
	return respFunctionCall{Type: "function_call", ID: c.itemID, CallID: c.callID, Name: c.name, Arguments: "", Status: "in_progress"}
}

func (g *rendering) respMessage(done bool) respMessage {
	if done {
		return respMessage{Type: "message", ID: g.msgID, Status: "completed", Role: "assistant",
			Content: []respOutputText{{Type: "output_text", Text: g.text, Annotations: []any{}}}}
	}
	return respMessage{Type: "message", ID: g.msgID, Status: "in_progress", Role: "assistant", Content: []respOutputText{}}
}

func (g *rendering) respObject(done bool) respObject {
	o := respObject{ID: g.id, Object: "response", CreatedAt: g.created, Status: "in_progress",
		Model: g.req.Model, Output: []any{}, ParallelToolCalls: true, ToolChoice: "auto"}
	if !done {
		return o
	}
	o.Status = "completed"
	for _, c := range g.calls {
		o.Output = append(o.Output, g.respCall(c, true))
	}
	if g.hasMessage() {
		o.Output = append(o.Output, g.respMessage(true))
	}
	o.Usage = &respUsage{InputTokens: g.usage[0], InputTokensDetails: map[string]int{"cached_tokens": 0},
		OutputTokens: g.usage[1], OutputTokensDetails: map[string]int{"reasoning_tokens": 0},
		TotalTokens: g.usage[0] + g.usage[1]}
	return o
}

func (g *rendering) responses(w http.ResponseWriter) error {
	if !g.req.Stream {
		return writeJSON(w, http.StatusOK, g.respObject(true))
	}
	sw := newSSE(w)
	seq := 0
	ev := func(typ string, fields map[string]any) {
		sw.event(typ, seq, fields)
		seq++
	}
	ev("response.created", map[string]any{"response": g.respObject(false)})
	ev("response.in_progress", map[string]any{"response": g.respObject(false)})
	for i, c := range g.calls {
		ev("response.output_item.added", map[string]any{"output_index": i, "item": g.respCall(c, false)})
		for _, p := range pieces(c.args) {
			ev("response.function_call_arguments.delta", map[string]any{"item_id": c.itemID, "output_index": i, "delta": p})
		}
		ev("response.function_call_arguments.done", map[string]any{"item_id": c.itemID, "output_index": i, "name": c.name, "arguments": c.args})
		ev("response.output_item.done", map[string]any{"output_index": i, "item": g.respCall(c, true)})
	}
	if g.hasMessage() {
		i := len(g.calls)
		ev("response.output_item.added", map[string]any{"output_index": i, "item": g.respMessage(false)})
		ev("response.content_part.added", map[string]any{"item_id": g.msgID, "output_index": i, "content_index": 0,
			"part": respOutputText{Type: "output_text", Text: "", Annotations: []any{}}})
		for _, p := range pieces(g.text) {
			ev("response.output_text.delta", map[string]any{"item_id": g.msgID, "output_index": i, "content_index": 0, "delta": p, "logprobs": []any{}})
		}
		ev("response.output_text.done", map[string]any{"item_id": g.msgID, "output_index": i, "content_index": 0, "text": g.text, "logprobs": []any{}})
		ev("response.content_part.done", map[string]any{"item_id": g.msgID, "output_index": i, "content_index": 0,
			"part": respOutputText{Type: "output_text", Text: g.text, Annotations: []any{}}})
		ev("response.output_item.done", map[string]any{"output_index": i, "item": g.respMessage(true)})
	}
	ev("response.completed", map[string]any{"response": g.respObject(true)})
	return sw.err
}

// --- Chat Completions API ---

type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []chatToolCall `json:"tool_calls,omitempty"`
}

type chatChoice struct {
	Index        int         `json:"index"`
	Message      chatMessage `json:"message"`
	Logprobs     any         `json:"logprobs"`
	FinishReason string      `json:"finish_reason"`
}

type chatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type chatCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   chatUsage    `json:"usage"`
}

type chatDelta struct {
	Role      string              `json:"role,omitempty"`
	Content   *string             `json:"content,omitempty"`
	ToolCalls []chatToolCallDelta `json:"tool_calls,omitempty"`
}

type chatToolCallDelta struct {
	Index    int               `json:"index"`
	ID       string            `json:"id,omitempty"`
	Type     string            `json:"type,omitempty"`
	Function chatFunctionDelta `json:"function"`
}

type chatFunctionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type chatChunkChoice struct {
	Index        int       `json:"index"`
	Delta        chatDelta `json:"delta"`
	Logprobs     any       `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type chatChunk struct {
	ID      string            `json:"id"`
	Object  string            `json:"object"`
	Created int64             `json:"created"`
	Model   string            `json:"model"`
	Choices []chatChunkChoice `json:"choices"`
	Usage   *chatUsage        `json:"usage,omitempty"`
}

func (g *rendering) finishReason() string {
	if len(g.calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func (g *rendering) chatUsage() chatUsage {
	return chatUsage{PromptTokens: g.usage[0], CompletionTokens: g.usage[1], TotalTokens: g.usage[0] + g.usage[1]}
}

func (g *rendering) chat(w http.ResponseWriter) error {
	if !g.req.Stream {
		msg := chatMessage{Role: "assistant"}
		if g.hasMessage() {
			msg.Content = &g.text
		}
		for _, c := range g.calls {
			msg.ToolCalls = append(msg.ToolCalls, chatToolCall{ID: c.callID, Type: "function", Function: chatFunction{Name: c.name, Arguments: c.args}})
		}
		return writeJSON(w, http.StatusOK, chatCompletion{ID: g.id, Object: "chat.completion", Created: g.created, Model: g.req.Model,
			Choices: []chatChoice{{Index: 0, Message: msg, FinishReason: g.finishReason()}}, Usage: g.chatUsage()})
	}
	sw := newSSE(w)
	chunk := func(d chatDelta, finish *string) {
		sw.data(chatChunk{ID: g.id, Object: "chat.completion.chunk", Created: g.created, Model: g.req.Model,
			Choices: []chatChunkChoice{{Index: 0, Delta: d, FinishReason: finish}}})
	}
	empty := ""
	chunk(chatDelta{Role: "assistant", Content: &empty}, nil)
	for _, p := range pieces(g.text) {
		chunk(chatDelta{Content: &p}, nil)
	}
	for i, c := range g.calls {
		chunk(chatDelta{ToolCalls: []chatToolCallDelta{{Index: i, ID: c.callID, Type: "function",
			Function: chatFunctionDelta{Name: c.name, Arguments: ""}}}}, nil)
		for _, p := range pieces(c.args) {
			chunk(chatDelta{ToolCalls: []chatToolCallDelta{{Index: i, Function: chatFunctionDelta{Arguments: p}}}}, nil)
		}
	}
	finish := g.finishReason()
	chunk(chatDelta{}, &finish)
	if g.req.includeUsage {
		u := g.chatUsage()
		sw.data(chatChunk{ID: g.id, Object: "chat.completion.chunk", Created: g.created, Model: g.req.Model,
			Choices: []chatChunkChoice{}, Usage: &u})
	}
	sw.raw("data: [DONE]\n\n")
	return sw.err
}

// --- server-sent events ---

// An sse writes one event stream, flushing each event; it keeps the first
// error and writes nothing after it.
type sse struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, rc: http.NewResponseController(w)}
}

// event writes a Responses event: type and sequence_number first, as the
// provider orders them, then fields.
func (s *sse) event(typ string, seq int, fields map[string]any) {
	head, _ := json.Marshal(typ)
	b, err := json.Marshal(fields)
	if err != nil && s.err == nil {
		s.err = err
	}
	data := fmt.Sprintf(`{"type":%s,"sequence_number":%d`, head, seq)
	if len(b) > 2 {
		data += "," + string(b[1:])
	} else {
		data += "}"
	}
	s.raw("event: " + typ + "\ndata: " + data + "\n\n")
}

func (s *sse) data(v any) {
	b, err := json.Marshal(v)
	if err != nil && s.err == nil {
		s.err = err
	}
	s.raw("data: " + string(b) + "\n\n")
}

func (s *sse) raw(text string) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write([]byte(text)); err != nil {
		s.err = err
		return
	}
	s.err = s.rc.Flush()
}
