Feature: Runs, snapshots and wait
  SPEC.md chapter 8: inline resolution of bridge requests (core), suspension,
  wait, run lifetime and the run and snapshot limits (snapshots).

  Background:
    Given code mode is enabled
    And the catalog "basic"

  # 8.2 Inline resolution (auto-drain)

  @core @CM-8.6 @CM-8.12
  Scenario: awaited nested calls are resolved inline within one exec call
    Given a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      const r = await tools.callValue("read", { path: "notes.txt" });
      const [again, raw] = await Promise.all([
        tools.callValue("weather", { city: "Bergen" }),
        tools.call("read", { path: "other.txt" }),
      ]);
      return [w.temp, r.content, again.sky, raw.result.details.kind];
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [21, "hello from notes\n", "clear", "text"]
      """
    And the tool "weather" was called 2 times
    And the tool "read" was called 2 times

  @core @CM-8.7 @CM-8.8
  Scenario: in awaiting mode nested results reach the guest in settlement order
    Given the tool "weather" takes 800 ms
    And the tool "read" takes 10 ms
    And a turn starts
    When the model calls exec with:
      """js
      const order = [];
      const a = tools.callValue("weather", { city: "Oslo" }).then(() => order.push("weather"));
      const b = tools.callValue("read", { path: "notes.txt" }).then(() => order.push("read"));
      await Promise.all([a, b]);
      return order;
      """
    Then the result status is "completed"
    And the result value is:
      """json
      ["read", "weather"]
      """

  @core @CM-8.13 @CM-8.16 @CM-7.6 @CM-19.4 @timing
  Scenario: the exec deadline is shared by the first leg and the inline resume leg
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2000}
      """
    And the tool "weather" takes 600 ms
    And a turn starts
    When the model calls exec with:
      """js
      await tools.callValue("weather", { city: "Oslo" });
      const start = Date.now();
      while (Date.now() - start < 1800) {}
      return "finished";
      """
    Then the result fails with code "timeout"
    And the result error is "code mode timeout exceeded"
    And the result failure phase is "bridge"

  @core @CM-8.16 @CM-18.2 @CM-7.6 @CM-19.1 @checklist-18 @CM-19.2
  Scenario: guest code still running at the exec deadline is interrupted with a timeout
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    And a turn starts
    When the model calls exec with:
      """js
      while (true) {}
      """
    Then the result fails with code "timeout"
    And the result error is "code mode timeout exceeded"
    And the result failure phase is "guest"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": []}
      """

  # Suspension and wait

  @snapshots @CM-8.15 @CM-8.1 @CM-8.3 @CM-8.11 @CM-8.22 @CM-8.24 @checklist-21 @e2e-12 @e2e-13 @timing
  Scenario: a nested call pending at the deadline parks the run and wait delivers its result
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 1000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.sky;
      """
    Then the result is waiting with reason "pending_tools"
    And the result includes:
      """json
      {"runId": "<run-id>", "replaySafe": false, "output": []}
      """
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was called 1 time
    When the model calls wait
    Then the result status is "completed"
    And the result value is "clear"
    And the tool "weather" was called 1 time

  @snapshots @CM-8.14 @timing
  Scenario: a resume leg does not start with less than the minimum time left
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 500}
      """
    And the tool "weather" takes 300 ms
    And a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result status is "waiting"
    When the model calls wait
    Then the result status is "completed"
    And the result value is 21

  @snapshots @CM-8.9 @CM-8.10 @CM-8.11 @CM-8.12 @CM-8.25 @CM-10.24 @checklist-21 @CM-8.3
  Scenario: yield_control suspends the run and wait resumes it with the yield result
    Given a turn starts
    When the model calls exec with:
      """js
      text("before");
      const resumed = await yield_control("pause");
      text("after");
      return resumed;
      """
    Then the result is waiting with reason "yield"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:yield:1", "method": "yield"}]
      """
    And the result output is:
      """json
      [{"type": "text", "text": "before"}]
      """
    When the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      {"status": "yielded", "reason": "pause"}
      """
    And the result output is:
      """json
      [{"type": "text", "text": "after"}]
      """

  @snapshots @CM-8.25 @CM-7.17
  Scenario Outline: yield_control resolves with <case> as its reason
    Given a turn starts
    When the model calls exec with:
      """js
      return await yield_control(<argument>);
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result status is "completed"
    And the result value is <value>

    Examples:
      | case                                  | argument    | value                                    |
      | null when omitted                     |             | {"status":"yielded","reason":null}       |
      | an adapted object                     | { step: 2 } | {"status":"yielded","reason":{"step":2}} |
      | a bigint adapted to a string          | 10n         | {"status":"yielded","reason":"10"}       |
      | a function adapted to its source text | () => 1     | {"status":"yielded","reason":"() => 1"}  |

  @snapshots @CM-8.9 @CM-8.10 @CM-8.11
  Scenario: a yield with a pending nested call dispatches the call and returns control to the model
    Given the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const w = tools.callValue("weather", { city: "Oslo" });
      await yield_control("check");
      return (await w).city;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}, {"id": "bridge:yield:1", "method": "yield"}]
      """
    When the tool "weather" is released
    And the model calls wait
    Then the result status is "completed"
    And the result value is "Oslo"
    And the tool "weather" was called 1 time

  @snapshots @CM-8.9 @CM-8.6 @CM-8.10 @timing
  Scenario: a yield returns control at once while the other nested calls run on the host
    Given the tool "weather" takes 1000 ms
    And a turn starts
    When the model calls exec with:
      """js
      const w = tools.callValue("weather", { city: "Oslo" }).then((r) => {
        text("weather settled");
        return r;
      });
      const resumed = await yield_control("check");
      return [(await w).city, resumed.reason];
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}, {"id": "bridge:yield:1", "method": "yield"}]
      """
    And the result output is:
      """json
      []
      """
    When 1500 ms pass
    Then the tool "weather" was called 1 time
    When the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      ["Oslo", "check"]
      """
    And the result output is:
      """json
      [{"type": "text", "text": "weather settled"}]
      """
    And the tool "weather" was called 1 time

  @snapshots @CM-8.10 @CM-8.11 @timing
  Scenario: a yield whose other nested calls have settled is reported with reason yield
    Given the tool "weather" takes 300 ms
    And a turn starts
    When the model calls exec with:
      """js
      const w = tools.callValue("weather", { city: "Oslo" });
      await tools.callValue("read", { path: "notes.txt" });
      const start = Date.now();
      while (Date.now() - start < 1500) {}
      const resumed = await yield_control("check");
      return [(await w).temp, resumed.reason];
      """
    Then the result is waiting with reason "yield"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:yield:1", "method": "yield"}]
      """
    When the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      [21, "check"]
      """
    And the tool "weather" was called 1 time

  @snapshots @CM-8.11 @CM-8.12 @CM-8.7
  Scenario: pending tool calls are listed in issue order with per-method counters
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 3000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const a = tools.callValue("weather", { city: "a" });
      const b = tools.call("weather", { city: "b" });
      const c = tools.callValue("weather", { city: "c" });
      const d = tools.search("weather");
      const [x, y, z, hits] = await Promise.all([a, b, c, d]);
      return [x.temp, y.result.details.temp, z.temp, hits.length > 0];
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [
        {"id": "bridge:callValue:1", "method": "callValue"},
        {"id": "bridge:call:1", "method": "call"},
        {"id": "bridge:callValue:2", "method": "callValue"}
      ]
      """
    When the tool "weather" is released
    And 100 ms pass
    And the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      [21, 21, 21, true]
      """
    And the tool "weather" was called 3 times

  @snapshots @CM-8.11 @CM-8.24
  Scenario: bridge request counters run on across the legs of a run and start again in a new run
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control("one");
      await yield_control("two");
      return "done";
      """
    Then the result is waiting with reason "yield"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:yield:1", "method": "yield"}]
      """
    When the model calls wait
    Then the result is waiting with reason "yield"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:yield:2", "method": "yield"}]
      """
    When the model calls exec with:
      """js
      return await yield_control("three");
      """
    Then the result is waiting with reason "yield"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:yield:1", "method": "yield"}]
      """

  @restart-safe @CM-8.12 @CM-8.11
  Scenario: search and describe requests of a restart-safe run are listed as pending bridge requests
    Given a turn starts
    When the model calls exec restart-safe with:
      """js
      const [hits, entry] = await Promise.all([tools.search("weather"), tools.describe("openclaw:core:read")]);
      return [hits[0].id, entry.id];
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:search:1", "method": "search"}, {"id": "bridge:describe:1", "method": "describe"}]
      """
    When the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      ["openclaw:core:weather", "openclaw:core:read"]
      """

  @snapshots @CM-8.22 @CM-8.23 @checklist-21 @timing
  Scenario: wait returns waiting with the same run id while no pending call has settled
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 1000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const [w, r] = await Promise.all([
        tools.callValue("weather", { city: "Oslo" }),
        tools.callValue("read", { path: "notes.txt" }),
      ]);
      return [w.temp, r.kind];
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    When the model calls wait
    Then the result is waiting with reason "pending_tools"
    And the result run id is the previous one
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    When the tool "weather" is released
    And 100 ms pass
    And the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      [21, "text"]
      """

  @snapshots @CM-8.23 @CM-8.22 @CM-8.24 @CM-8.8 @timing
  Scenario: a wait that is not ready lists only the still-unsettled requests
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2000}
      """
    And the tool "weather" is held until released
    And the tool "read" takes 2500 ms
    And a turn starts
    When the model calls exec with:
      """js
      tools.callValue("weather", { city: "Oslo" }).then(() => text("weather"));
      tools.callValue("read", { path: "notes.txt" }).then(() => text("read"));
      return "top";
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}, {"id": "bridge:callValue:2", "method": "callValue"}]
      """
    When the model calls wait
    Then the result is waiting with reason "pending_tools"
    And the result run id is the previous one
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    And the result output is:
      """json
      []
      """
    When the tool "weather" is released
    And 100 ms pass
    And the model calls wait
    Then the result status is "completed"
    And the result value is "top"
    And the result output is:
      """json
      [{"type": "text", "text": "read"}, {"type": "text", "text": "weather"}]
      """

  @snapshots @CM-8.7 @CM-8.22 @CM-7.25 @CM-8.24 @CM-7.24
  Scenario: wait drains unawaited nested calls after the top-level promise settled
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      tools.callValue("weather", { city: "Oslo" }).then((w) => text("got " + w.temp));
      return "top";
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    When the tool "weather" is released
    And 100 ms pass
    And the model calls wait
    Then the result status is "completed"
    And the result value is "top"
    And the result output is:
      """json
      [{"type": "text", "text": "got 21"}]
      """

  @snapshots @CM-8.5
  Scenario: two suspended runs of one agent run are resumed independently
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control("first");
      return "first run";
      """
    Then the result is waiting with reason "yield"
    When the model calls exec with:
      """js
      await yield_control("second");
      return "second run";
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is "second run"
    When the model calls wait with run id arguments:
      """json
      {"runId": "<run-id:1>"}
      """
    Then the result status is "completed"
    And the result value is "first run"

  @snapshots @CM-8.24 @timing
  Scenario: the interrupt deadline is applied again to a restored run
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    And a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      while (true) {}
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "timeout"
    And the result error is "code mode timeout exceeded"
    And the result failure phase is "bridge"

  @snapshots @CM-8.6 @CM-8.24
  Scenario: nested calls awaited after a resume are resolved inline within the same wait call
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      const w = await tools.callValue("weather", { city: "Oslo" });
      const r = await tools.callValue("read", { path: "notes.txt" });
      return [w.temp, r.kind];
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      [21, "text"]
      """
    And the tool "weather" was called 1 time
    And the tool "read" was called 1 time

  @snapshots @CM-8.13 @timing
  Scenario: the wait deadline is shared by the restored leg and the inline resume leg
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2000}
      """
    And the tool "weather" takes 600 ms
    And a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      await tools.callValue("weather", { city: "Oslo" });
      const start = Date.now();
      while (Date.now() - start < 1800) {}
      return "finished";
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "timeout"
    And the result error is "code mode timeout exceeded"
    And the result failure phase is "bridge"

  @snapshots @CM-8.3
  Scenario: a suspended run keeps its catalog counters across wait
    Given a turn starts
    When the model calls exec with:
      """js
      await tools.search("weather");
      await tools.callValue("weather", { city: "Oslo" });
      await yield_control();
      await tools.describe("openclaw:core:read");
      return "done";
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result status is "completed"
    And the telemetry includes:
      """json
      {"searchCount": 1, "describeCount": 1, "callCount": 1}
      """

  @snapshots @CM-8.3 @CM-7.18
  Scenario: a suspended run keeps the configuration resolved for it when the configuration changes
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      text("y".repeat(1500));
      return 1;
      """
    Then the result is waiting with reason "yield"
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 65536}
      """
    When the model calls wait
    Then the result fails with code "output_limit_exceeded"

  # 8.3 wait refusals

  @snapshots @CM-8.19 @CM-8.20 @CM-19.1 @CM-19.4 @checklist-22 @CM-19.2
  Scenario: wait refuses an unknown run id with an input failure payload
    Given a turn starts
    When the model calls wait with arguments:
      """json
      {"runId": "cm_00000000-0000-4000-8000-000000000000"}
      """
    Then the result includes:
      """json
      {
        "status": "failed",
        "error": "code mode run is unavailable or expired.",
        "code": "invalid_input",
        "failurePhase": "input",
        "bridgeDispatchStarted": false,
        "output": [],
        "replaySafe": false,
        "telemetry": {
          "catalogSize": 4,
          "sources": {"openclaw": 3, "mcp": 0, "client": 1},
          "searchCount": 0,
          "describeCount": 0,
          "callCount": 0,
          "visibleTools": ["exec", "wait"]
        }
      }
      """

  @snapshots @CM-8.18 @CM-8.17 @CM-19.4 @CM-19.2
  Scenario Outline: wait refuses a run id that is <case>
    Given a turn starts
    When the model calls wait with arguments:
      """json
      <arguments>
      """
    Then the result fails with code "invalid_input"
    And the result error is "runId must be a non-empty string."
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": [], "replaySafe": false}
      """

    Examples:
      | case                      | arguments                                                                 |
      | missing                   | {}                                                                        |
      | only whitespace           | {"runId": "  \\t "}                                                       |
      | a number                  | {"runId": 7}                                                              |
      | a number beside a run_id  | {"runId": 7, "run_id": "cm_00000000-0000-4000-8000-000000000000"}         |

  @snapshots @CM-8.17
  Scenario Outline: wait reads the run id <case>
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      return "resumed";
      """
    Then the result is waiting with reason "yield"
    When the model calls wait with run id arguments:
      """json
      <arguments>
      """
    Then the result status is "completed"
    And the result value is "resumed"

    Examples:
      | case                                 | arguments                                                                         |
      | from run_id when runId is absent     | {"run_id": "<run-id:latest>"}                                                     |
      | with surrounding whitespace          | {"runId": "  <run-id:latest>\\n"}                                                 |
      | from runId when run_id is also given | {"runId": "<run-id:latest>", "run_id": "cm_00000000-0000-4000-8000-000000000000"} |

  @snapshots @CM-8.19 @CM-22.8 @checklist-22 @CM-8.3
  Scenario: wait refuses a run created by an earlier agent run of the same session
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    When the turn ends
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run belongs to a different agent run."
    And the result failure phase is "input"

  @snapshots @CM-8.19
  Scenario: wait checks the agent run before the session
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    When a turn starts in session "other"
    And the model calls wait
    Then the wait is refused with "code mode run belongs to a different agent run."

  @snapshots @CM-8.19 @CM-8.20 @checklist-22 @CM-19.2 @CM-8.3
  Scenario: wait refuses a run of another session within the same agent run
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    When a turn starts in session "other" within the same agent run
    And the model calls wait
    Then the wait is refused with "code mode run belongs to a different session."
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": [], "replaySafe": false}
      """

  @snapshots @CM-8.19 @CM-8.20 @CM-8.3
  Scenario: wait refuses a run of another agent within the same agent run and session
    Given the config also has:
      """json
      {"agents": {"list": [{"id": "main"}, {"id": "helper"}]}}
      """
    And a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    When a turn starts for agent "helper" within the same agent run and session
    And the model calls wait
    Then the wait is refused with "code mode run belongs to a different session."
    And the result failure phase is "input"
    When a turn starts for agent "main" within the same agent run and session
    And the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      1
      """

  @snapshots @CM-8.19 @CM-8.20 @CM-8.21 @checklist-22 @CM-19.2
  Scenario: a second concurrent wait for the same run is refused and leaves the run intact
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 3000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result is waiting with reason "pending_tools"
    When the model calls wait twice at the same time
    Then the both wait results are:
      """json
      [
        {"status": "waiting", "runId": "<run-id>", "reason": "pending_tools"},
        {
          "status": "failed",
          "error": "code mode run is already being resumed.",
          "code": "invalid_input",
          "failurePhase": "input",
          "bridgeDispatchStarted": false,
          "output": [],
          "replaySafe": false
        }
      ]
      """
    When the tool "weather" is released
    And 100 ms pass
    And the model calls wait
    Then the result status is "completed"
    And the result value is 21

  # 8.4 Lifetime and limits

  @snapshots @CM-8.28 @checklist-22
  Scenario: a completed run cannot be resumed again
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      return "once";
      """
    And the model calls wait
    Then the result value is "once"
    When the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @snapshots @CM-8.27 @CM-8.28 @CM-7.7 @CM-7.6
  Scenario: a resumed run that throws fails with the bridge phase and is removed
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      throw new Error("after resume");
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "internal_error"
    And the result error starts with "Error: after resume"
    And the result failure phase is "bridge"
    And the result includes:
      """json
      {"bridgeDispatchStarted": true}
      """
    When the turn ends
    And a turn starts
    And the model calls wait with run id arguments:
      """json
      {"runId": "<run-id:1>"}
      """
    Then the wait is refused with "code mode run is unavailable or expired."

  @snapshots @CM-8.29 @CM-8.30 @CM-22.13 @CM-8.28 @CM-8.20 @checklist-22 @e2e-15 @CM-19.2 @timing
  Scenario: a suspended run expires after snapshotTtlSeconds and its host work is cancelled
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300, "snapshotTtlSeconds": 1}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result is waiting with reason "pending_tools"
    When 1200 ms pass
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."
    And the result failure phase is "input"
    And the held calls of the tool "weather" are cancelled
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was not called

  @snapshots @CM-8.29 @timing @CM-8.3
  Scenario: the run expiry counts from the latest suspension
    Given code mode is configured as:
      """json
      {"enabled": true, "snapshotTtlSeconds": 2}
      """
    And a turn starts
    When the model calls exec with:
      """js
      await yield_control("one");
      await yield_control("two");
      return "done";
      """
    Then the result is waiting with reason "yield"
    When 1300 ms pass
    And the model calls wait
    Then the result is waiting with reason "yield"
    When 1300 ms pass
    And the model calls wait
    Then the result status is "completed"
    And the result value is "done"

  @snapshots @CM-8.37 @CM-8.28 @CM-22.13 @checklist-22 @e2e-15 @timing
  Scenario: aborting the agent run disposes its suspended runs and cancels their host work
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result is waiting with reason "pending_tools"
    When the turn is aborted
    # An aborted agent run takes no more tool calls: the wait comes from the
    # next run of the session.
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."
    And the held calls of the tool "weather" are cancelled
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was not called

  @snapshots @CM-8.40 @CM-8.28
  Scenario: ending a session disposes its suspended runs and leaves other sessions' runs alone
    When a turn starts in session "ending"
    And the model calls exec with:
      """js
      return await yield_control("gone");
      """
    Then the result is waiting with reason "yield"
    When a turn starts in session "staying"
    And the model calls exec with:
      """js
      return await yield_control("kept");
      """
    Then the result is waiting with reason "yield"
    When the session "ending" is reset
    And the model calls wait
    Then the result value is:
      """json
      {"status": "yielded", "reason": "kept"}
      """
    When a turn starts in session "ending"
    And the model calls wait with run id arguments:
      """json
      {"runId": "<run-id:1>"}
      """
    Then the wait is refused with "code mode run is unavailable or expired."

  @snapshots @CM-8.40 @timing
  Scenario: ending a session cancels the pending host work of its suspended runs
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result is waiting with reason "pending_tools"
    When the session is reset
    Then the held calls of the tool "weather" are cancelled
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was not called
    When a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @snapshots @CM-8.38 @CM-19.2 @CM-19.4 @checklist-22 @e2e-15
  Scenario: an exec in progress when its agent run is aborted fails with execution aborted
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 10000}
      """
    And the tool "weather" is held until released
    And a turn starts
    And the turn will be aborted once a call of the tool "weather" is held
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result fails with code "timeout"
    And the result error is "code mode execution aborted"
    And the result failure phase is "bridge"

  @snapshots @CM-8.38
  Scenario: a wait in progress when its agent run is aborted fails with execution aborted and disposes the run
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 10000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result is waiting with reason "yield"
    When the turn will be aborted once a call of the tool "weather" is held
    And the model calls wait
    Then the result fails with code "timeout"
    And the result error is "code mode execution aborted"
    When a turn starts
    And the model calls wait with run id arguments:
      """json
      {"runId": "<run-id:1>"}
      """
    Then the wait is refused with "code mode run is unavailable or expired."
    And the held calls of the tool "weather" are cancelled
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was not called

  @snapshots @CM-8.31 @CM-8.32 @CM-8.33 @CM-8.28 @CM-19.4 @CM-19.2
  Scenario: a process holds at most 64 suspended runs
    # A generous deadline: 64 cells at once on a small, loaded machine (or
    # under the race detector) must not turn into timeouts.
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 60000}
      """
    And a turn starts
    When the model calls exec 64 times at the same time with:
      """js
      await yield_control();
      return "slot";
      """
    Then the result is waiting with reason "yield"
    When the model calls exec with:
      """js
      return "no slot needed";
      """
    Then the result status is "completed"
    And the result value is "no slot needed"
    When the model calls wait
    Then the result status is "completed"
    And the result value is "slot"
    When the model calls exec with:
      """js
      await yield_control();
      return "after a slot was freed";
      """
    Then the result is waiting with reason "yield"
    # The refusal comes last: a host may end the turn's tool use after a
    # failure that is not repairable (SPEC A#56).
    When the model calls exec with:
      """js
      await yield_control();
      return "sixty-fifth";
      """
    Then the result fails with code "invalid_input"
    And the result error is "too many suspended code mode runs."
    And the result failure phase is "bridge"

  @snapshots @CM-8.31 @timing
  Scenario: a run being resumed keeps its slot among the 64 suspended runs
    # 63 runs are stored and the 64th is being resumed by a wait that waits on a
    # held tool; a new run that suspends meanwhile, in another session, finds
    # no slot.
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 60000}
      """
    And the tool "weather" is held until released
    When a turn starts in session "full"
    And the model calls exec 63 times at the same time with:
      """js
      await yield_control();
      return "slot";
      """
    Then 63 of the results have status "waiting"
    When a turn starts in session "resumed"
    And the model calls exec with:
      """js
      await yield_control("first leg");
      return (await tools.callValue("weather", { city: "Oslo" })).temp;
      """
    Then the result is waiting with reason "yield"
    When the model starts wait in the background
    Then a call of the tool "weather" is held
    And a turn starts in session "late"
    And the model calls exec with:
      """js
      await yield_control();
      return "sixty-fifth";
      """
    Then the result fails with code "invalid_input"
    And the result error is "too many suspended code mode runs."
    And the background wait is still running
    When the tool "weather" is released
    And the background wait ends
    Then the result status is "completed"
    And the result value is 21

  @snapshots @CM-8.32 @CM-8.31
  Scenario: a run refused for the 64-run limit cancels its host work and is not stored
    # The first run is suspended in another session, so that ending that
    # session frees one slot without touching the refused run's session.
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 60000}
      """
    And the tool "weather" is held until released
    When a turn starts in session "first"
    And the model calls exec with:
      """js
      return await yield_control("first");
      """
    Then the result is waiting with reason "yield"
    When a turn starts in session "full"
    And the model calls exec 63 times at the same time with:
      """js
      await yield_control();
      return "slot";
      """
    Then 63 of the results have status "waiting"
    When the model calls exec with:
      """js
      const w = tools.callValue("weather", { city: "Oslo" });
      await yield_control();
      return (await w).temp;
      """
    Then the result fails with code "invalid_input"
    And the result error is "too many suspended code mode runs."
    And the held calls of the tool "weather" are cancelled
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was not called
    When the session "first" is deleted
    And a turn starts in session "after"
    And the model calls exec with:
      """js
      await yield_control();
      return "after a slot was freed";
      """
    Then the result is waiting with reason "yield"

  @snapshots @CM-8.31 @CM-8.32
  Scenario: a run whose host work would resolve inline needs a slot of the 64-run limit
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 60000}
      """
    And a turn starts
    When the model calls exec 64 times at the same time with:
      """js
      await yield_control();
      return "slot";
      """
    Then 64 of the results have status "waiting"
    When the model calls exec with:
      """js
      return (await tools.callValue("weather", { city: "Oslo" })).city;
      """
    Then the result fails with code "invalid_input"
    And the result error is "too many suspended code mode runs."
    And the tool "weather" was not called
    When the model calls exec with:
      """js
      return "no host work, no slot";
      """
    Then the result value is "no host work, no slot"
    When the model calls wait
    Then the result value is "slot"
    When the model calls exec with:
      """js
      return (await tools.callValue("weather", { city: "Oslo" })).city;
      """
    Then the result value is "Oslo"
    And the tool "weather" was called 1 times

  @snapshots @CM-8.31
  Scenario: a run that resolved its host work inline gives its slot of the 64-run limit back
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 60000}
      """
    And a turn starts
    When the model calls exec with:
      """js
      return (await tools.callValue("weather", { city: "Oslo" })).city;
      """
    Then the result value is "Oslo"
    When the model calls exec with:
      """js
      return (await tools.callValue("weather", { city: "Oslo" })).city;
      """
    Then the result value is "Oslo"
    When the model calls exec 64 times at the same time with:
      """js
      await yield_control();
      return "slot";
      """
    Then 64 of the results have status "waiting"

  @snapshots @CM-8.35 @CM-8.31
  Scenario: a snapshot over maxSnapshotBytes is not stored and takes no slot of the 64-run limit
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 60000}
      """
    And a turn starts
    When the model calls exec 63 times at the same time with:
      """js
      await yield_control();
      return "slot";
      """
    Then 63 of the results have status "waiting"
    When the model calls exec with:
      """js
      const big = new Uint8Array(12 * 1024 * 1024).fill(7);
      await yield_control();
      return big.length;
      """
    Then the result fails with code "snapshot_limit_exceeded"
    And the result error is "code mode snapshot limit exceeded"
    When the turn ends
    And a turn starts
    And the model calls exec with:
      """js
      await yield_control();
      return "sixty-fourth";
      """
    Then the result is waiting with reason "yield"
    When the model calls exec with:
      """js
      await yield_control();
      return "sixty-fifth";
      """
    Then the result fails with code "invalid_input"
    And the result error is "too many suspended code mode runs."

  @snapshots @CM-8.34 @CM-7.6 @CM-19.4
  Scenario Outline: a promise pending without host work fails the run <case>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "internal_error"
    And the result error is "code mode promise is pending without host work"
    And the result failure phase is "<phase>"

    Examples:
      | case                        | code                                                                                     | phase  |
      | before any nested call      | await new Promise(() => {});\nreturn 1;                                                  | guest  |
      | after a nested call         | await tools.callValue("weather", { city: "Oslo" });\nawait new Promise(() => {});\nreturn 1; | bridge |

  @snapshots @CM-8.35 @CM-8.36 @CM-19.1 @CM-19.4 @checklist-20 @CM-19.2
  Scenario: a snapshot larger than maxSnapshotBytes fails the run instead of suspending it
    Given code mode is configured as:
      """json
      {"enabled": true, "maxSnapshotBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      text("before");
      await yield_control();
      return 1;
      """
    Then the result fails with code "snapshot_limit_exceeded"
    And the result error is "code mode snapshot limit exceeded"
    When the turn ends
    And a turn starts
    And the model calls exec with:
      """js
      return "still usable";
      """
    Then the result status is "completed"
    And the result value is "still usable"

  @snapshots @CM-8.39 @CM-8.35
  Scenario: memory allocated and freed after a restore still counts against maxSnapshotBytes
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control("small");
      let big = "x".repeat(20 * 1024 * 1024);
      big = null;
      await yield_control("after");
      return 1;
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "snapshot_limit_exceeded"
    And the result error is "code mode snapshot limit exceeded"

  @snapshots @CM-8.36 @checklist-20
  Scenario: the snapshot limit is checked before nested calls are resolved inline
    Given code mode is configured as:
      """json
      {"enabled": true, "maxSnapshotBytes": 1024}
      """
    And a turn starts
    When the model calls exec with:
      """js
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result fails with code "snapshot_limit_exceeded"
    And the result error is "code mode snapshot limit exceeded"

  # 8.5 Replicas: a target of several replicas behind one front, each turn
  # served by the next replica (profile cluster)

  @cluster @CM-8.42
  Scenario: a wait sent to another replica resumes a run with host work on its holder
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 1000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      text("before");
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result is waiting with reason "pending_tools"
    When the tool "weather" is released
    And a turn starts within the same agent run and session
    And the model calls wait
    Then the result status is "completed"
    And the result value is 21
    And the tool "weather" was called 1 time

  @cluster @CM-8.43
  Scenario: a run whose replica was killed resumes on another replica
    Given a turn starts
    When the model calls exec with:
      """js
      const resumed = await yield_control("pause");
      return resumed.reason;
      """
    Then the result is waiting with reason "yield"
    When the replica serving the turn is killed
    And a turn starts within the same agent run and session
    And the model calls wait
    Then the result status is "completed"
    And the result value is "pause"

  @cluster @CM-8.43
  Scenario: host work lost with a killed replica rejects in the resumed run
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 1000}
      """
    And the tool "weather" is held until released
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("weather", { city: "Oslo" });
        return "settled";
      } catch (e) {
        return e.message;
      }
      """
    Then the result is waiting with reason "pending_tools"
    When the replica serving the turn is killed
    And a turn starts within the same agent run and session
    And the model calls wait
    Then the result status is "completed"
    And the result value is "code mode host work was lost with the gateway replica that ran it."

  @cluster @CM-8.44 @CM-8.19
  Scenario: the same wait sent to three replicas at once resumes the run once
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      const w = await tools.callValue("weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result is waiting with reason "yield"
    When a turn starts within the same agent run and session
    And a turn starts within the same agent run and session
    And the model calls wait in the latest 3 turns at the same time
    Then 1 of the results have status "completed"
    And every other result is refused with "code mode run is already being resumed." or "code mode run is unavailable or expired."
    And the tool "weather" was called 1 time
