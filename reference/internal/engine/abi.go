package engine

import "github.com/tetratelabs/wazero/api"

// export indexes the quickjs-wasi exports a VM calls.
type export int

const (
	xInitialize export = iota
	xInit
	xEval
	xCall
	xNewString
	xGetStringLen
	xFreeCString
	xFreeValue
	xDupValue
	xIsException
	xIsUncatchable
	xIsObject
	xIsString
	xIsUndefined
	xGetException
	xThrow
	xNewError
	xGetGlobal
	xGetUndefined
	xGetPropString
	xSetPropString
	xNewHostFunction
	xIsJobPending
	xExecutePendingJob
	xMalloc
	xFree
	xSetMemoryLimit
	xSetMaxStackSize
	xSetInterruptHandler
	xGetRuntimePtr
	xGetContextPtr
	xSetRuntimeAndContext
	xRunGC
	xGetAllocatedSize
	xNewNumber
	xGetFloat64
	xIsNumber
	xIsBool
	xIsNull
	xGetBool
	xGetTrue
	xGetFalse
	xDefinePropString
	xGetValuePtr
	xSetPromiseRejectionHandler
	numExports
)

var exportNames = [numExports]string{
	xInitialize:                 "_initialize",
	xInit:                       "qjs_init",
	xEval:                       "qjs_eval",
	xCall:                       "qjs_call",
	xNewString:                  "qjs_new_string",
	xGetStringLen:               "qjs_get_string_len",
	xFreeCString:                "qjs_free_cstring",
	xFreeValue:                  "qjs_free_value",
	xDupValue:                   "qjs_dup_value",
	xIsException:                "qjs_is_exception",
	xIsUncatchable:              "qjs_is_uncatchable_error",
	xIsObject:                   "qjs_is_object",
	xIsString:                   "qjs_is_string",
	xIsUndefined:                "qjs_is_undefined",
	xGetException:               "qjs_get_exception",
	xThrow:                      "qjs_throw",
	xNewError:                   "qjs_new_error",
	xGetGlobal:                  "qjs_get_global",
	xGetUndefined:               "qjs_get_undefined",
	xGetPropString:              "qjs_get_prop_string",
	xSetPropString:              "qjs_set_prop_string",
	xNewHostFunction:            "qjs_new_host_function",
	xIsJobPending:               "qjs_is_job_pending",
	xExecutePendingJob:          "qjs_execute_pending_job",
	xMalloc:                     "wasm_malloc",
	xFree:                       "wasm_free",
	xSetMemoryLimit:             "qjs_set_memory_limit",
	xSetMaxStackSize:            "qjs_set_max_stack_size",
	xSetInterruptHandler:        "qjs_set_interrupt_handler",
	xGetRuntimePtr:              "qjs_get_runtime_ptr",
	xGetContextPtr:              "qjs_get_context_ptr",
	xSetRuntimeAndContext:       "qjs_set_runtime_and_context",
	xRunGC:                      "qjs_run_gc",
	xGetAllocatedSize:           "qjs_get_allocated_size",
	xNewNumber:                  "qjs_new_number",
	xGetFloat64:                 "qjs_get_float64",
	xIsNumber:                   "qjs_is_number",
	xIsBool:                     "qjs_is_bool",
	xIsNull:                     "qjs_is_null",
	xGetBool:                    "qjs_get_bool",
	xGetTrue:                    "qjs_get_true",
	xGetFalse:                   "qjs_get_false",
	xDefinePropString:           "qjs_define_prop_string",
	xGetValuePtr:                "qjs_get_value_ptr",
	xSetPromiseRejectionHandler: "qjs_set_promise_rejection_handler",
}

var requiredExports = exportNames[:]

// maxDepth bounds guest -> host -> guest nesting. Each level owns its own set
// of api.Function values (and so its own machine stack), because re-entering
// an api.Function that is already on the stack crashes the process.
const maxDepth = 16

// frame is the set of export functions used at one nesting depth, created
// lazily: most VMs only ever need a handful of exports at depth one.
type frame struct {
	fns   [numExports]api.Function
	stack [6]uint64
}
