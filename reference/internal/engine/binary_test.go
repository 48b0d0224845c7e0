package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestEmbeddedWasmIsTheNPMPackage checks that the embedded binary is the
// one npm installs from reference/package-lock.json (npm ci checks the
// lockfile's integrity hash), at the version the lockfile pins. Without
// node_modules it skips, except in CI, where make deps installs it.
func TestEmbeddedWasmIsTheNPMPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	lock, err := os.ReadFile(filepath.Join(root, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(lock, &l); err != nil {
		t.Fatal(err)
	}
	if got := l.Packages["node_modules/quickjs-wasi"].Version; got != PinnedVersion {
		t.Errorf("package-lock.json pins quickjs-wasi %q, the embedded binary is %q: regenerate it with make wasm", got, PinnedVersion)
	}
	installed, err := os.ReadFile(filepath.Join(root, "node_modules", "quickjs-wasi", "quickjs.wasm"))
	if errors.Is(err, fs.ErrNotExist) && os.Getenv("CI") == "" {
		t.Skip("quickjs-wasi is not installed (make deps)")
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(installed, EmbeddedWasm()) {
		t.Errorf("the embedded quickjs.wasm differs from the npm-installed one: regenerate it with make wasm")
	}
}

// TestLocateWasm: the WasmEnv variable names the binary; without it the
// engine loads the embedded one, and a missing file is unavailable, not a
// fallback to the embedded binary.
func TestLocateWasm(t *testing.T) {
	t.Setenv(WasmEnv, "")
	if p := LocateWasm(); p != "" {
		t.Errorf("LocateWasm() = %q without %s, want \"\" (embedded)", p, WasmEnv)
	}
	if _, err := loadVerified("", PinnedDigest); err != nil {
		t.Errorf("the embedded binary does not verify: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "absent.wasm")
	t.Setenv(WasmEnv, missing)
	if p := LocateWasm(); p != missing {
		t.Errorf("LocateWasm() = %q, want %q", p, missing)
	}
	var ue *UnavailableError
	if _, err := loadVerified(LocateWasm(), PinnedDigest); !errors.As(err, &ue) {
		t.Errorf("a missing %s file loads with error %v, want an UnavailableError", WasmEnv, err)
	}
}
