package engine

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// FuzzDecompress feeds arbitrary bytes to the snapshot decompressor, the
// first step of every restore: it never panics, never returns more than
// its bound, and what it accepts compresses and decompresses back to
// itself.
func FuzzDecompress(f *testing.F) {
	small, _ := Compress([]byte("QJSS\x02\x00\x00\x00 a small image"))
	zeros, _ := Compress(make([]byte, 1<<16))
	f.Add(small, 64)
	f.Add(zeros, 1<<16)
	f.Add(zeros, 1<<16-1)
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58}, 1<<20) // frame header only
	f.Add([]byte{}, 0)
	f.Add(bytes.Repeat([]byte{0xff}, 32), 16)
	f.Fuzz(func(t *testing.T, b []byte, bound int) {
		out, err := Decompress(b, min(bound, 1<<22)) // a negative bound is zero
		max := min(max(0, bound), 1<<22)
		if err != nil {
			if out != nil {
				t.Fatalf("Decompress returned %d bytes and an error %v", len(out), err)
			}
			return
		}
		if len(out) > max {
			t.Fatalf("Decompress returned %d bytes over its bound %d", len(out), max)
		}
		z, err := Compress(out)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Decompress(z, max)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("round trip of %d bytes: %v", len(out), err)
		}
		if short, err := Decompress(z, len(out)-1); len(out) > 0 && (err == nil || short != nil) {
			t.Fatalf("Decompress of %d bytes under a bound of %d = %d bytes, %v; want an error", len(out), len(out)-1, len(short), err)
		}
	})
}

// TestDecompress_BoundsFramesWithoutContentSize is the regression test of a
// decompression bomb: a frame that does not declare its content size (a
// streamed frame), or a second frame after a small one, used to be decoded
// in full, up to the decoder's 1 GiB memory cap, before the bound was
// checked. Decompress must refuse it without allocating much more than the
// bound.
func TestDecompress_BoundsFramesWithoutContentSize(t *testing.T) {
	const expanded = 256 << 20
	var streamed bytes.Buffer
	w, err := zstd.NewWriter(&streamed, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for range expanded / len(chunk) {
		_, _ = w.Write(chunk)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	small, _ := Compress([]byte("small"))
	tests := []struct {
		name string
		in   []byte
	}{
		{name: "streamed frame without content size", in: streamed.Bytes()},
		{name: "small frame then a streamed one", in: append(bytes.Clone(small), streamed.Bytes()...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const bound = 1 << 20
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			out, err := Decompress(tt.in, bound)
			runtime.ReadMemStats(&after)
			if err == nil || out != nil {
				t.Errorf("Decompress of %d bytes expanding to %d under a bound of %d = %d bytes, %v; want an error",
					len(tt.in), expanded, bound, len(out), err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16*bound {
				t.Errorf("Decompress allocated %d bytes for a bound of %d", alloc, bound)
			}
		})
	}
}
