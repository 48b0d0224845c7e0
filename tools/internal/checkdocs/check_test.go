package checkdocs

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/repo/docs/traceability.md")

// testRepo is a small repository layout: a SPEC.md with four clauses and
// a configuration table, two feature files, exclusions, a config.go, two
// READMEs with code blocks and links, and its generated matrix.
var testRepo = filepath.Join("testdata", "repo")

// copyRepo copies testRepo into a fresh temporary directory.
func copyRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(testRepo)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// An edit changes one file of a copied repository.
type edit struct {
	file     string
	old, new string // replace the first old (which must occur) with new; an empty old appends new
	remove   bool   // delete the file instead
}

func applyEdits(t *testing.T, dir string, edits []edit) {
	t.Helper()
	for _, e := range edits {
		p := filepath.Join(dir, filepath.FromSlash(e.file))
		if e.remove {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		s := string(b)
		switch {
		case e.old == "":
			s += e.new
		case strings.Contains(s, e.old):
			s = strings.Replace(s, e.old, e.new, 1)
		default:
			t.Fatalf("edit of %s: %q does not occur", e.file, e.old)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func problemStrings(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// TestCheck_testRepo checks that the test repository passes and that its
// checked-in matrix is current (a golden file: -update rewrites it).
func TestCheck_testRepo(t *testing.T) {
	if *update {
		if _, err := Check(testRepo, Options{Update: true}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Check(testRepo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string(nil), problemStrings(rep.Problems)); diff != "" {
		t.Errorf("Check(%s) problems (-want +got):\n%s", testRepo, diff)
	}
	if rep.Clauses != 4 || rep.Scenarios != 4 {
		t.Errorf("Check(%s) = %d clauses, %d scenarios, want 4 and 4", testRepo, rep.Clauses, rep.Scenarios)
	}
}

// TestCheck_problems breaks the test repository one way at a time; each
// break must be reported. The matrix is rewritten (Options.Update) except
// where a case is about the matrix, so that only the break is reported.
func TestCheck_problems(t *testing.T) {
	const (
		spec      = "SPEC.md"
		feature1  = "features/01-conventions.feature"
		feature2  = "features/02-configuration.feature"
		ch01      = "conformance/exclusions/ch01.txt"
		ch02      = "conformance/exclusions/ch02.txt"
		config    = "reference/internal/config/config.go"
		readme    = "README.md"
		guide     = "guide/README.md"
		matrixDoc = "docs/traceability.md"
	)
	tests := []struct {
		name   string
		edits  []edit
		matrix bool // check the matrix instead of rewriting it
		want   []string
		reason string
	}{
		// Coverage.
		{
			name:  "clause loses its scenario",
			edits: []edit{{file: feature2, old: "@CM-2.1 ", new: ""}},
			want: []string{"SPEC.md:48: clause CM-2.1 has no scenario (tag @CM-2.1 in features/*.feature) " +
				"and no exclusion (conformance/exclusions/ch02.txt)",
				`SPEC.md:63: one-requirement row of CM-2.1: no scenario "Configuration: tools.codeMode is read" tagged @CM-2.1`},
		},
		{
			name:  "clause loses its exclusion",
			edits: []edit{{file: ch01, old: "CM-1.3 :: the third thing is not observable through a turn\n", new: ""}},
			want: []string{"SPEC.md:10: clause CM-1.3 has no scenario (tag @CM-1.3 in features/*.feature) " +
				"and no exclusion (conformance/exclusions/ch01.txt)"},
		},
		{
			name:  "tag names no clause",
			edits: []edit{{file: feature1, old: "@core @CM-1.1", new: "@core @CM-1.1 @CM-1.9"}},
			want:  []string{`features/01-conventions.feature:4: scenario "Conventions: the first thing": tag @CM-1.9 names no clause of SPEC.md`},
		},
		{
			name:  "malformed clause tag",
			edits: []edit{{file: feature1, old: "@core @CM-1.1", new: "@core @CM-1.1 @CM-1"}},
			want:  []string{`features/01-conventions.feature:4: scenario "Conventions: the first thing": tag @CM-1 is not of the form @CM-<chapter>.<n>`},
		},
		{
			name:  "feature does not parse",
			edits: []edit{{file: feature1, old: "Feature: Conventions", new: "Conventions"}},
			want: []string{
				"features/01-conventions.feature:1: does not parse: expected: #EOF, #Language, #TagLine, #FeatureLine, #Comment, #Empty, " +
					"got 'Conventions' (and 11 more errors)",
			},
			matrix: true,
			reason: "conformance.Index fails as a whole: coverage and the matrix cannot be judged, so only the parse error is reported",
		},
		{
			name:  "exclusion names no clause",
			edits: []edit{{file: ch01, old: "", new: "CM-1.9 :: no such clause\n"}},
			want:  []string{"conformance/exclusions/ch01.txt:3: exclusion CM-1.9 names no clause of SPEC.md"},
		},
		{
			name:  "exclusion without a reason",
			edits: []edit{{file: ch02, old: "", new: "CM-2.1 ::\n"}},
			want:  []string{`conformance/exclusions/ch02.txt:1: want "CM-x.y :: reason"`},
		},
		{
			name: "exclusion in the wrong chapter file",
			edits: []edit{
				{file: ch01, old: "CM-1.3 :: the third thing is not observable through a turn\n", new: ""},
				{file: ch02, old: "", new: "CM-1.3 :: the third thing is not observable through a turn\n"},
			},
			want: []string{"conformance/exclusions/ch02.txt:1: exclusion CM-1.3 belongs in ch01.txt"},
		},
		{
			name:  "exclusion of a covered clause",
			edits: []edit{{file: ch01, old: "", new: "CM-1.1 :: stale\n"}},
			want:  []string{"conformance/exclusions/ch01.txt:3: clause CM-1.1 is excluded but covered by 2 scenarios; drop the exclusion"},
		},
		{
			name:  "exclusion listed twice",
			edits: []edit{{file: ch01, old: "", new: "CM-1.3 :: again\n"}},
			want:  []string{"conformance/exclusions/ch01.txt:3: clause CM-1.3 is excluded twice (first at conformance/exclusions/ch01.txt:2)"},
		},
		{
			name:  "exclusion file not named after a chapter",
			edits: []edit{{file: "conformance/exclusions/misc.txt", old: "", new: "CM-1.3 :: x\n"}},
			want:  []string{"conformance/exclusions/misc.txt: exclusion files are named chNN.txt after their chapter"},
		},

		// SPEC.md clauses.
		{
			name:  "clause defined twice",
			edits: []edit{{file: spec, old: "- **CM-1.3** A target MUST NOT", new: "- **CM-1.2** A target MUST NOT"}},
			want: []string{
				"SPEC.md:10: clause CM-1.2 is defined twice (first on line 9)",
				"conformance/exclusions/ch01.txt:2: exclusion CM-1.3 names no clause of SPEC.md",
			},
		},
		{
			name:  "clause in another chapter",
			edits: []edit{{file: spec, old: "- **CM-2.1** The", new: "- **CM-1.4** The"}},
			want: []string{
				"SPEC.md:48: clause CM-1.4 has no scenario (tag @CM-1.4 in features/*.feature) and no exclusion (conformance/exclusions/ch01.txt)",
				"SPEC.md:48: clause CM-1.4 is in chapter 2",
				"SPEC.md:63: CM-2.1 is not a clause of SPEC.md",
				"SPEC.md:63: one-requirement row of CM-2.1: no such clause",
				"features/02-configuration.feature:4: scenario \"Configuration: tools.codeMode is read\": tag @CM-2.1 names no clause of SPEC.md",
			},
		},
		{
			name:  "clause without a key word",
			edits: []edit{{file: spec, old: "A target MUST do the first thing.", new: "A target does the first thing."}},
			want:  []string{"SPEC.md:8: clause CM-1.1 has no BCP 14 key word (MUST, SHOULD, MAY, ...)"},
		},
		{
			name:  "malformed clause item",
			edits: []edit{{file: spec, old: "- **CM-1.3** A", new: "* **CM-1.3** A"}},
			want: []string{
				`SPEC.md:10: clause list item is not of the form "- **CM-<chapter>.<n>** text"`,
				"conformance/exclusions/ch01.txt:2: exclusion CM-1.3 names no clause of SPEC.md",
			},
		},
		{
			name:  "reference to a missing clause",
			edits: []edit{{file: spec, old: "CM-1.1 is the first clause", new: "CM-1.7 is the first clause"}},
			want:  []string{"SPEC.md:4: CM-1.7 is not a clause of SPEC.md"},
		},

		// The configuration table.
		{
			name:  "default drifts in SPEC.md",
			edits: []edit{{file: spec, old: "| `timeoutMs` | `10000` |", new: "| `timeoutMs` | `20000` |"}},
			want:  []string{"SPEC.md:41: timeoutMs: default 20000, but reference/internal/config/config.go:30 has 10000"},
		},
		{
			name:  "default drifts in the code",
			edits: []edit{{file: config, old: "Default: 64 * mib", new: "Default: 32 * mib"}},
			want:  []string{"SPEC.md:42: memoryLimitBytes: default 67108864, but reference/internal/config/config.go:31 has 33554432"},
		},
		{
			name:  "range bound drifts",
			edits: []edit{{file: config, old: "Range{100, 60000}", new: "Range{100, 120000}"}},
			want:  []string{"SPEC.md:41: timeoutMs: range maximum 60000, but reference/internal/config/config.go:30 has 120000"},
		},
		{
			name:  "named range bound drifts",
			edits: []edit{{file: config, old: `"searchDefaultLimit", Default: 8, Range: Range{1, 50}`, new: `"searchDefaultLimit", Default: 8, Range: Range{1, 40}`}},
			want: []string{"SPEC.md:43: searchDefaultLimit: range maximum maxSearchLimit (at most 50), " +
				"but reference/internal/config/config.go:33 has 40"},
			reason: "a bound naming a setting is that setting's upper bound",
		},
		{
			name:  "row without a setting",
			edits: []edit{{file: spec, old: "| `maxSearchLimit` |", new: "| `maxSearchLimits` |"}},
			want: []string{
				"SPEC.md:44: maxSearchLimits: no Field{Name: \"maxSearchLimits\"} in reference/internal/config/config.go",
				"reference/internal/config/config.go:32: setting maxSearchLimit has no row in the configuration table of SPEC.md section 2.1",
			},
		},
		{
			name:  "range not min-max",
			edits: []edit{{file: spec, old: "`100`-`60000`", new: "100 to 60000"}},
			want:  []string{`SPEC.md:41: timeoutMs: range "100 to 60000" is not of the form ` + "`min`-`max`"},
		},
		{
			name:  "named default drifts",
			edits: []edit{{file: config, old: `var Languages = []string{"javascript", "typescript"}`, new: `var Languages = []string{"javascript"}`}},
			want: []string{`SPEC.md:40: languages: default ["javascript","typescript"], ` +
				`but reference/internal/config/config.go:14 has Languages = ["javascript"]`},
		},
		{
			name:  "runtime constant drifts",
			edits: []edit{{file: config, old: `const wasi = "wasi"`, new: `const wasi = "wasm"`}},
			want:  []string{`SPEC.md:38: runtime: default "quickjs-wasi", but reference/internal/config/config.go:6 has Runtime = "quickjs-wasm"`},
		},
		{
			name:  "no configuration table",
			edits: []edit{{file: spec, old: "### 2.1 Configuration table\n", new: "### 2.1 Configuration table\n\n#### The table\n"}},
			want:  []string{"SPEC.md:33: no configuration table in section 2.1"},
		},
		{
			name:  "config.go does not parse",
			edits: []edit{{file: config, old: "package config", new: "package"}},
			want:  []string{"reference/internal/config/config.go:6: does not parse: expected 'IDENT', found 'const'"},
		},
		{
			name:  "config.go field that is not constant",
			edits: []edit{{file: config, old: "Default: 10 * 1000", new: "Default: time.Second"}},
			want:  []string{"reference/internal/config/config.go:30: cannot read this Field literal: Default: unsupported expression *ast.SelectorExpr"},
		},

		// Code blocks.
		{
			name:  "js block stops parsing",
			edits: []edit{{file: spec, old: "return a + 1;", new: "return a +;"}},
			want:  []string{`SPEC.md:15: js block: does not parse: Unexpected ";"`},
		},
		{
			name:   "js block that is a module",
			edits:  []edit{{file: spec, old: "return a + 1;", new: "export default a;"}},
			want:   []string{`SPEC.md:15: js block: does not parse: Unexpected "export"`},
			reason: "a js block is an exec cell, the body of an async function",
		},
		{
			name:  "ts block stops parsing",
			edits: []edit{{file: spec, old: "type ToolCatalogEntry = { id: string; name: string };", new: "type ToolCatalogEntry = { id: string; name: };"}},
			want:  []string{`SPEC.md:20: ts block: does not parse: Unexpected "}"`},
		},
		{
			name:   "ts block that is an exec cell",
			edits:  []edit{{file: spec, old: "type ToolCatalogEntry = { id: string; name: string };", new: "const n: number = await f();\nreturn n;"}},
			reason: "a TypeScript cell parses as the body of an async function",
		},
		{
			name:  "json block stops parsing",
			edits: []edit{{file: spec, old: `{ "status": "completed", "value": 3 }`, new: "{\n  \"status\": \"completed\",\n}"}},
			want:  []string{`SPEC.md:26: json block: invalid JSON: invalid character '}' looking for beginning of object key string`},
		},
		{
			name:  "go block is not gofmt-clean",
			edits: []edit{{file: readme, old: "defer rt.Close()", new: "defer  rt.Close()"}},
			want:  []string{`README.md:10: go block: not gofmt-clean: gofmt writes this line as "defer rt.Close()"`},
		},
		{
			name:  "go file block is not gofmt-clean",
			edits: []edit{{file: guide, old: `func Hello() string { return "hello" }`, new: "func Hello() string {\nreturn \"hello\"\n}"}},
			want:  []string{`guide/README.md:13: go block: not gofmt-clean: gofmt writes this line as "\treturn \"hello\""`},
		},
		{
			name:  "go block does not parse",
			edits: []edit{{file: readme, old: "defer rt.Close()", new: "defer rt.Close("}},
			want:  []string{"README.md:10: go block: does not parse: expected operand, found '}'"},
		},
		{
			name:  "unclosed fence",
			edits: []edit{{file: guide, old: "", new: "\n```json\n{}\n"}},
			want:  []string{"guide/README.md:15: code fence is never closed"},
		},
		{
			name:   "other languages are not checked",
			edits:  []edit{{file: readme, old: "", new: "\n```python\ndef (:\n```\n"}},
			reason: "only js, ts, go and json blocks are checked",
		},

		// Links.
		{
			name:  "link to a missing file",
			edits: []edit{{file: readme, old: "[the specification](SPEC.md)", new: "[the specification](SPECS.md)"}},
			want:  []string{"README.md:3: link SPECS.md: SPECS.md does not exist"},
		},
		{
			name:  "link to a missing anchor",
			edits: []edit{{file: readme, old: "SPEC.md#2-configuration", new: "SPEC.md#2-configurations"}},
			want:  []string{"README.md:3: link SPEC.md#2-configurations: SPEC.md has no heading with the anchor #2-configurations"},
		},
		{
			name:  "anchor of a renamed heading",
			edits: []edit{{file: spec, old: "### 2.2 Rules", new: "### 2.2 Clauses"}},
			want:  []string{"guide/README.md:4: link /SPEC.md#22-rules: SPEC.md has no heading with the anchor #22-rules"},
		},
		{
			name:  "local anchor",
			edits: []edit{{file: guide, old: "## Usage", new: "## Use"}},
			want:  []string{"guide/README.md:4: link #usage: guide/README.md has no heading with the anchor #usage"},
		},
		{
			name:  "reference definition",
			edits: []edit{{file: readme, old: "[guide]: guide/README.md", new: "[guide]: guides/README.md"}},
			want:  []string{"README.md:17: link guides/README.md: guides/README.md does not exist"},
		},
		{
			name:  "link out of the repository",
			edits: []edit{{file: guide, old: "../README.md#test-repository", new: "../../README.md"}},
			want:  []string{"guide/README.md:3: link ../../README.md: leaves the repository"},
		},
		{
			name:  "dangling link in a new RATIONALE.md",
			edits: []edit{{file: "features/RATIONALE.md", old: "", new: "# Why\n\nSee [STEPS](../conformance/STEPS.md).\n"}},
			want:  []string{"features/RATIONALE.md:3: link ../conformance/STEPS.md: conformance/STEPS.md does not exist"},
		},
		{
			name:   "files in testdata and node_modules are not checked",
			edits:  []edit{{file: "x/testdata/README.md", old: "", new: "[x](missing.md)\n"}, {file: "node_modules/y/README.md", old: "", new: "[x](missing.md)\n"}},
			reason: "fixtures of tests and installed packages are not documentation",
		},

		// The listed items of clauses (SPEC.md F.1).
		{
			name:  "listed item not in the clause",
			edits: []edit{{file: "SPEC.md", old: "| CM-1.1 | A target |", new: "| CM-1.1 | A gateway |"}},
			want:  []string{`SPEC.md:57: listed item "A gateway" is not a phrase of CM-1.1`},
		},
		{
			name:  "listed item's scenario not tagged",
			edits: []edit{{file: "SPEC.md", old: "| CM-1.1 | A target | Conventions: the first thing |", new: "| CM-1.1 | A target | Conventions: the third thing |"}},
			want:  []string{`SPEC.md:57: listed item "A target" of CM-1.1: no scenario "Conventions: the third thing" tagged @CM-1.1`},
		},
		{
			name:  "one listed item",
			edits: []edit{{file: "SPEC.md", old: "| CM-1.1 | A target | Conventions: the first thing |\n", new: ""}},
			want:  []string{"SPEC.md:56: CM-1.1 has 1 listed item; a clause in section F.1 lists at least two"},
		},
		{
			name:  "listed item twice",
			edits: []edit{{file: "SPEC.md", old: "| CM-1.1 | A target |", new: "| CM-1.1 | the first thing |"}},
			want: []string{"SPEC.md:56: CM-1.1 has 1 listed item; a clause in section F.1 lists at least two",
				`SPEC.md:57: listed item "the first thing" of CM-1.1 is listed twice`},
		},
		{
			name:  "listed item of no clause",
			edits: []edit{{file: "SPEC.md", old: "| CM-1.1 | A target |", new: "| CM-9.9 | A target |"}},
			want: []string{"SPEC.md:56: CM-1.1 has 1 listed item; a clause in section F.1 lists at least two",
				"SPEC.md:57: CM-9.9 is not a clause of SPEC.md",
				"SPEC.md:57: listed item of CM-9.9: no such clause"},
		},
		{
			name:  "no listed items section",
			edits: []edit{{file: "SPEC.md", old: "### F.1 Items and their scenarios", new: "### F.0 Items"}},
			want:  []string{"SPEC.md: no section F.1 (the listed items of clauses and their scenarios)"},
		},

		// Listing clauses and their one-requirement rows (SPEC.md F.2).
		{
			name:  "listing clause in neither table",
			edits: []edit{{file: "SPEC.md", old: "- **CM-2.1** The implementation MUST read the configuration from `tools.codeMode`.", new: "- **CM-2.1** The implementation MUST read the configuration from `tools.codeMode`.\n- **CM-2.2** The implementation MUST read `a`, `b` and `c`."}},
			want: []string{"SPEC.md:49: CM-2.2 lists items but is neither in section F.1 (an item per row) nor in section F.2 (one requirement)",
				"SPEC.md:49: clause CM-2.2 has no scenario (tag @CM-2.2 in features/*.feature) and no exclusion (conformance/exclusions/ch02.txt)"},
		},
		{
			name:  "serial list in prose",
			edits: []edit{{file: "SPEC.md", old: "- **CM-2.1** The implementation MUST read the configuration from `tools.codeMode`.", new: "- **CM-2.1** The implementation MUST read the configuration from `tools.codeMode`.\n- **CM-2.2** The implementation MUST read the first, second or third thing."}},
			want: []string{"SPEC.md:49: CM-2.2 lists items but is neither in section F.1 (an item per row) nor in section F.2 (one requirement)",
				"SPEC.md:49: clause CM-2.2 has no scenario (tag @CM-2.2 in features/*.feature) and no exclusion (conformance/exclusions/ch02.txt)"},
		},
		{
			name:   "excluded listing clause",
			edits:  []edit{{file: "SPEC.md", old: "A target MUST NOT do the third thing.", new: "A target MUST NOT do the third thing with `a`, `b` or `c`."}},
			reason: "an excluded clause has no scenario to cover its items",
		},
		{
			name:   "two code spans and no list",
			edits:  []edit{{file: "SPEC.md", old: "A target MUST do the first thing.", new: "A target MUST do the first thing with `a` and `b`."}},
			reason: "two code spans joined by and are not a list of three",
		},
		{
			name:   "a SHOULD clause lists nothing that must hold",
			edits:  []edit{{file: "SPEC.md", old: "A target SHOULD do the second thing", new: "A target SHOULD do `a`, `b` and `c`"}},
			reason: "only MUST clauses are held to their items",
		},
		{
			name:  "one-requirement row without a tagged scenario",
			edits: []edit{{file: "SPEC.md", old: "is one member | Configuration: tools.codeMode is read |", new: "is one member | Conventions: the first thing |"}},
			want:  []string{`SPEC.md:63: one-requirement row of CM-2.1: no scenario "Conventions: the first thing" tagged @CM-2.1`},
		},
		{
			name:  "one-requirement row without a reason",
			edits: []edit{{file: "SPEC.md", old: "| CM-2.1 | `tools.codeMode` is one member |", new: "| CM-2.1 |  |"}},
			want:  []string{"SPEC.md:63: one-requirement row of CM-2.1 does not say why"},
		},
		{
			name:  "clause in both tables",
			edits: []edit{{file: "SPEC.md", old: "| CM-2.1 | `tools.codeMode` is one member | Configuration: tools.codeMode is read |", new: "| CM-1.1 | one thing | Conventions: the first thing |"}},
			want:  []string{"SPEC.md:63: CM-1.1 is in both section F.1 and section F.2"},
		},
		{
			name: "a section of items without a scenario",
			edits: []edit{{file: "SPEC.md", old: "| CM-2.1 | `tools.codeMode` is one member | Configuration: tools.codeMode is read |\n",
				new: "| CM-2.1 | `tools.codeMode` is one member | Configuration: tools.codeMode is read |\n\n### F.3 Items without a scenario\n\n| clause | item | missing |\n| --- | --- | --- |\n| CM-1.1 | A target | a step |\n"}},
			want: []string{"SPEC.md:65: section F.3 lists items without a scenario: every listed item of a MUST clause has a scenario in section F.1, or its clause is split and the part no scenario can observe is excluded"},
		},
		{
			name:  "no one-requirement section",
			edits: []edit{{file: "SPEC.md", old: "### F.2 Clauses whose list is one requirement", new: "### F.9 Clauses"}},
			want:  []string{"SPEC.md: no section F.2 (the listing clauses whose list is one requirement)"},
		},

		// The matrix.
		{
			name:   "matrix is stale",
			edits:  []edit{{file: feature2, old: "@CM-2.1 @CM-1.1", new: "@CM-2.1"}},
			matrix: true,
			want:   []string{"docs/traceability.md:17: out of date (first difference on this line); run `make check-docs CHECKDOCS_FLAGS=-update`"},
			reason: "CM-1.1 lost one of its two scenarios; both still cover something",
		},
		{
			name:   "matrix edited by hand",
			edits:  []edit{{file: matrixDoc, old: "| CM-1.3 | MUST NOT |", new: "| CM-1.3 | MUST |"}},
			matrix: true,
			want:   []string{"docs/traceability.md:19: out of date (first difference on this line); run `make check-docs CHECKDOCS_FLAGS=-update`"},
		},
		{
			name:   "matrix missing",
			edits:  []edit{{file: matrixDoc, remove: true}},
			matrix: true,
			want:   []string{"docs/traceability.md: missing; run `make check-docs CHECKDOCS_FLAGS=-update`"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyRepo(t)
			applyEdits(t, dir, tt.edits)
			rep, err := Check(dir, Options{Update: !tt.matrix})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, problemStrings(rep.Problems)); diff != "" {
				t.Errorf("Check problems mismatch (-want +got):\n%s\nreason: %s", diff, tt.reason)
			}
		})
	}
}

// TestCheck_update shows that Options.Update repairs a stale matrix and
// that the repaired tree passes.
func TestCheck_update(t *testing.T) {
	dir := copyRepo(t)
	applyEdits(t, dir, []edit{{file: "features/02-configuration.feature", old: "@CM-2.1 @CM-1.1", new: "@CM-2.1"}})
	rep, err := Check(dir, Options{Update: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Updated || len(rep.Problems) != 0 {
		t.Fatalf("Check(Update) = updated %v, problems %q; want updated, none", rep.Updated, problemStrings(rep.Problems))
	}
	rep, err = Check(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || rep.Updated {
		t.Errorf("Check after Update = updated %v, problems %q; want none", rep.Updated, problemStrings(rep.Problems))
	}
}

// TestCheck_noSpec shows that a tree without SPEC.md cannot be checked.
func TestCheck_noSpec(t *testing.T) {
	if _, err := Check(t.TempDir(), Options{}); err == nil {
		t.Error("Check(empty dir) error = nil, want an error")
	}
}

// TestCheck_repository runs the check on this repository: it must pass,
// as `make check-docs` requires.
func TestCheck_repository(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	rep, err := Check(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		t.Errorf("%s", p)
	}
	if rep.Clauses < 300 || rep.Scenarios < 200 {
		t.Errorf("Check(repository) = %d clauses, %d scenarios; the parsers found too few", rep.Clauses, rep.Scenarios)
	}
}
