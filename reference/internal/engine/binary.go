package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// PinnedVersion is the quickjs-wasi npm package version the reference runs.
const PinnedVersion = "3.7.0"

// PinnedDigest is the sha256 of quickjs.wasm in quickjs-wasi@3.7.0.
const PinnedDigest = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"

// WasmEnv names the environment variable that overrides where the binary is
// looked up.
const WasmEnv = "CODEMODE_QUICKJS_WASM"

// candidates are the paths, relative to a directory and its parents, where the
// npm-installed binary is looked for.
var candidates = []string{
	filepath.Join("node_modules", "quickjs-wasi", "quickjs.wasm"),
	filepath.Join("reference", "node_modules", "quickjs-wasi", "quickjs.wasm"),
}

// LocateWasm returns the path of the quickjs-wasi binary: the WasmEnv
// variable when set, else the first candidate found walking up from the
// working directory and then from the executable's directory.
func LocateWasm() (string, error) {
	if p := os.Getenv(WasmEnv); p != "" {
		return p, nil
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
			for _, c := range candidates {
				p := filepath.Join(d, c)
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					return p, nil
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", &UnavailableError{Reason: "quickjs-wasi wasm is missing (run `npm ci` in reference/, or set " + WasmEnv + ")", Err: fs.ErrNotExist}
}

// readVerified reads path and checks its sha256 against digest.
func readVerified(path, digest string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		reason := "quickjs-wasi wasm is unreadable"
		if errors.Is(err, fs.ErrNotExist) {
			reason = "quickjs-wasi wasm is missing"
		}
		return nil, &UnavailableError{Reason: reason, Err: err}
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != digest {
		return nil, &UnavailableError{Reason: "quickjs-wasi wasm digest mismatch: got sha256 " + got + ", want " + digest}
	}
	return b, nil
}
