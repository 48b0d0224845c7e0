Feature: Nested tool execution and trajectory projection
  SPEC chapter 16: nested calls from guest code go through the same policy, approval, hook and
  trajectory path as direct tool calls, with nested ids derived from the parent exec call.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  @core @CM-16.1 @CM-16.14 @CM-16.16 @CM-16.17 @CM-16.15 @checklist-24
  Scenario: Nested calls are projected as tool calls under the exec call in start order
    When a turn starts
    And the model calls exec with:
      """js
      const file = await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      const sky = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      const picked = await tools.callValue(ALL_TOOLS.find((entry) => entry.name === "select_file").id, { prompt: "Pick a report" });
      return [file.content, sky.temp, typeof picked];
      """
    Then the result value is:
      """json
      ["hello from notes\n", 21, "object"]
      """
    And the telemetry includes:
      """json
      {"callCount": 3, "searchCount": 0, "describeCount": 0}
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "name": "exec", "toolKind": "code_mode_exec", "status": "ok", "parentToolCallId": "<absent>"},
        {"type": "tool_call", "name": "read", "catalogId": "openclaw:core:read", "parentToolCallId": "<string>", "status": "ok"},
        {"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "parentToolCallId": "<string>", "status": "ok"},
        {"type": "tool_call", "name": "select_file", "catalogId": "<string>", "parentToolCallId": "<string>", "status": "ok"}
      ]
      """
    And the trajectory shows "read" under the exec call
    And the trajectory shows "weather" under the exec call
    And the trajectory shows "select_file" under the exec call

  @core @CM-16.11 @CM-16.15 @checklist-24
  Scenario Outline: Nested tool call ids derive from the exec tool call id "<id>"
    When a turn starts
    And the model calls exec with tool call id "<id>":
      """js
      await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return "done";
      """
    Then the result value is "done"
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "toolCallId": "tool_search_code:<parent>:read:1", "name": "read", "parentToolCallId": "<id>"},
        {"type": "tool_call", "toolCallId": "tool_search_code:<parent>:weather:2", "name": "weather", "parentToolCallId": "<id>"}
      ]
      """

    Examples:
      | id                                                                                                                                 | parent                                                                                                                   |
      | call_1                                                                                                                             | call_1                                                                                                                   |
      | run 7/α:β                                                                                                                          | run_7_:_                                                                                                                 |
      | %%%                                                                                                                                | _                                                                                                                        |
      | aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa |

  @core @CM-16.11
  Scenario: A blank exec tool call id gives the parent fragment "call" and surrounding spaces are trimmed
    When a turn starts
    And the model calls exec with tool call id "   ":
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp;
      """
    And the model calls exec with tool call id "  call 9  ":
      """js
      return (await tools.callValue("openclaw:core:read", { path: "a.txt" })).kind;
      """
    Then the result value is "text"
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "toolCallId": "tool_search_code:call:weather:1", "name": "weather"},
        {"type": "tool_call", "toolCallId": "tool_search_code:call_9:read:1", "name": "read"}
      ]
      """

  @core @CM-16.3 @CM-3.7 @CM-16.1 @checklist-7
  Scenario: A tool denied by policy is absent and cannot be reached by a guessed id or name
    Given the tool policy denies "weather"
    When a turn starts
    And the model calls exec with:
      """js
      const attempts = [];
      for (const guess of ["openclaw:core:weather", "weather"]) {
        try {
          await tools.callValue(guess, { city: "Oslo" });
          attempts.push("called");
        } catch (error) {
          attempts.push(error.message);
        }
      }
      return { names: ALL_TOOLS.map((entry) => entry.name).sort(), attempts };
      """
    Then the result value is:
      """json
      {
        "names": ["read", "select_file", "shipping_list"],
        "attempts": [
          "Unknown tool id: openclaw:core:weather. Did you mean: read, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: weather. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
        ]
      }
      """
    And the tool "weather" was not called

  @core @CM-16.4 @CM-16.1 @checklist-13
  Scenario: A nested call to an approval-gated tool runs once approval is granted
    Given the tool "weather" requires approval
    And approval for "weather" is granted
    When a turn starts
    And the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      """
    Then the result value is:
      """json
      {"city": "Oslo", "temp": 21, "sky": "clear"}
      """
    And the tool "weather" was called 1 times
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "status": "ok"}]
      """

  @core @CM-16.5 @CM-16.14 @checklist-13 @SB-21
  Scenario: A denied approval rejects the nested call with the catalog id and the tool does not run
    Given the tool "weather" requires approval
    And approval for "weather" is denied
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await tools.callValue("weather", { city: "Oslo" });
        return "ran";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "Tool call denied: openclaw:core:weather."
    And the tool "weather" was not called
    And the telemetry includes:
      """json
      {"callCount": 1}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "status": "denied"}]
      """

  @snapshots @CM-16.4 @CM-8.15 @checklist-13 @timing
  Scenario: A nested call waiting for approval suspends the run until wait after the approval
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
      """
    And the tool "weather" requires approval
    And approval for "weather" is held
    When a turn starts
    And the model calls exec with:
      """js
      const sky = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return sky.sky;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    And the tool "weather" was not called
    When approval for "weather" is released as granted
    And the model calls wait
    Then the result value is "clear"
    And the tool "weather" was called 1 times

  @snapshots @CM-16.5 @checklist-13 @timing
  Scenario: An approval denied while the run is suspended rejects the nested call on resume
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
      """
    And the tool "weather" requires approval
    And approval for "weather" is held
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:weather", { city: "Oslo" });
        return "ran";
      } catch (error) {
        return error.message;
      }
      """
    Then the result is waiting with reason "pending_tools"
    When approval for "weather" is released as denied
    And the model calls wait
    Then the result value is "Tool call denied: openclaw:core:weather."
    And the tool "weather" was not called

  @core @CM-16.6 @checklist-13
  Scenario: A hook that blocks a nested call without a reason rejects it with the default message
    Given the before_tool_call hook blocks "read"
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:read", { path: "notes.txt" });
        return "read";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "Tool call blocked by before_tool_call hook."
    And the tool "read" was not called
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "read", "catalogId": "openclaw:core:read", "status": "blocked"}]
      """

  @core @CM-16.6 @CM-16.1 @checklist-13 @SB-21
  Scenario: A hook gives nested and direct calls the same verdict and reason
    Given the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true,
       "parameters": {"type": "object", "required": ["action"], "properties": {"action": {"type": "string"}}},
       "behavior": {"returns": {"done": true}}}
      """
    And the before_tool_call hook blocks "weather" with "paused by the operator"
    And the before_tool_call hook blocks "computer" with "paused by the operator"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls "computer" with:
      """json
      {"action": "click"}
      """
    Then the tool call is refused with "paused by the operator"
    When the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:weather", { city: "Oslo" });
        return "ran";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "paused by the operator"
    And the tool "weather" was not called
    And the tool "computer" was not called

  @core @CM-16.8 @checklist-13
  Scenario: A hook that rewrites nested parameters is what the tool receives
    Given the before_tool_call hook rewrites "weather" params to:
      """json
      {"city": "Bergen"}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp;
      """
    Then the result value is 21
    And the tool "weather" was last called with:
      """json
      {"city": "Bergen"}
      """
    And the hook saw an event including:
      """json
      {"toolName": "weather", "params": {"city": "Oslo"}}
      """

  @core @CM-16.2
  Scenario: Nested calls keep the agent and session context of the run
    When a turn starts for agent "ops"
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).city;
      """
    Then the result value is "Oslo"
    And the hook saw an event including:
      """json
      {"toolName": "weather", "agentId": "ops", "sessionId": "session-1"}
      """

  @core @CM-16.2
  Scenario: Nested calls keep the sender and channel context of the run
    When a turn starts from sender "user-4821" on channel "webchat"
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).city;
      """
    Then the result value is "Oslo"
    And the hook saw an event including:
      """json
      {"toolName": "weather", "senderId": "user-4821", "channelId": "webchat"}
      """

  @core @CM-16.9 @CM-16.10
  Scenario: The hook event of the outer exec marks a code-mode JavaScript cell and mirrors code and command
    When a turn starts
    And the model calls exec with:
      """js
      return 1;
      """
    Then the result value is 1
    And the hook saw an event including:
      """json
      {"toolName": "exec", "toolKind": "code_mode_exec", "toolInputKind": "javascript", "params": {"code": "return 1;", "command": "return 1;"}}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "exec", "toolKind": "code_mode_exec", "parentToolCallId": "<absent>"}]
      """

  @core @CM-16.9 @CM-16.10 @CM-5.3
  Scenario: An exec sent with command only is seen by hooks with code mirrored
    When a turn starts
    And the model calls exec with arguments:
      """json
      {"command": "return 'from command';", "language": "javascript"}
      """
    Then the result value is "from command"
    And the hook saw an event including:
      """json
      {"toolName": "exec", "toolKind": "code_mode_exec", "toolInputKind": "javascript", "params": {"code": "return 'from command';", "command": "return 'from command';"}}
      """

  @typescript @CM-16.9
  Scenario: The hook event of a TypeScript cell carries toolInputKind typescript
    When a turn starts
    And the model calls exec in typescript with:
      """ts
      const n: number = 2;
      return n;
      """
    Then the result value is 2
    And the hook saw an event including:
      """json
      {"toolName": "exec", "toolKind": "code_mode_exec", "toolInputKind": "typescript"}
      """

  @core @CM-16.10
  Scenario Outline: A hook that rewrites the exec <field> runs the rewritten source
    Given the before_tool_call hook rewrites "exec" params to:
      """json
      {"<field>": "return 'rewritten by hook';"}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return 'original';
      """
    Then the result value is "rewritten by hook"

    Examples:
      | field   |
      | code    |
      | command |

  @core @CM-16.14 @CM-16.16
  Scenario: A hook that blocks the outer exec refuses the cell before anything runs
    Given the before_tool_call hook blocks "exec" with "no code cells in this channel"
    When a turn starts
    And the model calls exec with:
      """js
      await tools.callValue("openclaw:core:read", { path: "notes.txt" });
      return "ran";
      """
    Then the tool call is refused with "no code cells in this channel"
    And the tool "read" was not called
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "exec", "toolKind": "code_mode_exec", "status": "blocked"}]
      """

  @core @CM-16.7
  Scenario: A nested client tool call is delegated to the client and resolves with its result
    When a turn starts
    And the model calls exec with:
      """js
      const client = ALL_TOOLS.find((entry) => entry.name === "select_file");
      const raw = await tools.call(client.id, { prompt: "Pick a report" });
      return { tool: raw.tool.id === client.id, source: raw.tool.source, details: raw.result.details };
      """
    Then the result value is:
      """json
      {"tool": true, "source": "client", "details": {"path": "report.pdf"}}
      """
    And the tool "select_file" was last called with:
      """json
      {"prompt": "Pick a report"}
      """
    And the trajectory shows "select_file" under the exec call

  @snapshots @CM-16.7 @CM-16.15 @timing
  Scenario: An outstanding client tool result suspends the run and later calls keep the exec parent
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
      """
    And the tool "select_file" is held until released
    When a turn starts
    And the model calls exec with tool call id "call_exec_7":
      """js
      const client = ALL_TOOLS.find((entry) => entry.name === "select_file");
      const picked = await tools.callValue(client.id, { prompt: "Pick" });
      const file = await tools.callValue("openclaw:core:read", { path: picked.path });
      return [picked.path, file.kind];
      """
    Then the result is waiting with reason "pending_tools"
    When the tool "select_file" is released
    And the model calls wait
    Then the result value is:
      """json
      ["report.pdf", "text"]
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "toolCallId": "tool_search_code:call_exec_7:select_file:1", "parentToolCallId": "call_exec_7", "status": "ok"},
        {"type": "tool_call", "toolCallId": "tool_search_code:call_exec_7:read:2", "parentToolCallId": "call_exec_7", "status": "ok"}
      ]
      """

  @core @CM-16.12 @CM-10.34
  Scenario: Bridge requests beyond maxPendingToolCalls are refused inside the guest
    Given code mode is configured as:
      """json
      {"enabled": true, "maxPendingToolCalls": 2}
      """
    And the tool "weather" takes 300 ms
    When a turn starts
    And the model calls exec with:
      """js
      const settled = await Promise.allSettled([1, 2, 3].map(() => tools.callValue("openclaw:core:weather", { city: "Oslo" })));
      return settled.map((entry) => (entry.status === "fulfilled" ? entry.value.temp : entry.reason.message));
      """
    Then the result value is:
      """json
      [21, 21, "too many pending code mode tool calls"]
      """
    And the tool "weather" was called 2 times
    And the telemetry includes:
      """json
      {"callCount": 2}
      """

  @core @CM-16.14
  Scenario: A failing nested call is projected with status error
    Given the tool "read" fails with "disk is offline"
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:read", { path: "notes.txt" });
        return "read";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "disk is offline"
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "read", "catalogId": "openclaw:core:read", "parentToolCallId": "<string>", "status": "error"}]
      """

  @core @CM-16.13 @CM-11.32 @CM-18.12 @checklist-15
  Scenario: The code-mode exec, wait and tool-search tools cannot be reached from guest code
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = {};
      for (const guess of ["exec", "wait", "openclaw:core:wait", "tool_search_code", "tool_call"]) {
        try {
          await tools.call(guess, {});
          outcomes[guess] = "reached";
        } catch (error) {
          outcomes[guess] = error.message;
        }
      }
      return {
        outcomes,
        helpers: [typeof tools.exec, typeof tools.wait, typeof tools.tool_search],
        names: ALL_TOOLS.map((entry) => entry.name).sort(),
      };
      """
    Then the result value is:
      """json
      {
        "outcomes": {
          "exec": "Unknown tool id: exec. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "wait": "Unknown tool id: wait. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "openclaw:core:wait": "Unknown tool id: openclaw:core:wait. Did you mean: read, weather, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "tool_search_code": "Unknown tool id: tool_search_code. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "tool_call": "Unknown tool id: tool_call. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
        },
        "helpers": ["undefined", "undefined", "undefined"],
        "names": ["read", "select_file", "shipping_list", "weather"]
      }
      """

  @core @CM-16.13 @CM-11.32 @checklist-15
  Scenario: With the shell exec cataloged, guest code reaches only the shell tool by the name exec
    Given the catalog "mixed"
    When a turn starts
    And the model calls exec with:
      """js
      const shell = await tools.call("exec", { command: "ls" });
      const unknown = [];
      for (const guess of ["wait", "openclaw:core:wait", "tool_search", "tool_describe", "openclaw:core:tool_search_code"]) {
        try {
          await tools.call(guess, {});
          unknown.push("reached " + guess);
        } catch (error) {
          unknown.push(error.message.startsWith("Unknown tool id: " + guess + "."));
        }
      }
      return { shell: [shell.tool.id, shell.result.details], unknown, controlInCatalog: ALL_TOOLS.some((entry) => ["wait", "tool_search_code", "tool_search", "tool_describe", "tool_call"].includes(entry.name)) };
      """
    Then the result value is:
      """json
      {
        "shell": ["openclaw:core:exec", {"exitCode": 0, "stdout": "ok\n"}],
        "unknown": [true, true, true, true, true],
        "controlInCatalog": false
      }
      """
    And the tool "exec" was last called with:
      """json
      {"command": "ls"}
      """

  @core @CM-16.2
  Scenario: Nested calls keep the session id and session key of the run
    When a turn starts in session "side"
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).city;
      """
    Then the result value is "Oslo"
    And the hook saw an event including:
      """json
      {"toolName": "weather", "agentId": "main", "sessionId": "side", "sessionKey": "agent:main:side"}
      """

  @core @CM-16.1 @CM-8.38
  Scenario: Aborting the agent run reaches a nested call in progress and the tool does not complete
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 10000}
      """
    And the tool "weather" is held until released
    And a turn starts
    And the turn will be aborted once a call of the tool "weather" is held
    When the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:weather", { city: "Oslo" })).temp;
      """
    Then the result fails with code "timeout"
    And the result error is "code mode execution aborted"
    And the held calls of the tool "weather" are cancelled
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was not called
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "parentToolCallId": "<string>"}]
      """
