package quickjswasm

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestBytes checks the embedded binary against SHA256.
func TestBytes(t *testing.T) {
	sum := sha256.Sum256(Bytes())
	if got := hex.EncodeToString(sum[:]); got != SHA256 {
		t.Fatalf("embedded quickjs.wasm has sha256 %s, want %s: regenerate it with make wasm", got, SHA256)
	}
}
