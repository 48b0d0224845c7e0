package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolve_Enabled(t *testing.T) {
	tests := []struct {
		cfg  string
		want bool
	}{
		{`{}`, false},
		{`{"tools":{"codeMode":true}}`, true},
		{`{"tools":{"codeMode":false}}`, false},
		{`{"tools":{"codeMode":{"enabled":true}}}`, true},
		{`{"tools":{"codeMode":{"enabled":"true"}}}`, false},
		{`{"tools":{"codeMode":{"timeoutMs":1234}}}`, false},
		{`{"tools":{"codeMode":"auto"}}`, false},
		{`{"tools":{"codeMode":null}}`, false},
		{`{"tools":{"codeMode":1}}`, false},
		{`not json`, false},
	}
	for _, tt := range tests {
		if got := Resolve(json.RawMessage(tt.cfg), "main").Settings.Enabled; got != tt.want {
			t.Errorf("Resolve(%s).Enabled = %v, want %v", tt.cfg, got, tt.want)
		}
	}
}

func TestResolve_Numbers(t *testing.T) {
	tests := []struct {
		value string
		want  int
	}{
		{`50`, 100},
		{`0.5`, 10000},
		{`"5000"`, 10000},
		{`999999`, 60000},
		{`0`, 10000},
		{`-1`, 10000},
		{`5000.0`, 5000},
		{`1e3`, 1000},
		{`null`, 10000},
		{`1e400`, 10000},
	}
	for _, tt := range tests {
		cfg := `{"tools":{"codeMode":{"enabled":true,"timeoutMs":` + tt.value + `}}}`
		if got := Resolve(json.RawMessage(cfg), "main").Settings.TimeoutMs; got != tt.want {
			t.Errorf("timeoutMs %s resolved to %d, want %d", tt.value, got, tt.want)
		}
	}
}

func TestResolve_SearchLimits(t *testing.T) {
	s := Resolve(json.RawMessage(`{"tools":{"codeMode":{"enabled":true,"maxSearchLimit":3}}}`), "main").Settings
	if s.MaxSearchLimit != 3 || s.SearchDefaultLimit != 3 {
		t.Errorf("maxSearchLimit 3 gives (%d, %d), want (3, 3)", s.MaxSearchLimit, s.SearchDefaultLimit)
	}
	s = Resolve(json.RawMessage(`{"tools":{"codeMode":{"enabled":true,"searchDefaultLimit":99}}}`), "main").Settings
	if s.SearchDefaultLimit != 50 {
		t.Errorf("searchDefaultLimit 99 gives %d, want 50", s.SearchDefaultLimit)
	}
}

func TestResolve_Languages(t *testing.T) {
	tests := []struct {
		value string
		want  []string
	}{
		{`["typescript"]`, []string{"typescript"}},
		{`["typescript","javascript","typescript","bash"]`, []string{"typescript", "javascript"}},
		{`[]`, []string{"javascript", "typescript"}},
		{`"javascript"`, []string{"javascript", "typescript"}},
	}
	for _, tt := range tests {
		cfg := `{"tools":{"codeMode":{"enabled":true,"languages":` + tt.value + `}}}`
		if diff := cmp.Diff(tt.want, Resolve(json.RawMessage(cfg), "main").Settings.Languages); diff != "" {
			t.Errorf("languages %s mismatch (-want +got):\n%s", tt.value, diff)
		}
	}
}

func TestResolve_Runtime(t *testing.T) {
	s := Resolve(json.RawMessage(`{"tools":{"codeMode":{"enabled":true,"runtime":"v8"}}}`), "main").Settings
	if s.RuntimeSupported() || s.RuntimeJSON != `"v8"` {
		t.Errorf("runtime v8: supported %v, JSON %s", s.RuntimeSupported(), s.RuntimeJSON)
	}
	s = Resolve(json.RawMessage(`{"tools":{"codeMode":{"enabled":true,"runtime":[1e21,-0]}}}`), "main").Settings
	if s.RuntimeJSON != `[1e+21,0]` {
		t.Errorf("RuntimeJSON = %s, want [1e+21,0]", s.RuntimeJSON)
	}
}

func TestResolve_AgentMerge(t *testing.T) {
	cfg := json.RawMessage(`{"tools":{"codeMode":{"enabled":true,"timeoutMs":500}},
		"agents":{"list":[{"id":"a","tools":{"codeMode":{"timeoutMs":900}}},{"id":"b","tools":{"codeMode":"auto"}},
		{"id":"c","tools":{"codeMode":false}}]}}`)
	tests := []struct {
		agent   string
		enabled bool
		timeout int
	}{
		{"main", true, 500},
		{"a", true, 900},
		{"b", false, 500},
		{"c", false, 500},
	}
	for _, tt := range tests {
		s := Resolve(cfg, tt.agent).Settings
		if s.Enabled != tt.enabled || s.TimeoutMs != tt.timeout {
			t.Errorf("agent %s: enabled %v timeout %d, want %v %d", tt.agent, s.Enabled, s.TimeoutMs, tt.enabled, tt.timeout)
		}
	}
}

func TestPolicy(t *testing.T) {
	read := ToolRef{Name: "read", ID: "openclaw:core:read"}
	browse := ToolRef{Name: "browse", ID: "openclaw:browser:browse", Owner: "browser"}
	issue := ToolRef{Name: "gh__create", ID: "mcp:gh:create", Owner: "bundle-mcp"}
	tests := []struct {
		name string
		cfg  string
		want map[string]bool
	}{
		{"no policy", `{}`, map[string]bool{"read": true, "browse": true, "gh__create": true}},
		{"deny by name", `{"tools":{"deny":["read"]}}`, map[string]bool{"read": false, "browse": true, "gh__create": true}},
		{"allow by plugin id", `{"tools":{"allow":["browser"]}}`, map[string]bool{"read": false, "browse": true, "gh__create": false}},
		{"allow bundle-mcp", `{"tools":{"allow":["bundle-mcp","openclaw:core:read"]}}`, map[string]bool{"read": true, "browse": false, "gh__create": true}},
		{"deny wins", `{"tools":{"allow":["*"],"deny":["browse"]}}`, map[string]bool{"read": true, "browse": false, "gh__create": true}},
		{"agent narrows", `{"agents":{"list":[{"id":"main","tools":{"allow":["read"]}}]}}`, map[string]bool{"read": true, "browse": false, "gh__create": false}},
		{"also allow", `{"tools":{"allow":["read"],"alsoAllow":["browse"]}}`, map[string]bool{"read": true, "browse": true, "gh__create": false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Resolve(json.RawMessage(tt.cfg), "main").Policy
			for _, ref := range []ToolRef{read, browse, issue} {
				if got := p.Allows(ref); got != tt.want[ref.Name] {
					t.Errorf("Allows(%s) = %v, want %v", ref.Name, got, tt.want[ref.Name])
				}
			}
		})
	}
	if !Resolve(json.RawMessage(`{"tools":{"allow":[]}}`), "main").Policy.EmptyAllowList() {
		t.Error("an empty allow list is not reported")
	}
}

func TestField_Read(t *testing.T) {
	f := Field{Name: "n", Default: 60, Range: Range{10, 600}}
	tests := []struct {
		raw    string
		want   int
		reason string
	}{
		{``, 60, "absent: the default"},
		{`200`, 200, "in range"},
		{`5`, 10, "clamped to the minimum"},
		{`601`, 600, "clamped to the maximum"},
		{`0.5`, 60, "a fraction is not a positive integer"},
		{`"20"`, 60, "a string is not a number"},
		{`2e1`, 20, "exponent notation is still an integer"},
		{`null`, 60, "null"},
		{`1e999`, 60, "not representable"},
	}
	for _, tt := range tests {
		var raw json.RawMessage
		if tt.raw != "" {
			raw = json.RawMessage(tt.raw)
		}
		if got := f.Read(raw); got != tt.want {
			t.Errorf("Read(%q) = %d, want %d (%s)", tt.raw, got, tt.want, tt.reason)
		}
	}
}

func TestResolve_MCPServers(t *testing.T) {
	tests := []struct {
		cfg, want string
		reason    string
	}{
		{`{"mcp":{"servers":{"a":{"command":"x"}}}}`, `{"a":{"command":"x"}}`, "kept as written"},
		{`{"tools":{"allow":5},"mcp":{"servers":{"a":{}}}}`, `{"a":{}}`, "a wrongly typed member elsewhere does not hide it"},
		{`{"mcp":5}`, ``, "mcp is not an object"},
		{`{"tools":{"codeMode":true}}`, ``, "no mcp section"},
		{`not json`, ``, "not a document"},
	}
	for _, tt := range tests {
		if got := string(Resolve(json.RawMessage(tt.cfg), "main").MCPServers); got != tt.want {
			t.Errorf("Resolve(%s).MCPServers = %q, want %q (%s)", tt.cfg, got, tt.want, tt.reason)
		}
	}
}

// TestPolicy_ForRequester: tools.toolsBySender's rules apply by the first
// configured key of channel+sender, id, bare id and "*" (CM-3.18).
func TestPolicy_ForRequester(t *testing.T) {
	cfg := json.RawMessage(`{"tools": {"deny": ["shell"], "toolsBySender": {
		"channel:webchat:ann": {"deny": ["read"]},
		"id:bob": {"deny": ["weather"]},
		"carl": {"allow": ["read"]},
		"*": {"deny": ["write"]}}}}`)
	tools := []string{"read", "weather", "write", "shell"}
	tests := []struct {
		sender, channel string
		want            []string
	}{
		{"ann", "webchat", []string{"weather", "write"}},
		{"ann", "sms", []string{"read", "weather"}},
		{"bob", "", []string{"read", "write"}},
		{"carl", "", []string{"read"}},
		{"", "", []string{"read", "weather"}},
	}
	for _, tt := range tests {
		pol := Resolve(cfg, "main").Policy.ForRequester(tt.sender, tt.channel)
		var got []string
		for _, name := range tools {
			if pol.Allows(ToolRef{Name: name}) {
				got = append(got, name)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("sender %q on %q: active tools (-want +got):\n%s", tt.sender, tt.channel, diff)
		}
	}
}
