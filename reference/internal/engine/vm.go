package engine

import (
	"context"
	"errors"
	"fmt"

	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// DefaultStackBytes is the QuickJS stack limit used when Limits.StackBytes is
// zero. The binary has a 1 MiB shadow stack; quickjs-wasi allows at most half
// of it. 256 KiB turns deep recursion into a RangeError with room to spare.
const DefaultStackBytes = 256 << 10

// MaxStackBytes is the largest stack limit the binary supports.
const MaxStackBytes = 512 << 10

// Limits are applied to a VM when it is created or restored.
type Limits struct {
	// MemoryBytes bounds the QuickJS heap; 0 means no QuickJS limit (the
	// engine's page cap still applies).
	MemoryBytes uint32
	// StackBytes bounds the QuickJS stack; 0 means DefaultStackBytes. It is
	// always set: without it deep recursion traps instead of throwing.
	StackBytes uint32
}

// A VM is one isolated QuickJS runtime and context in its own wasm instance.
// It is used by one goroutine at a time; host functions it calls run on that
// goroutine.
type VM struct {
	engine *Engine
	mod    api.Module
	mem    api.Memory
	ctx    context.Context
	kill   context.CancelFunc // ends ctx: with StrictPreemption, the instance is closed at its next check

	frames [maxDepth]*frame
	depth  int

	hosts  map[string]HostFunc
	limits Limits
	// rejections holds the promises rejected without a handler (rejections.go).
	rejections rejections

	busy     atomic.Bool
	deadline atomic.Int64 // unix nanoseconds; 0 means none
	aborted  atomic.Bool
	fired    atomic.Bool // the interrupt handler stopped the guest
	broken   error       // set on a trap; the VM is unusable
	closed   bool

	scratch uint32 // 8 bytes of guest memory for out-parameters
	global  uint32 // owned box of the global object

	linear   *sliceMemory // the memory the preempter pokes
	ctxPtr   uint32       // the JSContext, whose interrupt counter it pokes
	lastPoll int64        // unix nanoseconds of the last poll (pace)
	paced    uint32       // the count pace gave the guest at that poll
}

type vmKey struct{}

// NewVM creates a fresh VM: a new instance, QuickJS initialised, limits and
// the interrupt handler applied.
func (e *Engine) NewVM(ctx context.Context, limits Limits) (*VM, error) {
	vm, err := e.instantiate(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := vm.call(xInitialize); err != nil {
		vm.Close()
		return nil, err
	}
	r, err := vm.call(xInit)
	if err != nil {
		vm.Close()
		return nil, err
	}
	if int32(r) != 0 {
		vm.Close()
		return nil, &TrapError{Err: errors.New("qjs_init failed")}
	}
	if err := vm.setup(limits); err != nil {
		vm.Close()
		return nil, err
	}
	return vm, nil
}

func (e *Engine) instantiate(ctx context.Context) (*VM, error) {
	vm := &VM{engine: e, hosts: map[string]HostFunc{}, rejections: newRejections()}
	vm.ctx, vm.kill = context.WithCancel(context.WithValue(context.WithoutCancel(ctx), vmKey{}, vm))
	mod, err := e.runtime.InstantiateModule(experimental.WithMemoryAllocator(vm.ctx, linearMemory{vm: vm}), e.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, &TrapError{Err: fmt.Errorf("instantiate: %w", err)}
	}
	vm.mod = mod
	vm.mem = mod.Memory()
	e.live.Add(1)
	return vm, nil
}

// setup applies limits, enables the interrupt handler and allocates the
// VM's scratch memory and global object box.
func (vm *VM) setup(limits Limits) error {
	if limits.StackBytes == 0 {
		limits.StackBytes = DefaultStackBytes
	}
	if limits.StackBytes > MaxStackBytes {
		limits.StackBytes = MaxStackBytes
	}
	vm.limits = limits
	if _, err := vm.call(xSetMemoryLimit, uint64(limits.MemoryBytes)); err != nil {
		return err
	}
	if _, err := vm.call(xSetMaxStackSize, uint64(limits.StackBytes)); err != nil {
		return err
	}
	if _, err := vm.call(xSetInterruptHandler, 1); err != nil {
		return err
	}
	if _, err := vm.call(xSetPromiseRejectionHandler, 1); err != nil {
		return err
	}
	p, err := vm.call(xMalloc, 8)
	if err != nil {
		return err
	}
	if p == 0 {
		return &TrapError{Err: errors.New("wasm_malloc failed for scratch memory")}
	}
	vm.scratch = uint32(p)
	g, err := vm.call(xGetGlobal)
	if err != nil {
		return err
	}
	vm.global = uint32(g)
	cx, err := vm.call(xGetContextPtr)
	if err != nil {
		return err
	}
	vm.ctxPtr = uint32(cx)
	return nil
}

// SetMemoryLimit changes the QuickJS heap limit of a live VM.
func (vm *VM) SetMemoryLimit(bytes uint32) error {
	if err := vm.enter(); err != nil {
		return err
	}
	defer vm.exit()
	if _, err := vm.call(xSetMemoryLimit, uint64(bytes)); err != nil {
		return err
	}
	vm.limits.MemoryBytes = bytes
	return nil
}

// Limits returns the limits in force.
func (vm *VM) Limits() Limits { return vm.limits }

// SetDeadline makes the interrupt handler stop the guest once t has passed.
// The zero time clears the deadline.
func (vm *VM) SetDeadline(t time.Time) {
	if t.IsZero() {
		vm.deadline.Store(0)
	} else {
		vm.deadline.Store(t.UnixNano())
	}
	vm.fired.Store(false)
}

// Deadline returns the deadline SetDeadline set, or the zero time.
func (vm *VM) Deadline() time.Time {
	if d := vm.deadline.Load(); d != 0 {
		return time.Unix(0, d)
	}
	return time.Time{}
}

// ClearInterrupts clears the deadline and the abort flag, so that the host
// can read the guest's state after the interrupt handler stopped it.
func (vm *VM) ClearInterrupts() {
	vm.deadline.Store(0)
	vm.aborted.Store(false)
}

// Abort makes the interrupt handler stop the guest at its next poll. It is
// safe to call from any goroutine.
func (vm *VM) Abort() { vm.aborted.Store(true) }

// Kill stops a guest that no interrupt poll would: with StrictPreemption,
// wazero closes the instance at its next check, inside any built-in call,
// and the call in progress returns a *TrapError; without it, Kill only
// aborts. The VM is unusable afterwards. It is safe to call from any
// goroutine.
func (vm *VM) Kill() {
	vm.Abort()
	if vm.engine.strict {
		vm.kill()
	}
}

// Interrupted reports whether the interrupt handler stopped the guest since
// the last SetDeadline.
func (vm *VM) Interrupted() bool { return vm.fired.Load() }

// Aborted reports whether Abort was called.
func (vm *VM) Aborted() bool { return vm.aborted.Load() }

// MemorySize returns the size of the VM's linear memory in bytes.
func (vm *VM) MemorySize() int { return int(vm.mem.Size()) }

// Broken reports why the VM is unusable, or nil.
func (vm *VM) Broken() error { return vm.broken }

// Close releases the VM's instance. It is idempotent.
func (vm *VM) Close() {
	if vm.closed {
		return
	}
	vm.closed = true
	if vm.kill != nil {
		defer vm.kill()
	}
	if vm.mod != nil {
		_ = vm.mod.Close(context.Background())
		vm.engine.live.Add(-1)
	}
	vm.frames = [maxDepth]*frame{}
}

// enter marks the start of a top-level call by the VM's owner.
func (vm *VM) enter() error {
	if vm.closed || vm.broken != nil {
		return ErrClosed
	}
	if !vm.busy.CompareAndSwap(false, true) {
		return ErrBusy
	}
	return nil
}

func (vm *VM) exit() {
	vm.busy.Store(false)
	if vm.broken != nil && vm.depth == 0 {
		vm.Close()
	}
}

// runsGuest marks the exports that run guest code for an unbounded time: the
// preempter watches a VM while one of them is the outermost call.
var runsGuest = [numExports]bool{xEval: true, xCall: true, xExecutePendingJob: true}

var errTooDeep = errors.New("host call nesting is too deep")

// call invokes export x at the current nesting depth. A wasm error is a trap:
// the VM is marked broken and a *TrapError returned.
func (vm *VM) call(x export, args ...uint64) (uint64, error) {
	if vm.broken != nil {
		return 0, &TrapError{Err: vm.broken}
	}
	d := vm.depth
	if d >= maxDepth {
		vm.broken = errTooDeep
		return 0, &TrapError{Err: errTooDeep}
	}
	f := vm.frames[d]
	if f == nil {
		f = new(frame)
		vm.frames[d] = f
	}
	fn := f.fns[x]
	if fn == nil {
		fn = vm.mod.ExportedFunction(exportNames[x])
		if fn == nil {
			vm.broken = fmt.Errorf("missing export %s", exportNames[x])
			return 0, &TrapError{Err: vm.broken}
		}
		f.fns[x] = fn
	}
	stack := f.stack[:]
	copy(stack, args)
	preempt := d == 0 && runsGuest[x]
	if preempt {
		vm.engine.preempt.start(vm)
	}
	vm.depth++
	err := fn.CallWithStack(vm.ctx, stack)
	vm.depth--
	if preempt {
		vm.engine.preempt.stop(vm)
	}
	if err != nil {
		if vm.broken == nil {
			vm.broken = err
		}
		return 0, &TrapError{Err: err}
	}
	return stack[0], nil
}

// callBox invokes an export returning a value box and checks for a null box
// (the interface's malloc failed).
func (vm *VM) callBox(x export, args ...uint64) (uint32, error) {
	r, err := vm.call(x, args...)
	if err != nil {
		return 0, err
	}
	if r == 0 {
		vm.broken = fmt.Errorf("%s returned no value box (out of memory)", exportNames[x])
		return 0, &TrapError{Err: vm.broken}
	}
	return uint32(r), nil
}

func (vm *VM) free(box uint32) {
	if box != 0 && vm.broken == nil {
		_, _ = vm.call(xFreeValue, uint64(box))
	}
}

// writeBytes copies b plus a NUL into freshly malloc'd guest memory.
func (vm *VM) writeBytes(parts ...string) (uint32, error) {
	n := 0
	for _, p := range parts {
		n += len(p) + 1
	}
	r, err := vm.call(xMalloc, uint64(n))
	if err != nil {
		return 0, err
	}
	if r == 0 {
		return 0, &GuestError{Name: "InternalError", Message: "out of memory"}
	}
	ptr := uint32(r)
	off := ptr
	for _, p := range parts {
		buf, ok := vm.mem.Read(off, uint32(len(p)+1))
		if !ok {
			vm.broken = errors.New("guest memory write out of range")
			return 0, &TrapError{Err: vm.broken}
		}
		copy(buf, p)
		buf[len(p)] = 0
		off += uint32(len(p) + 1)
	}
	return ptr, nil
}

// newString creates a string box.
func (vm *VM) newString(s string) (uint32, error) {
	ptr, err := vm.writeBytes(s)
	if err != nil {
		return 0, err
	}
	box, err := vm.callBox(xNewString, uint64(ptr), uint64(len(s)))
	_, _ = vm.call(xFree, uint64(ptr))
	if err != nil {
		return 0, err
	}
	return box, vm.checkException(box)
}

// MaxStringBytes bounds the strings the host reads from the guest where the
// caller names no smaller bound: host function arguments and error texts.
// Longer strings read as empty with ok false, and are never copied out of
// guest memory.
const MaxStringBytes = 16<<20 + 1

// readString converts the value in box to a string of at most MaxStringBytes.
func (vm *VM) readString(box uint32) (s string, ok bool, err error) {
	return vm.readStringMax(box, MaxStringBytes)
}

// readStringMax converts the value in box to a string. It never runs guest
// code for strings; callers must only pass primitives. On a conversion
// failure the pending exception is cleared and ok is false; a string of
// more than limit bytes (UTF-8) reads as empty with ok false, and only its
// length is looked at.
func (vm *VM) readStringMax(box uint32, limit int) (s string, ok bool, err error) {
	p, err := vm.call(xGetStringLen, uint64(box), uint64(vm.scratch))
	if err != nil {
		return "", false, err
	}
	if p == 0 {
		vm.clearException()
		return "", false, nil
	}
	n, _ := vm.mem.ReadUint32Le(vm.scratch)
	okRead := int64(n) <= int64(limit)
	if okRead {
		var b []byte
		if b, okRead = vm.mem.Read(uint32(p), n); okRead {
			s = string(b)
		}
	}
	_, err = vm.call(xFreeCString, p)
	return s, okRead, err
}

func (vm *VM) clearException() {
	if box, err := vm.call(xGetException); err == nil {
		vm.free(uint32(box))
	}
}

func (vm *VM) is(x export, box uint32) bool {
	r, err := vm.call(x, uint64(box))
	return err == nil && r != 0
}

// checkException turns an exception box into the pending exception as a
// *GuestError, freeing box. A non-exception box is left alone.
func (vm *VM) checkException(box uint32) error {
	if !vm.is(xIsException, box) {
		return vm.broken // nil unless the check itself trapped
	}
	vm.free(box)
	return vm.takeException()
}

// takeException reads and clears the pending exception. It reads only string
// properties, so no guest code (getters, toString) runs on the host's behalf.
func (vm *VM) takeException() error {
	box, err := vm.callBox(xGetException)
	if err != nil {
		return err
	}
	defer vm.free(box)
	ge := &GuestError{Uncatchable: vm.is(xIsUncatchable, box)}
	if vm.is(xIsObject, box) {
		ge.Name = vm.stringProp(box, "name")
		ge.Message = vm.stringProp(box, "message")
		ge.Stack = vm.stringProp(box, "stack")
	} else if vm.is(xIsNull, box) || vm.is(xIsUndefined, box) || vm.is(xIsString, box) ||
		vm.is(xIsNumber, box) || vm.is(xIsBool, box) {
		ge.Message, _, _ = vm.readString(box)
	} else {
		ge.Message = "non-object exception"
	}
	if ge.Uncatchable && vm.fired.Load() {
		ge.Interrupted = true
	}
	if vm.broken != nil {
		return &TrapError{Err: vm.broken}
	}
	return ge
}

// describe formats a thrown or rejected value as "Name: message" (or the
// string form of a primitive). ok is false when a part of it is longer than
// limit bytes; nothing longer is read.
func (vm *VM) describe(box uint32, limit int) (string, bool) {
	if vm.is(xIsObject, box) {
		name, okName := vm.stringPropMax(box, "name", limit)
		message, okMessage := vm.stringPropMax(box, "message", limit)
		if !okName || !okMessage {
			return "", false
		}
		ge := GuestError{Name: name, Message: message}
		if ge.Name == "" && ge.Message == "" {
			return "[object]", true
		}
		return ge.Error(), true
	}
	if vm.is(xIsNull, box) || vm.is(xIsUndefined, box) || vm.is(xIsString, box) || vm.is(xIsNumber, box) || vm.is(xIsBool, box) {
		s, ok, _ := vm.readStringMax(box, limit)
		return s, ok
	}
	return "non-object rejection", true
}

// stringProp reads obj[key] when it is an own or inherited data property
// holding a string; anything else (getters that throw, non-strings) yields "".
func (vm *VM) stringProp(obj uint32, key string) string {
	s, _ := vm.stringPropMax(obj, key, MaxStringBytes)
	return s
}

// stringPropMax is stringProp for a string of at most limit bytes; ok is
// false for a longer one, which is not read.
func (vm *VM) stringPropMax(obj uint32, key string, limit int) (string, bool) {
	kp, err := vm.writeBytes(key)
	if err != nil {
		return "", true
	}
	defer func() { _, _ = vm.call(xFree, uint64(kp)) }()
	v, err := vm.callBox(xGetPropString, uint64(obj), uint64(kp))
	if err != nil {
		return "", true
	}
	defer vm.free(v)
	if vm.is(xIsException, v) {
		vm.clearException()
		return "", true
	}
	if !vm.is(xIsString, v) {
		return "", true
	}
	s, ok, _ := vm.readStringMax(v, limit)
	if !ok {
		return "", false
	}
	return s, true
}

// Eval evaluates src as a global script and discards its completion value.
func (vm *VM) Eval(src, filename string) error {
	if err := vm.enter(); err != nil {
		return err
	}
	defer vm.exit()
	box, err := vm.eval(src, filename)
	if err != nil {
		return err
	}
	vm.free(box)
	return vm.broken
}

func (vm *VM) eval(src, filename string) (uint32, error) {
	ptr, err := vm.writeBytes(src, filename)
	if err != nil {
		return 0, err
	}
	box, err := vm.callBox(xEval, uint64(ptr), uint64(len(src)), uint64(ptr)+uint64(len(src))+1, 0)
	_, _ = vm.call(xFree, uint64(ptr))
	if err != nil {
		return 0, err
	}
	if err := vm.checkException(box); err != nil {
		return 0, err
	}
	return box, nil
}

// A Handle is a guest value the host keeps alive. It is a value box in guest
// memory, so it stays valid in VMs restored from a snapshot of this VM.
type Handle uint32

// EvalHandle evaluates src as a global script and keeps its completion value.
func (vm *VM) EvalHandle(src, filename string) (Handle, error) {
	if err := vm.enter(); err != nil {
		return 0, err
	}
	defer vm.exit()
	box, err := vm.eval(src, filename)
	return Handle(box), err
}

// Release frees a handle.
func (vm *VM) Release(h Handle) {
	if err := vm.enter(); err != nil {
		return
	}
	defer vm.exit()
	vm.free(uint32(h))
}

// EvalCall evaluates src as a global script and calls the global function
// named fn with the script's completion value as its only argument. It
// returns fn's result converted as Call converts it.
func (vm *VM) EvalCall(src, filename, fn string) (string, error) {
	if err := vm.enter(); err != nil {
		return "", err
	}
	defer vm.exit()
	box, err := vm.eval(src, filename)
	if err != nil {
		return "", err
	}
	defer vm.free(box)
	return vm.callOn(vm.global, fn, []uint32{box})
}

// EvalCallMethod evaluates src as a global script and calls
// obj[method](completion value).
func (vm *VM) EvalCallMethod(src, filename string, obj Handle, method string) (string, error) {
	if err := vm.enter(); err != nil {
		return "", err
	}
	defer vm.exit()
	box, err := vm.eval(src, filename)
	if err != nil {
		return "", err
	}
	defer vm.free(box)
	return vm.callOn(uint32(obj), method, []uint32{box})
}

// CallMethod calls obj[method](...args) with string arguments.
func (vm *VM) CallMethod(obj Handle, method string, args ...string) (string, error) {
	if err := vm.enter(); err != nil {
		return "", err
	}
	defer vm.exit()
	return vm.callStrings(uint32(obj), method, args)
}

// CallMethodMax is CallMethod for a result of at most limit bytes (UTF-8):
// a longer string result is never copied out of the guest, and ok is false.
func (vm *VM) CallMethodMax(obj Handle, method string, limit int, args ...string) (s string, ok bool, err error) {
	if err := vm.enter(); err != nil {
		return "", false, err
	}
	defer vm.exit()
	return vm.callStringsMax(uint32(obj), method, args, limit)
}

// Call calls the global function named fn with string arguments and returns
// its result: a string result as is, undefined and null as "", any other
// primitive converted with ToString. Objects yield "".
func (vm *VM) Call(fn string, args ...string) (string, error) {
	if err := vm.enter(); err != nil {
		return "", err
	}
	defer vm.exit()
	return vm.callStrings(vm.global, fn, args)
}

func (vm *VM) callStrings(this uint32, name string, args []string) (string, error) {
	s, _, err := vm.callStringsMax(this, name, args, MaxStringBytes)
	return s, err
}

// callStringsMax calls this[name](...args) with string arguments and reads
// a string result of at most limit bytes.
func (vm *VM) callStringsMax(this uint32, name string, args []string, limit int) (string, bool, error) {
	boxes := make([]uint32, 0, len(args))
	defer func() {
		for _, b := range boxes {
			vm.free(b)
		}
	}()
	for _, a := range args {
		b, err := vm.newString(a)
		if err != nil {
			return "", false, err
		}
		boxes = append(boxes, b)
	}
	return vm.callOnMax(this, name, boxes, limit)
}

func (vm *VM) callOn(this uint32, name string, argv []uint32) (string, error) {
	s, _, err := vm.callOnMax(this, name, argv, MaxStringBytes)
	return s, err
}

// callOnMax calls this[name](...argv) and reads a string result of at most
// limit bytes; ok is false for a longer one.
func (vm *VM) callOnMax(this uint32, name string, argv []uint32, limit int) (string, bool, error) {
	kp, err := vm.writeBytes(name)
	if err != nil {
		return "", false, err
	}
	fn, err := vm.callBox(xGetPropString, uint64(this), uint64(kp))
	_, _ = vm.call(xFree, uint64(kp))
	if err != nil {
		return "", false, err
	}
	if err := vm.checkException(fn); err != nil {
		return "", false, err
	}
	defer vm.free(fn)
	var argvPtr uint64
	if len(argv) > 0 {
		p, err := vm.call(xMalloc, uint64(4*len(argv)))
		if err != nil {
			return "", false, err
		}
		if p == 0 {
			return "", false, &GuestError{Name: "InternalError", Message: "out of memory"}
		}
		defer func() { _, _ = vm.call(xFree, p) }()
		for i, b := range argv {
			vm.mem.WriteUint32Le(uint32(p)+uint32(4*i), b)
		}
		argvPtr = p
	}
	res, err := vm.callBox(xCall, uint64(fn), uint64(this), uint64(len(argv)), argvPtr)
	if err != nil {
		return "", false, err
	}
	if err := vm.checkException(res); err != nil {
		return "", false, err
	}
	defer vm.free(res)
	if vm.is(xIsUndefined, res) || vm.is(xIsNull, res) || vm.is(xIsObject, res) {
		return "", true, vm.broken
	}
	return vm.readStringMax(res, limit)
}

// DrainJobs runs pending jobs (promise reactions) until none is left. A job
// that raises an uncatchable error (interrupt, out of memory) stops the drain
// and is returned as a *GuestError.
func (vm *VM) DrainJobs() error {
	if err := vm.enter(); err != nil {
		return err
	}
	defer vm.exit()
	for {
		pending, err := vm.call(xIsJobPending)
		if err != nil {
			return err
		}
		if pending == 0 {
			return nil
		}
		r, err := vm.call(xExecutePendingJob)
		if err != nil {
			return err
		}
		if int32(r) < 0 {
			return vm.takeException()
		}
	}
}

// AllocatedBytes reports the QuickJS heap in use, as counted by the limit.
func (vm *VM) AllocatedBytes() (int, error) {
	if err := vm.enter(); err != nil {
		return 0, err
	}
	defer vm.exit()
	r, err := vm.call(xGetAllocatedSize)
	return int(uint32(r)), err
}

// RunGC runs the QuickJS garbage collector.
func (vm *VM) RunGC() error {
	if err := vm.enter(); err != nil {
		return err
	}
	defer vm.exit()
	_, err := vm.call(xRunGC)
	return err
}

// interrupt is the body of the host_interrupt import.

func (vm *VM) interrupt() bool {
	now := time.Now().UnixNano()
	if vm.engine.preempt.enabled {
		vm.pace(now)
	}
	if vm.aborted.Load() {
		vm.fired.Store(true)
		return true
	}
	if d := vm.deadline.Load(); d != 0 && now >= d {
		vm.fired.Store(true)
		return true
	}
	return false
}
