package cluster

import (
	"encoding/json"
	"testing"
)

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// FuzzDecodeRecord: a record read from the shared store is untrusted; it
// decodes into a record that passes its checks and encodes again, or it is
// refused, and it never panics.
func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"id":"run-1","slot":3,"parts":{"image":{"size":2,"sum":"8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4","inline":"aGk="}}}`))
	f.Add([]byte(`{"id":"run-1","parts":{"image":{"size":70000,"sum":"8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4","object":"run-1/8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"}}}`))
	f.Add([]byte(`{"id":"x","slot":-1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord("run-1", b, 64)
		if err != nil {
			return
		}
		if _, err := encodeRecord(r); err != nil {
			t.Fatalf("a decoded record does not encode: %v", err)
		}
	})
}
