// The code-mode controller: the guest half of the host bridge. It is
// evaluated once in every fresh VM, before any run data or model code, and
// captures every intrinsic it relies on so that model code cannot tamper
// with the bridge by patching globals or prototypes.
//
// Host -> guest entry points (non-writable, non-enumerable globals):
//   __openclawConfigure(json)   install the run's globals (once per VM)
//   __openclawStart(fn)         run the model's async function
//   __openclawSettle(id, ok, s) settle a bridge request (s: JSON value or error message)
//   __openclawState()           JSON: {done, ok, value?, error?}
//   __openclawTakeOutput()      JSON: output items produced since the last take
// Guest -> host: __openclawHostRequest(method, argsJson, id), captured here
// and removed from globalThis before model code runs.
(() => {
  "use strict";
  const G = globalThis;
  const hostRequest = G.__openclawHostRequest;
  const hostRandom = G.__openclawRandom;
  delete G.__openclawHostRequest;
  delete G.__openclawRandom;

  const { stringify, parse } = JSON;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const ownKeys = Object.keys;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const StringCtor = String;
  const promiseThen = Promise.prototype.then;
  const objectToString = Object.prototype.toString;
  const stringStartsWith = String.prototype.startsWith;
  const stringSplit = String.prototype.split;
  const stringSlice = String.prototype.slice;

  const hidden = (name, value) =>
    defineProperty(G, name, { value, writable: false, enumerable: false, configurable: false });

  defineProperty(Math, "random", {
    value: function random() {
      return hostRandom();
    },
    writable: true,
    enumerable: false,
    configurable: true,
  });

  let maxOutputBytes = 65536;
  const outputs = [];
  let outputBytes = 2;
  let outputOverflow = false;
  let taken = 0;

  // safe is the JSON adapter for text(), json() and bridge arguments.
  function safe(v) {
    if (v === undefined) return null;
    try {
      const s = stringify(v);
      return s === undefined ? null : parse(s);
    } catch (e) {
      if (v instanceof ErrorCtor) return { name: StringCtor(v.name), message: StringCtor(v.message) };
      const t = typeof v;
      if (t === "string" || t === "number" || t === "boolean") return v;
      try {
        return StringCtor(v);
      } catch (e2) {
        return apply(objectToString, v, []);
      }
    }
  }

  // finalJSON is the host-side adapter for the final value, applied in the
  // guest so that only JSON text crosses the bridge.
  function finalJSON(v) {
    if (v === undefined) return "null";
    try {
      const s = stringify(v);
      return s === undefined ? "null" : s;
    } catch (e) {
      let fallback;
      if (v instanceof ErrorCtor) fallback = { name: StringCtor(v.name), message: StringCtor(v.message) };
      else {
        const t = typeof v;
        if (t === "bigint" || t === "symbol" || t === "function") fallback = StringCtor(v);
        else fallback = apply(objectToString, v, []);
      }
      return stringify(fallback);
    }
  }

  // pushOutput stores one output item as JSON text. The host does the exact
  // byte accounting; the guest only stops storing far beyond any limit so a
  // flood cannot exhaust the heap before the host sees it.
  function pushOutput(item) {
    if (outputOverflow) return;
    const s = stringify(item);
    outputBytes += s.length + 1;
    if (outputBytes > maxOutputBytes * 4 + 4096) {
      outputOverflow = true;
      return;
    }
    outputs[outputs.length] = s;
  }

  function text(value) {
    pushOutput({ type: "text", text: typeof value === "string" ? value : stringify(safe(value)) });
  }

  function json(value) {
    pushOutput({ type: "json", value: safe(value) });
  }

  const seq = create(null);
  const pending = create(null);

  function request(method, args) {
    const n = (seq[method] || 0) + 1;
    seq[method] = n;
    const id = "bridge:" + method + ":" + n;
    hostRequest(method, stringify(safe(args)), id);
    return new PromiseCtor((resolve, reject) => {
      pending[id] = { resolve, reject };
    });
  }

  hidden("__openclawSettle", function settle(id, ok, payload) {
    const p = pending[id];
    if (p === undefined) return;
    delete pending[id];
    if (ok === "1") p.resolve(parse(payload));
    else p.reject(new ErrorCtor(payload));
  });

  hidden("__openclawTakeOutput", function takeOutput() {
    const items = [];
    for (let i = taken; i < outputs.length; i++) items[items.length] = outputs[i];
    taken = outputs.length;
    return stringify({ items, overflow: outputOverflow });
  });

  let done = false;
  let ok = false;
  let value;
  let error;

  hidden("__openclawStart", function start(fn) {
    let p;
    try {
      p = fn();
    } catch (e) {
      done = true;
      error = e;
      return;
    }
    apply(promiseThen, p, [
      (v) => {
        done = true;
        ok = true;
        value = v;
      },
      (e) => {
        done = true;
        error = e;
      },
    ]);
  });

  function describeError(e) {
    if (e instanceof ErrorCtor) {
      let name = "Error";
      let message = "";
      let stack = "";
      try {
        name = StringCtor(e.name);
      } catch (x) {}
      try {
        message = StringCtor(e.message);
      } catch (x) {}
      try {
        stack = typeof e.stack === "string" ? e.stack : "";
      } catch (x) {}
      return { name, message, stack, isError: true };
    }
    let message;
    try {
      message = StringCtor(e);
    } catch (x) {
      message = apply(objectToString, e, []);
    }
    return { name: "", message, stack: "", isError: false };
  }

  hidden("__openclawState", function state() {
    if (!done) return '{"done":false}';
    if (ok) return '{"done":true,"ok":true,"value":' + finalJSON(value) + "}";
    return stringify({ done: true, ok: false, error: describeError(error) });
  });

  function deepFreeze(v) {
    if (v !== null && typeof v === "object") {
      freeze(v);
      const keys = ownKeys(v);
      for (let i = 0; i < keys.length; i++) deepFreeze(v[keys[i]]);
    }
    return v;
  }

  function constant(name, value) {
    defineProperty(G, name, { value, writable: false, enumerable: false, configurable: false });
  }

  function invalidPath(path) {
    if (typeof path !== "string") return true;
    const segs = apply(stringSplit, path, ["/"]);
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if (s === "" || s === "." || s === "..") return true;
    }
    return false;
  }

  defineProperty(G, "__openclawConfigure", { writable: false, enumerable: false, configurable: true, value: function configure(configJSON) {
    const cfg = parse(configJSON);
    maxOutputBytes = cfg.maxOutputBytes;

    const catalog = deepFreeze(cfg.tools);
    const search = async function search(query, options) {
      if (typeof query !== "string") throw new ErrorCtor("search query must be a string.");
      let limit = null;
      if (options !== undefined && options !== null) {
        const l = options.limit;
        if (l !== undefined) {
          if (typeof l !== "number" || !(l > 0) || l % 1 !== 0) throw new ErrorCtor("limit must be a positive integer.");
          limit = l;
        }
      }
      return request("search", { query, limit });
    };
    const describe = async function describe(id) {
      if (typeof id !== "string") throw new ErrorCtor("describe id must be a string.");
      return request("describe", { id });
    };
    const call = async function call(id, input) {
      if (typeof id !== "string") throw new ErrorCtor("call id must be a string.");
      return request("call", { id, input: input === undefined ? {} : input });
    };
    const callValue = async function callValue(id, input) {
      if (typeof id !== "string") throw new ErrorCtor("callValue id must be a string.");
      return request("callValue", { id, input: input === undefined ? {} : input });
    };
    const tools = { search, describe, call, callValue };
    const convenience = cfg.convenience;
    for (let i = 0; i < convenience.length; i++) {
      const id = convenience[i].id;
      defineProperty(tools, convenience[i].name, {
        value: async function (input) {
          return callValue(id, input);
        },
        enumerable: true,
      });
    }
    freeze(tools);

    const files = cfg.apiFiles;
    const API = freeze({
      list: async function list(prefix) {
        let p = prefix === undefined || prefix === null ? "" : StringCtor(prefix);
        while (apply(stringStartsWith, p, ["/"])) p = apply(stringSlice, p, [1]);
        while (p.length > 0 && p[p.length - 1] === "/") p = apply(stringSlice, p, [0, -1]);
        const out = [];
        for (let i = 0; i < files.length; i++) {
          const f = files[i];
          if (p === "" || f.path === p || apply(stringStartsWith, f.path, [p + "/"])) {
            out[out.length] = { path: f.path, description: f.description, bytes: f.bytes };
          }
        }
        return { files: out };
      },
      read: async function read(path) {
        let p = path;
        if (typeof p === "string") while (apply(stringStartsWith, p, ["/"])) p = apply(stringSlice, p, [1]);
        if (invalidPath(p)) throw new ErrorCtor("invalid API file path");
        for (let i = 0; i < files.length; i++) {
          const f = files[i];
          if (f.path === p) return freeze({ path: f.path, content: f.content, description: f.description, bytes: f.bytes });
        }
        throw new ErrorCtor("Unknown API file: " + p);
      },
    });

    const namespaceObjects = create(null);
    const nsList = cfg.namespaces;
    for (let i = 0; i < nsList.length; i++) {
      const ns = nsList[i];
      namespaceObjects[ns.globalName] = buildNamespace(ns);
    }
    const namespaces = freeze(Object.assign({}, namespaceObjects));

    constant("ALL_TOOLS", catalog);
    constant("tools", tools);
    constant("API", API);
    constant("namespaces", namespaces);
    constant("text", text);
    constant("json", json);
    constant("yield_control", async function yield_control(reason) {
      return request("yield", { reason: reason === undefined ? null : reason });
    });
    const globalNames = ownKeys(namespaceObjects);
    for (let i = 0; i < globalNames.length; i++) {
      const name = globalNames[i];
      const d = Object.getOwnPropertyDescriptor(G, name);
      if (d !== undefined && !d.configurable) continue;
      defineProperty(G, name, { value: namespaceObjects[name], writable: false, enumerable: false, configurable: true });
    }
    delete G.__openclawConfigure;
  } });

  // buildNamespace turns a namespace descriptor into frozen guest objects.
  // A descriptor node is {kind: "object", members: {name: node}} or
  // {kind: "call", path: "a.b"} or {kind: "value", value: json}.
  function buildNamespace(ns) {
    const build = (node) => {
      if (node.kind === "call") {
        const path = node.path;
        const nsId = ns.id;
        return async function () {
          const args = [];
          for (let i = 0; i < arguments.length; i++) args[i] = arguments[i] === undefined ? null : arguments[i];
          return request("namespace", { namespace: nsId, path, args, argc: arguments.length });
        };
      }
      if (node.kind === "value") return deepFreeze(node.value);
      const obj = {};
      const names = ownKeys(node.members);
      for (let i = 0; i < names.length; i++) {
        defineProperty(obj, names[i], { value: build(node.members[names[i]]), enumerable: true });
      }
      return freeze(obj);
    };
    return build(ns.root);
  }
})();
