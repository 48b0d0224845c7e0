package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"

	codemode "github.com/codemodekit/kit/reference"
)

// A runtime, one turn with one core tool, and the model's exec call: the
// program searches the hidden catalog, calls the tool and returns a value.
func Example() {
	ctx := context.Background()
	rt := codemode.New(ctx, codemode.Options{})
	defer rt.Close()

	weather := codemode.Tool{
		Name: "weather", Description: "Current weather for a city.", Source: codemode.SourceCore,
		Parameters: json.RawMessage(`{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}`),
		Execute: func(ctx context.Context, c codemode.ToolCall) (codemode.ToolResult, error) {
			var in struct{ City string }
			_ = json.Unmarshal(c.Input, &in)
			r := codemode.TextResult("sunny in " + in.City)
			r.Details = json.RawMessage(`{"city":"` + in.City + `","temp":21}`)
			return r, nil
		},
	}
	turn, err := rt.StartTurn(ctx, codemode.TurnOptions{
		Config:  json.RawMessage(`{"tools":{"codeMode":true}}`),
		AgentID: "main", SessionID: "s1", SessionKey: "agent:main:main", RunID: "run-1",
		Tools: []codemode.Tool{weather},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer turn.End()
	for _, def := range turn.Tools() {
		fmt.Println("visible:", def.Name)
	}
	program := `const [hit] = await tools.search("weather");
const w = await tools.callValue(hit.id, { city: "Oslo" });
return w.temp;`
	args, _ := json.Marshal(map[string]string{"code": program})
	res, err := turn.Call(ctx, "call_1", "exec", args)
	if err != nil {
		fmt.Println(err)
		return
	}
	var payload struct {
		Status string          `json:"status"`
		Value  json.RawMessage `json:"value"`
	}
	_ = json.Unmarshal(res.Details, &payload)
	fmt.Println(payload.Status, string(payload.Value))
	// Output:
	// visible: exec
	// visible: wait
	// completed 21
}

// A program that yields suspends its run: exec answers waiting with a run
// id, and the model's wait resumes the run where it stopped.
func Example_wait() {
	ctx := context.Background()
	rt := codemode.New(ctx, codemode.Options{})
	defer rt.Close()
	clock := codemode.Tool{
		Name: "clock", Description: "The time.", Source: codemode.SourceCore,
		Execute: func(ctx context.Context, c codemode.ToolCall) (codemode.ToolResult, error) {
			return codemode.TextResult("noon"), nil
		},
	}
	turn, err := rt.StartTurn(ctx, codemode.TurnOptions{
		Config:  json.RawMessage(`{"tools":{"codeMode":true}}`),
		AgentID: "main", SessionID: "s1", SessionKey: "agent:main:main", RunID: "run-1",
		Tools: []codemode.Tool{clock},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer turn.End()
	type payload struct {
		Status string          `json:"status"`
		RunID  string          `json:"runId"`
		Value  json.RawMessage `json:"value"`
	}
	args, _ := json.Marshal(map[string]string{"code": `const n = await yield_control("checkpoint"); return "resumed";`})
	res, err := turn.Call(ctx, "call_1", "exec", args)
	if err != nil {
		fmt.Println(err)
		return
	}
	var first payload
	_ = json.Unmarshal(res.Details, &first)
	fmt.Println(first.Status)
	args, _ = json.Marshal(map[string]string{"runId": first.RunID})
	res, err = turn.Call(ctx, "call_2", "wait", args)
	if err != nil {
		fmt.Println(err)
		return
	}
	var second payload
	_ = json.Unmarshal(res.Details, &second)
	fmt.Println(second.Status, string(second.Value))
	// Output:
	// waiting
	// completed "resumed"
}

// A plugin's namespace: guest code calls Issues.list, which runs the
// plugin's issues_list tool. The namespace is visible to a turn whose
// catalog has every tool it requires, owned by the registering plugin.
func ExampleNamespaceRegistry_Register() {
	ctx := context.Background()
	var namespaces codemode.NamespaceRegistry
	err := namespaces.Register("issues", codemode.NamespaceRegistration{
		ID: "issues", GlobalName: "Issues", Description: "The project's issues.",
		RequiredToolNames: []string{"issues_list"},
		CreateScope: func(codemode.NamespaceContext) (any, error) {
			list, err := codemode.NamespaceTool("issues_list", nil)
			return map[string]any{"list": list}, err
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rt := codemode.New(ctx, codemode.Options{Namespaces: &namespaces})
	defer rt.Close()
	list := codemode.Tool{
		Name: "issues_list", Description: "Lists issues.", Source: codemode.SourcePlugin, Owner: "issues",
		Execute: func(ctx context.Context, c codemode.ToolCall) (codemode.ToolResult, error) {
			r := codemode.TextResult("2 issues")
			r.Details = json.RawMessage(`{"input":` + string(c.Input) + `,"issues":[12,14]}`)
			return r, nil
		},
	}
	turn, err := rt.StartTurn(ctx, codemode.TurnOptions{
		Config:  json.RawMessage(`{"tools":{"codeMode":true}}`),
		AgentID: "main", SessionID: "s1", SessionKey: "agent:main:main", RunID: "run-1",
		Tools: []codemode.Tool{list},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer turn.End()
	args, _ := json.Marshal(map[string]string{"code": `return await Issues.list({ state: "open" })`})
	res, err := turn.Call(ctx, "call_1", "exec", args)
	if err != nil {
		fmt.Println(err)
		return
	}
	var payload struct {
		Status string          `json:"status"`
		Value  json.RawMessage `json:"value"`
	}
	_ = json.Unmarshal(res.Details, &payload)
	fmt.Println(payload.Status, string(payload.Value))
	// Output:
	// completed {"input":{"state":"open"},"issues":[12,14]}
}

// A turn without code mode: its tools stay model-visible and the model
// calls them directly. Code mode activates with tools.codeMode.
func ExampleRuntime_StartTurn() {
	ctx := context.Background()
	rt := codemode.New(ctx, codemode.Options{})
	defer rt.Close()
	echo := codemode.Tool{
		Name: "echo", Description: "Echoes its input.", Source: codemode.SourceCore,
		Execute: func(ctx context.Context, c codemode.ToolCall) (codemode.ToolResult, error) {
			return codemode.TextResult(string(c.Input)), nil
		},
	}
	turn, err := rt.StartTurn(ctx, codemode.TurnOptions{
		Config:  json.RawMessage(`{}`),
		AgentID: "main", SessionID: "s1", SessionKey: "agent:main:main", RunID: "run-1",
		Tools: []codemode.Tool{echo},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer turn.End()
	fmt.Println("code mode:", turn.Active())
	for _, def := range turn.Tools() {
		fmt.Println("visible:", def.Name)
	}
	res, err := turn.Call(ctx, "call_1", "echo", json.RawMessage(`{"say":"hi"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].Text)
	// Output:
	// code mode: false
	// visible: echo
	// {"say":"hi"}
}
