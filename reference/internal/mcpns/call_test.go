package mcpns

import (
	"encoding/json"
	"testing"
)

func TestModel_Resolve(t *testing.T) {
	m := Build(docsServers())
	tests := []struct {
		path    string
		wantID  string // catalog id, or "$api" for an API entry
		wantSrv string
		wantErr string
	}{
		{path: "docs.searchDocs", wantID: "mcp:docs:search_docs", wantSrv: "docs"},
		{path: "docs.resources.read", wantID: "mcp:docs:resources_read", wantSrv: "docs"},
		{path: "docs.prompts.get", wantID: "mcp:docs:prompts_get", wantSrv: "docs"},
		{path: "constructor2.prototype2", wantID: "mcp:constructor:prototype", wantSrv: "constructor2"},
		{path: "chromeDevtools.takeSnapshot", wantID: "mcp:chrome-devtools:take_snapshot", wantSrv: "chromeDevtools"},
		{path: "$api", wantID: "$api"},
		{path: "docs.$api", wantID: "$api", wantSrv: "docs"},
		{path: "docs", wantErr: "Code mode namespace path is not callable: docs"},
		{path: "docs.resources", wantErr: "Code mode namespace path is not callable: docs.resources"},
		{path: "docs.resources.read.x", wantErr: "Code mode namespace path is not callable: docs.resources.read.x"},
		{path: "docs.search_docs", wantErr: "Code mode namespace path is not callable: docs.search_docs"},
		{path: "docs.resources.$api", wantErr: "Code mode namespace path is not callable: docs.resources.$api"},
		{path: "gitlab.x", wantErr: "Code mode namespace path is not callable: gitlab.x"},
		{path: "$api.docs", wantErr: "Code mode namespace path is not callable: $api.docs"},
		{path: "chromeDevtools.prompts.list", wantErr: "Code mode namespace path is not callable: chromeDevtools.prompts.list"},
		{path: "constructor.prototype2", wantErr: "Invalid code mode namespace path segment: constructor"},
		{path: "docs.__proto__", wantErr: "Invalid code mode namespace path segment: __proto__"},
		{path: "docs.prototype", wantErr: "Invalid code mode namespace path segment: prototype"},
		{path: "nope.__proto__.x", wantErr: "Invalid code mode namespace path segment: __proto__"},
		{path: "", wantErr: "Invalid code mode namespace path segment: (empty)"},
		{path: "docs..searchDocs", wantErr: "Invalid code mode namespace path segment: (empty)"},
		{path: "docs.searchDocs.", wantErr: "Invalid code mode namespace path segment: (empty)"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			e, err := m.Resolve(tt.path)
			if tt.wantErr != "" {
				if got := errText(err); got != tt.wantErr || e != nil {
					t.Errorf("Resolve(%q) = %v, %q, want nil, %q", tt.path, e, got, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q) error = %v", tt.path, err)
			}
			id := e.ID
			if e.Operation == OpAPI {
				id = OpAPI
			}
			if id != tt.wantID || e.ServerIdentifier != tt.wantSrv {
				t.Errorf("Resolve(%q) = %s on %q, want %s on %q", tt.path, id, e.ServerIdentifier, tt.wantID, tt.wantSrv)
			}
		})
	}
}

func TestModel_Resolve_noServer(t *testing.T) {
	for _, path := range []string{"$api", "github.createIssue"} {
		if _, err := Build(nil).Resolve(path); errText(err) != "Code mode namespace path is not callable: "+path {
			t.Errorf("Resolve(%q) on an empty model = %v, want not callable", path, err)
		}
	}
}

func TestUnknownNamespace(t *testing.T) {
	if got, want := UnknownNamespace("Issues").Error(), "Unknown code mode namespace: Issues"; got != want {
		t.Errorf("UnknownNamespace() = %q, want %q", got, want)
	}
}

func TestPrepareInput(t *testing.T) {
	m := Build([]Server{{Name: "s", Owner: "s", Resources: true, Prompts: true, Tools: []Tool{
		{Name: "create", InputSchema: json.RawMessage(`{"type":"object","properties":{
			"title":{"type":"string"},
			"body":{"type":"string","default":""},
			"labels":{"type":"array","default":["a",{"z":1,"b":2}]},
			"owner":{"type":"string"},
			"limit":{"type":"integer","default":30},
			"nested":{"type":"object","properties":{"deep":{"default":1}}}
		},"required":["owner","title","owner"]}`)},
		{Name: "free"},
		{Name: "defaulted", InputSchema: json.RawMessage(`{"properties":{"a":{"default":null},"b":true,"c":{"default":1e21}},"required":["a"]}`)},
	}}})
	tests := []struct {
		name    string
		path    string
		args    []string
		argc    int
		want    string
		wantErr string
		reason  string
	}{
		{name: "defaults appended in schema order", path: "s.create", args: []string{`{"title":"t","owner":"o"}`}, argc: 1, want: `{"title":"t","owner":"o","body":"","labels":["a",{"z":1,"b":2}],"limit":30}`, reason: "nested defaults are not filled"},
		{name: "present members keep order and value", path: "s.create", args: []string{`{"limit":null,"owner":"o","title":"t","extra":{"x":[1.0,2.50]}}`}, argc: 1, want: `{"limit":null,"owner":"o","title":"t","extra":{"x":[1,2.5]},"body":"","labels":["a",{"z":1,"b":2}]}`, reason: "null is present; numbers are written as JSON.stringify does"},
		{name: "one missing", path: "s.create", args: []string{`{"owner":"o"}`}, argc: 1, wantErr: "Missing required MCP namespace argument: title"},
		{name: "several missing in required order", path: "s.create", args: nil, argc: 0, wantErr: "Missing required MCP namespace arguments: owner, title", reason: "duplicates in required are reported once"},
		{name: "missing argument is {}", path: "s.free", argc: 0, want: `{}`},
		{name: "argc without element counts as absent", path: "s.free", argc: 1, want: `{}`},
		{name: "no schema passes input through", path: "s.free", args: []string{`{"a":"\u2028","b":"<&>"}`}, argc: 1, want: "{\"a\":\"\u2028\",\"b\":\"<&>\"}"},
		{name: "default fills a required property", path: "s.defaulted", argc: 0, want: `{"a":null,"c":1e+21}`, reason: "a null default counts; a boolean property schema has none"},
		{name: "two arguments", path: "s.free", args: []string{`{}`, `{}`}, argc: 2, wantErr: MsgOneObjectArgument},
		{name: "two arguments with undefined", path: "s.free", args: []string{`{}`, `null`}, argc: 2, wantErr: MsgOneObjectArgument},
		{name: "null", path: "s.free", args: []string{`null`}, argc: 1, wantErr: MsgOneObjectArgument, reason: "a guest undefined argument arrives as null"},
		{name: "array", path: "s.free", args: []string{`[]`}, argc: 1, wantErr: MsgOneObjectArgument},
		{name: "string", path: "s.free", args: []string{`"x"`}, argc: 1, wantErr: MsgOneObjectArgument},
		{name: "number", path: "s.free", args: []string{`1`}, argc: 1, wantErr: MsgOneObjectArgument},
		{name: "invalid JSON", path: "s.free", args: []string{`{`}, argc: 1, wantErr: MsgOneObjectArgument},
		{name: "argument check before required check", path: "s.create", args: []string{`[]`}, argc: 1, wantErr: MsgOneObjectArgument},
		{name: "resources.read needs uri", path: "s.resources.read", argc: 0, wantErr: "Missing required MCP namespace argument: uri"},
		{name: "resources.read", path: "s.resources.read", args: []string{`{"uri":"memo://one"}`}, argc: 1, want: `{"uri":"memo://one"}`},
		{name: "prompts.get needs name", path: "s.prompts.get", args: []string{`{"arguments":{"topic":"x"}}`}, argc: 1, wantErr: "Missing required MCP namespace argument: name"},
		{name: "prompts.get", path: "s.prompts.get", args: []string{`{"name":"brief","arguments":{"topic":"release"}}`}, argc: 1, want: `{"name":"brief","arguments":{"topic":"release"}}`},
		{name: "resources.list", path: "s.resources.list", argc: 0, want: `{}`},
		{name: "duplicate keys keep the last value", path: "s.free", args: []string{`{"a":1,"b":2,"a":3}`}, argc: 1, want: `{"a":3,"b":2}`, reason: "as JSON.parse"},
		{name: "proto key is data", path: "s.free", args: []string{`{"__proto__":{"x":1}}`}, argc: 1, want: `{"__proto__":{"x":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := m.Resolve(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			var args []json.RawMessage
			for _, a := range tt.args {
				args = append(args, json.RawMessage(a))
			}
			got, err := PrepareInput(e, args, tt.argc)
			if tt.wantErr != "" {
				if errText(err) != tt.wantErr {
					t.Errorf("PrepareInput(%s, %v) error = %q, want %q (%s)", tt.path, tt.args, errText(err), tt.wantErr, tt.reason)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("PrepareInput(%s, %v) = %s, %v, want %s (%s)", tt.path, tt.args, got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestPrepareInput_apiEntry(t *testing.T) {
	m := Build(githubServers())
	e, err := m.Resolve("github.$api")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareInput(e, nil, 0); err == nil {
		t.Errorf("PrepareInput($api) = nil error, want an error")
	}
	if _, err := PrepareInput(nil, nil, 0); err == nil {
		t.Errorf("PrepareInput(nil) = nil error, want an error")
	}
}

func TestPrepareInput_doesNotMutateSchema(t *testing.T) {
	m := Build([]Server{{Name: "s", Owner: "s", Tools: []Tool{
		{Name: "t", InputSchema: json.RawMessage(`{"properties":{"a":{"default":{"k":1}}}}`)},
	}}})
	e, _ := m.Resolve("s.t")
	for range 3 {
		got, err := PrepareInput(e, nil, 0)
		if err != nil || string(got) != `{"a":{"k":1}}` {
			t.Fatalf("PrepareInput() = %s, %v", got, err)
		}
	}
}
