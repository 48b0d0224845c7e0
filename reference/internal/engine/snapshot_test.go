package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const pendingProgram = `
globalThis.data = Array.from({length: 2000}, (_, i) => ({i, s: "item" + i}));
globalThis.out = "pending";
globalThis.p = new Promise(r => { globalThis.settle = r }).then(v => { out = "got " + v + " via " + hostTag() + " n=" + data.length });
`

func TestSnapshot_RestoreSettlesPendingPromise(t *testing.T) {
	e := testEngine(t)
	vm := showVM(t, Limits{MemoryBytes: 32 << 20})
	runPending(t, vm)
	bin := imageOf(t, vm)
	for i, tag := range []string{"first", "second"} {
		var s Snapshot
		if err := s.UnmarshalBinary(bin); err != nil {
			t.Fatal(err)
		}
		r, err := e.Restore(context.Background(), &s, Limits{MemoryBytes: 32 << 20})
		if err != nil {
			t.Fatalf("restore %d: %v", i, err)
		}
		checkPendingResumes(t, r, tag)
		r.Close()
	}
	// The original VM is untouched by its restored copies.
	if out, err := vm.EvalCall("out", "o.js", "__show"); err != nil || out != "pending" {
		t.Errorf("original out = %q, %v; want pending", out, err)
	}
}

func TestSnapshot_LimitsReapplied(t *testing.T) {
	e := testEngine(t)
	vm := showVM(t, Limits{MemoryBytes: 64 << 20})
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Restore(context.Background(), snap, Limits{MemoryBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.EvalCall(`const a = []; for (;;) a.push([1,2,3,4])`, "t.js", "__show")
	var ge *GuestError
	if !errors.As(err, &ge) || !strings.Contains(ge.Error(), "out of memory") {
		t.Errorf("restored VM with a 4 MiB limit: error = %v, want out of memory", err)
	}
}

func TestSnapshot_UnmarshalRejects(t *testing.T) {
	vm := showVM(t, Limits{})
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	good, _ := snap.MarshalBinary()
	mut := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	tests := []struct {
		name string
		b    []byte
	}{
		{name: "empty", b: nil},
		{name: "truncated header", b: good[:10]},
		{name: "truncated memory", b: good[:len(good)-1]},
		{name: "bad magic", b: mut(func(b []byte) []byte { b[0] = 'X'; return b })},
		{name: "version 3", b: mut(func(b []byte) []byte { b[4] = 3; return b })},
		{name: "extensions", b: mut(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[24:], 1); return b })},
		{name: "size mismatch", b: mut(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 5); return b })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Snapshot
			if err := s.UnmarshalBinary(tt.b); err == nil {
				t.Errorf("UnmarshalBinary(%s) = nil, want an error", tt.name)
			}
		})
	}
}

func TestSnapshot_RestoreRejectsBadPointers(t *testing.T) {
	e := testEngine(t)
	vm := showVM(t, Limits{})
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(s *Snapshot)
	}{
		{name: "odd size", edit: func(s *Snapshot) { s.Memory = s.Memory[:100] }},
		{name: "zero rt", edit: func(s *Snapshot) { s.RuntimePtr = 0 }},
		{name: "ctx out of range", edit: func(s *Snapshot) { s.ContextPtr = uint32(len(s.Memory)) }},
		{name: "sp out of range", edit: func(s *Snapshot) { s.StackPointer = uint32(len(s.Memory)) + 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := *snap
			tt.edit(&s)
			if r, err := e.Restore(context.Background(), &s, Limits{}); err == nil {
				r.Close()
				t.Errorf("Restore(%s) = nil error", tt.name)
			}
		})
	}
}

func TestSnapshot_RefusedDuringHostCall(t *testing.T) {
	vm := showVM(t, Limits{})
	var snapErr error
	vm.Bind("snap", func(c *HostCall) (any, error) {
		_, snapErr = vm.Snapshot()
		return nil, nil
	})
	if err := vm.DefineHostFunction("snap", "snap", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := vm.EvalCall("snap()", "t.js", "__show"); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(snapErr, ErrBusy) && !errors.Is(snapErr, ErrSnapshotBusy) {
		t.Errorf("snapshot inside a host call: %v, want refused", snapErr)
	}
}

func TestCompressRoundTrip(t *testing.T) {
	vm := showVM(t, Limits{})
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := snap.MarshalBinary()
	z, err := Compress(bin)
	if err != nil {
		t.Fatal(err)
	}
	if len(z)*4 > len(bin) {
		t.Errorf("compressed %d -> %d bytes; want at least 4x smaller", len(bin), len(z))
	}
	if spare := cap(z) - len(z); spare > len(z)/16 {
		t.Errorf("Compress keeps %d spare bytes with %d bytes of output", spare, len(z))
	}
	back, err := Decompress(z, len(bin))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, bin) {
		t.Error("round trip changed the snapshot")
	}
	if _, err := Decompress(z, len(bin)-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Decompress with a small bound = %v, want ErrTooLarge", err)
	}
	if _, err := Decompress(z[:len(z)/2], len(bin)); err == nil {
		t.Error("Decompress of a truncated frame = nil error")
	}
}

// TestSnapshot_NodeInterop restores a Go-made snapshot in the real
// quickjs-wasi package on Node, and a Node-made snapshot in Go.
func TestSnapshot_NodeInterop(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	e := testEngine(t)
	// The npm package (make deps), whose quickjs.wasm is the embedded
	// binary (TestEmbeddedWasmIsTheNPMPackage).
	npmDir, err := filepath.Abs(filepath.Join("..", "..", "node_modules", "quickjs-wasi"))
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(npmDir, "dist", "index.js")
	if _, err := os.Stat(pkg); err != nil {
		t.Fatalf("quickjs-wasi package not installed (make deps): %v", err)
	}
	wasmPath := filepath.Join(npmDir, "quickjs.wasm")
	dir := t.TempDir()

	// Go -> Node.
	vm := showVM(t, Limits{})
	if err := vm.Eval(`globalThis.state = {n: 41, s: "héllo"}; globalThis.bump = () => JSON.stringify({n: ++state.n, s: state.s})`, "s.js"); err != nil {
		t.Fatal(err)
	}
	snap, err := vm.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := snap.MarshalBinary()
	goSnap := filepath.Join(dir, "go.qjss")
	if err := os.WriteFile(goSnap, bin, 0o600); err != nil {
		t.Fatal(err)
	}
	nodeSnap := filepath.Join(dir, "node.qjss")
	out, err := exec.Command(node, filepath.Join("testdata", "interop.mjs"), "file://"+pkg, wasmPath, goSnap, nodeSnap).CombinedOutput()
	if err != nil {
		t.Fatalf("node interop script: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), `{"n":42,"s":"héllo"}`; got != want {
		t.Errorf("node restored Go snapshot: bump() = %s, want %s", got, want)
	}

	// Node -> Go.
	b, err := os.ReadFile(nodeSnap)
	if err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	r, err := e.Restore(context.Background(), &s, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Call("nodeBump")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"from":"node","n":8}`; got != want {
		t.Errorf("Go restored Node snapshot: nodeBump() = %s, want %s", got, want)
	}
}

func FuzzSnapshotUnmarshal(f *testing.F) {
	vm := showVM(f, Limits{})
	snap, err := vm.Snapshot()
	if err != nil {
		f.Fatal(err)
	}
	good, _ := snap.MarshalBinary()
	f.Add(good[:64])
	f.Add([]byte("QJSS\x02\x00\x00\x00"))
	f.Add([]byte{})
	hdr := bytes.Clone(good[:28])
	binary.LittleEndian.PutUint32(hdr[8:], 0)
	f.Add(hdr)
	v1 := bytes.Clone(good[:24])
	v1[4] = 1
	binary.LittleEndian.PutUint32(v1[8:], 4)
	f.Add(append(v1, 1, 2, 3, 4))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Snapshot
		if err := s.UnmarshalBinary(b); err != nil {
			return
		}
		// Decoding is the trust boundary tested here: restoring arbitrary
		// images is never done (stored snapshots are sealed by the host).
		if uint64(len(s.Memory)) != uint64(binary.LittleEndian.Uint32(b[8:])) {
			t.Errorf("decoded %d memory bytes, header says %d", len(s.Memory), binary.LittleEndian.Uint32(b[8:]))
		}
		// Round trip: a version 2 image encodes back to the same bytes (but
		// for bytes 5 to 7, padding that quickjs-wasi also ignores and
		// writes as zero); a version 1 image to a version 2 image of the
		// same state.
		out, err := s.MarshalBinary()
		if err != nil {
			t.Fatalf("MarshalBinary of a decoded snapshot: %v", err)
		}
		canonical := bytes.Clone(b)
		if len(canonical) >= 8 {
			canonical[5], canonical[6], canonical[7] = 0, 0, 0
		}
		if b[4] == 2 && !bytes.Equal(out, canonical) {
			t.Fatalf("version 2 snapshot does not round-trip: %x -> %x", b[:min(len(b), 32)], out[:min(len(out), 32)])
		}
		var again Snapshot
		if err := again.UnmarshalBinary(out); err != nil {
			t.Fatalf("re-encoded snapshot does not decode: %v", err)
		}
		if !bytes.Equal(again.Memory, s.Memory) || again.StackPointer != s.StackPointer ||
			again.RuntimePtr != s.RuntimePtr || again.ContextPtr != s.ContextPtr {
			t.Fatal("re-encoded snapshot decodes to another state")
		}
	})
}
