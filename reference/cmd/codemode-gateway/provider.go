package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Provider APIs (models.providers.<id>.api), as OpenClaw names them.
const (
	apiResponses   = "openai-responses"
	apiCompletions = "openai-completions"
)

// An item is one entry of a conversation: a message, a tool call the
// model made or the output the gateway sent back for it.
type item struct {
	Type      string // "message", "function_call" or "function_call_output"
	Role      string // for messages
	Text      string // for messages
	CallID    string
	Name      string
	Arguments string
	Output    string
}

// A toolDef is one tool of a model request.
type toolDef struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// A modelCall is one tool call in a model answer.
type modelCall struct {
	ID        string
	Name      string
	Arguments string
}

// An answer is what the model said: tool calls, text, or both.
type answer struct {
	Calls []modelCall
	Text  string
}

// provider talks to one OpenAI-compatible model provider.
type provider struct {
	baseURL string
	api     string
	apiKey  string
	headers map[string]string
	model   string
	stream  bool
	// visible are the turn's model-visible tools; every request body is
	// checked against them before it is sent (nil: no check).
	visible []string
	client  *http.Client
	debug   *transportLog
}

// maxAnswerBytes bounds a provider answer, streamed or not.
const maxAnswerBytes = 64 << 20

// complete sends one model request and returns the answer.
func (p *provider) complete(ctx context.Context, conv []item, tools []toolDef) (answer, error) {
	var body map[string]any
	var path string
	switch p.api {
	case apiCompletions:
		path, body = "/chat/completions", completionsBody(p.model, conv, tools)
	default:
		path, body = "/responses", responsesBody(p.model, conv, tools)
	}
	body["stream"] = p.stream
	payload, err := json.Marshal(body)
	if err != nil {
		return answer{}, err
	}
	if p.visible != nil {
		if err := checkPayload(payload, p.visible); err != nil {
			return answer{}, err
		}
	}
	p.debug.payload(tools, payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(p.baseURL, "/")+path, bytes.NewReader(payload))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if p.stream {
		req.Header.Set("Accept", "text/event-stream")
	}
	for k, v := range p.headers {
		req.Header.Set(k, v)
	}
	if p.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.apiKey)
	}
	start := time.Now()
	resp, err := p.client.Do(req)
	if err != nil {
		p.debug.transport(req, 0, time.Since(start), err)
		return answer{}, fmt.Errorf("model provider: %w", err)
	}
	defer resp.Body.Close()
	p.debug.transport(req, resp.StatusCode, time.Since(start), nil)
	body2 := io.LimitReader(resp.Body, maxAnswerBytes)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(body2, 4096))
		return answer{}, fmt.Errorf("model provider: %s: %s", resp.Status, strings.TrimSpace(string(b)))
	}
	if p.stream {
		if p.api == apiCompletions {
			return p.readCompletionsStream(body2)
		}
		return p.readResponsesStream(body2)
	}
	b, err := io.ReadAll(body2)
	if err != nil {
		return answer{}, fmt.Errorf("model provider: %w", err)
	}
	if p.api == apiCompletions {
		return parseCompletion(b)
	}
	return parseResponse(b)
}

func responsesBody(model string, conv []item, tools []toolDef) map[string]any {
	input := make([]map[string]any, 0, len(conv))
	for _, it := range conv {
		switch it.Type {
		case "function_call":
			input = append(input, map[string]any{"type": "function_call", "call_id": it.CallID, "name": it.Name, "arguments": it.Arguments})
		case "function_call_output":
			input = append(input, map[string]any{"type": "function_call_output", "call_id": it.CallID, "output": it.Output})
		default:
			input = append(input, map[string]any{"role": it.Role, "content": it.Text})
		}
	}
	body := map[string]any{"model": model, "input": input}
	if len(tools) > 0 {
		ts := make([]map[string]any, len(tools))
		for i, t := range tools {
			ts[i] = map[string]any{"type": "function", "name": t.Name, "description": t.Description, "parameters": t.Parameters}
		}
		body["tools"] = ts
	}
	return body
}

func completionsBody(model string, conv []item, tools []toolDef) map[string]any {
	msgs := make([]map[string]any, 0, len(conv))
	for _, it := range conv {
		switch it.Type {
		case "function_call":
			call := map[string]any{"id": it.CallID, "type": "function", "function": map[string]any{"name": it.Name, "arguments": it.Arguments}}
			// Parallel calls of one answer share one assistant message.
			if n := len(msgs); n > 0 && msgs[n-1]["role"] == "assistant" && msgs[n-1]["tool_calls"] != nil {
				msgs[n-1]["tool_calls"] = append(msgs[n-1]["tool_calls"].([]map[string]any), call)
				continue
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "content": nil, "tool_calls": []map[string]any{call}})
		case "function_call_output":
			msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": it.CallID, "content": it.Output})
		default:
			msgs = append(msgs, map[string]any{"role": it.Role, "content": it.Text})
		}
	}
	body := map[string]any{"model": model, "messages": msgs}
	if len(tools) > 0 {
		ts := make([]map[string]any, len(tools))
		for i, t := range tools {
			ts[i] = map[string]any{"type": "function", "function": map[string]any{"name": t.Name, "description": t.Description, "parameters": t.Parameters}}
		}
		body["tools"] = ts
	}
	return body
}

// responseObject is the part of a Responses API response the gateway reads.
type responseObject struct {
	Status string `json:"status"`
	Output []struct {
		Type      string `json:"type"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Content   []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"output"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (r *responseObject) answer() (answer, error) {
	if r.Error != nil {
		return answer{}, fmt.Errorf("model provider: %s", r.Error.Message)
	}
	var a answer
	for _, o := range r.Output {
		switch o.Type {
		case "function_call":
			a.Calls = append(a.Calls, modelCall{ID: o.CallID, Name: o.Name, Arguments: o.Arguments})
		case "message":
			for _, c := range o.Content {
				if c.Type == "output_text" {
					a.Text += c.Text
				}
			}
		}
	}
	return a, nil
}

func parseResponse(b []byte) (answer, error) {
	var r responseObject
	if err := json.Unmarshal(b, &r); err != nil {
		return answer{}, fmt.Errorf("model provider: response: %w", err)
	}
	return r.answer()
}

// completionMessage is a Chat Completions answer message.
type completionMessage struct {
	Content   *string `json:"content"`
	ToolCalls []struct {
		Index    int    `json:"index"`
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func parseCompletion(b []byte) (answer, error) {
	var r struct {
		Choices []struct {
			Message completionMessage `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return answer{}, fmt.Errorf("model provider: completion: %w", err)
	}
	if len(r.Choices) == 0 {
		return answer{}, errors.New("model provider: completion has no choices")
	}
	m := r.Choices[0].Message
	var a answer
	if m.Content != nil {
		a.Text = *m.Content
	}
	for _, c := range m.ToolCalls {
		a.Calls = append(a.Calls, modelCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
	}
	return a, nil
}

// sseEvents reads server-sent events and calls fn with each event's type
// and data until fn says stop or the stream ends.
func (p *provider) sseEvents(r io.Reader, fn func(event, data string) (stop bool, err error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxAnswerBytes)
	var event string
	var data strings.Builder
	n := 0
	flush := func() (bool, error) {
		if data.Len() == 0 && event == "" {
			return false, nil
		}
		d := strings.TrimSuffix(data.String(), "\n")
		p.debug.sse(n, event, d)
		n++
		stop, err := fn(event, d)
		event = ""
		data.Reset()
		return stop, err
	}
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case line == "":
			if stop, err := flush(); stop || err != nil {
				return err
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			data.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("model provider: stream: %w", err)
	}
	if _, err := flush(); err != nil {
		return err
	}
	return nil
}

// readResponsesStream reads a Responses API stream up to
// response.completed, whose response is the whole answer.
func (p *provider) readResponsesStream(r io.Reader) (answer, error) {
	var done *responseObject
	err := p.sseEvents(r, func(event, data string) (bool, error) {
		var ev struct {
			Type     string          `json:"type"`
			Response *responseObject `json:"response"`
			Message  string          `json:"message"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return false, fmt.Errorf("model provider: stream event: %w", err)
		}
		switch ev.Type {
		case "response.completed":
			done = ev.Response
			return true, nil
		case "response.failed", "error":
			msg := ev.Message
			if ev.Response != nil && ev.Response.Error != nil {
				msg = ev.Response.Error.Message
			}
			return true, fmt.Errorf("model provider: %s: %s", ev.Type, msg)
		}
		return false, nil
	})
	if err != nil {
		return answer{}, err
	}
	if done == nil {
		return answer{}, errors.New("model provider: stream ended before response.completed")
	}
	return done.answer()
}

// readCompletionsStream assembles a Chat Completions stream: content and
// tool-call pieces by index, up to [DONE].
func (p *provider) readCompletionsStream(r io.Reader) (answer, error) {
	var text strings.Builder
	var calls []modelCall
	finished := false
	err := p.sseEvents(r, func(event, data string) (bool, error) {
		if data == "[DONE]" {
			finished = true
			return true, nil
		}
		var chunk struct {
			Choices []struct {
				Delta completionMessage `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return false, fmt.Errorf("model provider: stream chunk: %w", err)
		}
		for _, ch := range chunk.Choices {
			if ch.Delta.Content != nil {
				text.WriteString(*ch.Delta.Content)
			}
			for _, tc := range ch.Delta.ToolCalls {
				for len(calls) <= tc.Index {
					calls = append(calls, modelCall{})
				}
				c := &calls[tc.Index]
				if tc.ID != "" {
					c.ID = tc.ID
				}
				c.Name += tc.Function.Name
				c.Arguments += tc.Function.Arguments
			}
		}
		return false, nil
	})
	if err != nil {
		return answer{}, err
	}
	if !finished {
		return answer{}, errors.New("model provider: stream ended before [DONE]")
	}
	return answer{Calls: calls, Text: text.String()}, nil
}
