// One exec or resume leg, the way OpenClaw 2026.8.1-beta.1 runs quickjs-wasi
// (dist/agents/code-mode.worker.js): a fresh worker thread per leg, the wasm
// compiled once by the parent and passed in workerData, a new VM on exec or
// QuickJS.restore(QuickJS.deserializeSnapshot(bytes)) on resume, the host
// callback re-registered by name, and QuickJS.serializeSnapshot(vm.snapshot())
// when the leg ends with bridge requests pending.
import { parentPort, workerData } from "node:worker_threads";

const d = workerData;
const { QuickJS, EvalFlags } = await import(d.qjsURL);

const requests = [];

const deadline = Date.now() + d.timeoutMs;
const opts = {
  wasm: d.module,
  memoryLimit: d.memoryLimit,
  timezoneOffset: 0,
  interruptHandler: () => Date.now() >= deadline,
};

function evalString(vm, code) {
  const h = vm.evalCode(code);
  const s = h.toString();
  h.dispose();
  return s;
}

function drain(vm) {
  while (vm.executePendingJobs() > 0) { /* until the queue is empty */ }
}

// tVM starts when the model's code (or the settlements) go in: vmMs is the
// time inside the VM, without worker start, VM creation or snapshots.
let tVM = 0;
try {
  let vm;
  if (d.mode === "exec") {
    vm = await QuickJS.create(opts);
    const fn = vm.newFunction("__openclawHostRequest", function (method, args, id) {
      requests.push({ method: method.toString(), args: args.toString(), id: id.toString() });
      return vm.undefined;
    });
    vm.setProp(vm.global, "__openclawHostRequest", fn);
    fn.dispose();
    const cm = vm.evalCode(d.controller, "openclaw-code-mode:controller.js");
    vm.setProp(vm.global, "__cm", cm);
    cm.dispose();
    const catalog = vm.newString(d.catalogJSON);
    vm.setProp(vm.global, "__openclawCatalog", catalog);
    catalog.dispose();
    vm.evalCode("__cm.configure(__openclawCatalog); delete globalThis.__openclawCatalog;").dispose();
    tVM = performance.now();
    vm.evalCode("globalThis.__openclawResult = (async () => {\n" + d.code + "\n})(); __cm.watch(__openclawResult);",
      "openclaw-code-mode:user.js").dispose();
  } else {
    vm = await QuickJS.restore(QuickJS.deserializeSnapshot(d.snapshot), opts);
    vm.registerHostCallback("__openclawHostRequest", function (method, args, id) {
      requests.push({ method: method.toString(), args: args.toString(), id: id.toString() });
      return vm.undefined;
    });
    tVM = performance.now();
    for (const s of d.settlements) {
      vm.evalCode("__cm.settle(" + JSON.stringify(s.id) + "," + (s.ok ? "true" : "false") + "," +
        JSON.stringify(s.json) + ")").dispose();
    }
  }
  drain(vm);
  const vmMs = performance.now() - tVM;
  const state = JSON.parse(evalString(vm, "__cm.state()"));
  if (state.done || requests.length === 0) {
    vm.dispose();
    parentPort.postMessage({ done: true, ok: state.done && state.ok, value: state.done ? state.value : "promise is pending without host work", vmMs });
  } else {
    const bytes = QuickJS.serializeSnapshot(vm.snapshot());
    vm.dispose();
    parentPort.postMessage({ done: false, requests, snapshot: bytes, vmMs }, [bytes.buffer]);
  }
} catch (e) {
  parentPort.postMessage({ done: true, ok: false, value: String(e && e.message || e) });
}
