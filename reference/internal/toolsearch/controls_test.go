package toolsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
)

func testControls(tools ...catalog.Tool) *Controls {
	if tools == nil {
		tools = []catalog.Tool{
			{Name: "weather", Description: "Current weather for a city.", Kind: catalog.Core, Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)},
			{Name: "read", Description: "Read a file.", Kind: catalog.Core},
			{Name: "create_issue", Description: "Create an issue.", Kind: catalog.MCP, Owner: "github", MCPToolName: "create_issue"},
			{Name: "select_file", Description: "Pick a file.", Kind: catalog.Client, Owner: "app"},
		}
	}
	return &Controls{Settings: config.ToolSearch{Enabled: true, Mode: config.ToolSearchTools, CodeTimeoutMs: 10000, SearchDefaultLimit: 8, MaxSearchLimit: 20},
		Catalog: catalog.BuildWithMCP(tools)}
}

func errorOf(t *testing.T, r Result) string {
	t.Helper()
	var f failure
	if err := json.Unmarshal(r.Details, &f); err != nil || f.Status != "error" {
		return ""
	}
	return f.Error
}

func TestSearch_refusals(t *testing.T) {
	long := strings.Repeat("a", 513)
	many := make([]string, 17)
	for i := range many {
		many[i] = `{"query":"q"}`
	}
	tests := []struct{ args, want string }{
		{`{}`, "provide exactly one of query or queries."},
		{`{"query":"a","queries":[{"query":"b"}]}`, "provide exactly one of query or queries."},
		{`{"query":null}`, "query must be a string."},
		{`{"query":"a","limit":0}`, "limit must be a positive integer."},
		{`{"query":"a","limit":1.5}`, "limit must be a positive integer."},
		{`{"query":"a","limit":"3"}`, "limit must be a positive integer."},
		{`{"queries":[{"query":"a"}],"limit":2}`, "set limit on each batch query, not on the batch request."},
		{`{"queries":[]}`, "queries must be a non-empty array."},
		{`{"queries":"a"}`, "queries must be a non-empty array."},
		{`{"queries":[` + strings.Join(many, ",") + `]}`, "queries may contain at most 16 entries."},
		{`{"queries":[{"query":"a"},3]}`, "queries[1] must be an object."},
		{`{"queries":[{"query":"  "}]}`, "queries[0].query must be a non-empty string."},
		{`{"queries":[{"query":"` + long + `"}]}`, "queries[0].query must not exceed 512 characters."},
		{`{"queries":[{"query":"a","limit":0}]}`, "queries[0].limit must be a positive integer."},
		{`{"queries":[{"query":"a","limit":20},{"query":"b","limit":20},{"query":"c"},{"query":"d"}]}`,
			"batch queries resolve to 56 results, but may request at most 50 in total. An omitted limit counts as 8; set smaller per-query limits and retry."},
		{`{"queries":[{"query":"` + strings.Repeat("a", 300) + `","limit":1},{"query":"` + strings.Repeat("b", 300) + `","limit":1}]}`,
			"serialized batch query text may use at most 512 UTF-8 bytes."},
	}
	c := testControls()
	for _, tc := range tests {
		if got := errorOf(t, c.Search(json.RawMessage(tc.args))); got != tc.want {
			t.Errorf("Search(%.80s) error = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestSearch_results(t *testing.T) {
	c := testControls()
	var hits []Entry
	if err := json.Unmarshal(c.Search(json.RawMessage(`{"query":"create issue","limit":100}`)).Details, &hits); err != nil {
		t.Fatal(err)
	}
	want := []Entry{{ID: "mcp:github:create_issue", Source: "mcp", SourceName: "github", Name: "create_issue", Description: "Create an issue.", Input: "unknown"}}
	if diff := cmp.Diff(want, hits); diff != "" {
		t.Errorf("MCP entries are searchable (-want +got):\n%s", diff)
	}
	var batch batchResponse
	if err := json.Unmarshal(c.Search(json.RawMessage(`{"queries":[{"query":" weather "},{"query":"file","limit":1}]}`)).Details, &batch); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range batch.Results {
		for _, e := range g.Candidates {
			got = append(got, g.Query+"="+e.Name)
		}
	}
	if diff := cmp.Diff([]string{"weather=weather", "file=select_file"}, got); diff != "" {
		t.Errorf("batch groups (-want +got):\n%s", diff)
	}
}

func TestBoundBatch(t *testing.T) {
	long := strings.Repeat("word ", 100)
	var groups []batchGroup
	for g := range 3 {
		var cands []Entry
		for i := range 8 - 3*g {
			cands = append(cands, Entry{ID: fmt.Sprintf("openclaw:core:t%d_%d", g, i), Source: "openclaw", SourceName: "core", Name: fmt.Sprintf("t%d_%d", g, i), Description: long, Input: "{}"})
		}
		groups = append(groups, batchGroup{Query: fmt.Sprint(g), Candidates: cands})
	}
	resp := boundBatch(groups)
	if n := jsLen(result(resp).Text); n > batchResponseChars {
		t.Errorf("bounded batch text is %d characters, want at most %d", n, batchResponseChars)
	}
	if !resp.Truncated {
		t.Error("a batch that lost candidates is not marked truncated")
	}
	var sizes []int
	for _, g := range resp.Results {
		sizes = append(sizes, len(g.Candidates))
		for _, e := range g.Candidates {
			if jsLen(e.Description) > batchDescriptionChars || !strings.HasSuffix(e.Description, "...") {
				t.Fatalf("description not cut to %d characters with ...: %q", batchDescriptionChars, e.Description)
			}
		}
	}
	// The largest group loses its last candidate first; among equal
	// groups the one whose last candidate is longer, then the first.
	if diff := cmp.Diff([]int{3, 4, 2}, sizes); diff != "" {
		t.Errorf("group sizes (-want +got):\n%s", diff)
	}
}

func TestReadCall(t *testing.T) {
	c := testControls()
	tests := []struct {
		name, args   string
		id, input    string
		refusedError string
	}{
		{"args", `{"id":"weather","args":{"city":"Oslo"}}`, "openclaw:core:weather", `{"city":"Oslo"}`, ""},
		{"input alias", `{"id":"weather","input":{"city":"Oslo"}}`, "openclaw:core:weather", `{"city":"Oslo"}`, ""},
		{"dotted args", `{"id":"weather","args.city":"Oslo","args":{"units":"c"}}`, "openclaw:core:weather", `{"city":"Oslo","units":"c"}`, ""},
		{"flattened", `{"id":"weather","city":"Oslo"}`, "openclaw:core:weather", `{"city":"Oslo"}`, ""},
		{"flattened name selector keeps id", `{"name":"weather","id":"x1"}`, "openclaw:core:weather", `{"id":"x1"}`, ""},
		{"ambiguous selectors", `{"id":"weather","name":"read"}`, "", "", "Ambiguous tool selectors: pass the target tool id and nest target arguments under args."},
		{"no id", `{"args":{}}`, "", "", "id must be a non-empty string."},
		{"unknown", `{"id":"nope","args":{}}`, "", "", "Unknown tool id: nope. " + catalog.ToolSearchRecovery},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			call, refused := c.ReadCall(json.RawMessage(tc.args))
			if refused != nil {
				if got := errorOf(t, *refused); got != tc.refusedError {
					t.Errorf("refused with %q, want %q", got, tc.refusedError)
				}
				return
			}
			if tc.refusedError != "" {
				t.Fatalf("accepted, want refused with %q", tc.refusedError)
			}
			if diff := cmp.Diff(tc.id+" "+tc.input, call.Entry.ID+" "+string(call.Input)); diff != "" {
				t.Errorf("call (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefinitions(t *testing.T) {
	for _, mode := range []string{config.ToolSearchCode, config.ToolSearchTools, config.ToolSearchDirectory} {
		for _, d := range Definitions(config.ToolSearch{Mode: mode, SearchDefaultLimit: 5}) {
			if !json.Valid(d.Parameters) {
				t.Errorf("%s: schema is not JSON: %s", d.Name, d.Parameters)
			}
			if d.Name == SearchName && !strings.Contains(string(d.Parameters), "Defaults to 5 when omitted.") {
				t.Errorf("tool_search's schema does not name the default limit: %s", d.Parameters)
			}
		}
	}
}

func TestResult_prettyText(t *testing.T) {
	r := result(map[string]any{"a": []int{}, "b": "<&>", "c": 1.0})
	if diff := cmp.Diff("{\n  \"a\": [],\n  \"b\": \"<&>\",\n  \"c\": 1\n}", r.Text); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}
