package engine

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tetratelabs/wazero/api"
)

// Kind is the type of a host function argument.
type Kind uint8

const (
	Undefined Kind = iota
	Null
	Bool
	Number
	String
	// Object covers every non-primitive (objects, functions, symbols,
	// BigInts). The host never reads them: reading would run guest code.
	Object
)

// An Arg is one argument of a host function call, converted without running
// any guest code.
type Arg struct {
	Kind Kind
	Str  string
	// TooLarge is set for a string longer than MaxStringBytes; Str is empty.
	TooLarge bool
	Num      float64
	Bool     bool
}

// A HostCall is the context of one guest-to-host call.
type HostCall struct {
	vm   *VM
	Args []Arg
}

// Eval evaluates src in the calling VM (a guest -> host -> guest re-entry)
// and returns its completion value converted like a host function argument.
// It is only valid while the host function runs.
func (c *HostCall) Eval(src string) (Arg, error) {
	box, err := c.vm.eval(src, "<host-eval>")
	if err != nil {
		return Arg{}, err
	}
	defer c.vm.free(box)
	return c.vm.readArg(box), c.vm.broken
}

// A HostFunc implements a guest-callable function. Its result must be nil
// (undefined), a string, a float64, an int or a bool. A non-nil error is
// thrown into the guest as a plain Error carrying only the error's message:
// no host stack, prototype or object crosses.
type HostFunc func(c *HostCall) (any, error)

// Bind registers fn under name, replacing any earlier binding. The name is
// what guest function objects made by DefineHostFunction carry, so after a
// restore the same names must be bound again.
func (vm *VM) Bind(name string, fn HostFunc) { vm.hosts[name] = fn }

// DefineHostFunction creates a guest function that calls the host function
// bound to name and stores it as the global property global.
func (vm *VM) DefineHostFunction(global, name string, argc int) error {
	if err := vm.enter(); err != nil {
		return err
	}
	defer vm.exit()
	np, err := vm.writeBytes(name, global)
	if err != nil {
		return err
	}
	defer func() { _, _ = vm.call(xFree, uint64(np)) }()
	fn, err := vm.callBox(xNewHostFunction, uint64(np), uint64(len(name)), uint64(argc))
	if err != nil {
		return err
	}
	if err := vm.checkException(fn); err != nil {
		return err
	}
	defer vm.free(fn)
	r, err := vm.call(xSetPropString, uint64(vm.global), uint64(np)+uint64(len(name))+1, uint64(fn))
	if err != nil {
		return err
	}
	if int32(r) < 0 {
		return vm.takeException()
	}
	return nil
}

func (vm *VM) readArg(box uint32) Arg {
	switch {
	case vm.is(xIsString, box):
		s, ok, _ := vm.readString(box)
		return Arg{Kind: String, Str: s, TooLarge: !ok}
	case vm.is(xIsNumber, box):
		r, _ := vm.call(xGetFloat64, uint64(box))
		return Arg{Kind: Number, Num: math.Float64frombits(r)}
	case vm.is(xIsBool, box):
		return Arg{Kind: Bool, Bool: vm.is(xGetBool, box)}
	case vm.is(xIsUndefined, box):
		return Arg{Kind: Undefined}
	case vm.is(xIsNull, box):
		return Arg{Kind: Null}
	default:
		return Arg{Kind: Object}
	}
}

// box converts a host function result into an owned value box.
func (vm *VM) box(v any) (uint32, error) {
	switch v := v.(type) {
	case nil:
		return vm.callBox(xGetUndefined)
	case string:
		return vm.newString(v)
	case float64:
		return vm.callBox(xNewNumber, math.Float64bits(v))
	case int:
		return vm.callBox(xNewNumber, math.Float64bits(float64(v)))
	case bool:
		if v {
			return vm.callBox(xGetTrue)
		}
		return vm.callBox(xGetFalse)
	default:
		return 0, fmt.Errorf("host function returned unsupported %T", v)
	}
}

// throw raises a plain guest Error with message and returns the null box the
// trampoline expects for "exception".
func (vm *VM) throw(message string) uint32 {
	e, err := vm.callBox(xNewError)
	if err != nil {
		return 0
	}
	defer vm.free(e)
	if s, err := vm.newString(message); err == nil {
		if kp, err := vm.writeBytes("message"); err == nil {
			// Writable and configurable, not enumerable: like new Error(message).
			_, _ = vm.call(xDefinePropString, uint64(e), uint64(kp), uint64(s), 3)
			_, _ = vm.call(xFree, uint64(kp))
		}
		vm.free(s)
	}
	if t, err := vm.call(xThrow, uint64(e)); err == nil {
		vm.free(uint32(t))
	}
	return 0
}

// errHostPanic is reported to the guest when a host function panics; the
// panic value itself never crosses.
var errHostPanic = errors.New("host function failed")

func (vm *VM) dispatch(name string, args []Arg) (res any, err error) {
	fn, ok := vm.hosts[name]
	if !ok {
		return nil, fmt.Errorf("host function %q is not registered", name)
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, errHostPanic
		}
	}()
	return fn(&HostCall{vm: vm, Args: args})
}

// trapPanic unwinds the wasm stack after a nested trap: wazero turns a panic
// in a host function into an error from the outer export call.
type trapPanic struct{ err error }

func vmFrom(ctx context.Context) *VM { return ctx.Value(vmKey{}).(*VM) }

func hostCall(ctx context.Context, _ api.Module, stack []uint64) {
	vm := vmFrom(ctx)
	namePtr, nameLen := uint32(stack[0]), uint32(stack[1])
	argc, argvPtr := uint32(stack[3]), uint32(stack[4])
	nameBytes, _ := vm.mem.Read(namePtr, nameLen)
	name := string(nameBytes)
	args := make([]Arg, argc)
	for i := range args {
		p, _ := vm.mem.ReadUint32Le(argvPtr + 4*uint32(i))
		args[i] = vm.readArg(p)
	}
	var result uint32
	if ret, err := vm.dispatch(name, args); err != nil {
		result = vm.throw(err.Error())
	} else if b, err := vm.box(ret); err != nil {
		result = vm.throw(err.Error())
	} else {
		result = b
	}
	if vm.broken != nil {
		panic(trapPanic{vm.broken})
	}
	stack[0] = uint64(result)
}

func hostInterrupt(ctx context.Context, _ api.Module, stack []uint64) {
	if vmFrom(ctx).interrupt() {
		stack[0] = 1
	} else {
		stack[0] = 0
	}
}

// hostPromiseRejection records promises rejected without a handler and
// forgets them when a handler is attached later (rejections.go).
func hostPromiseRejection(ctx context.Context, _ api.Module, stack []uint64) {
	vm := vmFrom(ctx)
	// An i32 parameter fills only the low half of its stack slot: the high
	// half is undefined (with StrictPreemption's compiled checks it is not
	// zero).
	vm.track(uint32(stack[0]), uint32(stack[1]), uint32(stack[2]) != 0)
	if vm.broken != nil {
		panic(trapPanic{vm.broken})
	}
}

// hostModuleRefused refuses every module normalisation and load: the guest
// has no module loader.
func hostModuleRefused(_ context.Context, _ api.Module, stack []uint64) { stack[0] = 0 }

// hostTimezoneOffset pins the guest's local time zone to UTC.
func hostTimezoneOffset(_ context.Context, _ api.Module, stack []uint64) { stack[0] = 0 }

const (
	wasiESuccess = 0
	wasiEBadf    = 8
	wasiENoSys   = 52
)

// Resolutions of the guest's clocks. Date has milliseconds anyway; the
// monotonic clock (performance.now) is coarsened to 100 microseconds, as
// browsers do, so that it times nothing finer than a guest can do usefully.
const (
	wallResolution      = int64(time.Millisecond)
	monotonicResolution = int64(100 * time.Microsecond)
)

// wasiClockTimeGet gives the guest the wall clock for every clock: the
// monotonic one too, so that it reveals nothing of the process (a
// monotonic clock counts from an arbitrary point, on Linux the boot, in Go
// the process's start) and runs on in a VM restored in another process
// (performance.timeOrigin is taken when the VM is made, and is in its
// image).
func wasiClockTimeGet(ctx context.Context, mod api.Module, stack []uint64) {
	id, resPtr := uint32(stack[0]), uint32(stack[2])
	now := time.Now().UnixNano()
	var ns uint64
	if id == 1 || id == 2 || id == 3 { // monotonic, process and thread CPU time
		ns = uint64(now - now%monotonicResolution)
	} else {
		ns = uint64(now - now%wallResolution)
	}
	if !mod.Memory().WriteUint64Le(resPtr, ns) {
		stack[0] = wasiEBadf
		return
	}
	stack[0] = wasiESuccess
}

func wasiRandomGet(_ context.Context, mod api.Module, stack []uint64) {
	buf, n := uint32(stack[0]), uint32(stack[1])
	b, ok := mod.Memory().Read(buf, n)
	if !ok {
		stack[0] = wasiEBadf
		return
	}
	_, _ = rand.Read(b)
	stack[0] = wasiESuccess
}

// wasiFdWrite accepts and discards the runtime's own diagnostics.
func wasiFdWrite(_ context.Context, mod api.Module, stack []uint64) {
	iovs, n, nwritten := uint32(stack[1]), uint32(stack[2]), uint32(stack[3])
	mem := mod.Memory()
	var total uint32
	for i := uint32(0); i < n; i++ {
		l, _ := mem.ReadUint32Le(iovs + 8*i + 4)
		total += l
	}
	mem.WriteUint32Le(nwritten, total)
	stack[0] = wasiESuccess
}

func wasiFdstatGet(_ context.Context, mod api.Module, stack []uint64) {
	fd, p := uint32(stack[0]), uint32(stack[1])
	if fd > 2 {
		stack[0] = wasiEBadf
		return
	}
	b, ok := mod.Memory().Read(p, 24)
	if !ok {
		stack[0] = wasiEBadf
		return
	}
	clear(b)
	b[0] = 2 // character device
	stack[0] = wasiESuccess
}

func wasiNoSys(_ context.Context, _ api.Module, stack []uint64) { stack[0] = wasiENoSys }
