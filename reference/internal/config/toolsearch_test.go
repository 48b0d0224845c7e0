package config

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolveToolSearch(t *testing.T) {
	off := ToolSearch{Mode: ToolSearchCode, CodeTimeoutMs: 10000, SearchDefaultLimit: 8, MaxSearchLimit: 20}
	on := off
	on.Enabled = true
	with := func(f func(*ToolSearch)) ToolSearch { s := on; f(&s); return s }
	tests := []struct {
		name, raw string
		want      ToolSearch
	}{
		{"unset", ``, off},
		{"true", `true`, on},
		{"false", `false`, off},
		{"string", `"yes"`, off},
		{"empty object", `{}`, off},
		{"enabled only", `{"enabled":true}`, on},
		{"another member enables", `{"mode":"tools"}`, with(func(s *ToolSearch) { s.Mode = ToolSearchTools })},
		{"enabled false wins", `{"enabled":false,"mode":"tools"}`, ToolSearch{Mode: ToolSearchTools, CodeTimeoutMs: 10000, SearchDefaultLimit: 8, MaxSearchLimit: 20}},
		{"unknown mode", `{"mode":"bogus"}`, on},
		{"directory", `{"mode":"directory"}`, with(func(s *ToolSearch) { s.Mode = ToolSearchDirectory })},
		{"timeout clamped", `{"codeTimeoutMs":5}`, with(func(s *ToolSearch) { s.CodeTimeoutMs = 1000 })},
		{"invalid numbers fall back, large ones clamp", `{"codeTimeoutMs":0.5,"maxSearchLimit":100,"searchDefaultLimit":60}`,
			with(func(s *ToolSearch) { s.MaxSearchLimit, s.SearchDefaultLimit = 50, 50 })},
		{"default limit follows max", `{"maxSearchLimit":3}`, with(func(s *ToolSearch) { s.MaxSearchLimit, s.SearchDefaultLimit = 3, 3 })},
		{"timeout above range", `{"codeTimeoutMs":999999}`, with(func(s *ToolSearch) { s.CodeTimeoutMs = 60000 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, resolveToolSearch(json.RawMessage(tc.raw))); diff != "" {
				t.Errorf("resolveToolSearch(%s) (-want +got):\n%s", tc.raw, diff)
			}
		})
	}
}

func TestResolve_toolSearchIsGlobal(t *testing.T) {
	got := Resolve(json.RawMessage(`{"agents":{"list":[{"id":"main","tools":{"toolSearch":true}}]}}`), "main").ToolSearch
	if got.Enabled {
		t.Errorf("a per-agent tools.toolSearch enabled Tool Search: %+v", got)
	}
}
