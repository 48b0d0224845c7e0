package openclaw

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/codemodekit/kit/conformance"
)

// A release is the OpenClaw release of an install and what the target
// does differently for it. Two releases are tested: 2026.8.1-beta.1 (Era
// B, the reference release of SPEC.md) and 2026.9.6 (Era C: async tool
// globals, catalog.search, a Node node:vm executor by default with
// QuickJS-WASI in the bundled plugin code-mode-quickjs, TypeScript and
// the runtime field retired). Other releases get the Era B treatment up
// to 2026.9.5 and the Era C one from 2026.9.6 on.
type release struct {
	version string
	// executor is the tools.codeMode.executor the target selects when
	// the scenario's configuration names none; "" for releases without
	// the field.
	executor string
}

// eraCFrom is the first release the Era C adaptations are made for.
var eraCFrom = [3]int{2026, 9, 6}

// releaseOf reads the version of the openclaw package of an install.
func releaseOf(install string) (release, error) {
	b, err := os.ReadFile(filepath.Join(install, "app", "node_modules", "openclaw", "package.json"))
	if err != nil {
		return release{}, fmt.Errorf("openclaw: reading the installed release: %w", err)
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version == "" {
		return release{}, fmt.Errorf("openclaw: no version in the installed openclaw/package.json")
	}
	return newRelease(pkg.Version), nil
}

// newRelease returns what the target knows of version.
func newRelease(version string) release {
	rel := release{version: version}
	if atLeast(version, eraCFrom) {
		rel.executor = "quickjs"
	}
	return rel
}

// atLeast reports whether version (YEAR.MONTH.DAY[-PRERELEASE]) is min or
// later; a prerelease of min is earlier than min.
func atLeast(version string, min [3]int) bool {
	core, pre, _ := strings.Cut(version, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return false
		}
		if n != min[i] {
			return n > min[i]
		}
	}
	return pre == ""
}

// eraC reports whether the release has the Era C code-mode surface.
func (rel release) eraC() bool { return rel.executor != "" }

// adapt makes a generated configuration fit the release. For Era C it
// selects the QuickJS executor (SPEC.md CM-17.1: QuickJS-WASI is the only
// runtime; OpenClaw's default is node:vm) wherever the scenario's
// tools.codeMode names no executor and no retired runtime, without
// changing what activates code mode: an absent setting becomes
// {"enabled": "auto"} (OpenClaw's own default for it), a boolean or
// string becomes the object's enabled, and an object keeps its enabled
// (or its absence) as written. A runtime the scenario sets is left for
// OpenClaw's startup migration, which maps "quickjs-wasi" to the quickjs
// executor.
func (rel release) adapt(doc map[string]any) {
	if rel.executor == "" {
		return
	}
	tools := object(doc, "tools")
	switch v := tools["codeMode"].(type) {
	case nil:
		if _, set := tools["codeMode"]; set {
			return // null: left to OpenClaw's schema
		}
		tools["codeMode"] = map[string]any{"enabled": "auto", "executor": rel.executor}
	case bool, string:
		tools["codeMode"] = map[string]any{"enabled": v, "executor": rel.executor}
	case map[string]any:
		_, executor := v["executor"]
		_, runtime := v["runtime"]
		if !executor && !runtime {
			v["executor"] = rel.executor
		}
	}
}

// notApplicable reports a setup the release cannot be given, before the
// checks every release shares (expressible); nil when there is none.
func (rel release) notApplicable(s *conformance.Setup) error {
	if rel.eraC() && usesNamespaces(s) {
		return conformance.NotApplicable("openclaw %s: internal namespace registrations are absent from Era C releases (SPEC.md Appendix A #17)", rel.version)
	}
	return nil
}
