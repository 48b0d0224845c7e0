// The guest controller of the Node harness: a minimal stand-in for
// OpenClaw's (src/agents/code-mode.worker.ts, Era B). Its completion value
// is the controller object; the worker keeps it as globalThis.__cm. Bridge
// requests go through the host function __openclawHostRequest(method,
// argsJSON, id), which the controller captures and deletes from globalThis;
// the host settles them with __cm.settle(id, ok, json) in a later leg.
(function () {
  const host = globalThis.__openclawHostRequest;
  delete globalThis.__openclawHostRequest;
  const parse = JSON.parse, stringify = JSON.stringify;
  const pending = new Map();
  const seq = {};
  function request(method, args) {
    const n = (seq[method] = (seq[method] || 0) + 1);
    const id = "bridge:" + method + ":" + n;
    host(method, stringify(args === undefined ? null : args), id);
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  function deepFreeze(v) {
    if (v && typeof v === "object") {
      for (const k of Object.keys(v)) deepFreeze(v[k]);
      Object.freeze(v);
    }
    return v;
  }
  const tools = Object.freeze({
    search: (query, options) => request("search", { query, limit: options && options.limit ? options.limit : 8 }),
    callValue: (id, input) => request("callValue", { id, input: input === undefined ? {} : input }),
    call: (id, input) => request("call", { id, input: input === undefined ? {} : input }),
  });
  let done = false, ok = false, value = null;
  return {
    configure(catalogJSON) {
      Object.defineProperty(globalThis, "ALL_TOOLS", { value: deepFreeze(parse(catalogJSON)) });
      Object.defineProperty(globalThis, "tools", { value: tools });
      Object.defineProperty(globalThis, "yield_control", {
        value: async (reason) => request("yield", { reason: reason === undefined ? null : reason }),
      });
    },
    watch(p) {
      p.then((v) => { done = true; ok = true; value = v === undefined ? null : v; },
             (e) => { done = true; ok = false; value = String(e && e.message || e); });
    },
    settle(id, isOK, json) {
      const p = pending.get(id);
      if (!p) throw new Error("unknown bridge id " + id);
      pending.delete(id);
      const v = parse(json);
      if (isOK) p.resolve(v); else p.reject(new Error(String(v)));
    },
    state() {
      return stringify({ done, ok, value, pending: pending.size });
    },
  };
})()
