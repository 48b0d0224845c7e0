package engine

import (
	"bytes"
	"errors"
	"sync"

	"github.com/klauspost/compress/zstd"
)

var (
	zOnce sync.Once
	zEnc  *zstd.Encoder
	zDec  *zstd.Decoder
	zErr  error
)

func zstdCodec() (*zstd.Encoder, *zstd.Decoder, error) {
	zOnce.Do(func() { zEnc, zDec, zErr = newZstdCodec(false) })
	return zEnc, zDec, zErr
}

// newZstdCodec returns the snapshot codec. Frames carry no checksum and
// the decoder checks none (crc false): every stored snapshot is sealed by
// an HMAC over its compressed bytes before it can resume (cell/seal.go),
// so the xxhash of the frame only costs time. Frames written with a
// checksum still decode. BenchmarkSnapshotCodec compares both.
func newZstdCodec(crc bool) (*zstd.Encoder, *zstd.Decoder, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(crc))
	if err != nil {
		return nil, nil, err
	}
	// The cap limit makes DecodeAll stop at the capacity of its destination,
	// so Decompress's bound also holds for frames that do not declare their
	// size and for trailing frames (TestDecompress_BoundsFramesWithoutContentSize).
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxMemoryPages*65536+1<<20), zstd.IgnoreChecksum(!crc),
		zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		return nil, nil, err
	}
	return enc, dec, nil
}

// Compress returns b compressed with zstd. Snapshots are mostly zero pages
// and compress about tenfold.
func Compress(b []byte) ([]byte, error) {
	enc, _, err := zstdCodec()
	if err != nil {
		return nil, err
	}
	return compressWith(enc, b), nil
}

func compressWith(enc *zstd.Encoder, b []byte) []byte {
	out := enc.EncodeAll(b, make([]byte, 0, len(b)/8))
	if cap(out)-len(out) > len(out)/16 {
		// The result is kept as long as its run is suspended: do not keep
		// the encoder's spare capacity with it (BENCHMARKS.md, P6).
		out = bytes.Clone(out)
	}
	return out
}

// ErrTooLarge is returned when decompressed data would exceed the caller's bound.
var ErrTooLarge = errors.New("engine: decompressed data exceeds its bound")

// Decompress reverses Compress, refusing output larger than max bytes. It
// never allocates much more than max, whatever the input declares.
func Decompress(b []byte, max int) ([]byte, error) {
	_, dec, err := zstdCodec()
	if err != nil {
		return nil, err
	}
	return decompressWith(dec, b, max)
}

func decompressWith(dec *zstd.Decoder, b []byte, max int) ([]byte, error) {
	if max < 0 {
		max = 0
	}
	h := zstd.Header{}
	if err := h.Decode(b); err != nil {
		return nil, err
	}
	if h.HasFCS && h.FrameContentSize > uint64(max) {
		return nil, ErrTooLarge
	}
	out, err := dec.DecodeAll(b, make([]byte, 0, max))
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return nil, ErrTooLarge
	}
	if err != nil {
		return nil, err
	}
	if len(out) > max {
		return nil, ErrTooLarge
	}
	return out, nil
}
