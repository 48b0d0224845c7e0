package openclaw

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// denied returns the deny list ownToolPolicy wrote, or nil.
func denied(doc map[string]any) []string {
	tools, _ := doc["tools"].(map[string]any)
	byProvider, _ := tools["byProvider"].(map[string]any)
	fake, _ := byProvider["fake"].(map[string]any)
	list, _ := fake["deny"].([]any)
	var out []string
	for _, v := range list {
		out = append(out, v.(string))
	}
	return out
}

// dropDeny removes the deny list ownToolPolicy wrote.
func dropDeny(doc map[string]any) {
	tools, _ := doc["tools"].(map[string]any)
	byProvider, _ := tools["byProvider"].(map[string]any)
	if fake, ok := byProvider["fake"].(map[string]any); ok {
		delete(fake, "deny")
	}
}

func TestOwnToolPolicy(t *testing.T) {
	tests := []struct {
		name  string
		rel   release
		in    string
		names []string
		// allowed must be absent from the deny list, deniedToo present.
		allowed, deniedToo []string
		// want, when set, is the whole document after the policy, with the
		// deny list left out.
		want string
	}{
		{
			name:      "empty setup: every own tool but the model-visible ones",
			rel:       newRelease("2026.8.1-beta.1"),
			in:        `{}`,
			allowed:   []string{"sessions_yield"},
			deniedToo: []string{"read", "exec", "message", "openclaw", "sessions_spawn", "agents_wait", "file_write", "talk_voice", "ls", "pdf"},
			want:      `{"tools": {"byProvider": {"fake": {}}, "web": {"search": {"enabled": false}, "fetch": {"enabled": false}}}}`,
		},
		{
			name:      "Era C keeps its direct-only openclaw tool",
			rel:       newRelease("2026.9.6"),
			in:        `{}`,
			allowed:   []string{"sessions_yield", "openclaw"},
			deniedToo: []string{"read", "ls"},
			want:      `{"tools": {"byProvider": {"fake": {}}, "web": {"search": {"enabled": false}, "fetch": {"enabled": false}}}}`,
		},
		{
			name:      "the scenario's names stay, aliases resolved",
			in:        `{"tools": {"allow": ["read"]}}`,
			names:     []string{"read", "Bash", "cron", "weather", "Web_Search"},
			allowed:   []string{"read", "exec", "automations", "web_search", "weather"},
			deniedToo: []string{"write", "web_fetch"},
		},
		{
			name:      "Swarm keeps what agents.run needs",
			in:        `{"agents": {"list": [{"id": "ops", "tools": {"swarm": {"enabled": true}}}]}}`,
			allowed:   []string{"sessions_spawn", "agents_wait", "sessions_yield"},
			deniedToo: []string{"read"},
		},
		{
			name:      "Swarm set to false is off",
			in:        `{"tools": {"swarm": false}}`,
			deniedToo: []string{"sessions_spawn", "agents_wait"},
		},
		{
			name:      "a bundled plugin whose tool the scenario declares is disabled",
			in:        `{}`,
			names:     []string{"file_write"},
			allowed:   []string{"file_write"},
			deniedToo: []string{"file_fetch", "dir_list"},
			want: `{"tools": {"byProvider": {"fake": {}}, "web": {"search": {"enabled": false}, "fetch": {"enabled": false}}},
				"plugins": {"entries": {"file-transfer": {"enabled": false}}}}`,
		},
		{
			name:  "what the scenario sets is kept",
			in:    `{"tools": {"byProvider": {"fake": {"deny": ["weather"]}}, "web": {"fetch": {"enabled": true}}}, "plugins": {"entries": {"file-transfer": {"enabled": true}}}}`,
			names: []string{"file_write"},
			want: `{"tools": {"byProvider": {"fake": {"deny": ["weather"]}}, "web": {"search": {"enabled": false}, "fetch": {"enabled": true}}},
				"plugins": {"entries": {"file-transfer": {"enabled": true}}}}`,
		},
		{
			name: "a tools member that is not an object is left for OpenClaw's schema",
			in:   `{"tools": ["read"]}`,
			want: `{"tools": ["read"]}`,
		},
		{
			name:  "nested members that are not objects are left too",
			in:    `{"tools": {"byProvider": 1, "web": {"search": "off"}}, "plugins": {"entries": {"file-transfer": null}}}`,
			names: []string{"file_write"},
			want:  `{"tools": {"byProvider": 1, "web": {"search": "off", "fetch": {"enabled": false}}}, "plugins": {"entries": {"file-transfer": null}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal([]byte(tt.in), &doc); err != nil {
				t.Fatal(err)
			}
			ownToolPolicy(doc, tt.names, tt.rel.keptTools())
			deny := denied(doc)
			for _, n := range tt.allowed {
				if slices.Contains(deny, n) {
					t.Errorf("%q is denied; deny list %v", n, deny)
				}
			}
			for _, n := range tt.deniedToo {
				if !slices.Contains(deny, n) {
					t.Errorf("%q is not denied; deny list %v", n, deny)
				}
			}
			seen := map[string]bool{}
			for _, n := range deny {
				if seen[n] {
					t.Errorf("%q is denied twice", n)
				}
				seen[n] = true
			}
			if tt.want == "" {
				return
			}
			if !strings.Contains(tt.in, `"deny"`) {
				dropDeny(doc)
			}
			var want map[string]any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, doc); diff != "" {
				t.Errorf("document (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOwnToolsCoverPlugins checks that every bundled plugin tool is in
// the deny list of an empty setup, and that no kept tool is in a plugin.
func TestOwnToolsCoverPlugins(t *testing.T) {
	for _, version := range []string{"2026.8.1-beta.1", "2026.9.6"} {
		rel := newRelease(version)
		doc := map[string]any{}
		ownToolPolicy(doc, nil, rel.keptTools())
		deny := denied(doc)
		for id, names := range ownPlugins {
			for _, n := range names {
				if !slices.Contains(deny, n) {
					t.Errorf("%s: plugin %s: %q is not denied", version, id, n)
				}
				if slices.Contains(rel.keptTools(), n) {
					t.Errorf("%s: plugin %s: %q is kept", version, id, n)
				}
			}
		}
	}
}
