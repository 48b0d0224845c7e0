package mcpns

import (
	"encoding/json"
	"testing"
)

func TestModel_Guest(t *testing.T) {
	tests := []struct {
		name    string
		servers []Server
	}{
		{"empty", nil},
		{"github", githubServers()},
		{"docs", docsServers()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Build(tt.servers)
			b, err := json.MarshalIndent(m.Guest(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			expectGolden(t, "guest/"+tt.name+".json", string(b)+"\n")
		})
	}
}

// TestModel_Guest_callsResolve checks that every call node of the
// descriptor resolves, and that every entry has exactly one call node.
func TestModel_Guest_callsResolve(t *testing.T) {
	m := Build(docsServers())
	d, ok := m.Guest().(*Descriptor)
	if !ok {
		t.Fatalf("Guest() = %T, want *Descriptor", m.Guest())
	}
	if d.ID != "mcp" || d.GlobalName != "MCP" {
		t.Errorf("Guest() id, globalName = %q, %q", d.ID, d.GlobalName)
	}
	seen := map[string]bool{}
	var walk func(prefix string, n *Node)
	walk = func(prefix string, n *Node) {
		if n.Kind == NodeCall {
			if n.Path != prefix {
				t.Errorf("call node at %s has path %s", prefix, n.Path)
			}
			e, err := m.Resolve(n.Path)
			if err != nil {
				t.Errorf("Resolve(%s) = %v", n.Path, err)
				return
			}
			if e.Operation != OpAPI {
				seen[e.ID] = true
			}
			return
		}
		for _, mb := range n.Members {
			p := mb.Name
			if prefix != "" {
				p = prefix + "." + mb.Name
			}
			walk(p, mb.Node)
		}
	}
	walk("", d.Root)
	for _, e := range m.Entries() {
		if !seen[e.ID] {
			t.Errorf("entry %s has no call node", e.ID)
		}
	}
}

func TestNode_MarshalJSON_order(t *testing.T) {
	n := &Node{Kind: NodeObject, Members: []Member{
		{"z", &Node{Kind: NodeCall, Path: "z"}},
		{"a", &Node{Kind: NodeObject}},
	}}
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"object","members":{"z":{"kind":"call","path":"z"},"a":{"kind":"object","members":{}}}}`
	if string(b) != want {
		t.Errorf("Marshal(node) = %s, want %s", b, want)
	}
}
