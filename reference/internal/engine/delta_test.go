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

// TestDelta: a delta restores the VM it was taken of, against its base or
// (taken against nothing) against nothing, into a new instance or a Blank;
// against the base it stores a fraction of the memory.
func TestDelta(t *testing.T) {
	e := testEngine(t)
	base, z, size, zFull, sizeFull := pendingDelta(t)
	if size*2 > sizeFull {
		t.Errorf("delta against the base is %d bytes, against nothing %d: want less than half", size, sizeFull)
	}
	live := e.LiveVMs()
	blank, err := e.NewBlank(context.Background())
	if err != nil {
		t.Fatal(err)
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
		{"into a blank", blank, base, z, size},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := e.RestoreDelta(context.Background(), tc.blank, tc.base, tc.z, tc.size, Limits{MemoryBytes: 32 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
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
