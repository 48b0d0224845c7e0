// Package quickjswasm embeds the quickjs-wasi WebAssembly binary the
// reference runs, so that a binary built with go build or go install runs
// code without a clone's node_modules.
//
// The npm lockfile (reference/package-lock.json) is the one source of the
// version. quickjs.wasm is generated from the npm package it pins, never
// edited: cmd/genwasm (in the tools module, make wasm) fetches the tarball
// with npm, checks the lockfile's integrity hash and SHA256 below, and
// writes the file; a test of the reference checks that the embedded bytes
// equal the npm-installed package's.
package quickjswasm

import (
	_ "embed"
)

// Version is the quickjs-wasi npm package version of the embedded binary.
const Version = "3.7.0"

// SHA256 is the hex sha256 of the embedded binary, quickjs.wasm in
// quickjs-wasi@3.7.0.
const SHA256 = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"

//go:embed quickjs.wasm
var wasm []byte

// Bytes returns the embedded binary. The slice is shared: do not modify it.
func Bytes() []byte { return wasm }
