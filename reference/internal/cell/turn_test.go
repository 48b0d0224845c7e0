package cell

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/google/go-cmp/cmp"
)

func TestTurn_GuestConfig(t *testing.T) {
	mcp := guest.Namespace{ID: "mcp", GlobalName: "MCP", Root: guest.Node{Kind: "object"}}
	scope := guest.Namespace{ID: "issues", GlobalName: "Issues", Root: guest.Node{Kind: "object"}}
	file := guest.APIFile{Path: "agents.d.ts", Description: "d", Content: "x", Bytes: 1}
	s := config.Defaults()
	s.MaxOutputBytes = 2048
	tests := []struct {
		name   string
		turn   *Turn
		scopes []guest.Namespace
		want   string
		reason string
	}{
		{
			name: "plain", turn: &Turn{Settings: s},
			want:   `{"maxOutputBytes":2048,"apiFiles":[],"namespaces":[]}`,
			reason: "empty lists are written as [], never null; maxOutputBytes comes from the settings",
		},
		{
			name: "everything", turn: &Turn{Settings: s, APIFiles: []guest.APIFile{file}, Namespaces: []guest.Namespace{mcp}, Swarm: &guest.Swarm{Spawn: true}},
			scopes: []guest.Namespace{scope},
			want: `{"maxOutputBytes":2048,"apiFiles":[{"path":"agents.d.ts","description":"d","content":"x","bytes":1}],` +
				`"namespaces":[{"id":"mcp","globalName":"MCP","root":{"kind":"object","value":null}},` +
				`{"id":"issues","globalName":"Issues","root":{"kind":"object","value":null}}],"swarm":{"spawn":true}}`,
			reason: "the turn's namespaces (MCP) come before the run's own scopes",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.turn.guestConfig(tt.scopes)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("guestConfig mismatch (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
			if !json.Valid(got) {
				t.Errorf("guestConfig is not JSON: %s", got)
			}
		})
	}
	t.Run("plain configuration is made once", func(t *testing.T) {
		turn := &Turn{Settings: s, Namespaces: []guest.Namespace{mcp}}
		a, _ := turn.guestConfig(nil)
		b, _ := turn.guestConfig([]guest.Namespace{})
		if &a[0] != &b[0] {
			t.Errorf("two runs without scopes got two copies of the configuration")
		}
		if c, _ := turn.guestConfig([]guest.Namespace{scope}); bytes.Equal(a, c) {
			t.Errorf("a run with a scope got the plain configuration %s", c)
		}
	})
}

func TestTurn_Telemetry(t *testing.T) {
	h := newFakeHost(config.Defaults())
	turn := turnOf(h, Scope{AgentRunID: "r"})
	turn.VisibleTools = []string{"exec", "wait"}
	for _, m := range []string{guest.MethodSearch, guest.MethodCall, guest.MethodDescribe, guest.MethodCall, guest.MethodSpawn} {
		turn.Count(m)
	}
	want := Telemetry{CatalogSize: 1, Sources: Sources{OpenClaw: 1}, SearchCount: 1, DescribeCount: 1, CallCount: 3,
		VisibleTools: []string{"exec", "wait"}}
	if diff := cmp.Diff(want, turn.telemetry()); diff != "" {
		t.Errorf("telemetry mismatch (-want +got):\n%s\nreason: every method but search and describe counts as a call", diff)
	}
}
