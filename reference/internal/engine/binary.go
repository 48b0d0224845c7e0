package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"

	"github.com/codemodekit/kit/reference/quickjswasm"
)

// PinnedVersion is the quickjs-wasi npm package version the reference runs.
const PinnedVersion = quickjswasm.Version

// PinnedDigest is the sha256 of quickjs.wasm in that package.
const PinnedDigest = quickjswasm.SHA256

// WasmEnv names the environment variable that points the reference at
// another binary than the embedded one.
const WasmEnv = "CODEMODE_QUICKJS_WASM"

// LocateWasm returns the path of the binary the WasmEnv variable names, or
// "" for the embedded binary (quickjswasm).
func LocateWasm() string { return os.Getenv(WasmEnv) }

// EmbeddedWasm returns the embedded binary, nil when the build has none
// (shared: do not modify it).
func EmbeddedWasm() []byte { return quickjswasm.Bytes() }

// loadVerified returns the binary at path, or the embedded one for "", and
// checks its sha256 against digest.
func loadVerified(path, digest string) ([]byte, error) {
	if path == "" {
		b := EmbeddedWasm()
		if b == nil {
			return nil, &UnavailableError{Reason: "quickjs-wasi wasm is not embedded in this build (make deps generates it; or set " + WasmEnv + ")", Err: fs.ErrNotExist}
		}
		return verify(b, digest)
	}
	return readVerified(path, digest)
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
	return verify(b, digest)
}

// verify checks b's sha256 against digest.
func verify(b []byte, digest string) ([]byte, error) {
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != digest {
		return nil, &UnavailableError{Reason: "quickjs-wasi wasm digest mismatch: got sha256 " + got + ", want " + digest}
	}
	return b, nil
}
