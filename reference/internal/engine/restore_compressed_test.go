package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// runPending runs pendingProgram in vm, its host function bound to
// "original".
func runPending(t testing.TB, vm *VM) {
	t.Helper()
	vm.Bind("tag", func(c *HostCall) (any, error) { return "original", nil })
	if err := vm.DefineHostFunction("hostTag", "tag", 0); err != nil {
		t.Fatal(err)
	}
	if err := vm.Eval(pendingProgram, "p.js"); err != nil {
		t.Fatal(err)
	}
}

// pendingImage is the MarshalBinary bytes of a VM that ran pendingProgram.
func pendingImage(t testing.TB) []byte {
	t.Helper()
	vm := showVM(t, Limits{MemoryBytes: 32 << 20})
	runPending(t, vm)
	return imageOf(t, vm)
}

// imageOf is the MarshalBinary bytes of vm's snapshot.
func imageOf(tb testing.TB, vm *VM) []byte {
	tb.Helper()
	snap, err := vm.Snapshot()
	if err != nil {
		tb.Fatal(err)
	}
	bin, err := snap.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return bin
}

// compressed is Compress(bin) and bin's size, as a suspended run keeps them.
func compressed(tb testing.TB, bin []byte) ([]byte, int) {
	tb.Helper()
	z, err := Compress(bin)
	if err != nil {
		tb.Fatal(err)
	}
	return z, len(bin)
}

// checkPendingResumes settles the promise of a VM restored from a
// pendingProgram image, with the host function bound to tag, and checks
// what the program made of it.
func checkPendingResumes(t testing.TB, r *VM, tag string) {
	t.Helper()
	r.Bind("tag", func(c *HostCall) (any, error) { return tag, nil })
	if _, err := r.Call("settle", "v"+tag); err != nil {
		t.Fatal(err)
	}
	if err := r.DrainJobs(); err != nil {
		t.Fatal(err)
	}
	out, err := r.EvalCall("out", "o.js", "__show")
	if err != nil {
		t.Fatal(err)
	}
	if want := "got v" + tag + " via " + tag + " n=2000"; out != want {
		t.Errorf("restored out = %q, want %q", out, want)
	}
}

// TestRestoreCompressed: the restored VM is the image's VM, as with
// Decompress + UnmarshalBinary + Restore.
func TestRestoreCompressed(t *testing.T) {
	e := testEngine(t)
	z, size := compressed(t, pendingImage(t))
	live := e.LiveVMs()
	r, err := e.RestoreCompressed(context.Background(), nil, z, size, Limits{MemoryBytes: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	checkPendingResumes(t, r, "restored")
	r.Close()
	if got := e.LiveVMs(); got != live {
		t.Errorf("%d live VMs after close, want %d", got, live)
	}
}

// TestRestoreCompressed_Rejects: every malformed input is an error and
// leaves no VM behind.
func TestRestoreCompressed_Rejects(t *testing.T) {
	e := testEngine(t)
	bin := pendingImage(t)
	z := func(b []byte) []byte {
		out, _ := compressed(t, b)
		return out
	}
	with := func(f func(b []byte)) []byte {
		b := bytes.Clone(bin)
		f(b)
		return b
	}
	var streamed bytes.Buffer // a frame that does not declare its size
	w, _ := zstd.NewWriter(&streamed)
	_, _ = w.Write(append(bytes.Clone(bin), "trailing"...))
	_ = w.Close()
	good := z(bin)
	tests := []struct {
		name string
		z    []byte
		size int
	}{
		{"empty", nil, len(bin)},
		{"not zstd", bytes.Repeat([]byte{0xff}, 64), len(bin)},
		{"truncated", good[:len(good)/2], len(bin)},
		{"declared size differs", good, len(bin) - 1},
		{"bad magic", z(with(func(b []byte) { b[0] = 'X' })), len(bin)},
		{"version 3", z(with(func(b []byte) { b[4] = 3 })), len(bin)},
		{"extensions", z(with(func(b []byte) { binary.LittleEndian.PutUint32(b[24:], 1) })), len(bin)},
		{"memory size in header", z(with(func(b []byte) { binary.LittleEndian.PutUint32(b[8:], uint32(len(bin))) })), len(bin)},
		{"stack pointer out of range", z(with(func(b []byte) { binary.LittleEndian.PutUint32(b[12:], 0xffffffff) })), len(bin)},
		{"context pointer zero", z(with(func(b []byte) { binary.LittleEndian.PutUint32(b[20:], 0) })), len(bin)},
		{"not whole pages", z(bin[:len(bin)-1]), len(bin) - 1},
		{"longer than its size, undeclared", streamed.Bytes(), len(bin)},
		{"header only", z(bin[:28]), len(bin)},
	}
	live := e.LiveVMs()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm, err := e.RestoreCompressed(context.Background(), nil, tt.z, tt.size, Limits{})
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

// FuzzRestoreCompressed: arbitrary bytes never panic, never leave a VM
// behind, and what restores is a working VM.
func FuzzRestoreCompressed(f *testing.F) {
	good, size := compressed(f, pendingImage(f))
	f.Add(good, size)
	f.Add(good[:100], size)
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58}, 1<<20)
	f.Add([]byte{}, 0)
	e := testEngine(f)
	f.Fuzz(func(t *testing.T, z []byte, size int) {
		checkFuzzedRestore(t, e, func() (*VM, error) {
			return e.RestoreCompressed(context.Background(), nil, z, min(max(size, 0), 64<<20), Limits{})
		})
	})
}

// checkFuzzedRestore runs a restore from fuzzed bytes: it must not panic
// or leave a VM behind; a VM it makes is tried (a corrupt image may trap
// there: data, not a crash) and closed.
func checkFuzzedRestore(t *testing.T, e *Engine, restore func() (*VM, error)) {
	live := e.LiveVMs()
	if vm, err := restore(); err == nil {
		vm.SetDeadline(time.Now().Add(time.Second))
		if _, err := vm.EvalCall("1+1", "f.js", "String"); err != nil {
			t.Logf("restored VM fails: %v", err)
		}
		vm.Close()
	}
	if got := e.LiveVMs(); got != live {
		t.Fatalf("%d live VMs, want %d", got, live)
	}
}

// TestRestoreCompressed_Blank: a restore into a Blank made ahead of time
// works like one into a new instance, uses the Blank up, and a failed one
// closes it.
func TestRestoreCompressed_Blank(t *testing.T) {
	e := testEngine(t)
	z, size := compressed(t, pendingImage(t))
	live := e.LiveVMs()
	b, err := e.NewBlank(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	vm, err := e.RestoreCompressed(context.Background(), b, z, size, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := vm.EvalCall("data.length", "o.js", "String"); err != nil || out != "2000" {
		t.Errorf("restored data.length = %q, %v", out, err)
	}
	if _, err := e.RestoreCompressed(context.Background(), b, z, size, Limits{}); err == nil {
		t.Error("a Blank restored twice")
	}
	vm.Close()
	bad, err := e.NewBlank(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.RestoreCompressed(context.Background(), bad, z[:10], size, Limits{}); err == nil {
		t.Error("a truncated snapshot restored")
	}
	if got := e.LiveVMs(); got != live {
		t.Errorf("%d live VMs, want %d", got, live)
	}
}
