package quickjswasm

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"
)

// TestBytes checks the embedded binary against SHA256. Without one (make
// deps not run) it skips, except in CI, where make deps generates it.
func TestBytes(t *testing.T) {
	b := Bytes()
	if b == nil {
		if os.Getenv("CI") == "" {
			t.Skip("no embedded quickjs.wasm: run make deps")
		}
		t.Fatal("no embedded quickjs.wasm: make deps generates it")
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != SHA256 {
		t.Fatalf("embedded quickjs.wasm has sha256 %s, want %s: regenerate it with make wasm", got, SHA256)
	}
}
