package engine

import (
	"bytes"
	"testing"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

// BenchmarkSnapshotCodec compares the snapshot codec with and without the
// zstd frame checksum (encoder CRC, decoder verification), on the images
// of the two benchmark states. The variants are sub-benchmarks of one
// function, so -count interleaves them.
func BenchmarkSnapshotCodec(b *testing.B) {
	for _, st := range benchStates {
		s, err := benchStateVM(b, st.src).Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		bin, _ := s.MarshalBinary()
		for _, v := range []struct {
			name string
			crc  bool
		}{{"crc", true}, {"nocrc", false}} {
			enc, dec, err := newZstdCodec(v.crc)
			if err != nil {
				b.Fatal(err)
			}
			z := compressWith(enc, bin)
			b.Run(st.name+"/"+v.name+"/encode", func(b *testing.B) {
				m := cpumeter.New(b)
				defer m.Report()
				for i := 0; i < b.N; i++ {
					z = compressWith(enc, bin)
				}
				b.ReportMetric(float64(len(z)), "zstd-B")
			})
			b.Run(st.name+"/"+v.name+"/decode", func(b *testing.B) {
				m := cpumeter.New(b)
				defer m.Report()
				for i := 0; i < b.N; i++ {
					out, err := decompressWith(dec, z, len(bin))
					if err != nil || len(out) != len(bin) {
						b.Fatalf("decode: %d bytes, %v", len(out), err)
					}
				}
			})
		}
	}
}

func TestCodecReadsFramesWithAndWithoutChecksum(t *testing.T) {
	in := append(bytes.Repeat([]byte{0}, 1<<16), []byte("quickjs snapshot")...)
	withCRC, _, err := newZstdCodec(true)
	if err != nil {
		t.Fatal(err)
	}
	for name, z := range map[string][]byte{"with checksum": compressWith(withCRC, in), "without": mustCompress(t, in)} {
		out, err := Decompress(z, len(in))
		if err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: Decompress = %d bytes, %v; want the input back", name, len(out), err)
		}
	}
}

func mustCompress(t *testing.T, b []byte) []byte {
	t.Helper()
	z, err := Compress(b)
	if err != nil {
		t.Fatal(err)
	}
	return z
}
