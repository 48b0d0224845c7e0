package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// streamDecoders are synchronous streaming zstd decoders, one per restore
// in progress. The shared decoder of Decompress only decodes whole buffers.
var streamDecoders sync.Pool

func streamDecoder() (*zstd.Decoder, error) {
	if d, ok := streamDecoders.Get().(*zstd.Decoder); ok {
		return d, nil
	}
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxMemoryPages*65536+1<<20),
		zstd.IgnoreChecksum(true), zstd.WithDecoderLowmem(false))
}

// openStream checks that z's frame does not declare a size other than size
// and returns a streaming decoder over it, and the function that returns
// the decoder to its pool.
func openStream(z []byte, size int) (*zstd.Decoder, func(), error) {
	var h zstd.Header
	if err := h.Decode(z); err != nil {
		return nil, nil, err
	}
	if h.HasFCS && h.FrameContentSize != uint64(size) {
		return nil, nil, fmt.Errorf("engine: compressed snapshot declares %d bytes, want %d", h.FrameContentSize, size)
	}
	dec, err := streamDecoder()
	if err != nil {
		return nil, nil, err
	}
	done := func() {
		_ = dec.Reset(nil)
		streamDecoders.Put(dec)
	}
	if err := dec.Reset(bytes.NewReader(z)); err != nil {
		done()
		return nil, nil, err
	}
	return dec, done, nil
}

// A Blank is an instance in which nothing has run: what a restore starts
// with, made ahead of time so a resume does not wait for it (instantiating
// clears a 2 MiB memory, most of the cost). A Blank made by NewBlankOf
// holds a Base's image already.
type Blank struct {
	vm   *VM
	base *Base // the image its memory holds, or nil
}

// NewBlank makes a Blank, with the export functions a restore and the
// first calls after it use made already (each costs a machine stack and
// tens of microseconds on first use).
func (e *Engine) NewBlank(ctx context.Context) (*Blank, error) {
	vm, err := e.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	f := new(frame)
	for _, x := range restoreExports {
		if f.fns[x] = vm.mod.ExportedFunction(exportNames[x]); f.fns[x] == nil {
			vm.Close()
			return nil, &UnavailableError{Reason: "quickjs-wasi wasm lacks export " + exportNames[x]}
		}
	}
	vm.frames[0] = f
	return &Blank{vm: vm}, nil
}

// NewBlankOf makes a Blank whose memory holds base's image: a RestoreDelta
// against base then writes only the delta's blocks, and copying the rest
// (and the first touch of its pages) happens now, ahead of the resume. A
// nil base gives NewBlank's Blank.
func (e *Engine) NewBlankOf(ctx context.Context, base *Base) (*Blank, error) {
	b, err := e.NewBlank(ctx)
	if err != nil || base == nil {
		return b, err
	}
	if err := b.vm.growTo(len(base.mem)); err != nil {
		b.Close()
		return nil, err
	}
	view, ok := b.vm.mem.Read(0, uint32(len(base.mem)))
	if !ok {
		b.Close()
		return nil, &TrapError{Err: errors.New("memory read out of range")}
	}
	copy(view, base.mem)
	b.base = base
	return b, nil
}

// restoreExports are the exports adopt calls, and those of a resumed
// cell's first steps (settle a request, drain jobs, read state).
var restoreExports = []export{
	xSetRuntimeAndContext, xSetMemoryLimit, xSetMaxStackSize, xSetInterruptHandler, xSetPromiseRejectionHandler,
	xMalloc, xFree, xGetGlobal, xGetContextPtr,
	xIsJobPending, xExecutePendingJob, xGetPropString, xCall, xNewString, xGetStringLen, xFreeCString, xFreeValue,
	xIsException,
}

// Close releases a Blank that will not be used.
func (b *Blank) Close() {
	if b.vm != nil {
		b.vm.Close()
		b.vm = nil
	}
}

// RestoreCompressed is Restore of Compress(MarshalBinary) bytes z, whose
// uncompressed size must be exactly size: it decodes the header, takes the
// instance (blank, or a new one when blank is nil), and decodes the memory
// image straight into its linear memory, with no intermediate buffer and no
// copy (BENCHMARKS.md, P3). Every malformed input is an error, as with
// Decompress, UnmarshalBinary and Restore in turn; nothing past size bytes
// is decoded. The blank is used up (or closed) either way.
func (e *Engine) RestoreCompressed(ctx context.Context, blank *Blank, z []byte, size int, limits Limits) (*VM, error) {
	header := func(dec io.Reader) (int, imagePointers, error) {
		var hdr [snapshotHeaderSize + 4]byte
		if _, err := io.ReadFull(dec, hdr[:snapshotHeaderSize]); err != nil {
			return 0, imagePointers{}, fmt.Errorf("engine: snapshot header: %w", err)
		}
		if binary.BigEndian.Uint32(hdr[0:]) != snapshotMagic {
			return 0, imagePointers{}, errors.New("engine: snapshot has a bad magic number")
		}
		off := snapshotHeaderSize
		switch version := hdr[4]; version {
		case 1:
		case 2:
			if _, err := io.ReadFull(dec, hdr[off:off+4]); err != nil {
				return 0, imagePointers{}, fmt.Errorf("engine: snapshot header: %w", err)
			}
			if n := binary.LittleEndian.Uint32(hdr[off:]); n != 0 {
				return 0, imagePointers{}, fmt.Errorf("engine: snapshot carries %d extensions; none are supported", n)
			}
			off += 4
		default:
			return 0, imagePointers{}, fmt.Errorf("engine: unsupported snapshot version %d", version)
		}
		memSize := binary.LittleEndian.Uint32(hdr[8:])
		if uint64(off)+uint64(memSize) != uint64(size) {
			return 0, imagePointers{}, fmt.Errorf("engine: snapshot memory is %d bytes, header says %d", size-off, memSize)
		}
		return int(memSize), headerPointers(hdr[:]), nil
	}
	fill := func(dec io.Reader, view []byte, _ bool) error {
		if _, err := io.ReadFull(dec, view); err != nil {
			return fmt.Errorf("engine: snapshot memory: %w", err)
		}
		return nil
	}
	return e.restoreStream(ctx, blank, nil, z, size, limits, header, fill)
}

// headerPointers reads the stack, runtime and context pointers of a
// MarshalBinary (or delta) header.
func headerPointers(hdr []byte) imagePointers {
	return imagePointers{
		sp: binary.LittleEndian.Uint32(hdr[12:]),
		rt: binary.LittleEndian.Uint32(hdr[16:]),
		cx: binary.LittleEndian.Uint32(hdr[20:]),
	}
}

// restoreStream is the restore from stored bytes z (uncompressed size
// bytes) that RestoreCompressed and RestoreDelta share: header reads the
// image's header and returns its memory size and pointers; then the
// instance is taken (blank's, or a new one) and grown, fill writes the
// memory through a view of it, the stream must be at its end, and the image
// is adopted. fill's based says that the view's first len(base.mem) bytes
// hold base's image already (a Blank of NewBlankOf(base)) and the rest is
// zero. A blank whose memory is larger than the image is not used. The
// blank is used up, or closed.
func (e *Engine) restoreStream(ctx context.Context, blank *Blank, base *Base, z []byte, size int, limits Limits,
	header func(dec io.Reader) (int, imagePointers, error), fill func(dec io.Reader, view []byte, based bool) error) (*VM, error) {
	vm, err := e.restoreStreamInto(ctx, blank, base, z, size, limits, header, fill)
	if blank != nil {
		blank.Close() // a no-op once the restore took its instance
	}
	return vm, err
}

func (e *Engine) restoreStreamInto(ctx context.Context, blank *Blank, base *Base, z []byte, size int, limits Limits,
	header func(dec io.Reader) (int, imagePointers, error), fill func(dec io.Reader, view []byte, based bool) error) (*VM, error) {
	if blank != nil && (blank.vm == nil || blank.vm.engine != e) {
		return nil, errors.New("engine: blank instance used already or of another engine")
	}
	dec, done, err := openStream(z, size)
	if err != nil {
		return nil, err
	}
	defer done()
	memSize, ptrs, err := header(dec)
	if err != nil {
		return nil, err
	}
	if err := ptrs.check(memSize); err != nil {
		return nil, err
	}
	var vm *VM
	based := false
	if blank != nil && int(blank.vm.mem.Size()) <= memSize {
		vm, blank.vm = blank.vm, nil
		based = base != nil && blank.base == base
	} else if vm, err = e.instantiate(ctx); err != nil {
		return nil, err
	}
	if err := vm.growTo(memSize); err != nil {
		vm.Close()
		return nil, err
	}
	view, ok := vm.mem.Read(0, uint32(memSize))
	if !ok {
		vm.Close()
		return nil, &TrapError{Err: errors.New("memory read out of range during restore")}
	}
	if err := fill(dec, view, based); err != nil {
		vm.Close()
		return nil, err
	}
	var one [1]byte
	if n, err := dec.Read(one[:]); n != 0 || err != io.EOF {
		vm.Close()
		return nil, errors.New("engine: compressed snapshot is longer than its size")
	}
	if err := vm.adopt(ptrs, limits); err != nil {
		vm.Close()
		return nil, err
	}
	return vm, nil
}
