Feature: Conventions, scope and conformance model
  SPEC chapter 1: the payload format of exec and wait tool messages, JSON text
  conventions, exact strings and what code mode may and may not change.

  Background:
    Given code mode is enabled

  @core @CM-1.9 @CM-1.10 @CM-1.11 @CM-1.12
  Scenario: Conventions: a completed exec answers with one message whose text is the pretty JSON of the payload
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("note");
      json({ b: [1, { c: "é" }] });
      return { a: 1 };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"a": 1}
      """
    And the result output is:
      """json
      [{"type": "text", "text": "note"}, {"type": "json", "value": {"b": [1, {"c": "é"}]}}]
      """
    And the result text is the pretty JSON of the result

  # JSON.stringify escapes only '"', '\' and code units below U+0020 (lone
  # surrogates too), puts array-index keys first, and writes numbers as
  # Number::toString does; the suite computes JSON.stringify(result, null, 2)
  # itself and compares the text byte for byte.
  @core @CM-1.6
  Scenario: Conventions: the result text is what JSON.stringify writes, escapes, numbers and key order included
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("<b>&amp;</b> \u2028 \u0001 \t \"q\" \\ é 😀 \ud800");
      return {
        b: "<script>&</script>",
        a: [1e21, 1e-7, 0.000001, -0, 0.1, 2 ** 53 + 2, 5e-324, 1.5e300, 123.456],
        "10": "ten",
        "2": "two",
        controls: "\u0000\u0008\u000b\u001f\u007f",
        lone: "\udc00x\ud83d",
      };
      """
    Then the result status is "completed"
    And the result text is what JSON.stringify writes for the result

  @core @CM-1.10 @CM-1.11 @CM-1.12
  Scenario: Conventions: a failed exec is delivered as pretty JSON equal to its structured details
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("before the error");
      throw new TypeError("boom");
      """
    Then the result fails with code "internal_error"
    And the result error starts with "TypeError: boom"
    And the result output is:
      """json
      [{"type": "text", "text": "before the error"}]
      """
    And the result text is the pretty JSON of the result

  @snapshots @CM-1.9 @CM-1.10 @CM-1.11 @CM-1.12 @CM-1.18
  Scenario: Conventions: waiting and resumed payloads are compared exactly except for the random run id
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("before");
      const resumed = await yield_control("pause");
      text("after");
      return resumed;
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
        }
      }
      """
    And the result text is the pretty JSON of the result
    When the model calls wait
    Then the result includes:
      """json
      {
        "status": "completed",
        "value": {"status": "yielded", "reason": "pause"},
        "output": [{"type": "text", "text": "after"}],
        "replaySafe": false,
        "runId": "<absent>",
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
    And the result text is the pretty JSON of the result

  @core @CM-1.8 @CM-1.5 @CM-4.18 @CM-4.28
  Scenario: Conventions: the target presents every model-visible tool with its provider definition
    Given the catalog "mixed"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the "wait" tool description is:
      """text
      Resume a suspended OpenClaw code mode run returned by exec.
      """
    And the "computer" tool description is:
      """text
      Control the computer screen.
      """
    And the "computer" tool schema is:
      """json
      {"type": "object", "required": ["action"], "properties": {"action": {"type": "string"}}}
      """

  @core @CM-1.6 @CM-1.5 @CM-2.10
  Scenario: Conventions: host-side JSON text follows JSON.stringify for numbers, escapes and HTML characters
    Given the catalog "basic"
    And code mode is configured as:
      """json
      {"enabled": true, "runtime": [1e21, 1e-7, 5000.0, -0, "<&>", "é\u0007\t"]}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "runtime_unavailable"
    And the result error is:
      """text
      code mode runtime is unavailable: unsupported runtime [1e+21,1e-7,5000,0,"<&>","é\u0007\t"].
      """

  @core @CM-1.6 @CM-7.10
  Scenario: Conventions: text output uses the JSON text of JSON.stringify for non-string values
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text({ s: "é😀\u0001\n", z: -0, big: 1e21, small: 1e-7, nan: NaN, inf: -Infinity, frac: 0.1 + 0.2 });
      return { big: 1e21, small: 1e-7, z: -0 };
      """
    Then the result output is:
      """json
      [{"type": "text", "text": "{\"s\":\"é😀\\u0001\\n\",\"z\":0,\"big\":1e+21,\"small\":1e-7,\"nan\":null,\"inf\":null,\"frac\":0.30000000000000004}"}]
      """
    And the result value is:
      """json
      {"big": 1e21, "small": 1e-7, "z": 0}
      """
    And the result text is the pretty JSON of the result

  @core @CM-1.2
  Scenario: Conventions: guest code gets no module, process, network or filesystem access
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return [
        typeof require,
        typeof module,
        typeof exports,
        typeof process,
        typeof fetch,
        typeof XMLHttpRequest,
        typeof WebSocket,
        typeof std,
        typeof os,
        typeof Deno,
        typeof Bun,
      ];
      """
    Then the result value is:
      """json
      ["undefined", "undefined", "undefined", "undefined", "undefined", "undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]
      """
    When the model calls exec with:
      """js
      ls -la /tmp
      """
    Then the result fails with code "invalid_input"
    And the result error is:
      """text
      code-mode exec runs JavaScript or TypeScript, not shell commands. Call shell, file, or other tools from guest JavaScript with tools.callValue and an exact tool id from ALL_TOOLS or tools.search. Do not retry the same shell command as code.
      """

  @core @CM-1.3 @CM-16.5
  Scenario: Conventions: code mode keeps the approval policy of nested tool calls
    Given the catalog "basic"
    And the tool "weather" requires approval
    And approval for "weather" is denied
    When a turn starts
    And the model calls exec with:
      """js
      try {
        return await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "Tool call denied: openclaw:core:weather."
    And the tool "weather" was not called

  @core @CM-1.3 @CM-16.8
  Scenario: Conventions: code mode keeps before_tool_call parameter rewrites of nested tool calls
    Given the catalog "basic"
    And the before_tool_call hook rewrites "weather" params to:
      """json
      {"city": "Bergen"}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      """
    Then the result value is:
      """json
      {"city": "Oslo", "temp": 21, "sky": "clear"}
      """
    And the tool "weather" was last called with:
      """json
      {"city": "Bergen"}
      """

  @core @CM-1.7 @CM-3.7 @CM-20.2 @CM-20.6
  Scenario: Conventions: one setup with core, plugin, client and MCP tools and a policy builds one run
    Given the catalog "mixed"
    And the MCP server "docs" with tools:
      """json
      [{"name": "search_docs", "description": "Search the documentation.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]
      """
    And the tool policy denies "llm-task"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      [
        "browser_request",
        "exec",
        "message",
        "select_file",
        "shipping_list"
      ]
      """
    And the telemetry includes:
      """json
      {"catalogSize": 6, "sources": {"openclaw": 4, "mcp": 1, "client": 1}, "visibleTools": ["exec", "wait", "computer"]}
      """

  @core @CM-1.13 @CM-16.14 @CM-16.15
  Scenario: Conventions: the trajectory of a turn exposes nested calls under their exec call
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      """
    Then the result status is "completed"
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "name": "exec", "toolKind": "code_mode_exec", "parentToolCallId": "<absent>"},
        {"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "parentToolCallId": "<string>", "status": "ok"}
      ]
      """
    And the trajectory shows "weather" under the exec call

  @core @CM-1.2
  Scenario: Conventions: a script written by one exec is not kept for later execs or runs
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      globalThis.saved = () => "kept";
      return typeof saved;
      """
    Then the result value is "function"
    When the model calls exec with:
      """js
      return typeof globalThis.saved;
      """
    Then the result value is "undefined"
    When a turn starts
    And the model calls exec with:
      """js
      return typeof globalThis.saved;
      """
    Then the result value is "undefined"

  @core @CM-1.2
  Scenario: Conventions: package-manager commands are refused before anything runs
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      npm install left-pad
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    When the model calls exec with:
      """js
      pip install requests
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"

  @core @CM-1.3
  Scenario: Conventions: code mode calls core and plugin tools with the given input and returns their own results
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      const weather = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      const shipments = await tools.callValue("openclaw:shipping:shipping_list", {});
      return { weather, shipments };
      """
    Then the result value is:
      """json
      {
        "weather": {"city": "Oslo", "temp": 21, "sky": "clear"},
        "shipments": [
          {"id": "s1", "paid": false, "tons": 12},
          {"id": "s2", "paid": true, "tons": 30},
          {"id": "s3", "paid": false, "tons": 4}
        ]
      }
      """
    And the tool "weather" was last called with:
      """json
      {"city": "Oslo"}
      """
    And the tool "shipping_list" was called 1 times

  @mcp @CM-1.3 @CM-14.16
  Scenario: Conventions: code mode calls MCP tools with the given input and returns the server's own result
    Given the catalog "basic"
    And the MCP server "docs" with tools:
      """json
      [{"name": "search_docs", "description": "Search the documentation.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}, "behavior": {"returns": {"hits": ["install.md"]}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return await MCP.docs.searchDocs({ q: "install" });
      """
    Then the result value is:
      """json
      {"content": [{"type": "text", "text": "{\"hits\":[\"install.md\"]}"}], "structuredContent": {"hits": ["install.md"]}}
      """
    And the tool "search_docs" was last called with:
      """json
      {"q": "install"}
      """

  @namespaces @CM-1.7
  Scenario: Conventions: a setup with an internal namespace registration builds a run whose guest can call it
    Given the tools:
      """json
      [{"name": "github_list_issues", "source": "plugin", "owner": "github", "description": "List repository issues."}]
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return await Issues.list({ state: "open" });
      """
    Then the result value is:
      """json
      {"tool": "github_list_issues", "input": {"state": "open"}}
      """

  @e2e @CM-1.2
  Scenario: Conventions: the model requests of a code-mode turn offer no provider-native tool
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return [1, 2, 3].reduce((sum, n) => sum + n, 0);
      """
    Then the result value is 6
    When the turn ends
    Then every model request of the turn offers function tools only

  @e2e @CM-1.3
  Scenario: Conventions: a code-mode turn asks for the same model with the same credentials as a turn without code mode
    Given the catalog "basic"
    And the config also has:
      """json
      {"agents": {"list": [{"id": "main"}, {"id": "plain", "tools": {"codeMode": {"enabled": false}}}]}}
      """
    When a turn starts for agent "plain"
    Then the model-visible tools do not include "exec"
    When a turn starts
    Then the model-visible tools include "exec"
    And the latest two turns asked for the same model with the same credentials

  @e2e @CM-1.10
  Scenario: Conventions: the model receives an exec result and a wait result as one text block each
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("first");
      await yield_control();
      text("second");
      return 2;
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is 2
    And the model receives the result of the latest exec call as one text block
    And the model receives the result of the latest wait call as one text block

  @e2e @CM-1.3
  Scenario: Conventions: the channel receives the model's final answer as it is after code-mode calls
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      text("cell output");
      await yield_control();
      return 21;
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is 21
    When the turn ends
    Then the turn's reply is the model's final answer

