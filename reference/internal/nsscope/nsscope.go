// Package nsscope serializes internal namespace scopes into the plain
// descriptors the guest sees, and resolves guest calls back to the callable
// members they name (SPEC.md CM-15.11 to CM-15.18). Host objects never
// reach the guest: only JSON values and call paths cross.
package nsscope

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strings"

	"github.com/codemodekit/kit/reference/internal/guest"
)

// A Tool marks a callable scope member (createCodeModeNamespaceTool).
type Tool struct {
	Name   string
	Mapper func(args []any) any
}

// builtinGlobals are the own properties of a fresh QuickJS-WASI global
// object; a namespace global name may not shadow them.
var builtinGlobals = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`AggregateError Array ArrayBuffer AsyncDisposableStack BigInt BigInt64Array
		BigUint64Array Boolean DOMException DataView Date DisposableStack Error EvalError FinalizationRegistry
		Float16Array Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array InternalError
		Iterator JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set
		SharedArrayBuffer String SuppressedError Symbol SyntaxError TypeError URIError Uint16Array Uint32Array
		Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet atob btoa decodeURI decodeURIComponent encodeURI
		encodeURIComponent escape eval globalThis isFinite isNaN parseFloat parseInt performance queueMicrotask
		undefined unescape`) {
		builtinGlobals[n] = true
	}
}

// IsBuiltinGlobal reports whether name is a standard global of the guest.
func IsBuiltinGlobal(name string) bool { return builtinGlobals[name] }

// forbidden are path segments that would reach prototypes.
var forbidden = map[string]bool{"__proto__": true, "constructor": true, "prototype": true}

// SegmentError is the message for an invalid path segment.
func SegmentError(seg string) error {
	if seg == "" {
		seg = "(empty)"
	}
	return fmt.Errorf("Invalid code mode namespace path segment: %s", seg)
}

// A Scope is a serialized namespace scope: its guest descriptor and the
// callable members by dotted path.
type Scope struct {
	Root      guest.Node
	Callables map[string]*Tool
}

// Serialize turns a createScope result into a descriptor. The root must be
// a map (the caller reports a non-object); raw functions, cycles and unsafe
// keys fail with the exact messages of CM-15.12.
func Serialize(v any) (*Scope, error) {
	s := &Scope{Callables: map[string]*Tool{}}
	root, err := s.node(v, nil, nil)
	if err != nil {
		return nil, err
	}
	s.Root = root
	return s, nil
}

func pathString(path []string) string {
	if len(path) == 0 {
		return "(root)"
	}
	return strings.Join(path, ".")
}

func (s *Scope) node(v any, path []string, ancestors []uintptr) (guest.Node, error) {
	switch x := v.(type) {
	case *Tool:
		p := strings.Join(path, ".")
		s.Callables[p] = x
		return guest.Node{Kind: "call", Path: p}, nil
	case map[string]any:
		ptr := reflect.ValueOf(x).Pointer()
		for _, a := range ancestors {
			if a == ptr {
				return guest.Node{}, fmt.Errorf("Circular code mode namespace scope at %s.", pathString(path))
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		n := guest.Node{Kind: "object", Members: map[string]guest.Node{}}
		for _, k := range keys {
			if k == "" || forbidden[k] || strings.Contains(k, ".") {
				return guest.Node{}, SegmentError(k)
			}
			child, err := s.node(x[k], append(append([]string(nil), path...), k), append(ancestors, ptr))
			if err != nil {
				return guest.Node{}, err
			}
			n.Members[k] = child
		}
		return n, nil
	default:
		if reflect.ValueOf(v).Kind() == reflect.Func {
			return guest.Node{}, fmt.Errorf("Code mode namespace function at %s must be created with createCodeModeNamespaceTool.", pathString(path))
		}
		val, err := jsonValue(v, path, ancestors)
		if err != nil {
			return guest.Node{}, err
		}
		return guest.Node{Kind: "value", Value: val}, nil
	}
}

// jsonValue converts a data value, applying the host adapter to values that
// are not JSON-compatible.
func jsonValue(v any, path []string, ancestors []uintptr) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, float64, float32, int, int64, int32, uint, uint64, uint32, json.Number:
		return x, nil
	case *big.Int:
		return x.String(), nil
	case []any:
		ptr := reflect.ValueOf(x).Pointer()
		for _, a := range ancestors {
			if a == ptr && ptr != 0 {
				return nil, fmt.Errorf("Circular code mode namespace scope at %s.", pathString(path))
			}
		}
		out := make([]any, len(x))
		for i, e := range x {
			if reflect.ValueOf(e).Kind() == reflect.Func {
				return nil, fmt.Errorf("Code mode namespace function at %s must be created with createCodeModeNamespaceTool.", pathString(append(path, fmt.Sprint(i))))
			}
			if m, ok := e.(map[string]any); ok {
				sub := &Scope{Callables: map[string]*Tool{}}
				n, err := sub.node(m, append(append([]string(nil), path...), fmt.Sprint(i)), append(ancestors, ptr))
				if err != nil {
					return nil, err
				}
				out[i] = plain(n)
				continue
			}
			ev, err := jsonValue(e, append(append([]string(nil), path...), fmt.Sprint(i)), append(ancestors, ptr))
			if err != nil {
				return nil, err
			}
			out[i] = ev
		}
		return out, nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return "[object Object]", nil
		}
		var out any
		_ = json.Unmarshal(b, &out)
		return out, nil
	}
}

// plain turns a descriptor back into a JSON value (call members become null).
func plain(n guest.Node) any {
	switch n.Kind {
	case "object":
		m := make(map[string]any, len(n.Members))
		for k, c := range n.Members {
			m[k] = plain(c)
		}
		return m
	case "value":
		return n.Value
	default:
		return nil
	}
}

// Resolve returns the callable at a dotted path, checking every segment.
func (s *Scope) Resolve(path string) (*Tool, error) {
	for _, seg := range strings.Split(path, ".") {
		if seg == "" || forbidden[seg] {
			return nil, SegmentError(seg)
		}
	}
	t, ok := s.Callables[path]
	if !ok {
		return nil, fmt.Errorf("Code mode namespace path is not callable: %s", path)
	}
	return t, nil
}
