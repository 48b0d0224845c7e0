package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
)

// Suspended runs are stored as a delta against a Base, the image of a
// fresh VM: of a run suspended in yield_control only about 176 KiB of its
// 1.4 MiB differ from it in 4 KiB blocks, the rest is the controller, the
// QuickJS runtime and the empty shadow stack, the same in every VM. Storing
// and decoding only the differing blocks makes a suspend and a resume
// cheaper (BENCHMARKS.md, P5). Correctness does not depend on the VM being
// like the base: any block that differs is stored.
//
// The uncompressed delta is the 28-byte header of MarshalBinary with the
// magic "QJSD", a bitmap of the memory's blocks (set: stored), then the
// stored blocks in order; it is kept zstd-compressed.

// deltaBlock is the block size of a delta.
const deltaBlock = 4096

// deltaMagic is "QJSD" read as a big-endian u32.
const deltaMagic = 0x514A5344

// A Base is the memory image deltas are taken against. It never changes.
type Base struct{ mem []byte }

// NewBase copies vm's memory as a Base. vm must be at rest (depth zero).
func (vm *VM) NewBase() (*Base, error) {
	if err := vm.enter(); err != nil {
		return nil, err
	}
	defer vm.exit()
	view, ok := vm.mem.Read(0, vm.mem.Size())
	if !ok {
		return nil, &TrapError{Err: errors.New("memory read out of range")}
	}
	return &Base{mem: bytes.Clone(view)}, nil
}

// BaseOf makes a Base of a memory image taken by NewBase (Image), possibly
// in another process: deltas taken against one are restored against the
// other. The image is not copied; it must not change.
func BaseOf(image []byte) *Base { return &Base{mem: image} }

// CommonBase makes a Base that every process computes alike from the
// images of VMs made the same way (NewBase of each): the first image with
// every block in which they differ zeroed. A VM's random seeds and clock
// readings land in those blocks, so two processes' fresh VMs never match
// there; everywhere else they do. A delta against a common base stores
// those blocks, which any VM has set, so it restores against the base of
// any process that runs the same engine binary: a suspended run can move
// between processes that made their bases apart.
func CommonBase(images ...[]byte) (*Base, error) {
	if len(images) < 2 {
		return nil, errors.New("engine: a common base needs at least two images")
	}
	out := bytes.Clone(images[0])
	for _, img := range images[1:] {
		if len(img) != len(out) {
			return nil, fmt.Errorf("engine: images of %d and %d bytes have no common base", len(out), len(img))
		}
	}
	for off := 0; off < len(out); off += deltaBlock {
		end := min(off+deltaBlock, len(out))
		for _, img := range images[1:] {
			if !bytes.Equal(images[0][off:end], img[off:end]) {
				clear(out[off:end])
				break
			}
		}
	}
	return &Base{mem: out}, nil
}

// Image returns the Base's memory image. It must not be changed.
func (b *Base) Image() []byte { return b.mem }

// SnapshotDelta captures the VM's state like Snapshot and returns it as a
// compressed delta against base (nil: every block is stored), with its
// uncompressed size for RestoreDelta.
func (vm *VM) SnapshotDelta(base *Base) (z []byte, size int, err error) {
	if err := vm.enter(); err != nil {
		return nil, 0, err
	}
	defer vm.exit()
	if vm.depth != 0 {
		return nil, 0, ErrSnapshotBusy
	}
	rt, err := vm.call(xGetRuntimePtr)
	if err != nil {
		return nil, 0, err
	}
	cx, err := vm.call(xGetContextPtr)
	if err != nil {
		return nil, 0, err
	}
	sp, err := vm.stackPointer()
	if err != nil {
		return nil, 0, err
	}
	mem, ok := vm.mem.Read(0, vm.mem.Size())
	if !ok {
		return nil, 0, &TrapError{Err: errors.New("memory read out of range")}
	}
	var baseMem []byte
	if base != nil {
		baseMem = base.mem
	}
	nblocks := len(mem) / deltaBlock
	bitmapLen := (nblocks + 7) / 8
	out := make([]byte, snapshotHeaderSize+4+bitmapLen, snapshotHeaderSize+4+bitmapLen+len(mem)/4)
	binary.BigEndian.PutUint32(out[0:], deltaMagic)
	out[4] = snapshotVersion
	binary.LittleEndian.PutUint32(out[8:], uint32(len(mem)))
	binary.LittleEndian.PutUint32(out[12:], sp)
	binary.LittleEndian.PutUint32(out[16:], uint32(rt))
	binary.LittleEndian.PutUint32(out[20:], uint32(cx))
	bitmap := out[snapshotHeaderSize+4:]
	for i := 0; i < nblocks; i++ {
		off := i * deltaBlock
		block := mem[off : off+deltaBlock]
		if off+deltaBlock <= len(baseMem) && bytes.Equal(block, baseMem[off:off+deltaBlock]) {
			continue
		}
		bitmap[i/8] |= 1 << (i % 8)
		out = append(out, block...)
		bitmap = out[snapshotHeaderSize+4 : snapshotHeaderSize+4+bitmapLen] // out may have moved
	}
	enc, _, err := zstdCodec()
	if err != nil {
		return nil, 0, err
	}
	return compressWith(enc, out), len(out), nil
}

// RestoreDelta is RestoreCompressed for a delta made by SnapshotDelta
// against the same base (nil for nil). Every malformed input is an error;
// nothing past size bytes is decoded.
func (e *Engine) RestoreDelta(ctx context.Context, blank *Blank, base *Base, z []byte, size int, limits Limits) (*VM, error) {
	var bitmap []byte
	header := func(dec io.Reader) (int, imagePointers, error) {
		var hdr [snapshotHeaderSize + 4]byte
		if _, err := io.ReadFull(dec, hdr[:]); err != nil {
			return 0, imagePointers{}, fmt.Errorf("engine: snapshot header: %w", err)
		}
		if binary.BigEndian.Uint32(hdr[0:]) != deltaMagic || hdr[4] != snapshotVersion {
			return 0, imagePointers{}, errors.New("engine: not a snapshot delta")
		}
		if n := binary.LittleEndian.Uint32(hdr[snapshotHeaderSize:]); n != 0 {
			return 0, imagePointers{}, fmt.Errorf("engine: snapshot carries %d extensions; none are supported", n)
		}
		memSize := int(binary.LittleEndian.Uint32(hdr[8:]))
		ptrs := headerPointers(hdr[:])
		if err := ptrs.check(memSize); err != nil {
			return 0, imagePointers{}, err
		}
		nblocks := memSize / deltaBlock
		bitmap = make([]byte, (nblocks+7)/8)
		if _, err := io.ReadFull(dec, bitmap); err != nil {
			return 0, imagePointers{}, fmt.Errorf("engine: snapshot bitmap: %w", err)
		}
		stored := 0
		for _, b := range bitmap {
			stored += bits.OnesCount8(b)
		}
		if nblocks%8 != 0 && bitmap[len(bitmap)-1]>>(nblocks%8) != 0 {
			return 0, imagePointers{}, errors.New("engine: snapshot bitmap marks blocks past the memory")
		}
		if want := len(hdr) + len(bitmap) + stored*deltaBlock; want != size {
			return 0, imagePointers{}, fmt.Errorf("engine: snapshot delta is %d bytes, its bitmap says %d", size, want)
		}
		return memSize, ptrs, nil
	}
	var baseMem []byte
	if base != nil {
		baseMem = base.mem
	}
	fill := func(dec io.Reader, view []byte, based bool) error {
		for i := 0; i < len(view)/deltaBlock; i++ {
			block := view[i*deltaBlock : (i+1)*deltaBlock]
			if bitmap[i/8]&(1<<(i%8)) != 0 {
				if _, err := io.ReadFull(dec, block); err != nil {
					return fmt.Errorf("engine: snapshot block: %w", err)
				}
				continue
			}
			if based {
				continue // the block holds the base's, or zero past it, already
			}
			if n := copy(block, baseMem[min(i*deltaBlock, len(baseMem)):]); n < deltaBlock {
				clear(block[n:]) // past the base: the block was zero (or a fresh instance's data)
			}
		}
		return nil
	}
	return e.restoreStream(ctx, blank, base, z, size, limits, header, fill)
}
