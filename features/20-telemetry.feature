Feature: Telemetry
  SPEC.md chapter 20: every exec and wait payload reports the catalog
  telemetry of its agent run, with cumulative counters.

  Background:
    Given code mode is enabled

  @core @CM-20.1 @CM-20.7 @CM-20.8 @CM-20.5
  Scenario: telemetry has exactly the specified members and no tool input
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      await tools.callValue("weather", { city: "Oslo", apiKey: "sk-telemetry-secret" });
      return "ok";
      """
    Then the result status is "completed"
    And the result includes:
      """json
      {
        "telemetry": {
          "catalogSize": 4,
          "sources": {"openclaw": 3, "mcp": 0, "client": 1, "plugin": "<absent>"},
          "searchCount": 0,
          "describeCount": 0,
          "callCount": 1,
          "visibleTools": ["exec", "wait"],
          "counterScope": "<absent>",
          "apiKey": "<absent>",
          "input": "<absent>"
        }
      }
      """

  @core @CM-20.2 @CM-20.6
  Scenario: telemetry counts the catalog by source and lists the retained direct-only tool
    Given the catalog "mixed"
    And a turn starts
    When the model calls exec with:
      """js
      return ALL_TOOLS.length;
      """
    Then the result value is 6
    And the telemetry includes:
      """json
      {
        "catalogSize": 6,
        "sources": {"openclaw": 5, "mcp": 0, "client": 1},
        "visibleTools": ["exec", "wait", "computer"]
      }
      """

  @mcp @CM-20.2 @CM-20.5 @CM-14.19
  Scenario: telemetry counts MCP entries and MCP tool calls but not $api or API files
    Given the catalog "basic"
    And the MCP server "docs" with tools:
      """json
      [
        {"name": "search_docs", "description": "Search the documentation."},
        {"name": "get_page", "description": "Get one documentation page."}
      ]
      """
    And the MCP server "docs" also offers resources:
      """json
      [{"uri": "memo://one", "name": "One", "text": "hello"}]
      """
    And a turn starts
    When the model calls exec with:
      """js
      await MCP.$api();
      await MCP.docs.$api();
      await API.list("mcp");
      await MCP.docs.searchDocs({ query: "pricing" });
      await MCP.docs.resources.list();
      return ALL_TOOLS.length;
      """
    Then the result status is "completed"
    And the result value is 4
    And the telemetry includes:
      """json
      {
        "catalogSize": 8,
        "sources": {"openclaw": 3, "mcp": 4, "client": 1},
        "searchCount": 0,
        "describeCount": 0,
        "callCount": 2
      }
      """

  @core @CM-20.4 @CM-20.5 @checklist-24
  Scenario: telemetry counts searches, describes and every dispatched call but not guest-side validation failures
    Given the catalog "basic"
    And the tool "weather" fails with "offline"
    And a turn starts
    When the model calls exec with:
      """js
      await tools.search("weather");
      await tools.search("file", { limit: 2 });
      await tools.describe("openclaw:core:read");
      await tools.callValue("read", { path: "notes.txt" });
      await tools.call("openclaw:core:read", { path: "notes.txt" });
      await tools.read({ path: "notes.txt" });
      try { await tools.callValue("weather", { city: "Oslo" }); } catch (error) { text(error.message); }
      try { await tools.callValue(42); } catch (error) { text(error.message); }
      try { await tools.search(7); } catch (error) { text(error.message); }
      try { await tools.search("weather", { limit: 0 }); } catch (error) { text(error.message); }
      await API.list();
      return "counted";
      """
    Then the result status is "completed"
    And the result output is:
      """json
      [
        {"type": "text", "text": "offline"},
        {"type": "text", "text": "callValue id must be a string."},
        {"type": "text", "text": "search query must be a string."},
        {"type": "text", "text": "limit must be a positive integer."}
      ]
      """
    And the telemetry includes:
      """json
      {"searchCount": 2, "describeCount": 1, "callCount": 4}
      """
    And the trajectory shows "read" under the exec call
    And the trajectory shows "weather" under the exec call

  @namespaces @CM-20.5
  Scenario: telemetry counts internal namespace calls as calls
    Given the catalog "basic"
    And the plugin "shipping" registers the namespace:
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
    When the model calls exec with:
      """js
      await Shipping.list();
      await Shipping.list({ paid: true });
      return "counted";
      """
    Then the result value is "counted"
    And the telemetry includes:
      """json
      {"searchCount": 0, "describeCount": 0, "callCount": 2}
      """
    And the tool "shipping_list" was called 2 times

  @core @CM-20.3
  Scenario: telemetry counters accumulate over the exec calls of one agent run and restart for the next
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      await tools.search("weather");
      return 1;
      """
    Then the telemetry includes:
      """json
      {"searchCount": 1, "describeCount": 0, "callCount": 0}
      """
    When the model calls exec with:
      """js
      await tools.describe("weather");
      await tools.callValue("weather", { city: "Oslo" });
      return 2;
      """
    Then the telemetry includes:
      """json
      {"searchCount": 1, "describeCount": 1, "callCount": 1}
      """
    When the turn ends
    And a turn starts
    And the model calls exec with:
      """js
      return 3;
      """
    Then the telemetry includes:
      """json
      {"searchCount": 0, "describeCount": 0, "callCount": 0}
      """

  @snapshots @CM-20.3 @CM-20.1
  Scenario: telemetry counters accumulate across exec and wait of a suspended run
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      await tools.search("weather");
      await yield_control();
      await tools.callValue("weather", { city: "Oslo" });
      return "resumed";
      """
    Then the result is waiting with reason "yield"
    And the telemetry includes:
      """json
      {"catalogSize": 4, "searchCount": 1, "describeCount": 0, "callCount": 0, "visibleTools": ["exec", "wait"]}
      """
    When the model calls wait
    Then the result status is "completed"
    And the telemetry includes:
      """json
      {"catalogSize": 4, "searchCount": 1, "describeCount": 0, "callCount": 1, "visibleTools": ["exec", "wait"]}
      """

  @snapshots @CM-20.9 @CM-20.1
  Scenario: a refused wait carries the telemetry of the caller's agent run
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      await tools.search("weather");
      await tools.callValue("weather", { city: "Oslo" });
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    And the telemetry includes:
      """json
      {"searchCount": 1, "callCount": 1}
      """
    When a turn starts
    And the model calls wait
    Then the wait is refused with "code mode run belongs to a different agent run."
    And the telemetry includes:
      """json
      {"catalogSize": 4, "searchCount": 0, "describeCount": 0, "callCount": 0, "visibleTools": ["exec", "wait"]}
      """

  @core @CM-20.8 @CM-20.7
  Scenario: telemetry holds no configured secret, environment value or tool input
    Given the catalog "basic"
    And the target environment has "OPENCLAW_TELEMETRY_PROBE" set to "cm-env-secret-3307"
    And the config also has:
      """json
      {"models": {"providers": {"openai": {"apiKey": "sk-cm-telemetry-6120"}}}}
      """
    And a turn starts
    When the model calls exec with:
      """js
      await tools.callValue("weather", { city: "cm-input-secret-5150", apiKey: "sk-cm-telemetry-6120" });
      return "ok";
      """
    Then the result status is "completed"
    And the tool result details at "$.telemetry" are:
      """json
      {
        "catalogSize": 4,
        "sources": {"openclaw": 3, "mcp": 0, "client": 1},
        "searchCount": 0,
        "describeCount": 0,
        "callCount": 1,
        "visibleTools": ["exec", "wait"]
      }
      """
