package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testEngine returns the process-wide engine, skipping the test when the
// binary is not installed (make test installs it; CI never skips).
func testEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := Shared(context.Background(), Options{})
	if err != nil {
		t.Fatalf("engine unavailable: %v", err)
	}
	return e
}

func mustVM(t testing.TB, limits Limits) *VM {
	t.Helper()
	vm, err := testEngine(t).NewVM(context.Background(), limits)
	if err != nil {
		t.Fatalf("NewVM: %v", err)
	}
	t.Cleanup(vm.Close)
	return vm
}

// eval runs src and returns String(result) through a global helper.
func eval(t testing.TB, vm *VM, src string) (string, error) {
	t.Helper()
	return vm.EvalCall(src, "test.js", "__show")
}

const showHelper = `globalThis.__show = (v) => typeof v === "string" ? v : JSON.stringify(v);`

func showVM(t testing.TB, limits Limits) *VM {
	t.Helper()
	vm := mustVM(t, limits)
	if err := vm.Eval(showHelper, "helper.js"); err != nil {
		t.Fatalf("Eval helper: %v", err)
	}
	return vm
}

func TestVM_Eval(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{name: "arith", src: "1+2", want: "3"},
		{name: "object", src: `({a: [1, "x", null], b: true})`, want: `{"a":[1,"x",null],"b":true}`},
		{name: "unicode", src: `"héllo 世界 🎉"`, want: "héllo 世界 🎉"},
		{name: "embedded NUL", src: `"a\u0000b"`, want: "a\x00b"},
		{name: "undefined", src: `undefined`, want: ""},
	}
	vm := showVM(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := eval(t, vm, tt.src)
			if err != nil {
				t.Fatalf("eval(%q): %v", tt.src, err)
			}
			if got != tt.want {
				t.Errorf("eval(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestVM_GuestErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want GuestError
	}{
		{name: "type error", src: `null.x`, want: GuestError{Name: "TypeError", Message: "cannot read property 'x' of null"}},
		{name: "syntax error", src: `let = ;`, want: GuestError{Name: "SyntaxError"}},
		{name: "reference error", src: `missingFn()`, want: GuestError{Name: "ReferenceError", Message: "missingFn is not defined"}},
		{name: "thrown string", src: `throw "boom"`, want: GuestError{Message: "boom"}},
		{name: "thrown number", src: `throw 42`, want: GuestError{Message: "42"}},
		{name: "throwing getter", src: `throw { get message() { throw new Error("no") }, name: "X" }`, want: GuestError{Name: "X"}},
		{name: "thrown symbol", src: `throw Symbol("s")`, want: GuestError{Message: "non-object exception"}},
	}
	vm := showVM(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := eval(t, vm, tt.src)
			var ge *GuestError
			if !errors.As(err, &ge) {
				t.Fatalf("eval(%q) error = %v, want *GuestError", tt.src, err)
			}
			got := GuestError{Name: ge.Name, Message: ge.Message}
			if tt.want.Message == "" && tt.name == "syntax error" {
				got.Message = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("eval(%q) error mismatch (-want +got):\n%s", tt.src, diff)
			}
		})
	}
	// The VM stays usable after guest errors.
	if got, err := eval(t, vm, "40+2"); err != nil || got != "42" {
		t.Errorf("after errors: eval = %q, %v; want 42", got, err)
	}
}

func TestVM_HostFunctions(t *testing.T) {
	vm := showVM(t, Limits{})
	vm.Bind("add", func(c *HostCall) (any, error) {
		if len(c.Args) != 2 || c.Args[0].Kind != Number || c.Args[1].Kind != Number {
			return nil, fmt.Errorf("add wants two numbers, got %v", c.Args)
		}
		return c.Args[0].Num + c.Args[1].Num, nil
	})
	vm.Bind("echo", func(c *HostCall) (any, error) {
		var parts []string
		for _, a := range c.Args {
			switch a.Kind {
			case String:
				parts = append(parts, "s:"+a.Str)
			case Number:
				parts = append(parts, fmt.Sprintf("n:%v", a.Num))
			case Bool:
				parts = append(parts, fmt.Sprintf("b:%v", a.Bool))
			case Null:
				parts = append(parts, "null")
			case Undefined:
				parts = append(parts, "undefined")
			case Object:
				parts = append(parts, "object")
			}
		}
		return strings.Join(parts, ","), nil
	})
	vm.Bind("fail", func(c *HostCall) (any, error) { return nil, errors.New("boom from Go") })
	vm.Bind("panic", func(c *HostCall) (any, error) { panic("secret host detail") })
	for global, name := range map[string]string{"add": "add", "echo": "echo", "fail": "fail", "hpanic": "panic"} {
		if err := vm.DefineHostFunction(global, name, 0); err != nil {
			t.Fatalf("DefineHostFunction(%s): %v", global, err)
		}
	}
	tests := []struct {
		src  string
		want string
	}{
		{src: "add(40, 2)", want: "42"},
		{src: `echo("x", 1.5, true, null, undefined, {toString() { throw 1 }}, [1])`, want: "s:x,n:1.5,b:true,null,undefined,object,object"},
		{src: `try { fail() } catch (e) { e instanceof Error && e.message + "|" + e.name + "|" + Object.keys(e).length }`, want: "boom from Go|Error|0"},
		{src: `try { hpanic() } catch (e) { e.message }`, want: "host function failed"},
		{src: `let s = 0; for (let i = 0; i < 1000; i++) s = add(s, 1); s`, want: "1000"},
	}
	for _, tt := range tests {
		got, err := eval(t, vm, tt.src)
		if err != nil || got != tt.want {
			t.Errorf("eval(%q) = %q, %v; want %q", tt.src, got, err, tt.want)
		}
	}
}

func TestVM_UnboundHostFunctionThrows(t *testing.T) {
	vm := showVM(t, Limits{})
	if err := vm.DefineHostFunction("ghost", "ghost", 0); err != nil {
		t.Fatal(err)
	}
	got, err := eval(t, vm, `try { ghost(); "no" } catch (e) { e.message }`)
	if err != nil || got != `host function "ghost" is not registered` {
		t.Errorf("eval = %q, %v", got, err)
	}
}

func TestVM_Reentry(t *testing.T) {
	vm := showVM(t, Limits{})
	depth := 0
	vm.Bind("nest", func(c *HostCall) (any, error) {
		depth++
		defer func() { depth-- }()
		n := int(c.Args[0].Num)
		if n == 0 {
			return "bottom", nil
		}
		r, err := c.Eval(fmt.Sprintf("nest(%d) + '<%d'", n-1, n))
		if err != nil {
			return nil, err
		}
		return r.Str, nil
	})
	if err := vm.DefineHostFunction("nest", "nest", 1); err != nil {
		t.Fatal(err)
	}
	got, err := eval(t, vm, "nest(5)")
	if err != nil {
		t.Fatal(err)
	}
	if want := "bottom<1<2<3<4<5"; got != want {
		t.Errorf("nest(5) = %q, want %q", got, want)
	}
	// Nesting beyond the engine's depth bound discards the VM cleanly.
	_, err = eval(t, vm, "nest(40)")
	var trap *TrapError
	if !errors.As(err, &trap) {
		t.Fatalf("nest(40) error = %v, want *TrapError", err)
	}
	if _, err := eval(t, vm, "1"); !errors.Is(err, ErrClosed) {
		t.Errorf("after trap: error = %v, want ErrClosed", err)
	}
}

func TestVM_Interrupt(t *testing.T) {
	tests := []struct{ name, src string }{
		{name: "loop", src: "while (true) {}"},
		{name: "catch cannot swallow", src: "for (;;) { try { while (true) {} } catch (e) {} }"},
		{name: "regex", src: `/(a+)+$/.test("a".repeat(40) + "b")`},
		{name: "sort comparator", src: `Array.from({length: 1e6}, (_, i) => i).sort((a, b) => { for (let i = 0; i < 100; i++); return b - a })`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm := showVM(t, Limits{})
			vm.SetDeadline(time.Now().Add(100 * time.Millisecond))
			_, err := eval(t, vm, tt.src)
			var ge *GuestError
			if !errors.As(err, &ge) || !ge.Interrupted || !ge.Uncatchable {
				t.Fatalf("eval error = %#v, want an interrupted *GuestError", err)
			}
			vm.SetDeadline(time.Time{})
			if got, err := eval(t, vm, "1+1"); err != nil || got != "2" {
				t.Errorf("after interrupt: %q, %v", got, err)
			}
		})
	}
}

func TestVM_GuestInterruptedIsNotATimeout(t *testing.T) {
	vm := showVM(t, Limits{})
	_, err := eval(t, vm, `throw new Error("interrupted")`)
	var ge *GuestError
	if !errors.As(err, &ge) || ge.Interrupted || ge.Uncatchable {
		t.Errorf("error = %#v, want a plain guest error", err)
	}
}

func TestVM_AbortFromAnotherGoroutine(t *testing.T) {
	vm := showVM(t, Limits{})
	go func() {
		time.Sleep(30 * time.Millisecond)
		vm.Abort()
	}()
	_, err := eval(t, vm, "while (true) {}")
	var ge *GuestError
	if !errors.As(err, &ge) || !ge.Interrupted {
		t.Fatalf("error = %v, want interrupted", err)
	}
}

func TestVM_MemoryLimit(t *testing.T) {
	tests := []struct{ name, src string }{
		{name: "push loop", src: `const a = []; for (;;) a.push({x: Math.random()})`},
		{name: "string doubling", src: `let s = "x"; for (;;) s += s`},
		{name: "big array buffer", src: `new ArrayBuffer(64 * 1024 * 1024)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm := showVM(t, Limits{MemoryBytes: 8 << 20})
			_, err := eval(t, vm, tt.src)
			var ge *GuestError
			if !errors.As(err, &ge) {
				t.Fatalf("error = %v, want *GuestError", err)
			}
			if !strings.Contains(ge.Error(), "out of memory") && !strings.Contains(ge.Error(), "string too long") && ge.Name != "RangeError" {
				t.Errorf("error = %q, want out of memory or RangeError", ge.Error())
			}
			if err := vm.RunGC(); err != nil {
				t.Fatal(err)
			}
			if got, err := eval(t, vm, "1+1"); err != nil || got != "2" {
				t.Errorf("after OOM: %q, %v", got, err)
			}
		})
	}
}

func TestVM_StackLimit(t *testing.T) {
	tests := []struct{ name, src string }{
		{name: "recursion", src: `function f(n) { return f(n + 1) + 1 } f(0)`},
		{name: "map recursion", src: `function g(n) { return [n].map(x => g(x + 1)) } g(0)`},
		{name: "deep JSON.parse", src: `JSON.parse("[".repeat(200000) + "]".repeat(200000))`},
		{name: "deep JSON.stringify", src: `let a = []; for (let i = 0; i < 200000; i++) a = [a]; JSON.stringify(a)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vm := showVM(t, Limits{MemoryBytes: 256 << 20})
			_, err := eval(t, vm, tt.src)
			var ge *GuestError
			if !errors.As(err, &ge) {
				t.Fatalf("error = %v, want *GuestError", err)
			}
			if ge.Name != "RangeError" && ge.Name != "InternalError" {
				t.Errorf("error = %q, want RangeError", ge.Error())
			}
			if got, err := eval(t, vm, "1+1"); err != nil || got != "2" {
				t.Errorf("after stack overflow: %q, %v", got, err)
			}
		})
	}
}

func TestVM_NoHostAccess(t *testing.T) {
	vm := showVM(t, Limits{})
	got, err := eval(t, vm, `[typeof require, typeof process, typeof fetch, typeof WebAssembly, typeof Deno, typeof setTimeout, typeof std, typeof os].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined"; got != want {
		t.Errorf("host globals = %q, want %q", got, want)
	}
	_, err = vm.EvalCall(`import("node:fs")`, "t.js", "__show")
	if err != nil {
		t.Fatalf("dynamic import eval: %v", err)
	}
	if err := vm.DrainJobs(); err != nil {
		t.Fatal(err)
	}
	got, err = eval(t, vm, `let r; import("node:fs").then(() => r = "loaded", e => r = e.name + ": " + e.message); r`)
	if err != nil {
		t.Fatal(err)
	}
	if err := vm.DrainJobs(); err != nil {
		t.Fatal(err)
	}
	got, _ = eval(t, vm, "r")
	if !strings.Contains(got, "could not load module") && !strings.Contains(got, "could not normalize") {
		t.Errorf("dynamic import = %q, want a module load failure", got)
	}
}

func TestVM_ConcurrentUseIsRefused(t *testing.T) {
	vm := showVM(t, Limits{})
	vm.Bind("block", func(c *HostCall) (any, error) {
		_, err := vm.Call("__show", "x")
		return nil, err
	})
	if err := vm.DefineHostFunction("block", "block", 0); err != nil {
		t.Fatal(err)
	}
	got, err := eval(t, vm, `try { block(); "no" } catch (e) { e.message }`)
	if err != nil || got != ErrBusy.Error() {
		t.Errorf("nested top-level call = %q, %v; want %q", got, err, ErrBusy.Error())
	}
}

func TestVMHammer(t *testing.T) {
	e := testEngine(t)
	goroutines, perG := 8, 10
	if testing.Short() {
		goroutines, perG = 4, 3
	}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*perG)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < perG; i++ {
				vm, err := e.NewVM(context.Background(), Limits{MemoryBytes: 16 << 20})
				if err != nil {
					errs <- err
					return
				}
				vm.Bind("id", func(c *HostCall) (any, error) { return c.Args[0].Num, nil })
				if err := vm.DefineHostFunction("id", "id", 1); err != nil {
					errs <- err
				}
				if err := vm.Eval(showHelper, "h.js"); err != nil {
					errs <- err
				}
				want := fmt.Sprint(g*1000 + i + 610)
				got, err := vm.EvalCall(fmt.Sprintf(`function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } id(%d) + fib(15)`, g*1000+i), "t.js", "__show")
				if err != nil || got != want {
					errs <- fmt.Errorf("vm %d/%d = %q, %v; want %s", g, i, got, err, want)
				}
				vm.Close()
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
