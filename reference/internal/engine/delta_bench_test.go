package engine

import (
	"context"
	"testing"

	"github.com/codemodekit/kit/reference/internal/cpumeter"
)

// BenchmarkStoredSnapshot compares, side by side, the two ways a suspended
// VM can be stored and resumed: the whole image (MarshalBinary + Compress,
// RestoreCompressed) and a delta against the image of a fresh VM
// (SnapshotDelta, RestoreDelta), which the cell runner uses. "suspend"
// times taking the stored bytes, "resume" a restore from them into a new
// instance; stored-B is what a suspended run keeps.
func BenchmarkStoredSnapshot(b *testing.B) {
	e := benchEng(b)
	ctx := context.Background()
	base, err := benchVM(b).NewBase()
	if err != nil {
		b.Fatal(err)
	}
	for _, st := range benchStates {
		vm := benchStateVM(b, st.src)
		image := func() ([]byte, int) { return compressed(b, imageOf(b, vm)) }
		delta := func() ([]byte, int) {
			z, n, err := vm.SnapshotDelta(base)
			if err != nil {
				b.Fatal(err)
			}
			return z, n
		}
		codecs := []struct {
			name    string
			suspend func() ([]byte, int)
			resume  func(z []byte, n int) (*VM, error)
		}{
			{"image", image, func(z []byte, n int) (*VM, error) {
				return e.RestoreCompressed(ctx, nil, z, n, Limits{MemoryBytes: 64 << 20})
			}},
			{"delta", delta, func(z []byte, n int) (*VM, error) {
				return e.RestoreDelta(ctx, nil, base, z, n, Limits{MemoryBytes: 64 << 20})
			}},
		}
		for _, c := range codecs {
			b.Run(st.name+"/"+c.name+"/suspend", func(b *testing.B) {
				b.ReportAllocs()
				m := cpumeter.New(b)
				defer m.Report()
				var z []byte
				for i := 0; i < b.N; i++ {
					z, _ = c.suspend()
				}
				b.ReportMetric(float64(len(z)), "stored-B")
			})
			b.Run(st.name+"/"+c.name+"/resume", func(b *testing.B) {
				z, n := c.suspend()
				var batch vmBatch
				defer batch.close()
				b.ReportAllocs()
				m := cpumeter.New(b)
				defer m.Report()
				for i := 0; i < b.N; i++ {
					r, err := c.resume(z, n)
					if err != nil {
						b.Fatal(err)
					}
					batch.add(m, r)
				}
			})
		}
	}
}
