package openclaw

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codemodekit/kit/conformance"
)

func TestAtLeast(t *testing.T) {
	tests := []struct {
		version string
		want    bool
	}{
		{"2026.8.1-beta.1", false},
		{"2026.8.1", false},
		{"2026.9.5", false},
		{"2026.9.6-beta.2", false},
		{"2026.9.6", true},
		{"2026.9.10", true},
		{"2026.10.1", true},
		{"2027.1.1", true},
		{"2026.9", false},
		{"latest", false},
	}
	for _, tt := range tests {
		if got := atLeast(tt.version, eraCFrom); got != tt.want {
			t.Errorf("atLeast(%q, %v) = %v, want %v", tt.version, eraCFrom, got, tt.want)
		}
	}
}

func TestReleaseAdapt(t *testing.T) {
	tests := []struct {
		name    string
		version string
		in      string
		want    string
	}{
		{"Era B is left alone", "2026.8.1-beta.1", `{"tools":{"codeMode":true}}`, `{"tools":{"codeMode":true}}`},
		{"Era B absent stays absent", "2026.8.1-beta.1", `{}`, `{}`},
		{"true", "2026.9.6", `{"tools":{"codeMode":true}}`, `{"tools":{"codeMode":{"enabled":true,"executor":"quickjs"}}}`},
		{"false", "2026.9.6", `{"tools":{"codeMode":false}}`, `{"tools":{"codeMode":{"enabled":false,"executor":"quickjs"}}}`},
		{"auto", "2026.9.6", `{"tools":{"codeMode":"auto"}}`, `{"tools":{"codeMode":{"enabled":"auto","executor":"quickjs"}}}`},
		{"absent is OpenClaw's auto", "2026.9.6", `{"tools":{"deny":["x"]}}`, `{"tools":{"deny":["x"],"codeMode":{"enabled":"auto","executor":"quickjs"}}}`},
		{"no tools", "2026.9.6", `{}`, `{"tools":{"codeMode":{"enabled":"auto","executor":"quickjs"}}}`},
		{"object keeps an absent enabled", "2026.9.6", `{"tools":{"codeMode":{"timeoutMs":100}}}`, `{"tools":{"codeMode":{"timeoutMs":100,"executor":"quickjs"}}}`},
		{"object keeps its executor", "2026.9.6", `{"tools":{"codeMode":{"enabled":true,"executor":"node"}}}`, `{"tools":{"codeMode":{"enabled":true,"executor":"node"}}}`},
		{"a runtime is left to the migration", "2026.9.6", `{"tools":{"codeMode":{"enabled":true,"runtime":"quickjs-wasi"}}}`, `{"tools":{"codeMode":{"enabled":true,"runtime":"quickjs-wasi"}}}`},
		{"null is left to the schema", "2026.9.6", `{"tools":{"codeMode":null}}`, `{"tools":{"codeMode":null}}`},
		{"a number is left to the schema", "2026.9.6", `{"tools":{"codeMode":1}}`, `{"tools":{"codeMode":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc, want map[string]any
			if err := json.Unmarshal([]byte(tt.in), &doc); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			newRelease(tt.version).adapt(doc)
			if diff := cmp.Diff(want, doc); diff != "" {
				t.Errorf("adapt (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReleaseNotApplicable(t *testing.T) {
	ns := &conformance.Setup{RolledBack: []string{"x"}}
	if err := newRelease("2026.8.1-beta.1").notApplicable(ns); err != nil {
		t.Errorf("2026.8.1-beta.1: %v, want nil (expressible reports it)", err)
	}
	err := newRelease("2026.9.6").notApplicable(ns)
	if !errors.Is(err, conformance.ErrNotApplicable) {
		t.Errorf("2026.9.6: %v, want not applicable", err)
	}
	if err := newRelease("2026.9.6").notApplicable(&conformance.Setup{}); err != nil {
		t.Errorf("2026.9.6, plain setup: %v, want nil", err)
	}
}
