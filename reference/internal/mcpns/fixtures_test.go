package mcpns

import (
	"encoding/json"
	"testing"
)

// githubServers is the complete example of SPEC.md section 14.6: the
// github server with create_issue, list_issues and the resources
// capability.
func githubServers() []Server {
	return []Server{{
		Name:  "github",
		Owner: "github",
		Tools: []Tool{
			{
				Name:        "create_issue",
				Description: "Create a GitHub issue.",
				InputSchema: json.RawMessage(`{
					"type": "object",
					"properties": {
						"owner": {"type": "string", "description": "Repository owner"},
						"repo": {"type": "string", "description": "Repository name"},
						"title": {"type": "string", "description": "Issue title\nShown in tracker"},
						"body": {"type": "string", "default": ""}
					},
					"required": ["owner", "repo", "title"]
				}`),
			},
			{
				Name:        "list_issues",
				Description: "List repository issues.\nNewest first; closes */ are escaped.",
				InputSchema: json.RawMessage(`{
					"type": "object",
					"properties": {
						"state": {"type": "string", "enum": ["open", "closed"], "description": "Issue state"},
						"labels": {"type": "array", "items": {"type": "string"}},
						"limit": {"type": "integer", "default": 30}
					}
				}`),
			},
		},
		Resources: true,
	}}
}

// docsServers is a second setup: two servers, prompts and resources, name
// collisions and a reserved server name.
func docsServers() []Server {
	return []Server{
		{
			Name: "chrome-devtools", Owner: "chrome-devtools",
			Tools: []Tool{
				{Name: "take_snapshot", Title: "Take snapshot", Description: "Capture the page.", InputSchema: json.RawMessage(`{"type":"object","properties":{"output":{"type":"string","enum":["markdown","html"],"default":"markdown"}}}`)},
				{Name: "prototype", Description: "A tool named like a forbidden segment."},
			},
		},
		{
			Name: "constructor", Owner: "constructor",
			Tools: []Tool{
				{Name: "prototype", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
			},
		},
		{
			Name: "docs", Owner: "docs",
			Tools: []Tool{
				{Name: "search_docs", Description: "Search the documentation.", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)},
			},
			Resources: true,
			Prompts:   true,
		},
	}
}

// mustUnmarshal parses JSON into a generic value for structural
// comparison.
func mustUnmarshal(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("invalid JSON %s: %v", data, err)
	}
	return v
}
