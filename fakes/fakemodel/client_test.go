package fakemodel

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// This file is a small client of both APIs, written from the providers'
// wire shapes, so the tests read the fake's answers as a real client would.

// An answer is what a client made of a response, in one shape for both APIs.
type answer struct {
	Calls  []answerCall
	Text   string
	Finish string // chat: finish_reason; responses: status
}

type answerCall struct{ ID, Name, Arguments string }

// turn is one message of a test conversation, written once and sent in
// either API.
type turn struct {
	role, text              string
	callID, name, args, out string // function_call (name set) or function_call_output (out set)
}

type tool struct {
	name, desc string
	params     string
}

// body builds a request body for api.
func body(api, model string, stream bool, turns []turn, tools []tool) map[string]any {
	b := map[string]any{"model": model, "stream": stream}
	if api == "chat" {
		var msgs []any
		for _, t := range turns {
			switch {
			case t.name != "":
				msgs = append(msgs, map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
					map[string]any{"id": t.callID, "type": "function", "function": map[string]any{"name": t.name, "arguments": t.args}}}})
			case t.callID != "":
				msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": t.callID, "content": t.out})
			default:
				msgs = append(msgs, map[string]any{"role": t.role, "content": t.text})
			}
		}
		b["messages"] = msgs
		var ts []any
		for _, t := range tools {
			ts = append(ts, map[string]any{"type": "function", "function": map[string]any{"name": t.name, "description": t.desc, "parameters": json.RawMessage(t.params)}})
		}
		if ts != nil {
			b["tools"] = ts
		}
		return b
	}
	var input []any
	for _, t := range turns {
		switch {
		case t.name != "":
			input = append(input, map[string]any{"type": "function_call", "call_id": t.callID, "name": t.name, "arguments": t.args})
		case t.callID != "":
			input = append(input, map[string]any{"type": "function_call_output", "call_id": t.callID, "output": t.out})
		case t.role == "system":
			b["instructions"] = t.text
		case t.role == "assistant":
			input = append(input, map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": t.text}}})
		default:
			input = append(input, map[string]any{"role": t.role, "content": []any{map[string]any{"type": "input_text", "text": t.text}}})
		}
	}
	b["input"] = input
	var ts []any
	for _, t := range tools {
		ts = append(ts, map[string]any{"type": "function", "name": t.name, "description": t.desc, "parameters": json.RawMessage(t.params)})
	}
	if ts != nil {
		b["tools"] = ts
	}
	return b
}

func endpoint(base, api string) string {
	if api == "chat" {
		return base + "/chat/completions"
	}
	return base + "/responses"
}

// post sends v and returns the HTTP response.
func post(ctx context.Context, url string, v any) (*http.Response, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer test-key")
	return http.DefaultClient.Do(req)
}

// ask sends a request of api and reads the answer in the request's mode.
func ask(ctx context.Context, base, api string, b map[string]any) (answer, error) {
	resp, err := post(ctx, endpoint(base, api), b)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return answer{}, fmt.Errorf("HTTP %d: %s", resp.StatusCode, msg)
	}
	stream, _ := b["stream"].(bool)
	switch {
	case api == "chat" && stream:
		return readChatStream(resp.Body)
	case api == "chat":
		return readChat(resp.Body)
	case stream:
		return readResponsesStream(resp.Body)
	default:
		var o responseObject
		if err := json.NewDecoder(resp.Body).Decode(&o); err != nil {
			return answer{}, err
		}
		return o.answer()
	}
}

// responseObject is the client's view of a Responses API response.
type responseObject struct {
	ID     string `json:"id"`
	Object string `json:"object"`
	Status string `json:"status"`
	Model  string `json:"model"`
	Output []struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
		Status    string `json:"status"`
		Role      string `json:"role"`
		Content   []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"output"`
	Usage *struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

func (o responseObject) answer() (answer, error) {
	if o.Object != "response" || o.ID == "" || o.Model == "" {
		return answer{}, fmt.Errorf("not a response object: id %q object %q model %q", o.ID, o.Object, o.Model)
	}
	if o.Usage == nil || o.Usage.TotalTokens != o.Usage.InputTokens+o.Usage.OutputTokens {
		return answer{}, fmt.Errorf("bad usage %+v", o.Usage)
	}
	a := answer{Finish: o.Status}
	for _, it := range o.Output {
		switch it.Type {
		case "function_call":
			if it.Status != "completed" || it.ID == "" {
				return answer{}, fmt.Errorf("function_call item %+v", it)
			}
			a.Calls = append(a.Calls, answerCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments})
		case "message":
			if it.Role != "assistant" {
				return answer{}, fmt.Errorf("message role %q", it.Role)
			}
			for _, c := range it.Content {
				if c.Type != "output_text" {
					return answer{}, fmt.Errorf("content type %q", c.Type)
				}
				a.Text += c.Text
			}
		default:
			return answer{}, fmt.Errorf("output item type %q", it.Type)
		}
	}
	return a, nil
}

// sseEvent is one server-sent event.
type sseEvent struct {
	event string
	data  string
}

// readSSE parses an event stream.
func readSSE(r io.Reader) ([]sseEvent, error) {
	var out []sseEvent
	var cur sseEvent
	var data []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil {
				cur.data = strings.Join(data, "\n")
				out = append(out, cur)
			}
			cur, data = sseEvent{}, nil
		case strings.HasPrefix(line, "event:"):
			cur.event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case strings.HasPrefix(line, ":"):
		default:
			return nil, fmt.Errorf("bad SSE line %q", line)
		}
	}
	if data != nil {
		return nil, fmt.Errorf("stream ended inside an event")
	}
	return out, sc.Err()
}

// readResponsesStream accumulates a Responses event stream the way a
// client does, and checks the deltas against the done events and the
// final response.
func readResponsesStream(r io.Reader) (answer, error) {
	evs, err := readSSE(r)
	if err != nil {
		return answer{}, err
	}
	type item struct {
		typ, id, callID, name, args, text string
		done                              bool
	}
	var items []*item
	byIndex := func(i int) (*item, error) {
		if i < 0 || i >= len(items) {
			return nil, fmt.Errorf("output_index %d out of range", i)
		}
		return items[i], nil
	}
	var final *responseObject
	for n, ev := range evs {
		var e struct {
			Type           string          `json:"type"`
			SequenceNumber int             `json:"sequence_number"`
			OutputIndex    int             `json:"output_index"`
			ContentIndex   int             `json:"content_index"`
			ItemID         string          `json:"item_id"`
			Delta          string          `json:"delta"`
			Arguments      string          `json:"arguments"`
			Text           string          `json:"text"`
			Item           json.RawMessage `json:"item"`
			Response       json.RawMessage `json:"response"`
		}
		if err := json.Unmarshal([]byte(ev.data), &e); err != nil {
			return answer{}, fmt.Errorf("event %d: %v", n, err)
		}
		if e.Type != ev.event {
			return answer{}, fmt.Errorf("event %d: event %q carries type %q", n, ev.event, e.Type)
		}
		if e.SequenceNumber != n {
			return answer{}, fmt.Errorf("event %d: sequence_number %d", n, e.SequenceNumber)
		}
		if final != nil {
			return answer{}, fmt.Errorf("event %q after response.completed", e.Type)
		}
		switch e.Type {
		case "response.created", "response.in_progress":
			var o responseObject
			if err := json.Unmarshal(e.Response, &o); err != nil || o.Status != "in_progress" || o.ID == "" {
				return answer{}, fmt.Errorf("%s: response %s", e.Type, e.Response)
			}
		case "response.output_item.added":
			if e.OutputIndex != len(items) {
				return answer{}, fmt.Errorf("item added at %d, want %d", e.OutputIndex, len(items))
			}
			var it struct{ Type, ID, CallID, Name, Arguments, Status string }
			var raw map[string]any
			_ = json.Unmarshal(e.Item, &raw)
			_ = json.Unmarshal(e.Item, &it)
			it.CallID, _ = raw["call_id"].(string)
			if it.Status != "in_progress" || it.ID == "" || it.Arguments != "" {
				return answer{}, fmt.Errorf("added item %s", e.Item)
			}
			items = append(items, &item{typ: it.Type, id: it.ID, callID: it.CallID, name: it.Name})
		case "response.function_call_arguments.delta", "response.output_text.delta":
			it, err := byIndex(e.OutputIndex)
			if err != nil {
				return answer{}, err
			}
			if it.id != e.ItemID || it.done {
				return answer{}, fmt.Errorf("%s for item %q (want %q, done %v)", e.Type, e.ItemID, it.id, it.done)
			}
			if e.Type == "response.output_text.delta" {
				it.text += e.Delta
			} else {
				it.args += e.Delta
			}
		case "response.function_call_arguments.done":
			it, err := byIndex(e.OutputIndex)
			if err != nil {
				return answer{}, err
			}
			if it.args != e.Arguments {
				return answer{}, fmt.Errorf("arguments: deltas %q, done %q", it.args, e.Arguments)
			}
		case "response.output_text.done":
			it, err := byIndex(e.OutputIndex)
			if err != nil {
				return answer{}, err
			}
			if it.text != e.Text {
				return answer{}, fmt.Errorf("text: deltas %q, done %q", it.text, e.Text)
			}
		case "response.content_part.added", "response.content_part.done":
			if _, err := byIndex(e.OutputIndex); err != nil {
				return answer{}, err
			}
		case "response.output_item.done":
			it, err := byIndex(e.OutputIndex)
			if err != nil {
				return answer{}, err
			}
			it.done = true
		case "response.completed":
			var o responseObject
			if err := json.Unmarshal(e.Response, &o); err != nil {
				return answer{}, err
			}
			final = &o
		default:
			return answer{}, fmt.Errorf("unexpected event %q", e.Type)
		}
	}
	if final == nil {
		return answer{}, fmt.Errorf("stream without response.completed")
	}
	a := answer{Finish: final.Status}
	for _, it := range items {
		if !it.done {
			return answer{}, fmt.Errorf("item %q never done", it.id)
		}
		if it.typ == "function_call" {
			a.Calls = append(a.Calls, answerCall{ID: it.callID, Name: it.name, Arguments: it.args})
		} else {
			a.Text += it.text
		}
	}
	full, err := final.answer()
	if err != nil {
		return answer{}, err
	}
	if fmt.Sprint(full) != fmt.Sprint(a) {
		return answer{}, fmt.Errorf("deltas say %+v, response.completed says %+v", a, full)
	}
	return a, nil
}

func readChat(r io.Reader) (answer, error) {
	var c struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Choices []struct {
			Index   int `json:"index"`
			Message struct {
				Role      string  `json:"role"`
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
			TotalTokens      int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(r).Decode(&c); err != nil {
		return answer{}, err
	}
	if c.Object != "chat.completion" || c.ID == "" || len(c.Choices) != 1 {
		return answer{}, fmt.Errorf("not a chat completion: %+v", c)
	}
	ch := c.Choices[0]
	if c.Usage.TotalTokens == 0 || c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens {
		return answer{}, fmt.Errorf("bad usage %+v", c.Usage)
	}
	if ch.Message.Role != "assistant" {
		return answer{}, fmt.Errorf("role %q", ch.Message.Role)
	}
	a := answer{Finish: ch.FinishReason}
	if ch.Message.Content != nil {
		a.Text = *ch.Message.Content
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "function" {
			return answer{}, fmt.Errorf("tool call type %q", tc.Type)
		}
		a.Calls = append(a.Calls, answerCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return a, nil
}

func readChatStream(r io.Reader) (answer, error) {
	evs, err := readSSE(r)
	if err != nil {
		return answer{}, err
	}
	if len(evs) == 0 || evs[len(evs)-1].data != "[DONE]" {
		return answer{}, fmt.Errorf("stream does not end with [DONE]")
	}
	var a answer
	var calls []*answerCall
	role := ""
	for _, ev := range evs[:len(evs)-1] {
		var c struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Choices []struct {
				Index int `json:"index"`
				Delta struct {
					Role      string  `json:"role"`
					Content   *string `json:"content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Type     string `json:"type"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				TotalTokens int `json:"total_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal([]byte(ev.data), &c); err != nil {
			return answer{}, err
		}
		if c.Object != "chat.completion.chunk" {
			return answer{}, fmt.Errorf("chunk object %q", c.Object)
		}
		if a.Finish != "" && len(c.Choices) > 0 {
			return answer{}, fmt.Errorf("chunk after finish_reason")
		}
		for _, ch := range c.Choices {
			d := ch.Delta
			if d.Role != "" {
				role = d.Role
			}
			if d.Content != nil {
				a.Text += *d.Content
			}
			for _, tc := range d.ToolCalls {
				switch {
				case tc.Index == len(calls):
					if tc.ID == "" || tc.Type != "function" {
						return answer{}, fmt.Errorf("first delta of tool call %d lacks id or type", tc.Index)
					}
					calls = append(calls, &answerCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
				case tc.Index < len(calls):
					calls[tc.Index].Arguments += tc.Function.Arguments
				default:
					return answer{}, fmt.Errorf("tool call index %d skips ahead", tc.Index)
				}
			}
			if ch.FinishReason != nil {
				a.Finish = *ch.FinishReason
			}
		}
	}
	if role != "assistant" {
		return answer{}, fmt.Errorf("role %q", role)
	}
	for _, c := range calls {
		a.Calls = append(a.Calls, *c)
	}
	return a, nil
}
