package fakemodel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/codemodekit/kit/fakes/fakemodel"
)

// The test plays the model: it takes the implementation's request and
// answers it with a tool call.
func ExampleServer() {
	s := fakemodel.NewServer()
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// The implementation under test (here a bare HTTP request) calls the model.
	answered := make(chan string)
	go func() {
		body := `{"model":"fake","messages":[{"role":"user","content":"add 2 and 3"}],
			"tools":[{"type":"function","function":{"name":"exec","parameters":{"type":"object"}}}]}`
		resp, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			answered <- err.Error()
			return
		}
		defer resp.Body.Close()
		var c struct {
			Choices []struct {
				Message struct {
					ToolCalls []struct {
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason string `json:"finish_reason"`
			}
		}
		_ = json.NewDecoder(resp.Body).Decode(&c)
		fn := c.Choices[0].Message.ToolCalls[0].Function
		answered <- fmt.Sprintf("%s %s(%s)", c.Choices[0].FinishReason, fn.Name, fn.Arguments)
	}()

	req, err := s.Next(ctx, "add 2 and 3")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(req.API, req.Tools[0].Name, req.Items[0].Role, req.Items[0].Text)
	err = req.Respond(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{
		{ID: "call_1", Name: "exec", Arguments: json.RawMessage(`{"code": "return 2 + 3"}`)},
	}})
	fmt.Println(err)
	fmt.Println(<-answered)
	// Output:
	// chat exec user add 2 and 3
	// <nil>
	// tool_calls exec({"code":"return 2 + 3"})
}
