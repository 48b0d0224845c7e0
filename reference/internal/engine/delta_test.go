package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"
)

// pendingDelta runs pendingProgram in a VM whose fresh image is the base
// and returns the base and the VM's delta against it (and against nothing).
func pendingDelta(t testing.TB) (base *Base, z []byte, size int, zFull []byte, sizeFull int) {
	t.Helper()
	vm := showVM(t, Limits{MemoryBytes: 32 << 20})
	base, err := vm.NewBase()
	if err != nil {
		t.Fatal(err)
	}
	runPending(t, vm)
	if z, size, err = vm.SnapshotDelta(base); err != nil {
		t.Fatal(err)
	}
	if zFull, sizeFull, err = vm.SnapshotDelta(nil); err != nil {
		t.Fatal(err)
	}
	return base, z, size, zFull, sizeFull
}

// baseAfter is the Base of a fresh VM after src ran in it.
func baseAfter(t testing.TB, src string) *Base {
	t.Helper()
	vm := mustVM(t, Limits{MemoryBytes: 64 << 20})
	if err := vm.Eval(src, "base.js"); err != nil {
		t.Fatal(err)
	}
	b, err := vm.NewBase()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDelta: a delta restores the VM it was taken of, against its base or
// (taken against nothing) against nothing, into a new instance or a Blank:
// a plain one, one holding the base's image, one holding another base's,
// one whose memory is larger than the image (a new instance is used, the
// Blank is closed); against the base it stores a fraction of the memory.
func TestDelta(t *testing.T) {
	e := testEngine(t)
	base, z, size, zFull, sizeFull := pendingDelta(t)
	// Another image of the same size, and one larger than the image.
	other := baseAfter(t, `globalThis.other = Array.from({ length: 300 }, (_, i) => "other " + i)`)
	big := baseAfter(t, `globalThis.big = new Array(400000).fill(0).map((_, i) => ({ i }))`)
	if len(other.mem) != len(base.mem) || bytes.Equal(other.mem, base.mem) {
		t.Fatalf("other base of %d bytes, base of %d: want the same size, other bytes", len(other.mem), len(base.mem))
	}
	if len(big.mem) <= len(base.mem)+deltaBlock {
		t.Fatalf("big base of %d bytes, base of %d: want it larger than the image", len(big.mem), len(base.mem))
	}
	if size*2 > sizeFull {
		t.Errorf("delta against the base is %d bytes, against nothing %d: want less than half", size, sizeFull)
	}
	memoryOf := func(vm *VM) []byte {
		t.Helper()
		view, ok := vm.mem.Read(0, vm.mem.Size())
		if !ok {
			t.Fatal("memory read out of range")
		}
		return bytes.Clone(view)
	}
	want := func() []byte {
		r, err := e.RestoreDelta(context.Background(), nil, nil, zFull, sizeFull, Limits{MemoryBytes: 32 << 20})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		return memoryOf(r)
	}()
	live := e.LiveVMs()
	blankOf := func(b *Base) *Blank {
		t.Helper()
		bl, err := e.NewBlankOf(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		return bl
	}
	for _, tc := range []struct {
		name  string
		blank *Blank
		base  *Base
		z     []byte
		size  int
	}{
		{"against the base", nil, base, z, size},
		{"against nothing", nil, nil, zFull, sizeFull},
		{"into a blank", blankOf(nil), base, z, size},
		{"into a blank of the base", blankOf(base), base, z, size},
		{"into a blank of another base", blankOf(other), base, z, size},
		{"against nothing into a blank of a base", blankOf(base), nil, zFull, sizeFull},
		{"into a blank larger than the image", blankOf(big), base, z, size},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := e.RestoreDelta(context.Background(), tc.blank, tc.base, tc.z, tc.size, Limits{MemoryBytes: 32 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got := memoryOf(r); !bytes.Equal(got, want) {
				t.Errorf("restored memory (%d bytes) differs from the image (%d bytes)", len(got), len(want))
			}
			checkPendingResumes(t, r, "restored")
		})
	}
	if got := e.LiveVMs(); got != live {
		t.Errorf("%d live VMs after close, want %d", got, live)
	}
}

// TestDelta_Rejects: every malformed delta is an error and leaves no VM.
func TestDelta_Rejects(t *testing.T) {
	e := testEngine(t)
	base, z, size, _, _ := pendingDelta(t)
	raw, err := Decompress(z, size)
	if err != nil {
		t.Fatal(err)
	}
	with := func(f func(b []byte) []byte) []byte {
		out, err := Compress(f(bytes.Clone(raw)))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	image, _ := compressed(t, pendingImage(t))
	memSize := int(binary.LittleEndian.Uint32(raw[8:]))
	bitmapEnd := snapshotHeaderSize + 4 + (memSize/deltaBlock+7)/8
	tests := []struct {
		name string
		z    []byte
		size int
	}{
		{"empty", nil, size},
		{"truncated", z[:len(z)/2], size},
		{"declared size differs", z, size + 1},
		{"a full image", image, size},
		{"bad magic", with(func(b []byte) []byte { b[3] = 'S'; return b }), size},
		{"extensions", with(func(b []byte) []byte { b[24] = 1; return b }), size},
		{"memory size not whole pages", with(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], uint32(memSize-4096)); return b }), size},
		{"context pointer out of range", with(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[20:], uint32(memSize)); return b }), size},
		{"one more block marked", with(func(b []byte) []byte {
			for i := snapshotHeaderSize + 4; i < bitmapEnd; i++ {
				if b[i] != 0xff {
					b[i] |= b[i] + 1 // set the lowest clear bit
					break
				}
			}
			return b
		}), size},
		{"a block missing", with(func(b []byte) []byte { return b[:len(b)-deltaBlock] }), size - deltaBlock},
		{"trailing bytes", with(func(b []byte) []byte { return append(b, 0) }), size + 1},
	}
	live := e.LiveVMs()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm, err := e.RestoreDelta(context.Background(), nil, base, tt.z, tt.size, Limits{})
			if err == nil {
				vm.Close()
				t.Fatal("restored; want an error")
			}
		})
	}
	if got := e.LiveVMs(); got != live {
		t.Errorf("%d live VMs after the refusals, want %d", got, live)
	}
}

// FuzzRestoreDelta: arbitrary bytes never panic, never leave a VM behind.
func FuzzRestoreDelta(f *testing.F) {
	base, z, size, zFull, sizeFull := pendingDelta(f)
	f.Add(z, size)
	f.Add(zFull, sizeFull)
	f.Add(z[:64], size)
	f.Add([]byte{}, 0)
	e := testEngine(f)
	f.Fuzz(func(t *testing.T, z []byte, size int) {
		checkFuzzedRestore(t, e, func() (*VM, error) {
			return e.RestoreDelta(context.Background(), nil, base, z, min(max(size, 0), 64<<20), Limits{})
		})
	})
}

func TestCommonBase(t *testing.T) {
	block := func(fill byte) []byte { return bytes.Repeat([]byte{fill}, deltaBlock) }
	join := func(blocks ...[]byte) []byte { return bytes.Join(blocks, nil) }
	tests := []struct {
		name   string
		images [][]byte
		want   []byte
		err    bool
	}{
		{"equal images are kept", [][]byte{join(block(1), block(2)), join(block(1), block(2))}, join(block(1), block(2)), false},
		{"a block that differs is zeroed", [][]byte{join(block(1), block(2)), join(block(1), block(3))}, join(block(1), block(0)), false},
		{"one byte makes the block differ", [][]byte{join(block(1), block(2)), join(block(1), append(block(2)[:deltaBlock-1], 9))}, join(block(1), block(0)), false},
		{"any later image counts", [][]byte{join(block(1), block(2)), join(block(1), block(2)), join(block(7), block(2))}, join(block(0), block(2)), false},
		{"a short last block", [][]byte{join(block(1), []byte{5, 6}), join(block(1), []byte{5, 7})}, join(block(1), []byte{0, 0}), false},
		{"sizes differ", [][]byte{block(1), join(block(1), block(1))}, nil, true},
		{"one image", [][]byte{block(1)}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			first := bytes.Clone(tc.images[0])
			b, err := CommonBase(tc.images...)
			if (err != nil) != tc.err {
				t.Fatalf("CommonBase error = %v, want error %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if !bytes.Equal(b.Image(), tc.want) {
				t.Errorf("CommonBase image differs from the expected one")
			}
			if !bytes.Equal(tc.images[0], first) {
				t.Errorf("CommonBase changed its first image")
			}
		})
	}
}
