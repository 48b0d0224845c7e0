Feature: Error codes and messages
  SPEC.md chapter 19: rows of the payload error table and of the guest-side
  error table that the other chapter files do not already exercise, each with
  its code and failure phase.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  # Payload errors (failed.error)

  @core @CM-19.1 @CM-19.2 @CM-19.4 @CM-2.10 @CM-7.6
  Scenario: error table row for an unsupported runtime value
    Given code mode is configured as:
      """json
      {"enabled": true, "runtime": "v8"}
      """
    And a turn starts
    When the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "runtime_unavailable"
    And the result error is:
      """text
      code mode runtime is unavailable: unsupported runtime "v8".
      """
    And the result failure phase is "host"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": [], "replaySafe": false}
      """

  @core @CM-19.2 @CM-19.4 @CM-3.13 @CM-17.13
  Scenario: error table row for a runtime that cannot be loaded
    Given the quickjs-wasi binary is missing
    And a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "runtime_unavailable"
    And the result error starts with "code mode runtime is unavailable: "
    And the result failure phase is "host"

  @security @CM-19.1 @CM-19.2 @CM-19.4 @CM-18.6 @CM-7.6 @SB-10 @checklist-19
  Scenario: error table row for a guest that exceeds the memory limit
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 30000}
      """
    And a turn starts
    When the model calls exec with:
      """js
      const keep = [];
      while (true) keep.push(new Array(100000).fill(keep.length));
      """
    Then the result fails with code "internal_error"
    And the result failure phase is "guest"
    When the model calls exec with:
      """js
      return "fresh vm";
      """
    Then the result status is "completed"
    And the result value is "fresh vm"

  @security @CM-19.2 @CM-17.15
  Scenario: a built-in call that never polls the interrupt handler ends with timeout
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 300}
      """
    And a turn starts
    When the model calls exec with:
      """js
      return Array.prototype.join.call({ length: 2 ** 53 - 1 }, "").length;
      """
    Then the result fails with code "timeout"

  @core @CM-19.2 @CM-5.25
  Scenario: a source that nests brackets 1001 levels deep fails with invalid_input
    Given a turn starts
    When the model calls exec with:
      """js
      return [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]].length;
      """
    Then the result fails with code "invalid_input"

  @namespaces @CM-19.2 @CM-19.4 @CM-15.10 @CM-15.12
  Scenario Outline: error table row for a namespace scope with <case>
    Given the plugin "shipping" registers the namespace:
      """json
      {
        "id": "shipping-tools",
        "globalName": "Shipping",
        "description": "Shipment helpers.",
        "requiredToolNames": ["shipping_list"],
        "scope": <scope>
      }
      """
    And a turn starts
    When the model calls exec with:
      """js
      return await tools.callValue("weather", { city: "Oslo" });
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    And the result error is:
      """text
      <error>
      """
    And the tool "weather" was not called

    Examples:
      | case                         | scope                                             | error                                                                                            |
      | a non-object scope           | 42                                                | Code mode namespace "shipping-tools" createScope must return an object.                         |
      | a raw host function          | {"list": {"$function": "listShipments"}}          | Code mode namespace function at list must be created with createCodeModeNamespaceTool.          |
      | a circular reference         | {"data": {"self": {"$ref": "data"}}}              | Circular code mode namespace scope at data.self.                                                 |
      | an empty key                 | {"list": {"$tool": "shipping_list"}, "": 1}       | Invalid code mode namespace path segment: (empty)                                                |

  # Guest-side errors (catchable)

  @namespaces @CM-19.4 @CM-15.16 @CM-10.31 @ns-5 @ns-8
  Scenario: guest error table row for a namespace path that targets an undeclared tool
    Given the plugin "shipping" registers the namespace:
      """json
      {
        "id": "shipping-tools",
        "globalName": "Shipping",
        "description": "Shipment helpers.",
        "requiredToolNames": ["shipping_list"],
        "scope": {"list": {"$tool": "shipping_list"}, "weather": {"$tool": "weather"}}
      }
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await Shipping.weather({ city: "Oslo" });
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "Code mode namespace path targets undeclared tool: weather"
    And the tool "weather" was not called

  @core @CM-19.4 @CM-13.3
  Scenario: guest error table row for a tool with an invalid outputSchema
    Given the tool:
      """json
      {
        "name": "ledger",
        "description": "Ledger totals.",
        "outputSchema": {"$ref": "#/$defs/missing"},
        "behavior": {"returns": {"total": 1}}
      }
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:ledger", {});
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "Tool \"openclaw:core:ledger\" has an invalid outputSchema."
    And the tool "ledger" was not called

  @core @CM-19.4 @CM-13.5 @CM-13.4
  Scenario: guest error table row for tool details that do not match the declared outputSchema
    Given the tool:
      """json
      {
        "name": "ledger",
        "description": "Ledger totals.",
        "outputSchema": {"type": "object", "required": ["total"], "properties": {"total": {"type": "number"}}, "additionalProperties": false},
        "behavior": {"returns": {"total": "a-secret-looking-value"}}
      }
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:ledger", {});
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "Tool \"openclaw:core:ledger\" returned details that do not match its declared outputSchema."
    And the tool "ledger" was called 1 time

  @core @CM-19.4 @CM-16.5 @checklist-13
  Scenario: guest error table row for a denied approval
    Given the tool "weather" requires approval
    And approval for "weather" is denied
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
    And the result value is "Tool call denied: openclaw:core:weather."
    And the tool "weather" was not called

  @core @CM-19.4 @CM-16.6 @checklist-13
  Scenario: guest error table row for a before_tool_call hook block without a reason
    Given the before_tool_call hook blocks "weather"
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
    And the result value is "Tool call blocked by before_tool_call hook."
    And the tool "weather" was not called

  @security @CM-19.4 @CM-18.7 @CM-18.8
  Scenario: guest error table row for an oversize bridge request
    Given code mode is configured as:
      """json
      {"enabled": true, "memoryLimitBytes": 268435456, "timeoutMs": 30000}
      """
    And a turn starts
    When the model calls exec with:
      """js
      const big = "x".repeat(16 * 1024 * 1024);
      try {
        await tools.callValue("weather", { city: "Oslo", big });
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "code mode bridge request too large"
    And the tool "weather" was not called

  @core @CM-19.5 @CM-10.35 @CM-10.28
  Scenario: an uncaught guest-side helper error ends the run as Error with its message
    Given a turn starts
    When the model calls exec with:
      """js
      await API.read("../etc/passwd");
      return "unreachable";
      """
    Then the result fails with code "internal_error"
    And the result error starts with "Error: invalid API file path"
    And the result failure phase is "guest"

  @core @CM-19.4 @CM-23.4
  Scenario: guest error table row for agents.run with a blank prompt
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And the tool:
      """json
      {"name": "sessions_spawn", "description": "Spawn a sub-agent session."}
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await agents.run("   ");
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "agents.run prompt must be a non-empty string"
    And the tool "sessions_spawn" was not called

  @core @CM-19.4 @CM-23.5
  Scenario: guest error table row for agents.run without the sessions_spawn tool
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await agents.run("Summarise pricing");
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "agents.run requires the sessions_spawn tool."

  @mcp @CM-19.4 @CM-14.12
  Scenario: guest error table row for an MCP namespace call without one object argument
    Given the MCP server "docs" with tools:
      """json
      [{"name": "search_docs", "description": "Search the documentation.", "inputSchema": {"type": "object", "required": ["query", "section"], "properties": {"query": {"type": "string"}, "section": {"type": "string"}}}}]
      """
    And a turn starts
    When the model calls exec with:
      """js
      const out = [];
      for (const attempt of [() => MCP.docs.searchDocs("pricing"), () => MCP.docs.searchDocs({ query: "a", section: "b" }, {})]) {
        try {
          await attempt();
          out.push("resolved");
        } catch (error) {
          out.push(error.message);
        }
      }
      return out;
      """
    Then the result status is "completed"
    And the result value is:
      """json
      ["MCP namespace tools accept one object argument.", "MCP namespace tools accept one object argument."]
      """
    And the tool "search_docs" was not called

  @mcp @CM-19.4 @CM-14.14
  Scenario: guest error table rows for missing required MCP namespace arguments
    Given the MCP server "docs" with tools:
      """json
      [{"name": "search_docs", "description": "Search the documentation.", "inputSchema": {"type": "object", "required": ["query", "section"], "properties": {"query": {"type": "string"}, "section": {"type": "string"}}}}]
      """
    And a turn starts
    When the model calls exec with:
      """js
      const out = [];
      for (const attempt of [() => MCP.docs.searchDocs({ query: "pricing" }), () => MCP.docs.searchDocs()]) {
        try {
          await attempt();
          out.push("resolved");
        } catch (error) {
          out.push(error.message);
        }
      }
      return out;
      """
    Then the result status is "completed"
    And the result value is:
      """json
      ["Missing required MCP namespace argument: section", "Missing required MCP namespace arguments: query, section"]
      """
    And the tool "search_docs" was not called
