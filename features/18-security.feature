Feature: Limits and the sandbox security boundary
  SPEC chapter 18 and the sandbox test list SB-01 to SB-24 of Appendix C.5: hostile guest code
  stays inside the QuickJS realm, under its limits, without reaching host objects or other runs.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  @security @SB-01 @CM-10.1 @CM-10.6 @CM-10.7 @checklist-17
  Scenario: The guest global object holds only standard built-ins plus the code-mode globals
    When a turn starts
    And the model calls exec with:
      """js
      const standard = new Set([
        "AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "Atomics", "BigInt", "BigInt64Array",
        "BigUint64Array", "Boolean", "DataView", "Date", "DisposableStack", "Error", "EvalError",
        "FinalizationRegistry", "Float16Array", "Float32Array", "Float64Array", "Function", "Infinity",
        "Int16Array", "Int32Array", "Int8Array", "InternalError", "Intl", "Iterator", "JSON", "Map", "Math",
        "NaN", "Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp",
        "Set", "SharedArrayBuffer", "String", "SuppressedError", "Symbol", "SyntaxError", "TypeError",
        "URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef",
        "WeakSet", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval",
        "globalThis", "isFinite", "isNaN", "parseFloat", "parseInt", "undefined", "unescape",
        "DOMException", "atob", "btoa", "performance", "queueMicrotask",
      ]);
      const forbidden = [
        "console", "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate",
        "require", "module", "exports", "process", "fetch", "XMLHttpRequest", "WebSocket", "WebAssembly",
        "Deno", "Bun", "std", "os", "__openclawHostRequest", "__openclawRandom",
      ];
      const own = Object.getOwnPropertyNames(globalThis);
      return {
        extra: own.filter((name) => !standard.has(name)).sort(),
        forbiddenPresent: forbidden.filter((name) => typeof globalThis[name] !== "undefined"),
        bridgeGlobals: own.filter((name) => name.startsWith("__openclaw")),
      };
      """
    Then the result value is:
      """json
      {
        "extra": ["ALL_TOOLS", "API", "MCP", "json", "namespaces", "text", "tools", "yield_control"],
        "forbiddenPresent": [],
        "bridgeGlobals": []
      }
      """

  @security @SB-02 @CM-5.14 @CM-5.17 @checklist-17
  Scenario Outline: Module access <form> fails before the VM starts
    When a turn starts
    And the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode module access is disabled."
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": []}
      """

    Examples:
      | form            | code                                                        |
      | dynamic import  | const fs = await import("node:fs"); return typeof fs;       |
      | hidden require  | return (0, require)("child_process");                       |

  @security @SB-02 @CM-18.15 @checklist-17
  Scenario: Function constructors and indirect eval stay inside the guest realm
    When a turn starts
    And the model calls exec with:
      """js
      return {
        functionGlobal: new Function("return this")() === globalThis,
        viaFunction: Function("return typeof process")(),
        viaConstructor: (() => {}).constructor("return typeof require")(),
        viaAsyncConstructor: await (async () => {}).constructor("return typeof fetch")(),
        viaGeneratorConstructor: (function* () {}).constructor("yield typeof console")().next().value,
        viaIndirectEval: (0, eval)("typeof WebAssembly"),
        evalSeesTools: eval("typeof tools.callValue"),
      };
      """
    Then the result value is:
      """json
      {
        "functionGlobal": true,
        "viaFunction": "undefined",
        "viaConstructor": "undefined",
        "viaAsyncConstructor": "undefined",
        "viaGeneratorConstructor": "undefined",
        "viaIndirectEval": "undefined",
        "evalSeesTools": "function"
      }
      """

  @security @CM-18.15 @CM-18.2 @SB-07
  Scenario: Code created by indirect eval obeys the guest timeout
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts
    And the model calls exec with:
      """js
      (0, eval)("while (true) {}");
      return "escaped the deadline";
      """
    Then the result fails with code "timeout"
    And the result error is "code mode timeout exceeded"
    And the result failure phase is "guest"

  @security @SB-03 @CM-10.30 @CM-19.3 @CM-18.10
  Scenario: A host error reaches the guest as a plain guest Error without host frames
    Given the tool "read" fails with "disk on fire"
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:read", { path: "notes.txt" });
        return "no error";
      } catch (error) {
        return {
          name: error.name,
          message: error.message,
          guestError: error instanceof Error,
          plainPrototype: Object.getPrototypeOf(error) === Error.prototype,
          guestConstructor: error.constructor === Error,
          reachesHost: error.constructor.constructor("return typeof process")(),
          hostFrames: /\.go:\d|goroutine |node:internal|\(\/|\bat \//.test(String(error.stack ?? "")),
        };
      }
      """
    Then the result value is:
      """json
      {
        "name": "Error",
        "message": "disk on fire",
        "guestError": true,
        "plainPrototype": true,
        "guestConstructor": true,
        "reachesHost": "undefined",
        "hostFrames": false
      }
      """

  @security @SB-04 @CM-10.27 @CM-10.28
  Scenario: API.read refuses forged paths and unknown files
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = {};
      for (const path of ["../x", "mcp/./a.d.ts", "mcp/../../etc/passwd", "//mcp/index.d.ts", "mcp//index.d.ts", "mcp/index.d.ts/", "/nope.d.ts", "mcp/index.d.ts"]) {
        outcomes[path] = await API.read(path).then((file) => "read " + file.path, (error) => error.message);
      }
      return outcomes;
      """
    Then the result value is:
      """json
      {
        "../x": "invalid API file path",
        "mcp/./a.d.ts": "invalid API file path",
        "mcp/../../etc/passwd": "invalid API file path",
        "//mcp/index.d.ts": "invalid API file path",
        "mcp//index.d.ts": "invalid API file path",
        "mcp/index.d.ts/": "invalid API file path",
        "/nope.d.ts": "Unknown API file: nope.d.ts",
        "mcp/index.d.ts": "Unknown API file: mcp/index.d.ts"
      }
      """

  @security @SB-04 @CM-11.27 @CM-11.28
  Scenario: Inherited property names on tools and namespaces never dispatch a tool
    Given the tools:
      """json
      [
        {"name": "constructor", "source": "core", "description": "A tool named constructor."},
        {"name": "__proto__", "source": "core", "description": "A tool named __proto__."},
        {"name": "toString", "source": "core", "description": "A tool named toString."}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const viaId = await tools.callValue("openclaw:core:constructor", {});
      return {
        toolsConstructorIsObject: tools.constructor === Object || tools.constructor === undefined,
        toolsProto: [Object.prototype, null].includes(Object.getPrototypeOf(tools)) && [Object.prototype, null, undefined].includes(tools["__proto__"]),
        namespacesProto: namespaces.__proto__ === Object.prototype || namespaces.__proto__ === undefined,
        mcpConstructor: MCP.constructor === Object || MCP.constructor === undefined,
        toStringIsConvenience: typeof tools.toString === "function" && tools.toString !== Object.prototype.toString,
        viaId,
      };
      """
    Then the result value is:
      """json
      {
        "toolsConstructorIsObject": true,
        "toolsProto": true,
        "namespacesProto": true,
        "mcpConstructor": true,
        "toStringIsConvenience": true,
        "viaId": {"tool": "constructor", "input": {}}
      }
      """
    And the tool "constructor" was called 1 times
    And the tool "__proto__" was not called

  @security @SB-05 @CM-16.3 @CM-11.32 @CM-18.12
  Scenario: Guessed ids for a denied tool and for the control tools are refused and reach no tool
    Given the tool:
      """json
      {"name": "wipe_disk", "source": "core", "description": "Erase the disk."}
      """
    And the tool policy denies "wipe_disk"
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = {};
      for (const guess of ["openclaw:core:wipe_disk", "wipe_disk", "exec", "openclaw:core:wait", "tool_call"]) {
        outcomes[guess] = await tools.call(guess, {}).then(() => "reached", (error) => error.message);
      }
      return outcomes;
      """
    Then the result value is:
      """json
      {
        "openclaw:core:wipe_disk": "Unknown tool id: openclaw:core:wipe_disk. Did you mean: read, weather, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "wipe_disk": "Unknown tool id: wipe_disk. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "exec": "Unknown tool id: exec. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "openclaw:core:wait": "Unknown tool id: openclaw:core:wait. Did you mean: read, weather, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "tool_call": "Unknown tool id: tool_call. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
      }
      """
    And the tool "wipe_disk" was not called

  @security @SB-06 @CM-7.17 @CM-7.11
  Scenario: Hostile values cross the guest JSON adapter deterministically
    When a turn starts
    And the model calls exec with:
      """js
      const cyclic = {};
      cyclic.self = cyclic;
      json(cyclic);
      json(10n);
      json([1, , 3]);
      json({ zero: -0, nan: NaN, inf: -Infinity });
      json(new Error("boom"));
      json(new Proxy({}, { ownKeys() { throw new Error("trap"); } }));
      json({ get bad() { throw new Error("getter"); } });
      text(undefined);
      json(undefined);
      return [-0, JSON.stringify("\ud800")];
      """
    Then the result value is:
      """json
      [0, "\"\\ud800\""]
      """
    And the result output is:
      """json
      [
        {"type": "json", "value": "[object Object]"},
        {"type": "json", "value": "10"},
        {"type": "json", "value": [1, null, 3]},
        {"type": "json", "value": {"zero": 0, "nan": null, "inf": null}},
        {"type": "json", "value": {}},
        {"type": "json", "value": "[object Object]"},
        {"type": "json", "value": "[object Object]"},
        {"type": "text", "text": "null"},
        {"type": "json", "value": null}
      ]
      """

  @security @SB-06 @CM-7.17 @CM-18.7
  Scenario: Hostile bridge arguments and final values are converted without crashing the host
    Given the tool:
      """json
      {"name": "mirror", "source": "core", "description": "Echo the input.", "behavior": {"echo": true}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const echoed = await tools.callValue("openclaw:core:mirror", { z: -0, n: NaN, sparse: [1, , 3], big: 2 ** 53, nested: { u: undefined, keep: true } });
      let deep = [];
      for (let i = 0; i < 100; i++) deep = [deep];
      const deepBack = await tools.callValue("openclaw:core:mirror", { deep });
      let depth = 0;
      for (let node = deepBack.deep; Array.isArray(node) && node.length === 1; node = node[0]) depth++;
      return { echoed, depth };
      """
    Then the result value is:
      """json
      {
        "echoed": {"z": 0, "n": null, "sparse": [1, null, 3], "big": 9007199254740992, "nested": {"keep": true}},
        "depth": 100
      }
      """
    And the tool "mirror" was called 2 times

  @security @SB-07 @CM-18.2 @checklist-18
  Scenario Outline: Busy guest code (<shape>) is interrupted with a timeout
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts
    And the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "timeout"
    And the result error is "code mode timeout exceeded"
    And the result failure phase is "guest"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "replaySafe": false}
      """

    Examples:
      | shape                | code                                                                            |
      | infinite loop        | while (true) {}                                                                 |
      | loop in a getter     | const trap = { get value() { for (;;) {} } }; return trap.value;               |
      | caught interrupt     | for (;;) { try { while (true) {} } catch (error) { text("caught"); } }          |

  @security @SB-07 @CM-18.2 @CM-17.11 @checklist-18
  Scenario: An endless microtask chain times out and the next cell runs normally
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const spin = () => Promise.resolve().then(spin);
      spin();
      await new Promise(() => {});
      """
    Then the result fails with code "timeout"
    And the result error starts with "code mode "
    When the turn ends
    And a turn starts
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).sky;
      """
    Then the result value is "clear"

  @security @SB-08 @CM-18.5 @CM-18.3 @checklist-18
  Scenario Outline: A long-running built-in (<builtin>) is stopped by the deadline
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts
    And the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "timeout"
    And the result error starts with "code mode "
    And the result error contains "timeout exceeded"

    Examples:
      | builtin                     | code                                                                                                   |
      | catastrophic regex          | return /^(a+)+$/.test("a".repeat(40) + "!");                                                           |
      | hostile sort comparator     | return Array.from({ length: 1000 }, (_, i) => i).sort(() => { for (;;) {} });                          |

  @security @CM-18.4
  Scenario: A guest that throws its own interrupted error is not reported as a timeout
    When a turn starts
    And the model calls exec with:
      """js
      throw new Error("interrupted");
      """
    Then the result fails with code "internal_error"
    And the result error starts with "Error: interrupted"
    And the result failure phase is "guest"

  @security @SB-09 @CM-17.7
  Scenario: JSON.stringify of a deeply nested array fails without crashing the host
    When a turn starts
    And the model calls exec with:
      """js
      let nested = [];
      for (let i = 0; i < 100000; i++) nested = [nested];
      try {
        JSON.stringify(nested);
      } catch (error) {
        throw new RangeError("caught " + error.name);
      }
      return "serialized";
      """
    Then the result fails with code "internal_error"
    And the result error starts with "RangeError"
    When the model calls exec with:
      """js
      return "host still answers";
      """
    Then the result value is "host still answers"

  @security @SB-10 @CM-18.6 @checklist-19
  Scenario Outline: A memory bomb (<bomb>) ends the run and the VM is discarded
    Given code mode is configured as:
      """json
      {"enabled": true, "memoryLimitBytes": 8388608, "timeoutMs": 30000}
      """
    When a turn starts
    And the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "internal_error"
    And the result error starts with "InternalError: out of memory"
    And the result failure phase is "guest"
    When the model calls exec with:
      """js
      return "fresh VM";
      """
    Then the result value is "fresh VM"

    Examples:
      | bomb                 | code                                                                                       |
      | string doubling      | let s = "x"; while (true) s = s.repeat(2);                                                 |
      | swallowed allocation | try { let s = "x"; while (true) s = s.repeat(2); } catch (error) { return "swallowed"; }   |

  @security @SB-11 @CM-7.18 @CM-7.21 @CM-7.22
  Scenario Outline: Output floods fail with output_limit_exceeded (<flood>)
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    When a turn starts
    And the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result output is:
      """json
      []
      """
    And the result includes:
      """json
      {"runId": "<absent>"}
      """

    Examples:
      | flood                  | code                                                                  |
      | text flood             | for (let i = 0; i < 100; i++) text("x".repeat(50)); return 1;         |
      | flood before yielding  | text("x".repeat(2048)); await yield_control("never stored");          |

  @security @SB-11 @CM-7.20
  Scenario: The output limit is exact for a final value at the bound and one byte over
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return "x".repeat(1022);
      """
    Then the result status is "completed"
    When the model calls exec with:
      """js
      return "x".repeat(1023);
      """
    Then the result fails with code "output_limit_exceeded"

  @security @SB-12 @CM-10.34 @CM-16.12 @CM-8.15 @timing
  Scenario: Promise.all of ten thousand bridge calls is refused past maxPendingToolCalls
    Given code mode is configured as:
      """json
      {"enabled": true, "maxPendingToolCalls": 4, "maxSnapshotBytes": 268435456, "timeoutMs": 5000}
      """
    And the tool "weather" is held until released
    When a turn starts
    And the model calls exec with:
      """js
      let refused = "nothing refused";
      try {
        await Promise.all(Array.from({ length: 10000 }, () => tools.callValue("openclaw:core:weather", { city: "Oslo" })));
      } catch (error) {
        refused = error.message;
      }
      return refused;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [
        {"id": "bridge:callValue:1", "method": "callValue"},
        {"id": "bridge:callValue:2", "method": "callValue"},
        {"id": "bridge:callValue:3", "method": "callValue"},
        {"id": "bridge:callValue:4", "method": "callValue"}
      ]
      """
    When the tool "weather" is released
    And the model calls wait
    Then the result value is "too many pending code mode tool calls"
    And the tool "weather" was called 4 times
    And the telemetry includes:
      """json
      {"callCount": 4}
      """

  @security @SB-13 @CM-8.35
  Scenario: Growing the heap before yield_control exceeds the snapshot limit and stores nothing
    Given code mode is configured as:
      """json
      {"enabled": true, "maxSnapshotBytes": 65536, "timeoutMs": 30000}
      """
    When a turn starts
    And the model calls exec with:
      """js
      let seed = 1;
      const noise = new Float64Array(100000);
      for (let i = 0; i < noise.length; i++) {
        seed = (seed * 48271) % 2147483647;
        noise[i] = seed / 2147483647;
      }
      globalThis.keep = noise;
      await yield_control("snapshot me");
      return noise.length;
      """
    Then the result fails with code "snapshot_limit_exceeded"
    And the result error is "code mode snapshot limit exceeded"
    And the result includes:
      """json
      {"runId": "<absent>", "output": []}
      """

  @security @SB-14 @CM-8.19 @CM-8.20 @CM-18.11
  Scenario: A runId presented from another session is refused without consuming the run
    When a turn starts in session "alpha"
    And the model calls exec with:
      """js
      return await yield_control("swap");
      """
    Then the result is waiting with reason "yield"
    When a turn starts in session "beta" within the same agent run
    And the model calls wait
    Then the wait is refused with "code mode run belongs to a different session."
    And the result failure phase is "input"
    When a turn starts in session "alpha" within the same agent run
    And the model calls wait
    Then the result value is:
      """json
      {"status": "yielded", "reason": "swap"}
      """

  # CM-18.11: each trigger that discards a snapshot, one scenario each.

  @security @SB-14 @CM-18.11 @CM-18.2 @timing
  Scenario: A snapshot is discarded when its run times out after resuming
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control("then spin");
      while (true) {}
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "timeout"
    When the turn ends
    And a turn starts
    And the model calls wait with run id arguments:
      """json
      {"runId": "<run-id:1>"}
      """
    Then the wait is refused with "code mode run is unavailable or expired."

  @security @SB-14 @CM-18.11 @CM-8.37
  Scenario: A snapshot is discarded when its agent run is aborted
    When a turn starts
    And the model calls exec with:
      """js
      return await yield_control("abort me");
      """
    Then the result is waiting with reason "yield"
    When the turn is aborted
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @security @SB-14 @CM-18.11 @CM-8.40
  Scenario: A snapshot is discarded when its session ends
    When a turn starts
    And the model calls exec with:
      """js
      return await yield_control("end me");
      """
    Then the result is waiting with reason "yield"
    When the session is deleted
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @security @SB-14 @CM-18.11 @CM-8.29
  Scenario: A snapshot is discarded when it expires
    Given code mode is configured as:
      """json
      {"enabled": true, "snapshotTtlSeconds": 1}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return await yield_control("expire me");
      """
    Then the result is waiting with reason "yield"
    When 1200 ms pass
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @security @SB-14 @CM-8.19 @CM-8.21 @CM-8.20 @timing
  Scenario: Two concurrent waits for one run admit only one of them
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
      """
    And the tool "weather" is held until released
    When a turn starts
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp;
      """
    Then the result is waiting with reason "pending_tools"
    When the model calls wait twice at the same time
    Then the both wait results are:
      """json
      [
        {"status": "waiting", "runId": "<run-id>", "reason": "pending_tools"},
        {"status": "failed", "code": "invalid_input", "error": "code mode run is already being resumed."}
      ]
      """
    When the tool "weather" is released
    And the model calls wait
    Then the result value is 21

  @security @SB-15 @CM-18.14 @CM-10.8
  Scenario: Mutated prototypes and globals do not leak into later cells or other sessions
    When a turn starts
    And the model calls exec with:
      """js
      Object.prototype.polluted = "yes";
      Array.prototype.includes = () => true;
      Math.max = () => -1;
      globalThis.leaked = 1;
      return "mutated";
      """
    Then the result value is "mutated"
    When the model calls exec with:
      """js
      return [typeof ({}).polluted, [1].includes(2), Math.max(1, 2), typeof globalThis.leaked];
      """
    Then the result value is:
      """json
      ["undefined", false, 2, "undefined"]
      """
    When a turn starts in session "session-2"
    And the model calls exec with:
      """js
      return [typeof ({}).polluted, [1].includes(2), Math.max(1, 2), typeof globalThis.leaked];
      """
    Then the result value is:
      """json
      ["undefined", false, 2, "undefined"]
      """

  @security @SB-16 @CM-18.16
  Scenario: Atomics.wait cannot block the VM
    When a turn starts
    And the model calls exec with:
      """js
      if (typeof Atomics === "undefined" || typeof SharedArrayBuffer === "undefined") {
        return { blocked: false };
      }
      const cell = new Int32Array(new SharedArrayBuffer(4));
      const started = Date.now();
      try {
        Atomics.wait(cell, 0, 0, 300);
      } catch (error) {
        // refusing to wait is fine
      }
      return { blocked: Date.now() - started >= 250 };
      """
    Then the result value is:
      """json
      {"blocked": false}
      """

  @security @SB-17 @CM-10.32 @CM-8.24
  Scenario: Math.random is reseeded after a restore instead of continuing the snapshot's sequence
    When a turn starts
    And the model calls exec with:
      """js
      const M = 0x2545F4914F6CDD1Dn;
      const MASK = (1n << 64n) - 1n;
      let inverse = 1n;
      for (let i = 0; i < 7; i++) inverse = (inverse * (2n - M * inverse)) & MASK;
      const step = (x) => {
        x ^= x >> 12n;
        x ^= (x << 25n) & MASK;
        x ^= x >> 27n;
        return x;
      };
      const output = (x) => Number(((x * M) & MASK) >> 12n) / 2 ** 52;
      const predictNext = (first, second) => {
        if (!Number.isInteger(first * 2 ** 52) || !Number.isInteger(second * 2 ** 52)) return null;
        const high = BigInt(first * 2 ** 52) << 12n;
        for (let low = 0n; low < 4096n; low++) {
          const x2 = step(((high | low) * inverse) & MASK);
          if (output(x2) === second) return output(step(x2));
        }
        return null;
      };
      const predicted = predictNext(Math.random(), Math.random());
      await yield_control("reseed");
      const after = Math.random();
      return { continuesSnapshotSequence: predicted !== null && after === predicted, inRange: after >= 0 && after < 1 };
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is:
      """json
      {"continuesSnapshotSequence": false, "inRange": true}
      """

  @security @SB-19 @CM-7.26
  Scenario: An unawaited failing tool call fails the run instead of completing it
    Given the tool "read" fails with "disk on fire"
    When a turn starts
    And the model calls exec with:
      """js
      tools.callValue("openclaw:core:read", { path: "notes.txt" });
      return "done";
      """
    Then the result fails with code "internal_error"
    And the result error starts with "Error: disk on fire"
    And the tool "read" was called 1 times

  @security @SB-19 @CM-7.27
  Scenario: Rejections handled with Promise.allSettled or a late catch do not fail the run
    Given the tool "read" fails with "disk on fire"
    When a turn starts
    And the model calls exec with:
      """js
      const settled = await Promise.allSettled([
        tools.callValue("openclaw:core:read", { path: "notes.txt" }),
        tools.callValue("openclaw:core:weather", { city: "Oslo" }),
      ]);
      const pending = tools.callValue("openclaw:core:read", { path: "later.txt" });
      await yield_control("catch later");
      try {
        await pending;
        return "no error";
      } catch (error) {
        return [settled.map((entry) => entry.status), "caught: " + error.message];
      }
      """
    Then the result status is "waiting"
    When the model calls wait
    Then the result value is:
      """json
      [["rejected", "fulfilled"], "caught: disk on fire"]
      """

  @security @SB-20 @CM-5.19 @CM-5.21
  Scenario Outline: Shell-shaped input "<source>" is rejected with an actionable message
    When a turn starts
    And the model calls exec with:
      """js
      <source>
      """
    Then the result fails with code "invalid_input"
    And the result error is "code-mode exec runs JavaScript or TypeScript, not shell commands. Call shell, file, or other tools from guest JavaScript with tools.callValue and an exact tool id from ALL_TOOLS or tools.search. Do not retry the same shell command as code."
    And the result failure phase is "input"

    Examples:
      | source                  |
      | ls -la /tmp             |
      | Get-ChildItem -Force    |

  @security @SB-20 @CM-18.1
  Scenario: A Markdown-fenced cell fails without side effects
    When a turn starts
    And the model calls exec with:
      """js
      ```js
      await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      ```
      """
    Then the result status is "failed"
    And the tool "weather" was not called

  @security @SB-23 @CM-17.8
  Scenario: A curated ECMAScript subset gives stable results in the guest
    When a turn starts
    And the model calls exec with:
      """js
      const order = [];
      const settled = Promise.resolve();
      settled.then(() => order.push("a")).then(() => order.push("c"));
      settled.then(() => order.push("b"));
      await Promise.resolve();
      await Promise.resolve();
      await Promise.resolve();
      function* counter() {
        const received = yield 1;
        yield received * 2;
      }
      const generator = counter();
      const first = generator.next().value;
      const second = generator.next(21).value;
      const proxied = new Proxy({}, { get: (target, key) => "prop:" + String(key) });
      const date = /(?<year>\d{4})-(?<month>\d{2})/u.exec("released on 2024-05-17");
      return {
        order,
        generator: [first, second],
        proxy: proxied.hello,
        groups: [date.groups.year, date.groups.month],
        sorted: [10, 1, 3].sort((a, b) => a - b),
        big: String(2n ** 64n),
        codePoints: [..."héllo🎉"].length,
      };
      """
    Then the result value is:
      """json
      {
        "order": ["a", "b", "c"],
        "generator": [1, 42],
        "proxy": "prop:hello",
        "groups": ["2024", "05"],
        "sorted": [1, 3, 10],
        "big": "18446744073709551616",
        "codePoints": 6
      }
      """

  @security @SB-24 @CM-18.1 @CM-10.9 @CM-10.12 @CM-10.13 @CM-10.14
  Scenario: Known sandbox-escape shapes adapted to the bridge stay contained
    Given the tool:
      """json
      {"name": "mirror", "source": "core", "description": "Echo the input.", "behavior": {"echo": true}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = {};
      const hostileId = { toString: () => "openclaw:core:weather", [Symbol.toPrimitive]: () => "openclaw:core:weather" };
      const attempts = [
        ["callValue", () => tools.callValue(hostileId, {})],
        ["call", () => tools.call(["openclaw:core:weather"], {})],
        ["describe", () => tools.describe(hostileId)],
        ["search", () => tools.search(hostileId)],
      ];
      for (const [name, attempt] of attempts) {
        try {
          await attempt();
          outcomes[name] = "reached";
        } catch (error) {
          outcomes[name] = error.message;
        }
      }
      Object.prototype.city = "Injected";
      Object.prototype.path = "/etc/passwd";
      const mirrored = await tools.callValue("openclaw:core:mirror", {});
      delete Object.prototype.city;
      delete Object.prototype.path;
      outcomes.mirroredKeys = Object.keys(mirrored);
      outcomes.hostRequest = typeof globalThis.__openclawHostRequest;
      return outcomes;
      """
    Then the result value is:
      """json
      {
        "callValue": "callValue id must be a string.",
        "call": "call id must be a string.",
        "describe": "describe id must be a string.",
        "search": "search query must be a string.",
        "mirroredKeys": [],
        "hostRequest": "undefined"
      }
      """
    And the tool "weather" was not called
    And the tool "mirror" was called 1 times
    And the telemetry includes:
      """json
      {"searchCount": 0, "describeCount": 0, "callCount": 1}
      """

  @security @CM-18.13 @CM-11.29
  Scenario: Catalog tools named like the helpers never shadow them
    Given the tools:
      """json
      [
        {"name": "search", "source": "core", "description": "A tool called search.", "behavior": {"returns": {"hijacked": "search"}}},
        {"name": "call", "source": "core", "description": "A tool called call.", "behavior": {"returns": {"hijacked": "call"}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const hits = await tools.search("weather", { limit: 1 });
      const envelope = await tools.call("openclaw:core:weather", { city: "Oslo" });
      const direct = await tools.callValue("openclaw:core:search", {});
      return { hits: hits.map((hit) => hit.id), envelope: envelope.tool.id, direct };
      """
    Then the result value is:
      """json
      {"hits": ["openclaw:core:weather"], "envelope": "openclaw:core:weather", "direct": {"hijacked": "search"}}
      """
    And the tool "search" was called 1 times
    And the tool "call" was not called

  @security @CM-18.7 @CM-18.8 @CM-18.20
  Scenario: A bridge request over 16 MiB is refused inside the guest and never dispatched
    Given the tool:
      """json
      {"name": "mirror", "source": "core", "description": "Echo the input.", "behavior": {"echo": true}}
      """
    And code mode is configured as:
      """json
      {"enabled": true, "memoryLimitBytes": 268435456, "timeoutMs": 30000}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const huge = "€".repeat(5600000); // 16800000 UTF-8 bytes, just over 16 MiB
      try {
        await tools.callValue("openclaw:core:mirror", { huge });
        return "dispatched";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "code mode bridge request too large"
    And the tool "mirror" was not called

  @security @SB-10 @CM-18.6
  Scenario: A run that catches its out-of-memory error and then yields is failed, not snapshotted
    Given code mode is configured as:
      """json
      {"enabled": true, "memoryLimitBytes": 8388608, "timeoutMs": 30000}
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        let s = "x";
        while (true) s = s.repeat(2);
      } catch (error) {
        await yield_control("after out of memory");
        return "resumed";
      }
      """
    Then the result fails with code "internal_error"
    And the result error starts with "InternalError: out of memory"
    And the result includes:
      """json
      {"runId": "<absent>"}
      """

  @security @CM-17.15 @CM-17.11 @CM-18.5 @timing
  Scenario: One long built-in call in one turn's cell does not stop another turn's cell
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2500}
      """
    When a turn starts
    And the model starts exec in the background with:
      """js
      const a = [];
      a.length = 2 ** 32 - 1;
      return a.indexOf(1);
      """
    And a turn starts in session "other"
    And the model calls exec with:
      """js
      const squares = [1, 2, 3].map((n) => n * n);
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp + squares[2];
      """
    Then the result value is 30
    And the background exec is still running
    When the background exec ends
    Then the result fails with code "timeout"
