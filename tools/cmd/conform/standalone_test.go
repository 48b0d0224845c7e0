package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codemodekit/kit/tools/internal/repo"
)

// TestStandaloneBinaries builds codemode and conform from a copy of the
// modules without node_modules and without the workspace (GOWORK=off,
// GOFLAGS=-mod=mod), as go install would, and runs them from a directory
// outside any checkout: a program runs (the quickjs-wasi binary is the
// embedded one) and conform passes the core profile of one feature against
// the embedded reference.
func TestStandaloneBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	copyRoot := t.TempDir()
	for _, m := range []string{"features", "fixtures", "fakes", "conformance", "reference", "tools"} {
		if err := copyModule(filepath.Join(root, m), filepath.Join(copyRoot, m)); err != nil {
			t.Fatal(err)
		}
	}
	bin := t.TempDir()
	build := func(module, pkg, out string) {
		t.Helper()
		cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(bin, out), pkg)
		cmd.Dir = filepath.Join(copyRoot, module)
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "CODEMODE_QUICKJS_WASM=")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s in %s: %v\n%s", pkg, module, err, b)
		}
	}
	build("reference", "./cmd/codemode", "codemode")
	build("tools", "./cmd/conform", "conform")

	work := t.TempDir() // no go.work, no node_modules above it
	catalog, err := os.ReadFile(filepath.Join(root, "fixtures", "catalogs", "basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "catalog.json"), catalog, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CODEMODE_QUICKJS_WASM=")
	run := exec.Command(filepath.Join(bin, "codemode"), "run", "--catalog", "catalog.json", "-")
	run.Dir, run.Env = work, env
	run.Stdin = strings.NewReader("const w = await tools.callValue(\"weather\", { city: \"Oslo\" });\nreturn w.city;\n")
	out, err := run.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte(`"status":"completed"`)) || !bytes.Contains(out, []byte(`"value":"Oslo"`)) {
		t.Errorf("codemode run outside the repository: %v\n%s", err, out)
	}
	conform := exec.Command(filepath.Join(bin, "conform"), "--profile", "core", "--path", "01-conventions.feature")
	conform.Dir, conform.Env = work, env
	out, err = conform.CombinedOutput()
	if err != nil || !closingLine.Match(out) {
		t.Errorf("conform --profile core outside the repository: %v\n%s", err, out)
	}
}

// copyModule copies a module's files, leaving out node_modules, installed
// binaries and reports.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "bin", "reports", ".git":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}
