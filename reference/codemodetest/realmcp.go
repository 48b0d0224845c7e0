package codemodetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/codemodekit/kit/conformance"
)

// mcpFixturesEnv names the environment variable that overrides where the
// fixtures/mcp directory is looked up.
const mcpFixturesEnv = "CODEMODE_MCP_FIXTURES"

// scratchVar is replaced, in a definition's command, args, env and cwd, by
// the per-call scratch directory.
const scratchVar = "${scratch}"

// mcpFixture is a fixtures/mcp/<fixture>.json definition: the stdio members
// of an mcp.servers entry plus the files of its scratch directory. See
// fixtures/mcp/README.md.
type mcpFixture struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	Scratch map[string]string `json:"scratch"`
}

// An MCPHosting hosts the real MCP server fixtures of the @real-mcp
// scenarios (Options.MCPHosting): it turns a fixture resolved to run on this
// machine into the mcp.servers entry that reaches the server as hosted, for
// example the url of a server in a container, or a stdio entry that runs
// the server with `docker run -i`. An error wrapping
// conformance.ErrNotApplicable reports the scenario as not applicable.
type MCPHosting func(s RealMCPServer) (map[string]any, error)

// A RealMCPServer is a real MCP server fixture resolved to run on this
// machine: the input of an MCPHosting.
type RealMCPServer struct {
	// Fixture names the definition, fixtures/mcp/<Fixture>.json.
	Fixture string
	// Dir is the fixtures/mcp directory, absolute.
	Dir string
	// Scratch is the fixture's fresh scratch directory, or "" when its
	// definition has none. It is removed when the target closes.
	Scratch string
	// Entry is the stdio mcp.servers entry that runs the fixture as a
	// child process: command, and args, env and cwd when the definition
	// has them, with "./" paths made absolute against Dir and ${scratch}
	// replaced by Scratch.
	Entry map[string]any
}

// realMCP resolves the real MCP server fixtures of one target and owns the
// scratch directories it creates until cleanup, so that targets running
// at the same time never remove each other's. The zero value runs every
// fixture as a child process.
type realMCP struct {
	hosting MCPHosting // nil: child processes

	mu   sync.Mutex
	dirs []string
}

// config returns the mcp.servers entry of the real third-party MCP server
// fixture named fixture (fixtures/mcp/<fixture>.json): the stdio entry that
// runs it as a child process, or what r's hosting makes of it.
//
// Every path of the definition that starts with "./" is made absolute
// against fixtures/mcp. When the definition mentions ${scratch}, a fresh
// temporary directory replaces it, holding the definition's scratch files;
// cleanup removes it. When fixtures/mcp or a package it names is not
// installed, the error wraps conformance.ErrNotApplicable.
//
// # Notes
//
//   - fixtures/mcp is looked up in the CODEMODE_MCP_FIXTURES variable, then
//     walking up from the working directory and the executable's directory.
//   - Each call gets its own scratch directory, so runs never share a memory
//     file or a filesystem root.
//   - config and cleanup may be called from several goroutines.
func (r *realMCP) config(fixture string) (map[string]any, error) {
	if fixture == "" || strings.ContainsAny(fixture, `/\`) || !filepath.IsLocal(fixture) {
		return nil, fmt.Errorf("real MCP server fixture %q: not a plain name", fixture)
	}
	root, err := locateMCPFixtures()
	if err != nil {
		return nil, conformance.NotApplicable("real MCP server fixture %q: %v (install the fixtures with `make deps` in a checkout and set CODEMODE_MCP_FIXTURES to its fixtures/mcp, or leave the profile out: --tags '~@real-mcp')", fixture, err)
	}
	def, err := readMCPFixture(root, fixture)
	if err != nil {
		return nil, err
	}
	if err := def.requireInstalled(root); err != nil {
		return nil, conformance.NotApplicable("real MCP server fixture %q is not installed: %v (install the fixtures with `make deps`, or leave the profile out: --tags '~@real-mcp')", fixture, err)
	}
	scratch := ""
	if def.usesScratch() {
		if scratch, err = r.newScratch(fixture, def.Scratch); err != nil {
			return nil, fmt.Errorf("real MCP server fixture %q: %w", fixture, err)
		}
	}
	expand := func(s string) string {
		s = strings.ReplaceAll(s, scratchVar, scratch)
		if strings.HasPrefix(s, "./") {
			return filepath.Join(root, filepath.FromSlash(s))
		}
		return s
	}
	entry := map[string]any{"command": commandPath(expand(def.Command))}
	if len(def.Args) > 0 {
		args := make([]any, len(def.Args))
		for i, a := range def.Args {
			args[i] = expand(a)
		}
		entry["args"] = args
	}
	if len(def.Env) > 0 {
		env := make(map[string]any, len(def.Env))
		for k, v := range def.Env {
			env[k] = expand(v)
		}
		entry["env"] = env
	}
	if def.Cwd != "" {
		entry["cwd"] = expand(def.Cwd)
	}
	if r.hosting == nil {
		return entry, nil
	}
	hosted, err := r.hosting(RealMCPServer{Fixture: fixture, Dir: root, Scratch: scratch, Entry: entry})
	if err != nil {
		return nil, fmt.Errorf("host real MCP server fixture %q: %w", fixture, err)
	}
	return hosted, nil
}

// cleanup removes every scratch directory config created.
func (r *realMCP) cleanup() {
	r.mu.Lock()
	dirs := r.dirs
	r.dirs = nil
	r.mu.Unlock()
	for _, d := range dirs {
		_ = os.RemoveAll(d)
	}
}

// locateMCPFixtures returns the fixtures/mcp directory: the mcpFixturesEnv
// variable when set, else the first fixtures/mcp holding a package.json
// found walking up from the working directory and then from the
// executable's directory.
func locateMCPFixtures() (string, error) {
	if p := os.Getenv(mcpFixturesEnv); p != "" {
		return filepath.Abs(p)
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, dir := range starts {
		for d := dir; ; d = filepath.Dir(d) {
			p := filepath.Join(d, "fixtures", "mcp")
			if st, err := os.Stat(filepath.Join(p, "package.json")); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", errors.New("fixtures/mcp not found above the working directory (set " + mcpFixturesEnv + ")")
}

// readMCPFixture reads root/<fixture>.json.
func readMCPFixture(root, fixture string) (*mcpFixture, error) {
	b, err := os.ReadFile(filepath.Join(root, fixture+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("unknown real MCP server fixture %q: no %s.json in %s", fixture, fixture, root)
	}
	if err != nil {
		return nil, fmt.Errorf("read real MCP server fixture %q: %w", fixture, err)
	}
	var def mcpFixture
	if err := json.Unmarshal(b, &def); err != nil {
		return nil, fmt.Errorf("parse real MCP server fixture %q: %w", fixture, err)
	}
	if def.Command == "" {
		return nil, fmt.Errorf("real MCP server fixture %q: no command", fixture)
	}
	return &def, nil
}

// values returns every string of the definition a path may appear in.
func (d *mcpFixture) values() []string {
	out := append([]string{d.Command, d.Cwd}, d.Args...)
	for _, v := range d.Env {
		out = append(out, v)
	}
	return out
}

func (d *mcpFixture) usesScratch() bool {
	return len(d.Scratch) > 0 || slices.ContainsFunc(d.values(), func(s string) bool {
		return strings.Contains(s, scratchVar)
	})
}

// requireInstalled reports the first "./" path of d missing under root, or
// a bare command missing from PATH.
func (d *mcpFixture) requireInstalled(root string) error {
	if !strings.HasPrefix(d.Command, "./") && !filepath.IsAbs(d.Command) {
		if _, err := exec.LookPath(d.Command); err != nil {
			return fmt.Errorf("%s is not on PATH", d.Command)
		}
	}
	for _, s := range d.values() {
		if !strings.HasPrefix(s, "./") || strings.Contains(s, scratchVar) {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(s))
		if s == d.Command {
			p = commandPath(p)
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s is missing", p)
		}
	}
	return nil
}

// commandPath adds the executable suffix a built binary has on Windows.
func commandPath(p string) string {
	if runtime.GOOS == "windows" && filepath.IsAbs(p) && filepath.Ext(p) == "" {
		return p + ".exe"
	}
	return p
}

// newScratch creates a temporary directory holding files (slash-separated
// paths relative to it) and registers it for cleanup.
func (r *realMCP) newScratch(fixture string, files map[string]string) (string, error) {
	dir, err := os.MkdirTemp("", "codemodekit-mcp-"+fixture+"-")
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	r.dirs = append(r.dirs, dir)
	r.mu.Unlock()
	for name, content := range files {
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return "", fmt.Errorf("scratch file %q is outside the scratch directory", name)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}
