// The code-mode controller: the guest half of the host bridge. It is
// evaluated once in every fresh VM, before any run data or model code. It
// captures every intrinsic it relies on, so model code cannot reach the
// bridge by patching globals or prototypes, and it leaves no bridge global
// behind: its completion value is the only way in, and only the host holds
// it.
//
// Host -> guest (methods of the completion value):
//   catalog(json)        install ALL_TOOLS and tools (once per VM, before
//                        configure; a pooled VM may get them before its
//                        run exists)
//   configure(json)      install the run's other globals (once per VM)
//   start(fn)            run the model's async function
//   settle(id, ok, s)    settle a bridge request (s: JSON value, or error message)
//   poll()               JSON {items, overflow, state}: the output items
//                        produced since the last poll (each item's own JSON
//                        text, not re-quoted), whether output passed
//                        maxOutputBytes, and the state when computing it runs
//                        no model code: {done:false}, {done:true, ok:true,
//                        value} for a primitive value, else {done:true, ok}
//                        and the host asks value() or error()
//   value()              the final value's JSON text (host adapter)
//   error()              JSON {isError, name, message, stack} of the value the
//                        model's function threw
// Guest -> host: __openclawHostRequest(method, argsJson, id) and
// __openclawRandom(), captured here and deleted from globalThis.
//
// Every JSON text the controller hands to the host is built here from
// primitive strings quoted by the captured JSON.stringify (which looks up
// no toJSON for a primitive), and its own records are objects without a
// prototype: model code that patches prototypes (a toJSON, a setter for
// "0") can change its own values, never the shape of the messages.
(() => {
  "use strict";
  const G = globalThis;
  const hostRequest = G.__openclawHostRequest;
  const hostRandom = G.__openclawRandom;
  const hostNote = G.__openclawSwarmNote;
  delete G.__openclawHostRequest;
  delete G.__openclawRandom;
  delete G.__openclawSwarmNote;
  // No shared memory: Atomics.wait must never block the VM (CM-18.16).
  delete G.SharedArrayBuffer;
  // No V8-style stack-trace hook: the engine would hand it CallSite objects
  // whose getFunction() returns every function on the stack, including
  // __openclawHostRequest, request and settle (CM-10.7). Error.stack stays a
  // plain string of guest frames.
  Object.defineProperty(G.Error, "prepareStackTrace", {
    value: undefined,
    writable: false,
    enumerable: false,
    configurable: false,
  });

  const { stringify, parse } = JSON;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const ownKeys = Object.keys;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const StringCtor = String;
  const promiseThen = Promise.prototype.then;
  const promiseFinally = Promise.prototype.finally;
  const objectToString = Object.prototype.toString;
  const stringStartsWith = String.prototype.startsWith;
  const stringSplit = String.prototype.split;
  const stringSlice = String.prototype.slice;
  const stringTrim = String.prototype.trim;
  const arraySlice = Array.prototype.slice;

  defineProperty(Math, "random", {
    value: function random() {
      return hostRandom();
    },
    writable: true,
    enumerable: false,
    configurable: true,
  });

  // safeJSON is the JSON text of the guest adapter's result (SPEC.md
  // section 7.3), for text(), json(), yield reasons and bridge arguments:
  // JSON.stringify's text of v when there is one (parsing it and writing it
  // again gives the same text), else the text of the fallback.
  function safeJSON(v) {
    if (v === undefined) return "null";
    let s;
    try {
      s = stringify(v);
    } catch (e) {
      s = undefined;
    }
    if (s !== undefined) return s;
    if (v instanceof ErrorCtor) {
      return '{"name":' + stringify(StringCtor(v.name)) + ',"message":' + stringify(StringCtor(v.message)) + "}";
    }
    try {
      return stringify(StringCtor(v));
    } catch (e) {
      return stringify(apply(objectToString, v, []));
    }
  }

  // finalJSON applies the host adapter to the final value, in the guest, so
  // only JSON text crosses the bridge.
  function finalJSON(v) {
    if (v === undefined || v === null) return "null";
    // A number (finite: v - v is 0) or a boolean as JSON.stringify writes
    // it, without the stringify machinery: most cells end so.
    const t0 = typeof v;
    if (t0 === "number") return v - v === 0 ? "" + v : "null";
    if (t0 === "boolean") return v ? "true" : "false";
    try {
      const s = stringify(v);
      return s === undefined ? "null" : s;
    } catch (e) {
      if (v instanceof ErrorCtor) return stringify({ name: StringCtor(v.name), message: StringCtor(v.message) });
      const t = typeof v;
      if (t === "bigint" || t === "symbol" || t === "function") return stringify(StringCtor(v));
      return stringify(apply(objectToString, v, []));
    }
  }

  // Output items are kept as their JSON texts. The host does the exact
  // byte accounting; the guest stops storing as soon as the cumulative
  // array's length in UTF-16 code units passes maxOutputBytes: no UTF-8
  // text is shorter in bytes than in code units, so the output is then
  // certainly over the limit, and a flood cannot fill the heap first.
  let maxOutputBytes = 0; // configure sets it from the host's settings; before that nothing is stored
  const outputs = create(null);
  let outputCount = 0;
  let outputUnits = 2;
  let outputOverflow = false;
  let taken = 0;

  function pushOutput(item) {
    if (outputOverflow) return;
    outputUnits += item.length + (outputCount > 0 ? 1 : 0);
    if (outputUnits > maxOutputBytes) {
      outputOverflow = true;
      return;
    }
    outputs[outputCount] = item;
    outputCount++;
  }

  function text(value) {
    pushOutput('{"type":"text","text":' + stringify(typeof value === "string" ? value : safeJSON(value)) + "}");
  }

  function json(value) {
    pushOutput('{"type":"json","value":' + safeJSON(value) + "}");
  }

  const seq = create(null);
  const pending = create(null);

  // request issues a bridge request; argsJSON is its arguments' JSON text.
  function request(method, argsJSON) {
    const n = (seq[method] || 0) + 1;
    seq[method] = n;
    const id = "bridge:" + method + ":" + n;
    hostRequest(method, argsJSON, id);
    return new PromiseCtor((resolve, reject) => {
      pending[id] = { resolve, reject };
    });
  }

  function describeError(e) {
    if (e !== null && typeof e === "object") {
      let name;
      let message;
      try {
        name = e.name;
        message = e.message;
      } catch (x) {}
      if (typeof name === "string" && typeof message === "string") {
        let stack = "";
        try {
          stack = typeof e.stack === "string" ? e.stack : "";
        } catch (x) {}
        return { name, message, stack, isError: true };
      }
    }
    let message;
    try {
      message = StringCtor(e);
    } catch (x) {
      message = apply(objectToString, e, []);
    }
    return { name: "", message, stack: "", isError: false };
  }

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
    const segs = apply(stringSplit, path, ["/"]);
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if (s === "" || s === "." || s === "..") return true;
    }
    return false;
  }

  // buildNamespace turns a namespace descriptor into frozen guest objects. A
  // node is {kind: "object", members: {...}}, {kind: "call", path: "a.b"} or
  // {kind: "value", value: json}.
  function buildNamespace(ns) {
    const nsId = ns.id;
    const build = (node) => {
      if (node.kind === "call") {
        const path = node.path;
        return async function () {
          const args = apply(arraySlice, arguments, []);
          return request(
            "namespace",
            '{"namespace":' + stringify(nsId) + ',"path":' + stringify(path) + ',"args":' + safeJSON(args) + ',"argc":' + arguments.length + "}",
          );
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

  let catalogInstalled = false;

  // catalog installs ALL_TOOLS and the tools object, which depend on the
  // catalog alone ({tools, convenience}).
  function catalog(catalogJSON) {
    if (catalogInstalled) throw new ErrorCtor("catalog already installed");
    catalogInstalled = true;
    const cat = parse(catalogJSON);

    const search = async function search(query, options) {
      if (typeof query !== "string") throw new ErrorCtor("search query must be a string.");
      let limit = null;
      if (options !== undefined && options !== null && options.limit !== undefined) {
        const l = options.limit;
        if (typeof l !== "number" || !(l >= 1) || l % 1 !== 0) throw new ErrorCtor("limit must be a positive integer.");
        limit = l;
      }
      return request("search", '{"query":' + stringify(query) + ',"limit":' + (limit === null ? "null" : "" + limit) + "}");
    };
    const describe = async function describe(id) {
      if (typeof id !== "string") throw new ErrorCtor("describe id must be a string.");
      return request("describe", '{"id":' + stringify(id) + "}");
    };
    const call = async function call(id, input) {
      if (typeof id !== "string") throw new ErrorCtor("call id must be a string.");
      return request("call", '{"id":' + stringify(id) + ',"input":' + (input === undefined ? "{}" : safeJSON(input)) + "}");
    };
    const callValue = async function callValue(id, input) {
      if (typeof id !== "string") throw new ErrorCtor("callValue id must be a string.");
      return request("callValue", '{"id":' + stringify(id) + ',"input":' + (input === undefined ? "{}" : safeJSON(input)) + "}");
    };
    // The input goes through the guest adapter on its own, so a hostile
    // input (a throwing getter, a cycle, a Proxy trap) cannot take the id
    // of the request down with it (CM-7.17, CM-10.15).
    const tools = { search, describe, call, callValue };
    // A convenience function calls by name: the name is unique, and a call
    // made by name is never replay-safe (CM-9.7).
    const convenience = cat.convenience;
    for (let i = 0; i < convenience.length; i++) {
      const name = convenience[i].name;
      defineProperty(tools, name, {
        value: async function (input) {
          return callValue(name, input);
        },
        enumerable: true,
      });
    }
    if (cat.surface === "toolSearchCode") {
      installToolSearchCode(search, describe, call);
      return;
    }
    constant("ALL_TOOLS", deepFreeze(cat.tools));
    constant("tools", freeze(tools));
  }

  // toolSearchCode is set for a run of Tool Search's tool_search_code: its
  // program sees openclaw.tools and console, and configure installs
  // nothing else (SPEC.md chapter 24).
  let toolSearchCode = false;

  // installToolSearchCode defines the openclaw and console globals of a
  // tool_search_code run; each console call adds one log line.
  function installToolSearchCode(search, describe, call) {
    toolSearchCode = true;
    // A request starts when its handle is first awaited (then, catch or
    // finally): a call nobody awaits never runs, as in OpenClaw.
    const lazy = (begin) => {
      let p;
      const started = () => (p === undefined ? (p = begin()) : p);
      return freeze({
        then: function then(onFulfilled, onRejected) {
          return apply(promiseThen, started(), [onFulfilled, onRejected]);
        },
        catch: function (onRejected) {
          return apply(promiseThen, started(), [undefined, onRejected]);
        },
        finally: function (onFinally) {
          return apply(promiseFinally, started(), [onFinally]);
        },
      });
    };
    const openclawTools = freeze({
      // Only a numeric options.limit counts; any other value searches
      // with the default limit, as OpenClaw's bridge does (CM-24.40).
      search: function (query, options) {
        const limit = options === null || options === undefined ? undefined : options.limit;
        return lazy(() => search(query, typeof limit === "number" ? { limit: limit } : undefined));
      },
      describe: function (id) {
        return lazy(() => describe(id));
      },
      call: function (id, input) {
        return lazy(() => call(id, input));
      },
    });
    const line = function () {
      let s = "";
      for (let i = 0; i < arguments.length; i++) {
        const v = arguments[i];
        s += (i > 0 ? " " : "") + (typeof v === "string" ? v : safeJSON(v));
      }
      text(s);
    };
    constant("openclaw", freeze({ tools: openclawTools }));
    const d = getOwnPropertyDescriptor(G, "console");
    if (d === undefined || d.configurable) constant("console", freeze({ log: line, warn: line, error: line }));
  }

  function configure(configJSON) {
    if (!catalogInstalled) throw new ErrorCtor("configure before catalog");
    const cfg = parse(configJSON);
    maxOutputBytes = cfg.maxOutputBytes;
    if (toolSearchCode) return;

    const files = cfg.apiFiles;
    const API = {
      list: async function list(prefix) {
        let p = prefix === undefined || prefix === null ? "" : StringCtor(prefix);
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
        if (typeof path !== "string") throw new ErrorCtor("invalid API file path");
        let p = path;
        if (apply(stringStartsWith, p, ["/"])) p = apply(stringSlice, p, [1]);
        if (invalidPath(p)) throw new ErrorCtor("invalid API file path");
        for (let i = 0; i < files.length; i++) {
          const f = files[i];
          if (f.path === p) return freeze({ path: f.path, content: f.content, description: f.description, bytes: f.bytes });
        }
        throw new ErrorCtor("Unknown API file: " + p);
      },
    };

    const globalsByName = create(null);
    let mcp = freeze({});
    const nsList = cfg.namespaces;
    for (let i = 0; i < nsList.length; i++) {
      const ns = nsList[i];
      const obj = buildNamespace(ns);
      if (ns.globalName === "MCP") mcp = obj;
      else globalsByName[ns.globalName] = obj;
    }
    const namespaces = {};
    const names = ownKeys(globalsByName);
    for (let i = 0; i < names.length; i++) namespaces[names[i]] = globalsByName[names[i]];

    constant("MCP", mcp);
    constant("namespaces", freeze(namespaces));
    constant("API", freeze(API));
    constant("text", text);
    constant("json", json);
    constant("yield_control", async function yield_control(reason) {
      return request("yield", '{"reason":' + (reason === undefined ? "null" : safeJSON(reason)) + "}");
    });
    for (let i = 0; i < names.length; i++) {
      const d = getOwnPropertyDescriptor(G, names[i]);
      if (d !== undefined && !d.configurable) continue;
      constant(names[i], globalsByName[names[i]]);
    }
    if (cfg.swarm) installSwarm(cfg.swarm);
  }

  // installSwarm defines agents.run, phase and log (SPEC.md chapter 23).
  function installSwarm(swarm) {
    const run = async function run(prompt, options) {
      if (typeof prompt !== "string" || apply(stringTrim, prompt, []) === "") {
        throw new ErrorCtor("agents.run prompt must be a non-empty string");
      }
      if (!swarm.spawn) throw new ErrorCtor("agents.run requires the sessions_spawn tool.");
      const o = options !== null && typeof options === "object" ? options : {};
      const picked = {};
      const known = ["label", "model", "thinking", "fastMode", "agentId", "phase"];
      for (let i = 0; i < known.length; i++) {
        const v = o[known[i]];
        if (v !== undefined) defineProperty(picked, known[i], { value: v, writable: true, enumerable: true, configurable: true });
      }
      const spawned = await request("agentSpawn", '{"prompt":' + stringify(prompt) + ',"options":' + safeJSON(picked) + "}");
      const schema = o.schema !== undefined && o.schema !== null;
      return request("agentWait", '{"spawned":' + safeJSON(spawned) + ',"schema":' + (schema ? "true" : "false") + "}");
    };
    constant("agents", freeze({ run }));
    constant("phase", function phase(title) {
      hostNote("phase", apply(stringSlice, StringCtor(title), [0, 2000]));
    });
    constant("log", function log(message) {
      hostNote("log", apply(stringSlice, StringCtor(message), [0, 2000]));
    });
  }

  let started = false;
  let done = false;
  let ok = false;
  let result;
  let thrown;

  function start(fn) {
    if (started) return;
    started = true;
    let p;
    try {
      p = fn();
    } catch (e) {
      done = true;
      thrown = e;
      return;
    }
    apply(promiseThen, p, [
      (v) => {
        done = true;
        ok = true;
        result = v;
      },
      (e) => {
        done = true;
        thrown = e;
      },
    ]);
  }

  function settle(id, okFlag, payload) {
    const p = pending[id];
    if (p === undefined) return;
    delete pending[id];
    if (okFlag === "1") p.resolve(parse(payload));
    else p.reject(new ErrorCtor(payload === "" ? "nested tool failed" : payload));
  }

  // value is the final value's JSON text (host adapter); it may run model
  // code (a toJSON, a getter).
  function value() {
    return finalJSON(result);
  }

  // error describes the value the model's function threw; reading its name,
  // message and stack may run model code (getters).
  function error() {
    const d = describeError(thrown);
    return (
      '{"isError":' + (d.isError ? "true" : "false") + ',"name":' + stringify(d.name) + ',"message":' + stringify(d.message) +
      ',"stack":' + stringify(d.stack) + "}"
    );
  }

  // poll takes the output produced since the last poll and, in the same
  // call, the state, as far as computing it runs no model code: a number,
  // a boolean, null, undefined or a string of at most maxOutputBytes code
  // units is written inline; any other value, and an error, is left to
  // value() and error(), which the host calls once it holds the output, so
  // that model code they run and the deadline stops never takes the output
  // with it.
  function poll() {
    let items = "";
    for (let i = taken; i < outputCount; i++) items += (i > taken ? "," : "") + outputs[i];
    taken = outputCount;
    let st;
    if (!done) st = '{"done":false}';
    else if (!ok) st = '{"done":true,"ok":false}';
    else {
      const t = typeof result;
      if (result === undefined || result === null || t === "number" || t === "boolean" || (t === "string" && result.length <= maxOutputBytes)) {
        st = '{"done":true,"ok":true,"value":' + finalJSON(result) + "}";
      } else st = '{"done":true,"ok":true}';
    }
    return '{"items":[' + items + '],"overflow":' + (outputOverflow ? "true" : "false") + ',"state":' + st + "}";
  }

  return freeze({ catalog, configure, start, settle, poll, value, error });
})();
