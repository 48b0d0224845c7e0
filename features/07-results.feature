Feature: Results and output
  SPEC.md chapter 7: payload shapes, failure phases, the output API, the JSON
  adapters, byte accounting and the output limit, completion and unhandled
  rejections.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  # 7.1 Payload shapes

  @core @CM-7.1 @CM-7.2 @CM-7.8 @CM-7.9 @CM-7.13
  Scenario: a completed payload has exactly the completed members
    Given a turn starts
    When the model calls exec with:
      """js
      return 3;
      """
    Then the result includes:
      """json
      {
        "status": "completed",
        "value": 3,
        "output": [],
        "replaySafe": false,
        "telemetry": {
          "catalogSize": 4,
          "sources": {"openclaw": 3, "mcp": 0, "client": 1},
          "searchCount": 0,
          "describeCount": 0,
          "callCount": 0,
          "visibleTools": ["exec", "wait"]
        },
        "runId": "<absent>",
        "reason": "<absent>",
        "pendingToolCalls": "<absent>",
        "error": "<absent>",
        "code": "<absent>",
        "failurePhase": "<absent>",
        "bridgeDispatchStarted": "<absent>",
        "repair": "<absent>"
      }
      """
    And the result has exactly the members of its status

  @core @CM-7.1 @CM-7.4 @CM-7.6 @CM-7.15 @CM-10.35 @CM-10.36 @CM-7.8
  Scenario: a failed payload has exactly the failed members and keeps earlier output
    Given a turn starts
    When the model calls exec with:
      """js
      text("before");
      json({ step: 1 });
      throw new Error("boom");
      """
    Then the result includes:
      """json
      {
        "status": "failed",
        "error": "<string>",
        "code": "internal_error",
        "failurePhase": "guest",
        "bridgeDispatchStarted": false,
        "output": [{"type": "text", "text": "before"}, {"type": "json", "value": {"step": 1}}],
        "replaySafe": false,
        "telemetry": {
          "catalogSize": 4,
          "sources": {"openclaw": 3, "mcp": 0, "client": 1},
          "searchCount": 0,
          "describeCount": 0,
          "callCount": 0,
          "visibleTools": ["exec", "wait"]
        },
        "value": "<absent>",
        "runId": "<absent>",
        "reason": "<absent>",
        "pendingToolCalls": "<absent>",
        "repair": "<absent>"
      }
      """
    And the result has exactly the members of its status
    And the result error starts with "Error: boom"

  @snapshots @CM-7.1 @CM-7.3 @CM-8.1 @CM-8.10
  Scenario: a waiting payload has exactly the waiting members
    Given a turn starts
    When the model calls exec with:
      """js
      text("before");
      await yield_control("pause");
      return 1;
      """
    Then the result includes:
      """json
      {
        "status": "waiting",
        "runId": "<run-id>",
        "reason": "yield",
        "pendingToolCalls": [{"id": "bridge:yield:1", "method": "yield"}],
        "output": [{"type": "text", "text": "before"}],
        "replaySafe": false,
        "telemetry": {
          "catalogSize": 4,
          "sources": {"openclaw": 3, "mcp": 0, "client": 1},
          "searchCount": 0,
          "describeCount": 0,
          "callCount": 0,
          "visibleTools": ["exec", "wait"]
        },
        "value": "<absent>",
        "error": "<absent>",
        "code": "<absent>",
        "failurePhase": "<absent>",
        "bridgeDispatchStarted": "<absent>",
        "repair": "<absent>"
      }
      """
    And the result has exactly the members of its status

  @snapshots @CM-7.1
  Scenario: a wait call returns one payload with exactly the members of its status
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control("pause");
      return "resumed";
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result includes:
      """json
      {
        "status": "completed",
        "value": "resumed",
        "output": [],
        "replaySafe": false,
        "telemetry": {
          "catalogSize": "<number>",
          "sources": {"openclaw": "<number>", "mcp": "<number>", "client": "<number>"},
          "searchCount": "<number>",
          "describeCount": "<number>",
          "callCount": "<number>",
          "visibleTools": "<array>"
        }
      }
      """
    And the result has exactly the members of its status

  @core @CM-7.6 @CM-7.7 @CM-19.4
  Scenario: a guest failure after a nested call has the bridge failure phase
    Given a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      throw new Error("after " + w.city);
      """
    Then the result fails with code "internal_error"
    And the result error starts with "Error: after Oslo"
    And the result failure phase is "bridge"
    And the result includes:
      """json
      {"bridgeDispatchStarted": true}
      """

  @core @CM-7.6 @CM-19.4
  Scenario: uncaught stack exhaustion fails the run in the guest phase
    Given a turn starts
    When the model calls exec with:
      """js
      const deep = (n) => deep(n + 1) + 1;
      return deep(0);
      """
    Then the result fails with code "internal_error"
    And the result failure phase is "guest"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false}
      """

  @core @CM-7.6 @CM-7.7 @CM-12.10 @CM-19.5
  Scenario: a helper validation failure inside the guest dispatches no bridge request
    Given a turn starts
    When the model calls exec with:
      """js
      await tools.search(42);
      """
    Then the result fails with code "internal_error"
    And the result error starts with "Error: search query must be a string."
    And the result failure phase is "guest"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false}
      """
    And the telemetry includes:
      """json
      {"searchCount": 0}
      """

  # 7.2 Output API

  @core @CM-7.10 @CM-7.11 @CM-7.12 @CM-10.23
  Scenario: text and json append output entries in call order
    Given a turn starts
    When the model calls exec with:
      """js
      text("plain");
      text(42);
      text({ a: 1, b: [true, null] });
      json({ list: [1, "two"] });
      json("str");
      json(undefined);
      const fromText = text("x");
      const fromJson = json(1);
      return [fromText === undefined, fromJson === undefined];
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [true, true]
      """
    And the result output is:
      """json
      [
        {"type": "text", "text": "plain"},
        {"type": "text", "text": "42"},
        {"type": "text", "text": "{\"a\":1,\"b\":[true,null]}"},
        {"type": "json", "value": {"list": [1, "two"]}},
        {"type": "json", "value": "str"},
        {"type": "json", "value": null},
        {"type": "text", "text": "x"},
        {"type": "json", "value": 1}
      ]
      """

  @core @CM-7.12
  Scenario: output entries keep their call order across the legs of one exec
    Given a turn starts
    When the model calls exec with:
      """js
      text("first");
      const w = await tools.callValue("weather", { city: "Oslo" });
      json({ temp: w.temp });
      const again = await tools.callValue("weather", { city: "Bergen" });
      text("last " + again.sky);
      return 1;
      """
    Then the result status is "completed"
    And the result output is:
      """json
      [
        {"type": "text", "text": "first"},
        {"type": "json", "value": {"temp": 21}},
        {"type": "text", "text": "last clear"}
      ]
      """

  # 7.3 JSON adapters

  @core @CM-7.17 @CM-7.16 @CM-7.10 @CM-7.11
  Scenario: the guest adapter converts values that are not JSON-compatible
    Given a turn starts
    When the model calls exec with:
      """js
      const loop = { name: "loop" };
      loop.self = loop;
      const cyclicError = new RangeError("deep");
      cyclicError.cause = cyclicError;
      const add = function add(a, b) { return a + b; };
      json(10n);
      json(add);
      json(loop);
      json({ keep: 1, drop: undefined, nan: NaN, zero: -0 });
      json(new Error("plain"));
      json(cyclicError);
      json(Symbol("tag"));
      json([undefined, () => 1]);
      json({ get broken() { throw new Error("getter"); } });
      json(new Uint8Array([1, 2]));
      json(new ArrayBuffer(4));
      json({ toJSON() { return "custom"; } });
      text(10n);
      text(add);
      text(NaN);
      text(undefined);
      return "done";
      """
    Then the result status is "completed"
    And the result value is "done"
    And the result output is:
      """json
      [
        {"type": "json", "value": "10"},
        {"type": "json", "value": "function add(a, b) { return a + b; }"},
        {"type": "json", "value": "[object Object]"},
        {"type": "json", "value": {"keep": 1, "nan": null, "zero": 0}},
        {"type": "json", "value": {}},
        {"type": "json", "value": {"name": "RangeError", "message": "deep"}},
        {"type": "json", "value": "Symbol(tag)"},
        {"type": "json", "value": [null, null]},
        {"type": "json", "value": "[object Object]"},
        {"type": "json", "value": {"0": 1, "1": 2}},
        {"type": "json", "value": {}},
        {"type": "json", "value": "custom"},
        {"type": "text", "text": "\"10\""},
        {"type": "text", "text": "\"function add(a, b) { return a + b; }\""},
        {"type": "text", "text": "null"},
        {"type": "text", "text": "null"}
      ]
      """

  @core @CM-7.14 @CM-7.17 @CM-7.16
  Scenario Outline: the host adapter converts a final value that is <case>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result status is "completed"
    And the result value is <value>

    Examples:
      | case                                      | code                                                                            | value                                    |
      | undefined                                 | return undefined;                                                               | null                                     |
      | a BigInt                                  | return 10n;                                                                     | "10"                                     |
      | a function                                | return function add(a, b) { return a + b; };                                    | null                                     |
      | a circular object                         | const o = { name: "loop" };\no.self = o;\nreturn o;                             | "[object Object]"                        |
      | a plain Error                             | return new Error("bad");                                                        | {}                                       |
      | a circular Error                          | const e = new TypeError("bad");\ne.self = e;\nreturn e;                         | {"name":"TypeError","message":"bad"}     |
      | a typed array                             | return new Uint8Array([1, 2]);                                                  | {"0":1,"1":2}                            |
      | a DataView                                | return new DataView(new ArrayBuffer(2));                                        | {}                                       |

  # 7.4 Byte accounting and the output limit

  @core @CM-7.18 @CM-7.20 @CM-7.23 @checklist-20
  Scenario Outline: a run completes with output bytes exactly at maxOutputBytes: <case>
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result status is "completed"
    And the result value is <value>

    Examples:
      | case                                           | code                                 | value      |
      | a 1024-byte value                              | return "x".repeat(1022);             | "<string>" |
      | a 1024-byte value of two-byte characters       | return "é".repeat(511);              | "<string>" |
      | 1023 bytes of output plus a 1-byte value       | text("x".repeat(996));\nreturn 0;    | 0          |

  @core @CM-7.18 @CM-7.20 @CM-7.21 @CM-7.22 @CM-7.23 @CM-7.6 @CM-19.1 @CM-19.4 @checklist-20
  Scenario Outline: a run fails one byte over maxOutputBytes: <case>
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result failure phase is "guest"
    And the result output is:
      """json
      []
      """

    Examples:
      | case                                           | code                                 |
      | a 1025-byte value                              | return "x".repeat(1023);             |
      | a 1026-byte value of two-byte characters       | return "é".repeat(512);              |
      | 1025 bytes of output                           | text("x".repeat(998));\nreturn 0;    |

  @core @CM-7.18 @CM-7.21 @CM-7.22
  Scenario: output over the limit fails a leg that ends in an uncaught exception
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("x".repeat(2048));
      throw new Error("boom");
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result output is:
      """json
      []
      """

  @core @CM-7.20 @CM-7.22 @checklist-20
  Scenario: output within the limit is returned when the final value pushes the run over it
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("x".repeat(997));
      return 0;
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result includes:
      """json
      {"output": [{"type": "text", "text": "<string>"}]}
      """

  @core @CM-7.19 @CM-7.21 @checklist-20
  Scenario: the output limit is checked before nested calls are resolved inline
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("x".repeat(1100));
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result output is:
      """json
      []
      """

  @snapshots @CM-7.12 @CM-7.13 @CM-8.25
  Scenario: output is delivered incrementally across exec and wait
    Given a turn starts
    When the model calls exec with:
      """js
      text("before");
      json({ step: 1 });
      const resumed = await yield_control("pause");
      text("after");
      return resumed.reason;
      """
    Then the result is waiting with reason "yield"
    And the result output is:
      """json
      [{"type": "text", "text": "before"}, {"type": "json", "value": {"step": 1}}]
      """
    When the model calls wait
    Then the result status is "completed"
    And the result value is "pause"
    And the result output is:
      """json
      [{"type": "text", "text": "after"}]
      """

  @snapshots @CM-7.18 @CM-7.21 @CM-7.22 @CM-8.28 @checklist-20
  Scenario: cumulative output over the limit fails the resumed run and disposes it
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("a".repeat(500));
      await yield_control();
      text("b".repeat(500));
      return 1;
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result output is:
      """json
      []
      """
    When the turn ends
    And a turn starts
    And the model calls wait with run id arguments:
      """json
      {"runId": "<run-id:1>"}
      """
    Then the wait is refused with "code mode run is unavailable or expired."

  @snapshots @CM-7.20 @CM-7.13 @checklist-20
  Scenario: a resumed run completes when cumulative output and value are exactly at the limit
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("a".repeat(900));
      await yield_control();
      text("b");
      return "c".repeat(68);
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result status is "completed"
    And the result output is:
      """json
      [{"type": "text", "text": "b"}]
      """

  @snapshots @CM-7.20 @CM-7.22 @checklist-20
  Scenario: a resumed run one byte over the limit fails with only its undelivered output
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("a".repeat(900));
      await yield_control();
      text("b");
      return "c".repeat(69);
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result output is:
      """json
      [{"type": "text", "text": "b"}]
      """

  @snapshots @CM-7.19 @CM-7.21 @checklist-20
  Scenario: oversize output fails a yielding run instead of suspending it
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("x".repeat(2048));
      await yield_control();
      return 1;
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"
    And the result output is:
      """json
      []
      """

  @core @CM-7.28 @CM-7.21
  Scenario Outline: a guest error longer than maxOutputBytes fails as an output limit violation: <case>
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"

    Examples:
      | case                                          | code                                                     |
      | an uncaught exception of two-byte characters  | throw new Error("é".repeat(600));                        |
      | an unhandled rejection                        | Promise.reject(new Error("x".repeat(2000)));\nreturn 1;  |

  @core @CM-7.29 @CM-7.24 @CM-7.21
  Scenario: a final value may nest 1000 levels deep and not 1001
    Given a turn starts
    When the model calls exec with:
      """js
      let v = 1;
      for (let i = 0; i < 1000; i++) v = [v];
      return v;
      """
    Then the result status is "completed"
    When the model calls exec with:
      """js
      let v = 1;
      for (let i = 0; i < 1001; i++) v = [v];
      return v;
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"

  @core @CM-7.29
  Scenario: a bridge result nested past 1000 levels rejects the nested call
    Given the tool "weather" returns:
      """json
      [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("weather", { city: "Oslo" });
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "code mode bridge result too large"

  @core @CM-7.30
  Scenario: a replaced JSON changes no member, type or number of the output entries
    Given a turn starts
    When the model calls exec with:
      """js
      const forged = [{ type: "image", data: "forged" }, { type: "text", text: "extra" }];
      JSON.stringify = () => '[{"type":"image","data":"forged"},{"type":"text","text":"extra"}]';
      JSON.parse = () => forged;
      text("plain");
      json({ a: 1 });
      text({ b: 2 });
      return { c: 3 };
      """
    Then the result status is "completed"
    And the result output is:
      """json
      [
        {"type": "text", "text": "plain"},
        {"type": "json", "value": "<any>"},
        {"type": "text", "text": "<string>"}
      ]
      """
    And the result has exactly the members of its status

  # 7.5 Completion and pending work

  @core @CM-7.24 @CM-7.25 @CM-8.7
  Scenario: a run completes only after unawaited nested calls have settled
    Given the tool "weather" takes 100 ms
    And a turn starts
    When the model calls exec with:
      """js
      tools.callValue("weather", { city: "Oslo" }).then((w) => text("late " + w.temp));
      return "early";
      """
    Then the result status is "completed"
    And the result value is "early"
    And the result output is:
      """json
      [{"type": "text", "text": "late 21"}]
      """
    And the tool "weather" was called 1 time

  @core @CM-7.26 @CM-7.25 @CM-7.6
  Scenario: an unhandled rejection of an unawaited nested call fails the run
    Given the tool "weather" fails with "offline"
    And a turn starts
    When the model calls exec with:
      """js
      tools.callValue("weather", { city: "Oslo" });
      return "done";
      """
    Then the result fails with code "internal_error"
    And the result error starts with "Error: offline"
    And the result failure phase is "bridge"

  @core @CM-7.26 @CM-7.6
  Scenario: an unhandled guest promise rejection fails the run
    Given a turn starts
    When the model calls exec with:
      """js
      Promise.reject(new Error("lost"));
      return 1;
      """
    Then the result fails with code "internal_error"
    And the result error starts with "Error: lost"
    And the result failure phase is "guest"

  @core @CM-7.27 @CM-10.31
  Scenario Outline: a rejection handled with <handler> does not fail the run
    Given the tool "weather" fails with "offline"
    And a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result status is "completed"
    And the result value is <value>

    Examples:
      | handler                   | code                                                                                                                                   | value                   |
      | a catch clause            | try {\n  await tools.callValue("weather", { city: "Oslo" });\n  return "unreachable";\n} catch (e) {\n  return "caught " + e.message;\n} | "caught offline" |
      | a .catch handler          | return await tools.callValue("weather", { city: "Oslo" }).catch((e) => "handled " + e.message);                                       | "handled offline"       |
      | Promise.allSettled        | const [r] = await Promise.allSettled([tools.callValue("weather", { city: "Oslo" })]);\nreturn [r.status, r.reason.message];            | ["rejected","offline"]  |
      | a later await inside try  | const p = tools.callValue("weather", { city: "Oslo" });\nawait tools.search("weather");\ntry { await p; } catch (e) { return "late " + e.message; }\nreturn "unreachable"; | "late offline" |
