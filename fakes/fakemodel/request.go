package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// A Request is one model request, normalized. Its exported fields are set
// on arrival and never change.
type Request struct {
	API    string // "responses" (POST /v1/responses) or "chat" (POST /v1/chat/completions)
	Stream bool
	Model  string
	Key    string // the conversation key: the text of the first user message
	Tools  []Tool // the function tools offered, in request order
	// ToolTypes is the type of every tool entry offered, function tools
	// and provider-native ones alike, in request order.
	ToolTypes []string
	Items     []Item // the conversation, normalized
	Header    http.Header
	Body      json.RawMessage // the raw request body (not JSON for a rejected request)

	includeUsage bool // chat: stream_options.include_usage

	replies chan Reply    // the handler takes one reply
	written chan error    // the handler's write outcome
	done    chan struct{} // closed when the handler ends without a reply

	mu       sync.Mutex
	answered bool
	abortErr error
}

// A Tool is a function tool offered to the model.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// An Item is one element of a conversation: a message (Type "message",
// Role "system", "developer", "user" or "assistant", and Text), a function
// call (Type "function_call", CallID, Name, Arguments) or a function call's
// output (Type "function_call_output", CallID, Output).
type Item struct {
	Type      string
	Role      string
	Text      string
	CallID    string
	Name      string
	Arguments string
	Output    string
	// OutputBlocks is the number of content parts of a function call's
	// output: 1 for a string, the array's length otherwise.
	OutputBlocks int
}

// A Reply is what the model answers: tool calls (in order, as parallel
// tool calls of one response) and/or a final text.
type Reply struct {
	ToolCalls []ToolCall
	Text      string
}

// A ToolCall is one function call of a reply. An empty ID gets a generated
// one; empty Arguments mean {}.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

func newRequest(api string, h http.Header, body []byte) *Request {
	return &Request{API: api, Header: h, Body: body,
		replies: make(chan Reply), written: make(chan error, 1), done: make(chan struct{})}
}

// ToolOutput returns the output sent back for callID in this request's
// conversation.
func (r *Request) ToolOutput(callID string) (string, bool) {
	for _, it := range r.Items {
		if it.Type == "function_call_output" && it.CallID == callID {
			return it.Output, true
		}
	}
	return "", false
}

// Respond answers the request with rep. It blocks until the answer is
// written and flushed, and returns an error if the client went away, the
// server closed, or the request was already answered (by Respond, by the
// fallback, or because it was rejected).
func (r *Request) Respond(rep Reply) error { return r.RespondContext(context.Background(), rep) }

// RespondContext is Respond, returning ctx's error once ctx ends: a client
// that stops reading (a busy or stuck process) cannot hold the caller past
// its deadline. A reply the handler took is still written if the client
// reads it later; one it had not taken yet is not sent, and the request
// can be answered again.
func (r *Request) RespondContext(ctx context.Context, rep Reply) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fakemodel: handing over the reply: %w", err)
	}
	r.mu.Lock()
	if r.answered {
		r.mu.Unlock()
		return errors.New("fakemodel: request already answered")
	}
	r.answered = true
	r.mu.Unlock()
	select {
	case r.replies <- rep:
		select {
		case err := <-r.written:
			return err
		case <-ctx.Done():
			return fmt.Errorf("fakemodel: writing the reply: %w", ctx.Err())
		}
	case <-r.done:
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.abortErr
	case <-ctx.Done():
		r.mu.Lock()
		r.answered = false
		r.mu.Unlock()
		return fmt.Errorf("fakemodel: handing over the reply: %w", ctx.Err())
	}
}

// Done is closed when the request ends without a reply: the client
// cancelled or disconnected before Respond, or the server closed.
func (r *Request) Done() <-chan struct{} { return r.done }

// abort records why the request ended unanswered and closes done.
func (r *Request) abort(err error) {
	r.mu.Lock()
	r.abortErr = err
	r.mu.Unlock()
	close(r.done)
}

// parse fills the normalized fields from the body.
func (r *Request) parse() *apiError {
	if !json.Valid(r.Body) {
		return &apiError{code: "invalid_json", msg: "We could not parse the JSON body of your request. Expected a JSON object."}
	}
	var head struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if err := json.Unmarshal(r.Body, &head); err != nil {
		return &apiError{code: "invalid_request", msg: "Invalid request body: " + err.Error()}
	}
	r.Model, r.Stream = head.Model, head.Stream
	var perr *apiError
	if r.API == "chat" {
		perr = r.parseChat()
	} else {
		perr = r.parseResponses()
	}
	if perr != nil {
		return perr
	}
	if r.Model == "" {
		return missing("model")
	}
	for _, it := range r.Items {
		if it.Type == "message" && it.Role == "user" {
			r.Key = it.Text
			break
		}
	}
	return nil
}

func missing(param string) *apiError {
	return &apiError{code: "missing_required_parameter", param: param, msg: "Missing required parameter: '" + param + "'."}
}

func invalid(param, msg string) *apiError {
	return &apiError{code: "invalid_value", param: param, msg: msg}
}

func (r *Request) parseResponses() *apiError {
	var b struct {
		Input        json.RawMessage `json:"input"`
		Instructions json.RawMessage `json:"instructions"`
		Tools        []struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &b); err != nil {
		return &apiError{code: "invalid_request", msg: "Invalid request body: " + err.Error()}
	}
	for _, t := range b.Tools {
		r.ToolTypes = append(r.ToolTypes, t.Type)
		if t.Type == "function" {
			r.Tools = append(r.Tools, Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		}
	}
	if s, ok := jsonString(b.Instructions); ok && s != "" {
		r.Items = append(r.Items, Item{Type: "message", Role: "system", Text: s})
	}
	if isNull(b.Input) {
		return missing("input")
	}
	if s, ok := jsonString(b.Input); ok {
		r.Items = append(r.Items, Item{Type: "message", Role: "user", Text: s})
		return nil
	}
	var items []struct {
		Type      string          `json:"type"`
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		CallID    string          `json:"call_id"`
		Name      string          `json:"name"`
		Arguments string          `json:"arguments"`
		Output    json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(b.Input, &items); err != nil {
		return invalid("input", "Invalid 'input': expected a string or an array of input items.")
	}
	for _, it := range items {
		switch {
		case it.Type == "function_call":
			r.Items = append(r.Items, Item{Type: it.Type, CallID: it.CallID, Name: it.Name, Arguments: it.Arguments})
		case it.Type == "function_call_output":
			r.Items = append(r.Items, Item{Type: it.Type, CallID: it.CallID, Output: contentText(it.Output), OutputBlocks: contentBlocks(it.Output)})
		case it.Type == "message" || (it.Type == "" && it.Role != ""):
			r.Items = append(r.Items, Item{Type: "message", Role: it.Role, Text: contentText(it.Content)})
		default:
			r.Items = append(r.Items, Item{Type: it.Type})
		}
	}
	return nil
}

func (r *Request) parseChat() *apiError {
	var b struct {
		Messages []struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(r.Body, &b); err != nil {
		return &apiError{code: "invalid_request", msg: "Invalid request body: " + err.Error()}
	}
	r.includeUsage = b.StreamOptions.IncludeUsage
	for _, t := range b.Tools {
		r.ToolTypes = append(r.ToolTypes, t.Type)
		if t.Type == "function" {
			r.Tools = append(r.Tools, Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
		}
	}
	if b.Messages == nil {
		return missing("messages")
	}
	for _, m := range b.Messages {
		switch {
		case m.Role == "tool":
			r.Items = append(r.Items, Item{Type: "function_call_output", CallID: m.ToolCallID, Output: contentText(m.Content), OutputBlocks: contentBlocks(m.Content)})
		case m.Role == "assistant" && len(m.ToolCalls) > 0:
			if text := contentText(m.Content); text != "" {
				r.Items = append(r.Items, Item{Type: "message", Role: m.Role, Text: text})
			}
			for _, tc := range m.ToolCalls {
				r.Items = append(r.Items, Item{Type: "function_call", CallID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
			}
		default:
			r.Items = append(r.Items, Item{Type: "message", Role: m.Role, Text: contentText(m.Content)})
		}
	}
	return nil
}

// contentText returns the text of a content value: a string, or an array
// of parts whose text members are joined with "\n".
func contentText(raw json.RawMessage) string {
	if s, ok := jsonString(raw); ok {
		return s
	}
	var parts []struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return ""
	}
	var texts []string
	for _, p := range parts {
		if p.Text != nil {
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// contentBlocks counts the parts of a content value: 1 for a string, the
// length of an array of parts, 0 for anything else.
func contentBlocks(raw json.RawMessage) int {
	if _, ok := jsonString(raw); ok {
		return 1
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return 0
	}
	return len(parts)
}

func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}
