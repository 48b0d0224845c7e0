Feature: Restart safety
  SPEC.md chapter 9: restartSafe runs never resolve bridge requests inline,
  refuse side-effecting and namespace calls before dispatch, mark their
  results replay-safe and can be rebuilt from the transcript after a restart.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  @restart-safe @CM-9.1 @CM-9.6 @CM-9.8 @CM-9.9 @CM-7.8
  Scenario: a restart-safe run returns waiting for a replay-safe call and completes after wait
    Given the tool "read" is held until released
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      const file = await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      return file.content;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    And the result includes:
      """json
      {"runId": "<run-id>", "replaySafe": true}
      """
    When the tool "read" is released
    And the model calls wait
    Then the result status is "completed"
    And the result value is "hello from notes\n"
    And the result includes:
      """json
      {"replaySafe": true}
      """
    And the tool "read" was called 1 time

  @restart-safe @CM-9.3 @CM-9.4 @CM-9.6 @CM-19.4 @CM-19.2 @CM-9.1
  Scenario: a restart-safe run refuses a tool that is not marked replay-safe
    Given a turn starts
    When the model calls exec restart-safe with:
      """js
      const w = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return w.temp;
      """
    Then the result fails with code "invalid_input"
    And the result error is "restart-safe code mode cannot call side-effecting tools."
    And the result includes:
      """json
      {"replaySafe": true}
      """
    And the tool "weather" was not called

  @restart-safe @CM-9.6
  Scenario: a restart-safe run accepts tools.call with the catalog id of a replay-safe tool
    Given a turn starts
    When the model calls exec restart-safe with:
      """js
      const file = await tools.call("openclaw:core:read", { path: "notes.txt" });
      return file.result.details.content;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:call:1", "method": "call"}]
      """
    And the result includes:
      """json
      {"replaySafe": true}
      """
    When the model calls wait
    Then the result status is "completed"
    And the result value is "hello from notes\n"
    And the tool "read" was called 1 time

  @restart-safe @CM-9.6
  Scenario: a plugin tool whose metadata sets replaySafe is replay-safe
    Given the tool:
      """json
      {
        "name": "shipping_status",
        "source": "plugin",
        "owner": "shipping",
        "description": "Count open shipments.",
        "replaySafe": true,
        "behavior": {"returns": {"open": 2}}
      }
      """
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      const status = await tools.callValue("openclaw:shipping:shipping_status", {});
      return status.open;
      """
    Then the result is waiting with reason "pending_tools"
    And the result includes:
      """json
      {"replaySafe": true}
      """
    When the model calls wait
    Then the result status is "completed"
    And the result value is 2
    And the tool "shipping_status" was called 1 time

  @restart-safe @CM-9.6 @CM-9.7 @CM-9.4
  Scenario: a restart-safe run refuses a client tool even when it is marked replay-safe
    Given the tool:
      """json
      {
        "name": "pick_file",
        "source": "client",
        "owner": "app",
        "description": "Ask the user to pick a file.",
        "replaySafe": true,
        "behavior": {"returns": {"path": "report.pdf"}}
      }
      """
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      return await tools.callValue("client:app:pick_file", {});
      """
    Then the result fails with code "invalid_input"
    And the result error is "restart-safe code mode cannot call side-effecting tools."
    And the result includes:
      """json
      {"replaySafe": true}
      """
    And the tool "pick_file" was not called

  @restart-safe @CM-9.6 @CM-9.7 @CM-9.4
  Scenario Outline: a restart-safe run refuses <case>
    Given a turn starts
    When the model calls exec restart-safe with:
      """js
      <code>
      """
    Then the result fails with code "invalid_input"
    And the result error is "restart-safe code mode cannot call side-effecting tools."
    And the result includes:
      """json
      {"replaySafe": true}
      """
    And the tool "<tool>" was not called

    Examples:
      | case                                         | code                                                                    | tool        |
      | a replay-safe tool called by name            | return await tools.callValue("read", { path: "notes.txt" });            | read        |
      | a convenience function                       | return await tools.read({ path: "notes.txt" });                         | read        |
      | a client tool                                | return await tools.callValue("client:app:select_file", {});             | select_file |

  @restart-safe @CM-9.2 @CM-9.4 @CM-19.4
  Scenario: a restart-safe run refuses namespace calls
    Given the plugin "shipping" registers the namespace:
      """json
      {
        "id": "shipping-tools",
        "globalName": "Shipping",
        "description": "Shipment helpers.",
        "requiredToolNames": ["shipping_list"],
        "scope": {"list": {"$tool": "shipping_list"}}
      }
      """
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      return await Shipping.list();
      """
    Then the result fails with code "invalid_input"
    And the result error is "restart-safe code mode cannot call namespace tools."
    And the result includes:
      """json
      {"replaySafe": true}
      """
    And the tool "shipping_list" was not called

  @restart-safe @CM-9.2 @CM-9.3
  Scenario: a restart-safe leg with namespace and side-effecting calls reports side-effecting tools
    Given the plugin "shipping" registers the namespace:
      """json
      {
        "id": "shipping-tools",
        "globalName": "Shipping",
        "description": "Shipment helpers.",
        "requiredToolNames": ["shipping_list"],
        "scope": {"list": {"$tool": "shipping_list"}}
      }
      """
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      return await Promise.all([Shipping.list(), tools.callValue("openclaw:core:weather", { city: "Oslo" })]);
      """
    Then the result fails with code "invalid_input"
    And the result error is "restart-safe code mode cannot call side-effecting tools."
    And the tool "shipping_list" was not called
    And the tool "weather" was not called

  @restart-safe @CM-9.5 @CM-9.1 @CM-9.8 @CM-8.23 @CM-8.6
  Scenario: search and describe are replay-safe and resolved one leg per wait
    Given a turn starts
    When the model calls exec restart-safe with:
      """js
      const hits = await tools.search("weather");
      const entry = await tools.describe("openclaw:core:read");
      return [hits.length > 0, entry.id];
      """
    Then the result status is "waiting"
    And the result includes:
      """json
      {"runId": "<run-id>", "replaySafe": true}
      """
    When the model calls wait
    Then the result status is "waiting"
    And the result run id is the previous one
    And the result includes:
      """json
      {"replaySafe": true}
      """
    When the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      [true, "openclaw:core:read"]
      """
    And the result includes:
      """json
      {"replaySafe": true}
      """
    And the telemetry includes:
      """json
      {"searchCount": 1, "describeCount": 1}
      """

  @restart-safe @CM-9.5 @CM-9.8
  Scenario: a restart-safe yield is a replay-safe waiting result
    Given a turn starts
    When the model calls exec restart-safe with:
      """js
      await yield_control("checkpoint");
      return "resumed";
      """
    Then the result is waiting with reason "yield"
    And the result includes:
      """json
      {"replaySafe": true}
      """
    When the model calls wait
    Then the result value is "resumed"

  @restart-safe @CM-9.9 @CM-7.8
  Scenario Outline: the terminal payload of a restart-safe run is replay-safe when it <case>
    Given a turn starts
    When the model calls exec restart-safe with:
      """js
      <code>
      """
    Then the result status is "<status>"
    And the result includes:
      """json
      {"replaySafe": true}
      """

    Examples:
      | case      | code                            | status    |
      | completes | return 1;                       | completed |
      | fails     | throw new Error("restart-safe"); | failed    |

  @restart-safe @CM-9.10 @CM-9.12 @CM-22.5
  Scenario: a replay-safe waiting run lost in a restart is rebuilt from the transcript
    Given the tool "read" is held until released
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      text("one");
      const file = await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      text("two");
      return file.content;
      """
    Then the result is waiting with reason "pending_tools"
    And the result output is:
      """json
      [{"type": "text", "text": "one"}]
      """
    When the gateway restarts
    And a turn starts
    And the model calls wait
    Then the result is waiting with reason "pending_tools"
    And the result run id is the previous one
    And the result includes:
      """json
      {"replaySafe": true, "output": []}
      """
    When the tool "read" is released
    And the model calls wait
    Then the result status is "completed"
    And the result value is "hello from notes\n"
    And the result output is:
      """json
      [{"type": "text", "text": "two"}]
      """

  @restart-safe @CM-9.10
  Scenario: a TypeScript run lost in a restart is rebuilt as TypeScript
    Given the tool "read" is held until released
    And a turn starts
    When the model calls exec with arguments:
      """json
      {
        "code": "const file: { content: string } = await tools.callValue(\"openclaw:core:read\", { path: \"notes.txt\" });\nreturn file.content;",
        "language": "typescript",
        "restartSafe": true
      }
      """
    Then the result is waiting with reason "pending_tools"
    When the gateway restarts
    And a turn starts
    And the model calls wait
    Then the result is waiting with reason "pending_tools"
    And the result run id is the previous one
    When the tool "read" is released
    And the model calls wait
    Then the result status is "completed"
    And the result value is "hello from notes\n"

  @restart-safe @CM-9.10 @CM-9.13
  Scenario: a replay-safe run lost in a restart is not rebuilt from another session's transcript
    Given the tool "read" is held until released
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      const file = await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      return file.content;
      """
    Then the result is waiting with reason "pending_tools"
    And the result includes:
      """json
      {"replaySafe": true}
      """
    When the gateway restarts
    And a turn starts in session "other"
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @restart-safe @CM-9.11 @CM-9.10
  Scenario: a rebuilt run is limited to replay-safe requests
    Given the tool "read" is held until released
    And a turn starts
    When the model calls exec restart-safe with:
      """js
      const file = await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      const w = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return [file.kind, w.temp];
      """
    Then the result is waiting with reason "pending_tools"
    When the gateway restarts
    And a turn starts
    And the model calls wait
    Then the result is waiting with reason "pending_tools"
    And the result run id is the previous one
    When the tool "read" is released
    And the model calls wait
    Then the result fails with code "invalid_input"
    And the result error is "restart-safe code mode cannot call side-effecting tools."
    And the tool "weather" was not called

  @restart-safe @CM-9.13 @CM-22.5 @CM-8.2 @CM-9.8 @CM-9.10
  Scenario: an ordinary waiting run lost in a restart is unavailable
    Given a turn starts
    When the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    And the result includes:
      """json
      {"replaySafe": false}
      """
    When the gateway restarts
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."
