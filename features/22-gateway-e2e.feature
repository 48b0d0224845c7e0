Feature: Gateway, transcripts and the end-to-end plan
  SPEC chapter 22 and its 16-step end-to-end plan (section 22.1): the gateway keeps code-mode
  calls in transcripts, isolates turns, cleans up runs, and serves the full surface end to end.

  @e2e @CM-22.11 @CM-2.5 @e2e-1 @e2e-2 @e2e-3 @checklist-1
  Scenario: E2E steps 1-3: with code mode disabled the direct tool set is unchanged
    Given code mode is configured as:
      """json
      {"enabled": false, "timeoutMs": 500}
      """
    And the catalog "basic"
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
    And the model-visible tools do not include "exec"
    And the model-visible tools do not include "wait"

  @e2e @CM-22.11 @CM-3.15 @e2e-4
  Scenario: E2E step 4: restarting the gateway with code mode enabled switches the surface
    Given code mode is disabled
    And the catalog "basic"
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
    Given code mode is enabled
    When the gateway restarts
    And a turn starts
    Then the model-visible tools are "exec, wait"

  @e2e @CM-22.12 @CM-4.1 @e2e-5 @e2e-6 @checklist-3
  Scenario: E2E steps 5-6: OpenClaw, plugin, MCP and client tools collapse into exec, wait and the direct-only tool
    Given code mode is enabled
    And the catalog "basic"
    And the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true,
       "parameters": {"type": "object", "required": ["action"], "properties": {"action": {"type": "string"}}},
       "behavior": {"returns": {"done": true}}}
      """
    And the MCP server "notes" with tools:
      """json
      [{"name": "lookup_note", "description": "Look up a note by key.",
        "inputSchema": {"type": "object", "required": ["key"], "properties": {"key": {"type": "string", "description": "Note key"}}},
        "behavior": {"text": "MCP_CODE_MODE_OK"}}]
      """
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls exec with:
      """js
      return ALL_TOOLS.length;
      """
    Then the telemetry includes:
      """json
      {"catalogSize": 5, "sources": {"openclaw": 3, "mcp": 1, "client": 1}, "visibleTools": ["exec", "wait", "computer"]}
      """

  @e2e @CM-22.12 @CM-10.3 @CM-11.3 @e2e-7 @checklist-5 @checklist-6
  Scenario: E2E step 7: ALL_TOOLS lists the catalog-eligible tools and not the direct-only tool
    Given code mode is enabled
    And the catalog "basic"
    And the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true,
       "parameters": {"type": "object", "required": ["action"], "properties": {"action": {"type": "string"}}}}
      """
    And the MCP server "notes" with tools:
      """json
      [{"name": "lookup_note", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return { names: ALL_TOOLS.map((entry) => entry.name).sort(), computer: ALL_TOOLS.some((entry) => entry.name === "computer") };
      """
    Then the result value is:
      """json
      {
        "names": ["read", "select_file", "shipping_list", "weather"],
        "computer": false
      }
      """

  @e2e @CM-22.12 @e2e-8 @checklist-8
  Scenario: E2E step 8: search, describe, callValue and call work for OpenClaw, plugin and client tools
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      const [hit] = await tools.search("weather", { limit: 1 });
      const described = await tools.describe("openclaw:shipping:shipping_list");
      const shipments = await tools.callValue("openclaw:shipping:shipping_list", {});
      const picked = await tools.callValue(ALL_TOOLS.find((entry) => entry.source === "client").id, { prompt: "Pick a report" });
      const raw = await tools.call("openclaw:core:read", { path: "notes.txt" });
      return {
        hit: hit.id,
        described: [described.id, described.source, described.sourceName, "outputSchema" in described],
        heavyUnpaid: shipments.filter((shipment) => !shipment.paid && shipment.tons > 10).map((shipment) => shipment.id),
        picked,
        raw: [raw.tool.id, raw.result.details.content],
      };
      """
    Then the result value is:
      """json
      {
        "hit": "openclaw:core:weather",
        "described": ["openclaw:shipping:shipping_list", "openclaw", "shipping", true],
        "heavyUnpaid": ["s1"],
        "picked": {"path": "report.pdf"},
        "raw": ["openclaw:core:read", "hello from notes\n"]
      }
      """
    And the telemetry includes:
      """json
      {"searchCount": 1, "describeCount": 1, "callCount": 3}
      """

  @e2e @CM-22.12 @CM-14.30 @e2e-9 @checklist-9
  Scenario: E2E step 9: the MCP declaration files describe the visible MCP tool
    Given code mode is enabled
    And the catalog "basic"
    And the MCP server "notes" with tools:
      """json
      [{"name": "lookup_note", "description": "Look up a note by key.",
        "inputSchema": {"type": "object", "required": ["key"], "properties": {"key": {"type": "string", "description": "Note key"}}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const listed = await API.list("mcp");
      const header = await API.read("mcp/notes.d.ts");
      return { paths: listed.files.map((file) => file.path), lines: header.content.split("\n").slice(9) };
      """
    Then the result value is:
      """json
      {
        "paths": ["mcp/index.d.ts", "mcp/notes.d.ts"],
        "lines": [
          "declare namespace MCP.notes {",
          "  /** Return this TypeScript-style API header. */",
          "  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;",
          "",
          "  /**",
          "   * Look up a note by key.",
          "   *",
          "   * @param key Note key",
          "   */",
          "  function lookupNote(",
          "    input: {",
          "      /** Note key */",
          "      key: string;",
          "    }",
          "  ): Promise<McpToolResult>;",
          "}"
        ]
      }
      """
    And the telemetry includes:
      """json
      {"callCount": 0}
      """

  @e2e @CM-22.12 @CM-11.21 @CM-14.16 @e2e-10 @checklist-11
  Scenario: E2E step 10: an MCP tool is called through MCP.notes and nowhere else
    Given code mode is enabled
    And the catalog "basic"
    And the MCP server "notes" with tools:
      """json
      [{"name": "lookup_note", "description": "Look up a note by key.",
        "inputSchema": {"type": "object", "required": ["key"], "properties": {"key": {"type": "string"}}},
        "behavior": {"text": "MCP_CODE_MODE_OK"}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const note = await MCP.notes.lookupNote({ key: "release" });
      const searched = await tools.search("lookup note");
      const direct = await tools.callValue("mcp:notes:lookup_note", { key: "release" }).then(() => "reached", (error) => error.message);
      return {
        note,
        mcpInAllTools: ALL_TOOLS.some((entry) => entry.source === "mcp"),
        mcpInSearch: searched.some((entry) => entry.source === "mcp"),
        direct,
      };
      """
    Then the result value is:
      """json
      {
        "note": {"content": [{"type": "text", "text": "MCP_CODE_MODE_OK"}]},
        "mcpInAllTools": false,
        "mcpInSearch": false,
        "direct": "Unknown tool id: mcp:notes:lookup_note. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
      }
      """
    And the tool "lookup_note" was called 1 times
    And the tool "lookup_note" was last called with:
      """json
      {"key": "release"}
      """

  @e2e @CM-22.12 @CM-16.3 @e2e-11 @checklist-7
  Scenario: E2E step 11: a denied tool is absent and a guessed id is refused
    Given code mode is enabled
    And the catalog "basic"
    And the tool policy denies "shipping_list"
    When a turn starts
    And the model calls exec with:
      """js
      const guess = await tools.callValue("openclaw:shipping:shipping_list", {}).then(() => "reached", (error) => error.message);
      return { present: ALL_TOOLS.some((entry) => entry.name === "shipping_list"), guess };
      """
    Then the result value is:
      """json
      {
        "present": false,
        "guess": "Unknown tool id: openclaw:shipping:shipping_list. Did you mean: read, weather? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
      }
      """
    And the tool "shipping_list" was not called

  @e2e @CM-22.12 @CM-22.9 @e2e-12 @e2e-13 @e2e-14 @checklist-21 @timing
  Scenario: E2E steps 12-14: a nested call resolves after exec returned waiting and wait delivers it
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 500}
      """
    And the catalog "basic"
    And the tool "weather" is held until released
    When a turn starts
    And the model calls exec with:
      """js
      text("asked for the weather");
      const sky = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      text("after resume: " + sky.sky);
      return { city: sky.city, temp: sky.temp };
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    And the result output is:
      """json
      [{"type": "text", "text": "asked for the weather"}]
      """
    When the tool "weather" is released
    And the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      {"city": "Oslo", "temp": 21}
      """
    And the result output is:
      """json
      [{"type": "text", "text": "after resume: clear"}]
      """

  @e2e @CM-22.13 @CM-8.29 @e2e-15 @checklist-22
  Scenario: E2E step 15: an expired snapshot leaves no run behind
    Given code mode is configured as:
      """json
      {"enabled": true, "snapshotTtlSeconds": 1}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return await yield_control("expire me");
      """
    Then the result is waiting with reason "yield"
    When 1200 ms pass
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @e2e @CM-22.13 @CM-8.37 @e2e-15 @checklist-22
  Scenario: E2E step 15: an aborted turn leaves no suspended run behind
    Given code mode is enabled
    And the catalog "basic"
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

  @e2e @CM-8.40 @CM-18.11 @e2e-15
  Scenario: E2E step 15: an ended session leaves no suspended run behind
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return await yield_control("end the session");
      """
    Then the result is waiting with reason "yield"
    When the session is deleted
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @e2e @CM-22.13 @CM-18.2 @e2e-15 @timing
  Scenario: E2E step 15: a run that times out after resuming is removed from the run store
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
      """
    And the catalog "basic"
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

  @e2e @CM-22.4 @CM-22.12 @e2e-16 @checklist-24
  Scenario: E2E step 16: the trajectory export lists nested calls under their exec call
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      const file = await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      const shipments = await tools.callValue("openclaw:shipping:shipping_list", {});
      return [file.kind, shipments.length];
      """
    Then the result value is:
      """json
      ["text", 3]
      """
    And the trajectory shows "read" under the exec call
    And the trajectory shows "shipping_list" under the exec call
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "name": "exec", "toolKind": "code_mode_exec", "status": "ok"},
        {"type": "tool_call", "name": "read", "catalogId": "openclaw:core:read", "parentToolCallId": "<string>", "status": "ok"},
        {"type": "tool_call", "name": "shipping_list", "catalogId": "openclaw:shipping:shipping_list", "parentToolCallId": "<string>", "status": "ok"}
      ]
      """

  @e2e @CM-22.1 @CM-22.3 @checklist-23
  Scenario: The session transcript keeps exec and wait calls with their arguments and results
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return await yield_control("pause");
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is:
      """json
      {"status": "yielded", "reason": "pause"}
      """
    And the transcript of the session includes:
      """json
      [
        {"type": "tool_call", "name": "exec", "arguments": {"code": "return await yield_control(\"pause\");"}},
        {"type": "tool_result", "name": "exec", "details": {"status": "waiting", "runId": "<run-id>", "reason": "yield"}},
        {"type": "tool_call", "name": "wait", "arguments": {"runId": "<run-id>"}},
        {"type": "tool_result", "name": "wait", "details": {"status": "completed", "value": {"status": "yielded", "reason": "pause"}}}
      ]
      """

  @e2e @CM-22.2 @CM-22.3
  Scenario: A later turn's model request replays the session's exec and wait calls with their ids, arguments and result texts
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("first turn");
      return await yield_control("replay");
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is:
      """json
      {"status": "yielded", "reason": "replay"}
      """
    When the turn ends
    And a turn starts
    Then the model request replays the latest exec call with its id, arguments and result text
    And the model request replays the latest wait call with its id, arguments and result text

  @e2e @CM-22.2 @CM-22.5 @CM-9.13 @checklist-23 @CM-8.28
  Scenario: A gateway restart keeps the transcript but discards suspended runs
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("before restart");
      return await yield_control("restart");
      """
    Then the result is waiting with reason "yield"
    When the gateway restarts
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."
    And the transcript of the session includes:
      """json
      [
        {"type": "tool_call", "name": "exec", "arguments": {"code": "text(\"before restart\");\nreturn await yield_control(\"restart\");"}},
        {"type": "tool_result", "name": "exec", "details": {"status": "waiting", "reason": "yield", "output": [{"type": "text", "text": "before restart"}]}},
        {"type": "tool_call", "name": "wait"},
        {"type": "tool_result", "name": "wait", "details": {"status": "failed", "code": "invalid_input"}}
      ]
      """

  @e2e @CM-22.8 @CM-8.19
  Scenario: A wait for a run suspended in an earlier turn of the session is refused
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return await yield_control("earlier turn");
      """
    Then the result is waiting with reason "yield"
    When the turn ends
    And a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run belongs to a different agent run."
    And the result failure phase is "input"

  @e2e @CM-22.6 @CM-17.11 @checklist-18 @timing
  Scenario: Busy cells started together finish independently through the gateway
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2800}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls exec 2 times at the same time with:
      """js
      const started = Date.now();
      while (Date.now() - started < 1500) {}
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp;
      """
    Then the result status is "completed"
    And the result value is 21
    And the tool "weather" was called 2 times

  @e2e @CM-17.11 @CM-22.6 @timing
  Scenario: A cell that loops forever in one turn does not hold up another turn's exec, tool calls and model requests
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 3000}
      """
    And the catalog "basic"
    When a turn starts
    And the model starts exec in the background with:
      """js
      for (;;) {}
      """
    And a turn starts in session "other"
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp;
      """
    Then the result value is 21
    And the tool "weather" was called 1 times
    And the background exec is still running
    When the background exec ends
    Then the result fails with code "timeout"

  @e2e @CM-22.1
  Scenario: The session transcript records every model request turn with the calls the model answered with
    Given code mode is enabled
    And the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return [1, 2, 3].map((n) => n * 7)[2];
      """
    Then the result value is 21
    When the model calls exec with:
      """js
      return 2;
      """
    Then the result value is 2
    When the turn ends
    Then the transcript of the session has a model turn for every model request of the turn

  @e2e @CM-22.1
  Scenario: The session transcript keeps the text and the details of every tool result
    Given code mode is enabled
    And the catalog "basic"
    And the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true,
       "parameters": {"type": "object", "required": ["action"], "properties": {"action": {"type": "string"}}},
       "behavior": {"returns": {"done": true}}}
      """
    When a turn starts
    And the model calls "computer" with:
      """json
      {"action": "screenshot"}
      """
    And the model calls exec with:
      """js
      return 7;
      """
    Then the result value is 7
    And the transcript of the session includes:
      """json
      [
        {"type": "tool_call", "name": "computer", "arguments": {"action": "screenshot"}},
        {"type": "tool_result", "name": "computer", "text": "{\"done\":true}", "details": {"done": true}},
        {"type": "tool_call", "name": "exec", "arguments": {"code": "return 7;"}},
        {"type": "tool_result", "name": "exec", "text": "{\n  \"status\": \"completed\",\n  \"value\": 7,\n  \"output\": [],\n  \"replaySafe\": false,\n  \"telemetry\": {\n    \"catalogSize\": 4,\n    \"sources\": {\n      \"openclaw\": 3,\n      \"mcp\": 0,\n      \"client\": 1\n    },\n    \"searchCount\": 0,\n    \"describeCount\": 0,\n    \"callCount\": 0,\n    \"visibleTools\": [\n      \"exec\",\n      \"wait\",\n      \"computer\"\n    ]\n  }\n}", "details": {"status": "completed", "value": 7}}
      ]
      """
