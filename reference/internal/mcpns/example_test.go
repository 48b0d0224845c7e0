package mcpns_test

import (
	"encoding/json"
	"fmt"

	"github.com/codemodekit/kit/reference/internal/mcpns"
)

func Example() {
	m := mcpns.Build([]mcpns.Server{{
		Name:  "github",
		Owner: "github",
		Tools: []mcpns.Tool{{
			Name:        "create_issue",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string","default":""}},"required":["title"]}`),
		}},
		Resources: true,
	}})
	for _, f := range m.Files() {
		fmt.Println(f.Path)
	}

	// A guest call MCP.github.createIssue({ title: "Bug" }) arrives as a
	// namespace request with a path and the JSON arguments.
	e, err := m.Resolve("github.createIssue")
	if err != nil {
		panic(err)
	}
	input, err := mcpns.PrepareInput(e, []json.RawMessage{json.RawMessage(`{"title":"Bug"}`)}, 1)
	fmt.Println(e.ID, string(input), err)

	_, err = mcpns.PrepareInput(e, nil, 0)
	fmt.Println(err)
	_, err = m.Resolve("github.resources")
	fmt.Println(err)
	// Output:
	// mcp/index.d.ts
	// mcp/github.d.ts
	// mcp:github:create_issue {"title":"Bug","body":""} <nil>
	// Missing required MCP namespace argument: title
	// Code mode namespace path is not callable: github.resources
}
