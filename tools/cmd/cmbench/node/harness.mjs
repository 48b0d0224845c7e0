// The Node side of cmbench: one long-lived process that reads requests as
// JSON lines on stdin and answers each with one JSON line on stdout. Every
// answer carries "ms", this process's own timing of the request (from
// performance.now() after the line is parsed to before the answer is
// written), which cmbench reports as the Node figure.
//
// It runs quickjs-wasi the way OpenClaw 2026.8.1-beta.1 does: the wasm is
// compiled once per process, every exec or resume leg runs in a fresh
// worker thread (worker.mjs) that is terminated when the leg ends, a leg
// that ends with bridge requests pending serializes a snapshot, and the
// host answers the requests and starts the next leg from that snapshot.
// A leg ending with only yield requests parks the run (the snapshot bytes
// in a Map); wait restores it in a new worker.
//
// Usage: node --expose-gc harness.mjs <quickjs-wasi package dir>
import { Worker } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createInterface } from "node:readline";
import { search, buildIndex } from "./search.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.argv[2];
if (!pkg) {
  process.stderr.write("usage: node harness.mjs <quickjs-wasi package dir>\n");
  process.exit(2);
}
const qjsURL = pathToFileURL(join(pkg, "dist", "index.js")).href;
const module = await WebAssembly.compile(readFileSync(join(pkg, "quickjs.wasm")));
const controller = readFileSync(join(here, "controller.js"), "utf8");
const workerURL = new URL("./worker.mjs", import.meta.url);

const TIMEOUT_MS = 30000;
const MEMORY_LIMIT = 64 * 1024 * 1024;
// maxSnapshotBytes as cmbench configures the reference (64 MiB, up from
// OpenClaw's default 10 MiB, which 10,000 tools in ALL_TOOLS exceed).
const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
const catalogs = new Map(); // key -> { json, index }
const runs = new Map();     // runId -> { snapshot, requests, catalog }
let nextRun = 0;

function leg(data) {
  return new Promise((resolve, reject) => {
    const transfer = data.snapshot ? [data.snapshot.buffer] : [];
    const w = new Worker(workerURL, {
      workerData: { qjsURL, module, controller, timeoutMs: TIMEOUT_MS, memoryLimit: MEMORY_LIMIT, ...data },
      transferList: transfer,
    });
    let settled = false;
    const timer = setTimeout(() => finish(new Error("code mode worker timeout exceeded")), TIMEOUT_MS + 2000);
    function finish(err, msg) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      w.terminate(); // in finally, as OpenClaw does; not awaited
      if (err) reject(err); else resolve(msg);
    }
    w.once("message", (msg) => finish(null, msg));
    w.once("error", (e) => finish(e));
    w.once("exit", (code) => finish(new Error("code mode worker exited with code " + code + " before returning a result")));
  });
}

// The host tools: the nested-call workloads call one that returns at once.
function answer(req, catalog) {
  const args = JSON.parse(req.args);
  switch (req.method) {
    case "callValue":
    case "call":
      if (args.id !== "openclaw:core:noop") return { ok: false, json: JSON.stringify("Unknown tool id: " + args.id) };
      return { ok: true, json: req.method === "call" ? JSON.stringify({ result: { ok: true } }) : JSON.stringify({ ok: true }) };
    case "search":
      return { ok: true, json: JSON.stringify(search(catalog.index, args.query, args.limit)) };
    default:
      return { ok: false, json: JSON.stringify("unsupported code mode bridge method") };
  }
}

// drive runs legs until the run completes or only yields are pending.
async function drive(first, catalog) {
  let res = await leg(first);
  let legs = 1;
  let vmMs = res.vmMs || 0;
  for (;;) {
    if (res.done) return { status: res.ok ? "completed" : "failed", value: res.value, legs, vmMs };
    if (res.snapshot.byteLength > MAX_SNAPSHOT_BYTES) return { status: "failed", value: "code mode snapshot limit exceeded", legs, vmMs };
    if (res.requests.every((r) => r.method === "yield")) {
      const runId = "cm_" + ++nextRun;
      runs.set(runId, { snapshot: res.snapshot, requests: res.requests, catalog });
      return { status: "waiting", runId, legs, vmMs, snapshotBytes: res.snapshot.byteLength };
    }
    const settlements = res.requests.map((r) => ({ id: r.id, ...answer(r, catalog) }));
    res = await leg({ mode: "resume", snapshot: res.snapshot, settlements });
    legs++;
    vmMs += res.vmMs || 0;
  }
}

function catalogOf(key) {
  const c = catalogs.get(key || "");
  if (!c) throw new Error("unknown catalog " + JSON.stringify(key));
  return c;
}

async function exec(code, key) {
  const catalog = catalogOf(key);
  return drive({ mode: "exec", code, catalogJSON: catalog.json }, catalog);
}

async function wait(runId) {
  const run = runs.get(runId);
  if (!run) throw new Error("code mode run is unavailable or expired.");
  runs.delete(runId);
  const settlements = run.requests.map((r) => ({ id: r.id, ok: true, json: JSON.stringify({ status: "yielded" }) }));
  return drive({ mode: "resume", snapshot: run.snapshot, settlements }, run.catalog);
}

// rss is the resident set after worker teardown and two full GCs.
async function rss() {
  await new Promise((r) => setTimeout(r, 50));
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().rss;
}

const AsyncFunction = (async () => {}).constructor;

async function handle(req) {
  switch (req.op) {
    case "catalog": {
      const json = JSON.stringify(req.tools);
      catalogs.set(req.key, { json, index: buildIndex(req.tools) });
      return { tools: req.tools.length };
    }
    case "exec":
      return exec(req.code, req.catalog);
    case "yieldwait": {
      const t0 = performance.now();
      const s = await exec(req.code, req.catalog);
      const t1 = performance.now();
      if (s.status !== "waiting") return { error: "exec did not suspend: " + JSON.stringify(s) };
      const r = await wait(s.runId);
      const t2 = performance.now();
      return { ...r, snapshotBytes: s.snapshotBytes, parts: { suspend: t1 - t0, resume: t2 - t1 } };
    }
    case "v8": {
      // The same JavaScript, run directly by Node's V8 (no wasm at all).
      const value = await new AsyncFunction(req.code)();
      return { status: "completed", value };
    }
    case "suspended": {
      // Holds req.runs suspended runs at once; the resident-memory delta
      // is read at each checkpoint (after 8, 16, 32, ... runs).
      for (const id of runs.keys()) runs.delete(id);
      const r0 = await rss();
      const curve = {};
      let bytes = 0;
      for (let i = 1; i <= req.runs; i++) {
        const s = await exec(req.code, req.catalog);
        if (s.status !== "waiting") return { error: "exec did not suspend: " + JSON.stringify(s) };
        bytes += s.snapshotBytes;
        if ((req.checkpoints || []).includes(i)) curve[i] = (await rss()) - r0;
      }
      const r1 = await rss();
      const held = runs.size;
      for (const id of runs.keys()) runs.delete(id);
      return { status: "completed", value: held, rssDelta: r1 - r0, snapshotBytes: bytes / req.runs, curve };
    }
    case "concurrent": {
      let next = 0, failed = 0;
      const t0 = performance.now();
      async function lane() {
        while (next < req.cells) {
          next++;
          const r = await exec(req.code, req.catalog);
          if (r.status !== "completed") failed++;
        }
      }
      await Promise.all(Array.from({ length: req.concurrency }, lane));
      const s = (performance.now() - t0) / 1000;
      return { status: failed ? "failed" : "completed", value: req.cells - failed, cellsPerSec: req.cells / s };
    }
    default:
      return { error: "unknown op " + JSON.stringify(req.op) };
  }
}

catalogs.set("", { json: "[]", index: buildIndex([]) });
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
process.stdout.write(JSON.stringify({ ready: true, node: process.version }) + "\n");
for await (const line of rl) {
  if (!line.trim()) continue;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: "bad request: " + e.message }) + "\n");
    continue;
  }
  if (req.op === "quit") break;
  const t0 = performance.now();
  let out;
  try {
    out = await handle(req);
  } catch (e) {
    out = { error: String(e && e.message || e) };
  }
  out.ms = performance.now() - t0;
  out.seq = req.seq;
  process.stdout.write(JSON.stringify(out) + "\n");
}
process.exit(0);
