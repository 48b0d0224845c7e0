package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	codemode "github.com/codemodekit/kit/reference"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// catalogs is fixtures/catalogs, relative to this package.
const catalogs = "../../../fixtures/catalogs/"

// goldenUsed records the golden files the tests read, so TestMain can fail
// on orphans.
var (
	goldenMu   sync.Mutex
	goldenUsed = map[string]bool{}
)

// TestMain clears the debug switches, so stderr holds only what the
// command writes, runs the tests, then fails when a full run left a golden
// file in testdata that no test reads.
func TestMain(m *testing.M) {
	for _, k := range []string{"OPENCLAW_DEBUG_CODE_MODE", "OPENCLAW_DEBUG_MODEL_TRANSPORT", "OPENCLAW_DEBUG_MODEL_PAYLOAD", "OPENCLAW_DEBUG_SSE"} {
		_ = os.Unsetenv(k)
	}
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && flag.Lookup("test.skip").Value.String() == "" {
		if orphans := orphanGoldens(); len(orphans) > 0 {
			println("orphaned golden files (delete them):")
			for _, o := range orphans {
				println("  " + o)
			}
			code = 1
		}
	}
	os.Exit(code)
}

func orphanGoldens() []string {
	var orphans []string
	_ = filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".golden" && !goldenUsed[filepath.ToSlash(path)] {
			orphans = append(orphans, path)
		}
		return nil
	})
	sort.Strings(orphans)
	return orphans
}

// A cliTest runs the command once and compares its output with a golden
// file.
type cliTest struct {
	name  string
	args  []string
	stdin string
	// golden names testdata/<golden>.golden; empty means name.
	golden string
	// want is the exit status.
	want   int
	reason string
}

// runIDs matches the run ids of waiting payloads (CM-8.1).
var runIDs = regexp.MustCompile(`cm_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// runTests runs each test as a parallel subtest.
func runTests(t *testing.T, tests []cliTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			got := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if got != tt.want {
				t.Errorf("run(%q) = %d, want %d (%s)\nstdout:\n%s\nstderr:\n%s", tt.args, got, tt.want, tt.reason, stdout.String(), stderr.String())
			}
			golden := tt.golden
			if golden == "" {
				golden = tt.name
			}
			out := "-- stdout --\n" + stdout.String() + "-- stderr --\n" + stderr.String()
			expectGolden(t, golden, runIDs.ReplaceAllString(out, "cm_<run-id>"))
		})
	}
}

// expectGolden compares got with testdata/<name>.golden, or rewrites the
// file with -update.
func expectGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.ToSlash(filepath.Join("testdata", name+".golden"))
	goldenMu.Lock()
	goldenUsed[path] = true
	goldenMu.Unlock()
	if *update {
		goldenMu.Lock() // shared goldens are written by more than one subtest
		defer goldenMu.Unlock()
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// requireRuntime fails when the QuickJS-WASI engine cannot load: every run
// would then fail with runtime_unavailable.
func requireRuntime(t *testing.T) {
	t.Helper()
	rt := codemode.New(context.Background(), codemode.Options{})
	defer rt.Close()
	if err := rt.Available(); err != nil {
		t.Fatalf("runtime unavailable: %v", err)
	}
}

func TestUsage(t *testing.T) {
	basic := catalogs + "basic.json"
	runTests(t, []cliTest{
		{name: "no_args", args: nil, want: exitError, reason: "usage goes to stderr"},
		{name: "help", args: []string{"help"}, want: exitOK},
		{name: "tools_help", args: []string{"tools", "-h"}, golden: "help", want: exitOK},
		{name: "run_help", args: []string{"run", "--help"}, golden: "help", want: exitOK},
		{name: "unknown_command", args: []string{"frobnicate"}, want: exitError},
		{name: "tools_no_catalog", args: []string{"tools"}, want: exitError},
		{name: "tools_unknown_flag", args: []string{"tools", "--catalog", basic, "--verbose"}, want: exitError},
		{name: "tools_extra_argument", args: []string{"tools", "--catalog", basic, "weather"}, want: exitError},
		{name: "tools_empty_agent", args: []string{"tools", "--catalog", basic, "--agent", ""}, want: exitError},
		{name: "catalog_missing", args: []string{"tools", "--catalog", "testdata/missing.json"}, want: exitError},
		{name: "catalog_invalid", args: []string{"tools", "--catalog", "testdata/bad_catalog.json"}, want: exitError,
			reason: "unknown tool source"},
		{name: "config_invalid", args: []string{"tools", "--catalog", basic, "--config", "testdata/bad_config.txt"}, want: exitError},
		{name: "run_no_program", args: []string{"run", "--catalog", basic}, want: exitError},
		{name: "run_two_programs", args: []string{"run", "--catalog", basic, "a.js", "b.js"}, want: exitError},
		{name: "run_bad_language", args: []string{"run", "--catalog", basic, "--language", "bash", "-"}, want: exitError,
			reason: "the CLI checks --language; exec's own input check is reached with a JSON tool call only"},
		{name: "run_program_missing", args: []string{"run", "--catalog", basic, "testdata/missing.js"}, want: exitError},
		{name: "run_no_catalog", args: []string{"run", "-"}, stdin: "return 1", want: exitError},
		{name: "run_no_tools", args: []string{"run", "--catalog", catalogs + "empty.json", "-"}, stdin: "return 1",
			golden: "run_inactive", want: exitError, reason: "no active tool: code mode does not activate (CM-3.4)"},
		{name: "run_disabled", args: []string{"run", "--catalog", basic, "--config", "testdata/agents.json", "-"}, stdin: "return 1",
			golden: "run_inactive", want: exitError, reason: "code mode is disabled for agent main"},
	})
}

func TestTools(t *testing.T) {
	runTests(t, []cliTest{
		{name: "tools_basic", args: []string{"tools", "--catalog", catalogs + "basic.json"}, want: exitOK},
		{name: "tools_empty", args: []string{"tools", "--catalog", catalogs + "empty.json"}, want: exitOK,
			reason: "no active tool: nothing is model-visible"},
		{name: "tools_mixed", args: []string{"tools", "--catalog", catalogs + "mixed.json"}, want: exitOK,
			reason: "computer is direct-only and stays visible next to exec and wait"},
		{name: "tools_disabled", args: []string{"tools", "--catalog", catalogs + "basic.json", "--config", "testdata/agents.json"}, want: exitOK,
			reason: "code mode is disabled for agent main: tools are exposed as they are"},
		{name: "tools_toolsearch", args: []string{"tools", "--catalog", catalogs + "mixed.json", "--config", "testdata/toolsearch.json"}, want: exitOK,
			reason: "code mode is off and Tool Search is on: computer and the shell exec stay visible, the controls follow"},
		{name: "tools_agent", args: []string{"tools", "--config", "testdata/agents.json", "--agent", "coder", "--catalog", catalogs + "basic.json"},
			golden: "tools_basic", want: exitOK, reason: "the agents.list entry of coder enables code mode"},
	})
}

func TestRunCommand(t *testing.T) {
	requireRuntime(t)
	basic := catalogs + "basic.json"
	runTests(t, []cliTest{
		{name: "run_value", args: []string{"run", "--catalog", basic, "-"}, stdin: "return 1 + 2", want: exitOK},
		{name: "run_output", args: []string{"run", "--catalog", basic, "-"}, want: exitOK,
			stdin: `const w = await tools.callValue("openclaw:core:weather", { city: "Oslo" }); text("sky: " + w.sky); json(w); return w.temp;`},
		{name: "run_error", args: []string{"run", "--catalog", basic, "-"}, want: exitFailed,
			stdin: `text("about to fail"); throw new Error("boom");`},
		{name: "run_invalid_input", args: []string{"run", "--catalog", basic, "-"}, stdin: " \n", want: exitFailed,
			reason: "an empty program fails exec's input check (CM-5.4)"},
		{name: "run_tool_fails", args: []string{"run", "--catalog", "testdata/held.json", "-"}, want: exitFailed,
			stdin: `return await tools.callValue("openclaw:core:disk_usage", {});`},
		{name: "run_tool_delay", args: []string{"run", "--catalog", "testdata/held.json", "-"}, want: exitOK,
			stdin:  `return await tools.call("openclaw:net:ping", { host: "example.org" });`,
			reason: "a delayed tool resolves inline, within exec (CM-8.6)"},
		{name: "run_yield", args: []string{"run", "--catalog", basic, "testdata/yield.js"}, want: exitOK},
		{name: "run_yield_flags_last", args: []string{"run", "testdata/yield.js", "--catalog", basic}, golden: "run_yield", want: exitOK,
			reason: "flags may follow the program"},
		{name: "run_typescript", args: []string{"run", "--catalog", basic, "--language", "typescript", "testdata/shipments.ts"}, want: exitOK},
		{name: "run_typescript_error", args: []string{"run", "--catalog", basic, "--language", "typescript", "-"}, want: exitFailed,
			stdin: "const x: = 1;\nreturn x;"},
		{name: "run_held", args: []string{"run", "--catalog", "testdata/held.json", "--config", "testdata/fast.json", "testdata/report.js"}, want: exitOK,
			reason: "exec parks at its deadline with the held call pending; wait releases it"},
		{name: "run_restart_safe", args: []string{"run", "--catalog", basic, "--restart-safe", "-"}, want: exitOK,
			stdin:  `const file = await tools.callValue("openclaw:core:read", { path: "notes.txt" }); return file.content;`,
			reason: "restart-safe runs never resolve inline (CM-9.1): read is replay-safe, so exec waits and wait completes"},
		{name: "run_restart_safe_refused", args: []string{"run", "--catalog", basic, "--restart-safe", "-"}, want: exitFailed,
			stdin:  `return await tools.callValue("openclaw:core:weather", { city: "Oslo" });`,
			reason: "weather is not replay-safe (CM-9.3)"},
	})
}
