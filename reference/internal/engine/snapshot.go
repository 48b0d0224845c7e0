package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/tetratelabs/wazero/api"
)

// A Snapshot is the complete state of a VM: its linear memory, the shadow
// stack pointer and the QuickJS runtime and context pointers. It is only
// meaningful for the binary that produced it.
type Snapshot struct {
	Memory       []byte
	StackPointer uint32
	RuntimePtr   uint32
	ContextPtr   uint32
}

// snapshotMagic is "QJSS" read as a big-endian u32, as quickjs-wasi writes it.
const snapshotMagic = 0x514A5353

// snapshotVersion 2 adds extension metadata (always zero entries here).
const snapshotVersion = 2

const snapshotHeaderSize = 24

// ErrSnapshotBusy is returned when a snapshot is requested while a host call
// is in progress: the wasm call frames would not be in the image.
var ErrSnapshotBusy = errors.New("engine: snapshot requested during a host call")

// Snapshot captures the VM's state. It is only allowed at nesting depth zero,
// between top-level calls.
func (vm *VM) Snapshot() (*Snapshot, error) {
	if err := vm.enter(); err != nil {
		return nil, err
	}
	defer vm.exit()
	if vm.depth != 0 {
		return nil, ErrSnapshotBusy
	}
	rt, err := vm.call(xGetRuntimePtr)
	if err != nil {
		return nil, err
	}
	cx, err := vm.call(xGetContextPtr)
	if err != nil {
		return nil, err
	}
	sp, err := vm.stackPointer()
	if err != nil {
		return nil, err
	}
	size := vm.mem.Size()
	view, ok := vm.mem.Read(0, size)
	if !ok {
		return nil, &TrapError{Err: errors.New("memory read out of range")}
	}
	mem := make([]byte, size)
	copy(mem, view)
	return &Snapshot{Memory: mem, StackPointer: sp, RuntimePtr: uint32(rt), ContextPtr: uint32(cx)}, nil
}

func (vm *VM) stackPointer() (uint32, error) {
	g := vm.mod.ExportedGlobal("__stack_pointer")
	if g == nil {
		return 0, &TrapError{Err: errors.New("binary exports no __stack_pointer")}
	}
	return uint32(g.Get()), nil
}

// Restore creates a VM from s in a fresh instance: memory grown and
// overwritten, runtime and context pointers and the stack pointer set, then
// limits and the interrupt handler applied again. Host functions must be
// bound again by name before guest code calls them.
func (e *Engine) Restore(ctx context.Context, s *Snapshot, limits Limits) (*VM, error) {
	ptrs := imagePointers{sp: s.StackPointer, rt: s.RuntimePtr, cx: s.ContextPtr}
	if err := ptrs.check(len(s.Memory)); err != nil {
		return nil, err
	}
	vm, err := e.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	if err := vm.growTo(len(s.Memory)); err != nil {
		vm.Close()
		return nil, err
	}
	if !vm.mem.Write(0, s.Memory) {
		vm.Close()
		return nil, &TrapError{Err: errors.New("memory write failed during restore")}
	}
	if err := vm.adopt(ptrs, limits); err != nil {
		vm.Close()
		return nil, err
	}
	return vm, nil
}

// imagePointers are the stack, runtime and context pointers of an image.
type imagePointers struct{ sp, rt, cx uint32 }

// check validates an image of size bytes and its pointers before anything
// is instantiated for it.
func (p imagePointers) check(size int) error {
	if size == 0 || size%65536 != 0 {
		return fmt.Errorf("engine: snapshot memory of %d bytes is not a whole number of pages", size)
	}
	if uint64(size) > uint64(maxMemoryPages)*65536 {
		return fmt.Errorf("engine: snapshot memory of %d bytes exceeds the page cap", size)
	}
	if p.sp == 0 || p.sp > uint32(size) || p.rt == 0 || p.rt >= uint32(size) || p.cx == 0 || p.cx >= uint32(size) {
		return errors.New("engine: snapshot pointers are out of range")
	}
	return nil
}

// growTo grows a fresh instance's memory to size bytes.
func (vm *VM) growTo(size int) error {
	pages := uint32(size / 65536)
	if cur := vm.mem.Size() / 65536; pages > cur {
		if _, ok := vm.mem.Grow(pages - cur); !ok {
			return &TrapError{Err: errors.New("memory.grow failed during restore")}
		}
	}
	return nil
}

// adopt makes the image in a fresh instance's memory its state: runtime and
// context pointers, stack pointer, then limits and the interrupt handler.
func (vm *VM) adopt(p imagePointers, limits Limits) error {
	if _, err := vm.call(xSetRuntimeAndContext, uint64(p.rt), uint64(p.cx)); err != nil {
		return err
	}
	g, ok := vm.mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok {
		return &TrapError{Err: errors.New("__stack_pointer is not mutable")}
	}
	g.Set(uint64(p.sp))
	return vm.setup(limits)
}

// MarshalBinary serializes s in quickjs-wasi's format (version 2, no
// extensions), byte-compatible with QuickJS.serializeSnapshot.
func (s *Snapshot) MarshalBinary() ([]byte, error) {
	out := make([]byte, snapshotHeaderSize+4+len(s.Memory))
	binary.BigEndian.PutUint32(out[0:], snapshotMagic)
	out[4] = snapshotVersion
	binary.LittleEndian.PutUint32(out[8:], uint32(len(s.Memory)))
	binary.LittleEndian.PutUint32(out[12:], s.StackPointer)
	binary.LittleEndian.PutUint32(out[16:], s.RuntimePtr)
	binary.LittleEndian.PutUint32(out[20:], s.ContextPtr)
	binary.LittleEndian.PutUint32(out[24:], 0) // extension count
	copy(out[snapshotHeaderSize+4:], s.Memory)
	return out, nil
}

// UnmarshalBinary parses quickjs-wasi's format, versions 1 and 2. Snapshots
// that carry extensions are refused: this engine loads none.
func (s *Snapshot) UnmarshalBinary(b []byte) error {
	if len(b) < snapshotHeaderSize {
		return errors.New("engine: snapshot is truncated")
	}
	if binary.BigEndian.Uint32(b[0:]) != snapshotMagic {
		return errors.New("engine: snapshot has a bad magic number")
	}
	version := b[4]
	if version != 1 && version != 2 {
		return fmt.Errorf("engine: unsupported snapshot version %d", version)
	}
	size := binary.LittleEndian.Uint32(b[8:])
	off := snapshotHeaderSize
	if version == 2 {
		if len(b) < off+4 {
			return errors.New("engine: snapshot is truncated")
		}
		if n := binary.LittleEndian.Uint32(b[off:]); n != 0 {
			return fmt.Errorf("engine: snapshot carries %d extensions; none are supported", n)
		}
		off += 4
	}
	if uint64(len(b)-off) != uint64(size) {
		return fmt.Errorf("engine: snapshot memory is %d bytes, header says %d", len(b)-off, size)
	}
	s.Memory = b[off:]
	s.StackPointer = binary.LittleEndian.Uint32(b[12:])
	s.RuntimePtr = binary.LittleEndian.Uint32(b[16:])
	s.ContextPtr = binary.LittleEndian.Uint32(b[20:])
	return nil
}
