Feature: Activation
  SPEC chapter 3: when code mode activates for an agent run, how tool policy is
  applied before it, and how the run fails closed instead of falling back.

  Background:
    Given code mode is enabled

  @core @CM-3.2 @CM-3.3 @checklist-4
  Scenario: Activation: a raw model call does not activate code mode
    Given the catalog "basic"
    When a raw model call starts
    Then the model-visible tools are ""

  @core @CM-3.2 @CM-3.3 @checklist-4
  Scenario: Activation: a run with tools disabled skips code mode and its payload check
    Given the catalog "basic"
    And the tool:
      """json
      {"name": "exec", "source": "core", "directOnly": true, "description": "A direct-only tool that would break the code-mode payload check."}
      """
    When a turn starts with tools disabled
    Then the model-visible tools are ""

  @core @CM-3.2 @CM-3.3 @CM-3.5 @checklist-4
  Scenario: Activation: an empty allow list skips code mode and its payload check
    Given the catalog "basic"
    And the tool:
      """json
      {"name": "wait", "source": "core", "directOnly": true, "description": "A direct-only tool that would break the code-mode payload check."}
      """
    And the tool policy allows only ""
    When a turn starts
    Then the model-visible tools are ""

  @core @CM-3.4
  Scenario: Activation: an enabled code mode with no tools at all activates nothing
    Given the catalog "empty"
    When a turn starts
    Then the model-visible tools are ""

  @core @CM-3.4 @CM-3.6 @CM-3.7 @CM-3.1
  Scenario: Activation: a policy that denies every tool leaves the run without code mode
    Given the catalog "mixed"
    And the tool policy denies "*"
    When a turn starts
    Then the model-visible tools are ""

  @core @CM-3.4 @CM-3.5 @CM-3.6
  Scenario: Activation: policy entries match exactly and case-sensitively
    Given the catalog "basic"
    And the tool policy allows only "Weather, READ, openclaw:core:Read, Shipping"
    When a turn starts
    Then the model-visible tools are ""

  @core @CM-3.1 @CM-3.5 @CM-20.2
  Scenario: Activation: a run whose only active tool is direct-only still activates code mode
    Given the catalog "mixed"
    And the tool policy allows only "computer"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls exec with:
      """js
      return ALL_TOOLS.length;
      """
    Then the result value is 0
    And the telemetry includes:
      """json
      {"catalogSize": 0, "sources": {"openclaw": 0, "mcp": 0, "client": 0}, "visibleTools": ["exec", "wait", "computer"]}
      """

  @core @CM-3.5 @CM-3.6
  Scenario: Activation: allow and alsoAllow entries match names, catalog ids and plugin ids
    Given the catalog "basic"
    And the tool policy allows only "openclaw:core:weather, shipping"
    And the config also has:
      """json
      {"tools": {"alsoAllow": ["select_file"]}}
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.id);
      """
    Then the result value is:
      """json
      ["openclaw:core:weather", "openclaw:shipping:shipping_list", "client:app:select_file"]
      """

  @core @CM-3.6 @CM-20.2
  Scenario: Activation: the policy entry bundle-mcp matches every MCP tool
    Given the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [
        {"name": "create_issue", "description": "Create a GitHub issue.", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}},
        {"name": "list_issues", "description": "List issues.", "inputSchema": {"type": "object", "properties": {}}}
      ]
      """
    And the tool policy allows only "read, bundle-mcp"
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.id);
      """
    Then the result value is:
      """json
      ["openclaw:core:read"]
      """
    And the telemetry includes:
      """json
      {"catalogSize": 3, "sources": {"openclaw": 1, "mcp": 2, "client": 0}}
      """

  @core @CM-3.6 @CM-3.7 @checklist-7
  Scenario Outline: Activation: deny entry <entry> wins over allow "*"
    Given the catalog "basic"
    And the tool policy allows only "*"
    And the tool policy denies "<entry>"
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      <names>
      """

    Examples:
      | entry                           | names                                     |
      | weather                         | ["read", "select_file", "shipping_list"] |
      | openclaw:shipping:shipping_list | ["read", "select_file", "weather"]       |

  @core @CM-3.7 @CM-16.3 @checklist-7
  Scenario: Activation: a denied tool cannot be called by a guessed id or name
    Given the catalog "basic"
    And the tool policy denies "weather"
    When a turn starts
    And the model calls exec with:
      """js
      const messages = [];
      for (const guess of ["openclaw:core:weather", "weather"]) {
        try {
          await tools.callValue(guess, { city: "Oslo" });
          messages.push("called");
        } catch (error) {
          messages.push(error.message);
        }
      }
      return messages;
      """
    Then the result value is:
      """json
      [
        "Unknown tool id: openclaw:core:weather. Did you mean: read, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "Unknown tool id: weather. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
      ]
      """
    And the tool "weather" was not called

  @core @CM-3.7
  Scenario: Activation: a deny entry wins over an alsoAllow entry for the same tool
    Given the catalog "basic"
    And the tool policy allows only "read"
    And the config also has:
      """json
      {"tools": {"alsoAllow": ["weather", "select_file"]}}
      """
    And the tool policy denies "weather"
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["read", "select_file"]
      """

  @core @CM-3.8 @CM-3.12
  Scenario: Activation: a tool is active only when the global and the agent policy both allow it
    Given the catalog "basic"
    And the config also has:
      """json
      {
        "tools": {"allow": ["read", "weather", "shipping_list"]},
        "agents": {"list": [{"id": "main", "tools": {"allow": ["weather", "shipping_list", "select_file"], "deny": ["shipping_list"]}}]}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.id);
      """
    Then the result value is:
      """json
      ["openclaw:core:weather"]
      """
    When a turn starts for agent "ops"
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.id);
      """
    Then the result value is:
      """json
      ["openclaw:core:read", "openclaw:core:weather", "openclaw:shipping:shipping_list"]
      """

  @core @CM-3.8
  Scenario: Activation: an agent alsoAllow entry adds a tool to the agent allow list but not past the global deny
    Given the catalog "basic"
    And the config also has:
      """json
      {
        "tools": {"deny": ["shipping_list"]},
        "agents": {"list": [{"id": "main", "tools": {"allow": ["read"], "alsoAllow": ["weather", "shipping_list"]}}]}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["read", "weather"]
      """

  @core @CM-3.12
  Scenario: Activation: a later run's catalog holds only the tools effective for that run
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["read", "select_file", "shipping_list", "weather"]
      """
    Given the tool policy denies "weather"
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["read", "select_file", "shipping_list"]
      """

  @core @CM-3.12
  Scenario: Activation: a client tool that one session's turn brings is absent from another session's catalog
    Given the catalog "basic"
    When a turn starts in session "with-picker"
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["read", "select_file", "shipping_list", "weather"]
      """
    When a turn starts in session "without-picker" without the client tool "select_file"
    And the model calls exec with:
      """js
      const found = await tools.search("select_file pick a file");
      return [ALL_TOOLS.map((entry) => entry.name).sort(), found.some((entry) => entry.name === "select_file")];
      """
    Then the result value is:
      """json
      [["read", "shipping_list", "weather"], false]
      """

  @core @CM-3.12 @CM-3.18
  Scenario Outline: Activation: tools.toolsBySender gives sender <sender> on <channel> the catalog of its first matching key
    Given the catalog "basic"
    And the config also has:
      """json
      {"tools": {"toolsBySender": {
        "channel:webchat:guest-7": {"deny": ["weather"]},
        "id:guest-7": {"deny": ["read"]},
        "guest-9": {"deny": ["select_file"]},
        "*": {"deny": ["shipping_list"]}
      }}}
      """
    When a turn starts from sender "<sender>" on channel "<channel>"
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      <catalog>
      """

    Examples:
      | sender  | channel | catalog                                     |
      | guest-7 | webchat | ["read", "select_file", "shipping_list"]    |
      | guest-7 | sms     | ["select_file", "shipping_list", "weather"] |
      | guest-9 | webchat | ["read", "shipping_list", "weather"]        |
      | owner-1 | webchat | ["read", "select_file", "weather"]          |

  @core @CM-3.9 @CM-11.30 @CM-3.1
  Scenario: Activation: deny entries exec and wait remove only the shell tool, never the control tools
    Given the catalog "mixed"
    And the tool policy denies "exec"
    And the tool policy denies "wait"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the exec description starts with:
      """text
      Run JavaScript or TypeScript in OpenClaw code mode.
      """
    When the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["browser_request", "llm-task", "message", "select_file", "shipping_list"]
      """

  @core @CM-3.9 @CM-4.4
  Scenario: Activation: an allow list without exec or wait still exposes the control tools
    Given the catalog "mixed"
    And the tool policy allows only "message"
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return ALL_TOOLS.filter((entry) => entry.source !== "client").map((entry) => entry.id);
      """
    Then the result value is:
      """json
      ["openclaw:core:message"]
      """

  @core @CM-3.10 @CM-3.11 @CM-11.2 @checklist-12
  Scenario: Activation: tool-search control tools are hidden even when policy allows them by name
    Given the catalog "mixed"
    And the tool policy allows only "tool_search_code, tool_search, tool_describe, tool_call, message, computer"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_search_code"
    When the model calls exec with:
      """js
      return ALL_TOOLS.filter((entry) => entry.source !== "client").map((entry) => entry.name);
      """
    Then the result value is:
      """json
      ["message"]
      """

  @core @CM-3.13 @CM-3.14 @CM-17.13
  Scenario: Activation: a missing quickjs-wasi binary keeps the code-mode surface and fails every exec
    Given the catalog "basic"
    And the quickjs-wasi binary is missing
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "runtime_unavailable"
    And the result failure phase is "host"
    And the result error starts with "code mode runtime is unavailable: "

  @core @CM-3.13 @CM-3.14
  Scenario: Activation: a corrupt quickjs-wasi binary never falls back to direct tools
    Given the catalog "mixed"
    And the quickjs-wasi binary is corrupt
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the model-visible tools do not include "message"
    When the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:message", { to: "ops", text: "hi" });
      """
    Then the result fails with code "runtime_unavailable"
    And the tool "message" was not called

  @core @CM-3.15 @CM-3.1
  Scenario: Activation: a configuration change takes effect only at the next agent run
    Given the catalog "basic"
    When a turn starts
    Then the model-visible tools are "exec, wait"
    Given code mode is disabled
    When the model calls exec with:
      """js
      return ALL_TOOLS.length;
      """
    Then the result value is 4
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
