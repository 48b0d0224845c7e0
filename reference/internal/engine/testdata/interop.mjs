// Restores a snapshot written by the Go engine with the real quickjs-wasi
// package, prints bump(), then writes a snapshot made by Node for Go to read.
// Usage: node interop.mjs <index.js URL> <quickjs.wasm> <go.qjss> <node.qjss out>
import { readFileSync, writeFileSync } from "node:fs";

const [pkgURL, wasmPath, goSnap, nodeSnapOut] = process.argv.slice(2);
const { QuickJS } = await import(pkgURL);
const wasm = await WebAssembly.compile(readFileSync(wasmPath));

const restored = await QuickJS.restore(QuickJS.deserializeSnapshot(new Uint8Array(readFileSync(goSnap))), { wasm });
const bumped = restored.evalCode("bump()");
console.log(bumped.toString());
bumped.dispose();

const vm = await QuickJS.create({ wasm });
vm.evalCode(`globalThis.counter = 7; globalThis.nodeBump = () => JSON.stringify({from: "node", n: ++counter})`).dispose();
writeFileSync(nodeSnapOut, QuickJS.serializeSnapshot(vm.snapshot()));
