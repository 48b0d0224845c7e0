Feature: QuickJS-WASI runtime engine
  SPEC chapter 17: every exec and resume leg runs in its own isolated QuickJS-WASI VM with its
  limits re-applied, in UTC, and a missing or corrupt runtime fails closed as runtime_unavailable.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  @snapshots @CM-17.4 @CM-10.8
  Scenario: Each engine exec runs in a fresh VM that does not see globals of the previous exec
    When a turn starts
    And the model calls exec with:
      """js
      globalThis.counter = (globalThis.counter ?? 0) + 1;
      Array.prototype.sneaky = "first run";
      return globalThis.counter;
      """
    Then the result value is 1
    When the model calls exec with:
      """js
      globalThis.counter = (globalThis.counter ?? 0) + 1;
      return [globalThis.counter, typeof [].sneaky];
      """
    Then the result value is:
      """json
      [1, "undefined"]
      """

  @snapshots @CM-17.5 @CM-8.24 @CM-10.32
  Scenario: Host callbacks work again in the restored VM after wait
    When a turn starts
    And the model calls exec with:
      """js
      const before = (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp;
      await yield_control("engine restore");
      const after = (await tools.callValue("openclaw:core:read", { path: "notes.txt" })).content;
      const random = Math.random();
      return { before, after, randomInRange: random >= 0 && random < 1 };
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is:
      """json
      {"before": 21, "after": "hello from notes\n", "randomInRange": true}
      """
    And the telemetry includes:
      """json
      {"callCount": 2}
      """

  @snapshots @CM-17.6 @CM-18.2 @CM-7.6 @timing
  Scenario: The interrupt deadline is re-applied to a restored VM
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 500}
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
    And the result error is "code mode timeout exceeded"
    And the result failure phase is "bridge"
    And the result includes:
      """json
      {"bridgeDispatchStarted": true, "output": []}
      """

  @snapshots @CM-17.6 @CM-18.6 @SB-10
  Scenario: The memory limit is re-applied to a restored VM that keeps a closure across wait
    Given code mode is configured as:
      """json
      {"enabled": true, "memoryLimitBytes": 16777216, "timeoutMs": 30000}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const kept = "k".repeat(1 << 20);
      const grow = () => {
        let s = kept;
        while (true) s = s.repeat(2);
      };
      await yield_control("then grow");
      grow();
      return "unreachable";
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result fails with code "internal_error"
    And the result error starts with "InternalError: out of memory"
    And the result failure phase is "bridge"

  @snapshots @CM-17.7 @SB-09
  Scenario: Deep guest recursion raises a catchable RangeError and the VM keeps working
    When a turn starts
    And the model calls exec with:
      """js
      function dive(depth) {
        return dive(depth + 1) + 1;
      }
      let caught;
      try {
        dive(0);
        caught = "no overflow";
      } catch (error) {
        caught = [error instanceof RangeError, error.name];
      }
      return { caught, stillWorks: [1, 2, 3].map((n) => n * 2) };
      """
    Then the result value is:
      """json
      {"caught": [true, "RangeError"], "stillWorks": [2, 4, 6]}
      """

  @snapshots @CM-17.8
  Scenario: The pending-job queue is drained before a leg is judged complete
    When a turn starts
    And the model calls exec with:
      """js
      const order = [];
      Promise.resolve().then(() => order.push("a")).then(() => order.push("c"));
      Promise.resolve().then(() => order.push("b"));
      Promise.resolve().then(() => Promise.resolve()).then(() => text("late microtask"));
      await null;
      order.push("after await");
      return order.slice();
      """
    Then the result status is "completed"
    And the result value is:
      """json
      ["a", "b", "after await"]
      """
    And the result output is:
      """json
      [{"type": "text", "text": "late microtask"}]
      """

  @snapshots @CM-17.14 @CM-10.33
  Scenario: The engine's local time zone is UTC and Date follows the host clock
    When a turn starts
    And the model calls exec with:
      """js
      return {
        offset: new Date(2024, 6, 1).getTimezoneOffset(),
        local: new Date(2024, 0, 15, 10, 30).toISOString(),
        hours: new Date(Date.UTC(2024, 6, 1, 23)).getHours(),
        text: new Date(0).toString().includes("GMT+0000"),
        recent: Date.now() > Date.UTC(2025, 0, 1),
      };
      """
    Then the result value is:
      """json
      {"offset": 0, "local": "2024-01-15T10:30:00.000Z", "hours": 23, "text": true, "recent": true}
      """

  @snapshots @CM-17.13 @CM-3.13 @SB-18
  Scenario: A missing quickjs-wasi binary fails every exec closed while the surface stays exec and wait
    Given the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true,
       "parameters": {"type": "object", "required": ["action"], "properties": {"action": {"type": "string"}}},
       "behavior": {"returns": {"done": true}}}
      """
    And the quickjs-wasi binary is missing
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      """
    Then the result fails with code "runtime_unavailable"
    And the result error starts with "code mode runtime is unavailable: "
    And the result failure phase is "host"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": [], "replaySafe": false}
      """
    When the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "runtime_unavailable"
    And the tool "read" was not called
    When the model calls "computer" with:
      """json
      {"action": "screenshot"}
      """
    Then the tool "computer" was called 1 times

  @snapshots @CM-17.13 @CM-17.1 @CM-3.14 @SB-18
  Scenario: A corrupt quickjs-wasi binary fails its check and never falls back to direct tools
    Given the quickjs-wasi binary is corrupt
    When a turn starts
    Then the model-visible tools are "exec, wait"
    And the model-visible tools do not include "read"
    When the model calls exec with:
      """js
      return "should not run";
      """
    Then the result fails with code "runtime_unavailable"
    And the result error starts with "code mode runtime is unavailable: "
    And the result failure phase is "host"
    And the telemetry includes:
      """json
      {"catalogSize": 4, "visibleTools": ["exec", "wait"]}
      """

  @core @CM-17.13 @CM-3.14 @SB-18
  Scenario: An unreadable quickjs-wasi binary fails every exec closed and never falls back to direct tools
    Given the quickjs-wasi binary is unreadable
    When a turn starts
    Then the model-visible tools are "exec, wait"
    And the model-visible tools do not include "read"
    When the model calls exec with:
      """js
      return await tools.callValue("read", { path: "notes.txt" });
      """
    Then the result fails with code "runtime_unavailable"
    And the result error starts with "code mode runtime is unavailable: "
    And the result failure phase is "host"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": []}
      """
    And the tool "read" was not called

  @snapshots @CM-17.10 @CM-8.28 @CM-18.11 @SB-14
  Scenario: A run's VM and snapshot are released once the run reaches a terminal state
    When a turn starts
    And the model calls exec with:
      """js
      const resumed = await yield_control("once");
      return resumed.reason;
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is "once"
    When the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @snapshots @CM-17.11 @checklist-18 @timing
  Scenario: Busy guest code in one exec does not block a concurrent exec
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2500}
      """
    When a turn starts
    And the model calls exec 2 times at the same time with:
      """js
      const started = Date.now();
      while (Date.now() - started < 1500) {}
      return "spun";
      """
    Then the result status is "completed"
    And the result value is "spun"

  @snapshots @CM-17.8
  Scenario: Jobs queued by a bridge result are drained and a yield reached only through jobs suspends the leg
    When a turn starts
    And the model calls exec with:
      """js
      const sky = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      Promise.resolve().then(() => Promise.resolve()).then(() => text("jobs after the bridge result"));
      const resumed = await Promise.resolve().then(() => null).then(() => null).then(() => yield_control("from a job"));
      return [sky.sky, resumed.reason];
      """
    Then the result is waiting with reason "yield"
    And the result output is:
      """json
      [{"type": "text", "text": "jobs after the bridge result"}]
      """
    When the model calls wait
    Then the result value is:
      """json
      ["clear", "from a job"]
      """
