// Package quickjswasm embeds the quickjs-wasi WebAssembly binary the
// reference runs, so that a binary built with go build or go install runs
// code without a clone's node_modules.
//
// The npm lockfile (reference/package-lock.json) is the one source of the
// version, and the binary is never committed: make deps runs cmd/genwasm
// (in the tools module, make wasm), which fetches the tarball with npm,
// checks the lockfile's integrity hash and SHA256 below, and writes
// blob/quickjs.wasm before anything is built. A build without it compiles,
// and Bytes is nil: the engine then fails every exec closed.
package quickjswasm

import (
	"embed"
	"io/fs"
	"sync"
)

// Version is the quickjs-wasi npm package version of the embedded binary.
const Version = "3.7.0"

// SHA256 is the hex sha256 of quickjs.wasm in quickjs-wasi@3.7.0.
const SHA256 = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"

// Path is where make wasm writes the binary, relative to this package.
const Path = "blob/quickjs.wasm"

//go:embed blob
var blob embed.FS

var bytesOnce = sync.OnceValue(func() []byte {
	b, err := fs.ReadFile(blob, Path)
	if err != nil {
		return nil
	}
	return b
})

// Bytes returns the embedded binary, or nil when the build had none (make
// deps was not run). The slice is shared: do not modify it.
func Bytes() []byte { return bytesOnce() }
