package cell

// Prototype of a proposed optimisation, benchmarked side by side with the
// current code in one run: storing a suspended run's memory as a delta
// against the image of a fresh pooled VM. See ../../BENCHMARKS.md.

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/codemodekit/kit/reference/internal/engine"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

const deltaBlock = 4096

// deltaEncode compares mem with base in 4 KiB blocks and compresses only the
// blocks that differ (or lie beyond base). The bitmap marks them.
func deltaEncode(enc *zstd.Encoder, base, mem []byte, scratch []byte) (bitmap, z, scratchOut []byte) {
	nblocks := (len(mem) + deltaBlock - 1) / deltaBlock
	bitmap = make([]byte, (nblocks+7)/8)
	dirty := scratch[:0]
	for i := 0; i < nblocks; i++ {
		off := i * deltaBlock
		end := min(off+deltaBlock, len(mem))
		if end <= len(base) && bytes.Equal(mem[off:end], base[off:end]) {
			continue
		}
		bitmap[i/8] |= 1 << (i % 8)
		dirty = append(dirty, mem[off:end]...)
	}
	return bitmap, enc.EncodeAll(dirty, make([]byte, 0, len(dirty)/4+64)), dirty
}

// deltaDecode rebuilds the image into out (len size): base, then the dirty
// blocks scattered over it.
func deltaDecode(dec *zstd.Decoder, base []byte, out []byte, bitmap, z []byte, scratch []byte) ([]byte, error) {
	dirty, err := dec.DecodeAll(z, scratch[:0])
	if err != nil {
		return scratch, err
	}
	n := copy(out, base)
	clear(out[n:])
	pos := 0
	for i := 0; i*deltaBlock < len(out); i++ {
		if bitmap[i/8]&(1<<(i%8)) == 0 {
			continue
		}
		off := i * deltaBlock
		end := min(off+deltaBlock, len(out))
		pos += copy(out[off:end], dirty[pos:])
	}
	return dirty, nil
}

// BenchmarkProposalDeltaCodec compares, for the image of a run suspended in
// yield_control, today's codec (MarshalBinary + Compress on suspend,
// Decompress on resume) with the delta codec against a fresh pooled VM's
// image (kept once per process). "encode" and "decode" are timed apart;
// the restore that follows either is the same and is not included.
func BenchmarkProposalDeltaCodec(b *testing.B) {
	rn := newBenchRunner(b)
	host := newBenchHost(b)
	base, err := rn.pool.fresh()
	if err != nil {
		b.Fatal(err)
	}
	defer base.vm.Close()
	bs, err := base.vm.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
	if err != nil {
		b.Fatal(err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, code string }{
		{"yield", yieldSource},
		{"yield-data2000", `globalThis.keep = Array.from({length: 2000}, (_, i) => ({i, s: "item" + i}));
const r = await yield_control("pause"); return r.status`},
	} {
		id := suspendOne(b, rn, host, "call_codec_"+tc.name, execArgs(tc.code, ""))
		rn.store.mu.Lock()
		r := rn.store.runs[id]
		rn.store.mu.Unlock()
		bin, err := engine.Decompress(r.snapshot, r.rawSize)
		if err != nil {
			b.Fatal(err)
		}
		var s engine.Snapshot
		if err := s.UnmarshalBinary(bin); err != nil {
			b.Fatal(err)
		}
		mem := s.Memory
		zCur := r.snapshot
		bitmap, zDelta, _ := deltaEncode(enc, bs.Memory, mem, nil)
		// The delta codec round-trips.
		out := make([]byte, len(mem))
		if _, err := deltaDecode(dec, bs.Memory, out, bitmap, zDelta, nil); err != nil || !bytes.Equal(out, mem) {
			b.Fatalf("delta codec does not round-trip: %v", err)
		}
		b.Run(tc.name+"/encode/current", func(b *testing.B) {
			b.ReportAllocs()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				bin, _ := s.MarshalBinary()
				if _, err := engine.Compress(bin); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(zCur)), "stored-B")
		})
		b.Run(tc.name+"/encode/delta", func(b *testing.B) {
			b.ReportAllocs()
			var scratch []byte
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				_, _, scratch = deltaEncode(enc, bs.Memory, mem, scratch)
			}
			b.ReportMetric(float64(len(zDelta)+len(bitmap)), "stored-B")
		})
		b.Run(tc.name+"/decode/current", func(b *testing.B) {
			b.ReportAllocs()
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				if _, err := engine.Decompress(zCur, r.rawSize); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/decode/delta", func(b *testing.B) {
			b.ReportAllocs()
			var scratch []byte
			m := cpumeter.New(b)
			defer m.Report()
			for i := 0; i < b.N; i++ {
				out := make([]byte, len(mem))
				if scratch, err = deltaDecode(dec, bs.Memory, out, bitmap, zDelta, scratch); err != nil {
					b.Fatal(err)
				}
			}
		})
		rn.Drop(benchScope.AgentRunID)
	}
}
