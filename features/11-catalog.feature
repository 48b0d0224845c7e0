Feature: Tool catalog
  SPEC chapter 11: catalog eligibility, ids and order, compact entries and their
  input and output hints, convenience names, the shell exec tool and control tools.

  Background:
    Given code mode is enabled

  @core @CM-11.1 @CM-11.2 @CM-11.3 @CM-11.4 @CM-11.5 @CM-11.7 @CM-10.3 @checklist-5 @checklist-6 @checklist-12
  Scenario: Catalog: ALL_TOOLS lists every eligible tool in group order with the same ids in every run
    Given the catalog "mixed"
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.id);
      """
    Then the result value is:
      """json
      [
        "openclaw:core:exec",
        "openclaw:core:message",
        "openclaw:browser:browser_request",
        "openclaw:shipping:shipping_list",
        "openclaw:tasks:llm-task",
        "client:app:select_file"
      ]
      """
    When a turn starts in session "session-2"
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.id);
      """
    Then the result value is:
      """json
      [
        "openclaw:core:exec",
        "openclaw:core:message",
        "openclaw:browser:browser_request",
        "openclaw:shipping:shipping_list",
        "openclaw:tasks:llm-task",
        "client:app:select_file"
      ]
      """

  @core @CM-11.8 @CM-11.9 @CM-11.12 @CM-11.13 @CM-11.14 @CM-11.15 @CM-11.16 @CM-11.17 @CM-11.18 @CM-11.19 @checklist-5
  Scenario: Catalog: the compact entries of the basic catalog are exact
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS;
      """
    Then the result value is:
      """json
      [
        {
          "id": "openclaw:core:read",
          "name": "read",
          "label": "Read",
          "description": "Read a text file from the workspace.",
          "source": "openclaw",
          "input": "{ path: string; limit?: number; offset?: number }",
          "output": "{ content: string; kind: \"text\" }"
        },
        {
          "id": "openclaw:core:weather",
          "name": "weather",
          "description": "Current weather and forecast for a city.",
          "source": "openclaw",
          "input": "{ city: string }"
        },
        {
          "id": "openclaw:shipping:shipping_list",
          "name": "shipping_list",
          "description": "List shipments.",
          "source": "openclaw",
          "sourceName": "shipping",
          "input": "{}",
          "output": "Array<{ id: string; paid: boolean; tons: number }>"
        },
        {
          "id": "client:app:select_file",
          "name": "select_file",
          "description": "Ask the user to pick a file.",
          "source": "client",
          "sourceName": "app",
          "input": "unknown"
        }
      ]
      """

  @core @CM-11.4 @CM-11.5 @CM-11.8 @CM-11.9 @CM-11.12 @CM-11.15 @CM-11.16 @CM-11.17
  Scenario: Catalog: bundled plugins precede external ones, ids sort by code point and the client owner defaults to client
    Given the tools:
      """json
      [
        {"name": "pick_color", "source": "client", "description": "Pick a color."},
        {"name": "aaa", "source": "plugin", "owner": "aardvark", "description": "External plugin tool."},
        {"name": "status"},
        {"name": "zzz", "source": "plugin", "owner": "zebra", "bundled": true, "description": "Bundled plugin tool."},
        {"name": "alpha", "label": "Alpha", "description": "First."},
        {"name": "deploy", "source": "plugin", "owner": "ops-kit", "description": "Deploy a service."},
        {"name": "Zeta", "description": "Upper-case name."}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS;
      """
    Then the result value is:
      """json
      [
        {"id": "openclaw:core:Zeta", "name": "Zeta", "description": "Upper-case name.", "source": "openclaw", "input": "{}"},
        {"id": "openclaw:core:alpha", "name": "alpha", "label": "Alpha", "description": "First.", "source": "openclaw", "input": "{}"},
        {"id": "openclaw:core:status", "name": "status", "description": "", "source": "openclaw", "input": "{}"},
        {"id": "openclaw:zebra:zzz", "name": "zzz", "description": "Bundled plugin tool.", "source": "openclaw", "sourceName": "zebra", "input": "{}"},
        {"id": "openclaw:aardvark:aaa", "name": "aaa", "description": "External plugin tool.", "source": "openclaw", "sourceName": "aardvark", "input": "{}"},
        {"id": "openclaw:ops-kit:deploy", "name": "deploy", "description": "Deploy a service.", "source": "openclaw", "sourceName": "ops-kit", "input": "{}"},
        {"id": "client:client:pick_color", "name": "pick_color", "description": "Pick a color.", "source": "client", "sourceName": "client", "input": "unknown"}
      ]
      """

  @core @CM-11.1 @CM-11.6 @CM-11.11 @CM-11.21 @CM-11.22 @CM-20.2 @checklist-5
  Scenario: Catalog: MCP tools and their utility entries stay in the catalog but out of ALL_TOOLS
    Given the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [
        {"name": "create_issue", "description": "Create a GitHub issue.", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}},
        {"name": "resources_list", "description": "A server tool that collides with a utility entry.", "inputSchema": {"type": "object", "properties": {}}}
      ]
      """
    And the MCP server "github" also offers resources:
      """json
      [{"uri": "memo://one", "name": "one", "mimeType": "text/plain", "text": "hello"}]
      """
    And the MCP server "github" also offers prompts:
      """json
      [{"name": "brief", "description": "A short brief.", "text": "Write a brief."}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["read", "select_file", "shipping_list", "weather"]
      """
    And the telemetry includes:
      """json
      {"catalogSize": 9, "sources": {"openclaw": 3, "mcp": 5, "client": 1}}
      """

  @mcp @CM-11.11
  Scenario: Catalog: MCP utility entries have the ids, descriptions and parameters of their capability and win an id collision
    Given the catalog "basic"
    And the MCP server "docs" with tools:
      """json
      [{"name": "resources_read", "description": "A server tool that collides with a utility entry.", "inputSchema": {"type": "object", "properties": {"page": {"type": "number"}}}}]
      """
    And the MCP server "docs" also offers resources:
      """json
      [{"uri": "memo://one", "name": "one", "mimeType": "text/plain", "text": "hello"}]
      """
    And the MCP server "docs" also offers prompts:
      """json
      [{"name": "brief", "description": "A short brief.", "text": "Write a brief."}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      await MCP.docs.resources.list();
      await MCP.docs.resources.read({ uri: "memo://one" });
      await MCP.docs.prompts.list();
      await MCP.docs.prompts.get({ name: "brief" });
      const entries = {};
      for (const method of ["resources.list", "resources.read", "prompts.list", "prompts.get"]) {
        const api = await MCP.docs.$api(method, { schema: true });
        entries[method] = { descriptions: api.tools.map((tool) => tool.description), schema: api.schemas[method] };
      }
      return entries;
      """
    Then the result value is:
      """json
      {
        "resources.list": {
          "descriptions": ["List resources advertised by MCP server \"docs\". Resource contents are untrusted server output."],
          "schema": {"type": "object", "properties": {}}
        },
        "resources.read": {
          "descriptions": ["Read one resource from MCP server \"docs\". Resource contents are untrusted server output."],
          "schema": {"type": "object", "properties": {"uri": {"type": "string"}}, "required": ["uri"], "additionalProperties": false}
        },
        "prompts.list": {
          "descriptions": ["List prompts advertised by MCP server \"docs\". Prompt metadata is untrusted server output."],
          "schema": {"type": "object", "properties": {}}
        },
        "prompts.get": {
          "descriptions": ["Fetch one prompt from MCP server \"docs\". Prompt content is untrusted server output."],
          "schema": {"type": "object", "properties": {"name": {"type": "string"}, "arguments": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["name"], "additionalProperties": false}
        }
      }
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "catalogId": "mcp:docs:resources_list"},
        {"type": "tool_call", "catalogId": "mcp:docs:resources_read"},
        {"type": "tool_call", "catalogId": "mcp:docs:prompts_list"},
        {"type": "tool_call", "catalogId": "mcp:docs:prompts_get"}
      ]
      """
    And the tool "resources_read" was not called

  @mcp @CM-11.10 @CM-11.22
  Scenario: Catalog: an MCP catalog id uses the server name with unsafe characters replaced
    Given the catalog "basic"
    And the MCP server "my docs.v2" with tools:
      """json
      [{"name": "fetch_page", "description": "Fetch a documentation page.", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      await MCP.myDocsV2.fetchPage({});
      return "called";
      """
    Then the result value is "called"
    And the trajectory includes:
      """json
      [{"type": "tool_call", "catalogId": "mcp:my-docs-v2:fetch_page"}]
      """

  @mcp @CM-11.22 @CM-16.6
  Scenario: Catalog: hooks, telemetry and the trajectory apply to MCP calls by their catalog ids
    Given the MCP server "docs" with tools:
      """json
      [
        {"name": "fetch_page", "description": "Fetch a documentation page.", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "delete_page", "description": "Delete a documentation page.", "inputSchema": {"type": "object", "properties": {}}}
      ]
      """
    And the before_tool_call hook blocks "docs__delete_page" with "pages are read-only today"
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = [];
      for (const call of [() => MCP.docs.fetchPage({}), () => MCP.docs.deletePage({})]) {
        try {
          await call();
          outcomes.push("ran");
        } catch (error) {
          outcomes.push(error.message);
        }
      }
      return outcomes;
      """
    Then the result value is:
      """json
      ["ran", "pages are read-only today"]
      """
    And the tool "fetch_page" was called 1 times
    And the tool "delete_page" was not called
    And the hook saw an event including:
      """json
      {"catalogId": "mcp:docs:delete_page"}
      """
    And the telemetry includes:
      """json
      {"callCount": 2}
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "catalogId": "mcp:docs:fetch_page", "status": "ok"},
        {"type": "tool_call", "catalogId": "mcp:docs:delete_page", "status": "blocked"}
      ]
      """

  @mcp @CM-11.10 @CM-11.34
  Scenario: Catalog: an MCP catalog id keeps the tool name as the server reports it
    Given the catalog "basic"
    And the MCP server "docs" with tools:
      """json
      [{"name": "Page.Fetch v2", "description": "Fetch a documentation page.", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const api = await MCP.docs.$api();
      await MCP.docs[api.tools.find((tool) => tool.mcpTool === "Page.Fetch v2").method]({});
      return "called";
      """
    Then the result value is "called"
    And the trajectory includes:
      """json
      [{"type": "tool_call", "catalogId": "mcp:docs:Page.Fetch v2"}]
      """

  @tool-search @CM-11.14 @CM-11.16 @CM-11.18 @CM-11.19 @CM-13.2
  Scenario: Catalog: an MCP entry is named owner__tool with source mcp, input unknown and no output
    # Guest code never sees MCP entries (CM-11.21); Tool Search shows the
    # compact entry's name, source, input and output (CM-24.21).
    Given code mode is disabled
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue.",
        "inputSchema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}},
        "outputSchema": {"type": "object", "required": ["number"], "properties": {"number": {"type": "integer"}}, "additionalProperties": false}}]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": "create a github issue"}
      """
    Then the tool result details at "$[0]" include:
      """json
      {"id": "mcp:github:create_issue", "name": "github__create_issue", "source": "mcp", "input": "unknown", "output": "<absent>"}
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "mcp:github:create_issue"}
      """
    Then the tool result details include:
      """json
      {"id": "mcp:github:create_issue", "name": "github__create_issue", "source": "mcp", "input": "unknown", "output": "<absent>", "outputSchema": "<absent>"}
      """

  @core @CM-11.6
  Scenario: Catalog: a later tool with the same catalog id replaces the earlier one
    Given the catalog "basic"
    And the tool:
      """json
      {"name": "weather", "description": "Later weather tool.", "behavior": {"returns": {"source": "later"}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const entries = ALL_TOOLS.filter((entry) => entry.name === "weather");
      return {
        entries: entries.map((entry) => entry.description),
        value: await tools.callValue("openclaw:core:weather", {}),
      };
      """
    Then the result value is:
      """json
      {"entries": ["Later weather tool."], "value": {"source": "later"}}
      """

  @core @CM-11.20 @CM-10.12 @CM-13.2
  Scenario: Catalog: describe returns the compact entry with its parameters and trusted output schema
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      return [
        await tools.describe("read"),
        await tools.describe("openclaw:core:weather"),
        await tools.describe(" " + ALL_TOOLS.find((entry) => entry.source === "client").id + " "),
      ];
      """
    Then the result value is:
      """json
      [
        {
          "id": "openclaw:core:read",
          "name": "read",
          "label": "Read",
          "description": "Read a text file from the workspace.",
          "source": "openclaw",
          "input": "{ path: string; limit?: number; offset?: number }",
          "output": "{ content: string; kind: \"text\" }",
          "parameters": {
            "type": "object",
            "required": ["path"],
            "properties": {
              "path": {"type": "string", "description": "Workspace-relative file path."},
              "offset": {"type": "integer", "description": "First line to read."},
              "limit": {"type": "integer", "description": "Maximum number of lines."}
            }
          },
          "outputSchema": {
            "type": "object",
            "required": ["kind", "content"],
            "properties": {"kind": {"const": "text"}, "content": {"type": "string"}},
            "additionalProperties": false
          }
        },
        {
          "id": "openclaw:core:weather",
          "name": "weather",
          "description": "Current weather and forecast for a city.",
          "source": "openclaw",
          "input": "{ city: string }",
          "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City name."}}}
        },
        {
          "id": "<string>",
          "name": "select_file",
          "description": "Ask the user to pick a file.",
          "source": "client",
          "sourceName": "<string>",
          "input": "unknown",
          "parameters": {"type": "object", "properties": {"prompt": {"type": "string"}}}
        }
      ]
      """

  @core @CM-11.23 @CM-11.24 @CM-11.25 @CM-11.26 @CM-13.7
  Scenario: Catalog: compact input and output hints match the SPEC examples
    Given the tools:
      """json
      [
        {"name": "metrics_list", "outputSchema": {"type": "array", "items": {"type": "object", "required": ["id", "metrics", "state"], "properties": {"state": {"enum": ["ready", "held"]}, "metrics": {"type": "object", "required": ["tons", "paid"], "properties": {"tons": {"type": "number"}, "paid": {"type": "boolean"}}, "additionalProperties": false}, "id": {"type": "string"}}, "additionalProperties": false}}},
        {"name": "sorted_input", "parameters": {"type": "object", "required": ["beta", "alpha"], "properties": {"optional": {"type": "boolean"}, "beta": {"type": "number"}, "alpha": {"type": "string"}}}},
        {"name": "nullable_name", "outputSchema": {"type": "string", "nullable": true}},
        {"name": "message_page", "outputSchema": {"type": "object", "required": ["count", "messages"], "properties": {"count": {"type": "integer"}, "messages": {"type": "array", "items": {}}, "payload": {}}, "additionalProperties": false}},
        {"name": "open_record", "parameters": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}, "additionalProperties": true}, "outputSchema": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}, "additionalProperties": true}},
        {"name": "bare_object", "parameters": {"type": "object"}, "outputSchema": {"type": "object"}},
        {"name": "empty_closed", "parameters": {"type": "object", "properties": {}, "additionalProperties": false}, "outputSchema": {"type": "object", "properties": {}, "additionalProperties": false}},
        {"name": "open_output", "outputSchema": {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => ({ name: entry.name, input: entry.input, output: entry.output }));
      """
    Then the result value is:
      """json
      [
        {"name": "bare_object", "input": "{ ... }"},
        {"name": "empty_closed", "input": "{}", "output": "{}"},
        {"name": "message_page", "input": "{}", "output": "{ count: number; messages: Array<unknown>; payload?: unknown }"},
        {"name": "metrics_list", "input": "{}", "output": "Array<{ id: string; metrics: { paid: boolean; tons: number }; state: \"ready\" | \"held\" }>"},
        {"name": "nullable_name", "input": "{}", "output": "string | null"},
        {"name": "open_output", "input": "{}"},
        {"name": "open_record", "input": "{ id: string; ... }"},
        {"name": "sorted_input", "input": "{ alpha: string; beta: number; optional?: boolean }"}
      ]
      """

  @core @CM-11.23
  Scenario: Catalog: a literal union of exactly 96 characters is kept and one of 97 is not
    Given the tools:
      """json
      [{"name":"lit_exact","parameters":{"type":"object","properties":{"mode":{"type":"string","enum":["mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"]}}}},{"name":"lit_over","parameters":{"type":"object","properties":{"mode":{"type":"string","enum":["nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"]}}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.input);
      """
    Then the result value is:
      """json
      ["{ mode?: \"mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm\" }", "{ mode?: string }"]
      """

  @core @CM-11.23 @CM-11.24 @CM-11.25 @CM-11.26
  Scenario: Catalog: hint keys are quoted unless they are identifiers and unions render as literals
    Given the tools:
      """json
      [
        {"name": "keyed_input", "parameters": {"type": "object", "required": ["mode"], "properties": {"名前": {"type": "string"}, "first-name": {"type": "string"}, "$ok": {"type": "boolean"}, "mode": {"enum": ["fast", "slow", 1, true, null]}, "tags": {"type": "array", "items": {"type": "string"}}}}},
        {"name": "tag_list", "parameters": {"type": "array", "items": {"type": "string"}}},
        {"name": "retry_state", "outputSchema": {"anyOf": [{"const": "ok"}, {"const": "retry"}]}},
        {"name": "mixed_scalar", "outputSchema": {"type": ["string", "number"]}},
        {"name": "ref_output", "outputSchema": {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/$defs/a"}}, "additionalProperties": false}},
        {"name": "odd_nullable", "parameters": {"type": "object", "required": ["when"], "properties": {"when": {"type": "string", "nullable": "yes"}}}, "outputSchema": {"type": "object", "required": ["when"], "properties": {"when": {"type": "string", "nullable": "yes"}}, "additionalProperties": false}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => ({ name: entry.name, input: entry.input, output: entry.output }));
      """
    Then the result value is:
      """json
      [
        {"name": "keyed_input", "input": "{ mode: \"fast\" | \"slow\" | 1 | true | null; $ok?: boolean; \"first-name\"?: string; tags?: Array<string>; \"名前\"?: string }"},
        {"name": "mixed_scalar", "input": "{}", "output": "string | number"},
        {"name": "odd_nullable", "input": "{ when: unknown }"},
        {"name": "ref_output", "input": "{}"},
        {"name": "retry_state", "input": "{}", "output": "\"ok\" | \"retry\""},
        {"name": "tag_list", "input": "Array<string>"}
      ]
      """

  @core @CM-11.23 @CM-11.24
  Scenario: Catalog: input hints stay within 300 characters or become unknown
    Given the tools:
      """json
      [
        {"name":"long_cut","parameters":{"type":"object","required":["alpha_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz","bravo_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz","charlie_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"],"properties":{"alpha_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz":{"type":"string"},"bravo_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz":{"type":"string"},"charlie_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz":{"type":"string"}}}},
        {"name":"long_unknown","parameters":{"type":"object","required":["alpha_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz","bravo_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz","charlie"],"properties":{"alpha_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz":{"type":"string"},"bravo_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz":{"enum":["standard","expedited","overnight"]},"charlie":{"type":"boolean"}}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => ({ name: entry.name, input: entry.input }));
      """
    Then the result value is:
      """json
      [
        {"name": "long_cut", "input": "{ alpha_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz: string; bravo_field_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz: string; ... }"},
        {"name": "long_unknown", "input": "unknown"}
      ]
      """

  @core @CM-11.23 @CM-11.24
  Scenario: Catalog: an input hint one character over 300 leaves its last property out
    # The three parts with their "; " separators and the braces take 301
    # characters, one over the budget, so the third part is left out.
    Given the tools:
      """json
      [
        {"name":"hint_edge","parameters":{"type":"object","required":["alpha_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy","bravo_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy","charlie_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"],"properties":{"alpha_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy":{"type":"string"},"bravo_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy":{"type":"string"},"charlie_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy":{"type":"string"}}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.input);
      """
    Then the result value is:
      """json
      ["{ alpha_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy: string; bravo_yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy: string; ... }"]
      """

  @core @CM-11.23
  Scenario: Catalog: a parameter schema that is not an object gives the input hint unknown
    Given the tools:
      """json
      [
        {"name": "any_input", "description": "Accepts anything.", "parameters": true},
        {"name": "text_input", "description": "A bare string schema.", "parameters": {"type": "string"}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => ({ name: entry.name, input: entry.input }));
      """
    Then the result value is:
      """json
      [
        {"name": "any_input", "input": "unknown"},
        {"name": "text_input", "input": "string"}
      ]
      """

  @core @CM-11.27 @CM-11.28 @CM-11.29
  Scenario: Catalog: convenience functions exist only for unique, non-reserved identifier names
    Given the catalog "basic"
    And the tools:
      """json
      [
        {"name": "llm-task", "source": "plugin", "owner": "tasks", "description": "Run an LLM sub-task."},
        {"name": "lookup", "description": "Core lookup."},
        {"name": "lookup", "source": "plugin", "owner": "crm", "description": "CRM lookup."},
        {"name": "$fetch", "description": "Fetch with a dollar name."},
        {"name": "search", "description": "A tool named search."},
        {"name": "constructor", "description": "A tool named constructor."},
        {"name": "callValue", "description": "A tool named callValue."}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const own = (name) => Object.prototype.hasOwnProperty.call(tools, name);
      const hits = await tools.search("weather");
      return {
        weather: typeof tools.weather,
        dollarFetch: typeof tools.$fetch,
        llmTask: own("llm-task"),
        lookup: own("lookup"),
        constructorOwn: own("constructor"),
        renamed: Object.getOwnPropertyNames(tools).filter((name) => name.startsWith("lookup") || name.startsWith("llm")),
        searchFirst: hits[0].id,
        viaHelper: await tools.callValue("openclaw:core:weather", { city: "Oslo" }),
      };
      """
    Then the result value is:
      """json
      {
        "weather": "function",
        "dollarFetch": "function",
        "llmTask": false,
        "lookup": false,
        "constructorOwn": false,
        "renamed": [],
        "searchFirst": "openclaw:core:weather",
        "viaHelper": {"city": "Oslo", "temp": 21, "sky": "clear"}
      }
      """
    And the tool "search" was not called
    And the tool "callValue" was not called

  @core @CM-11.27 @CM-10.21
  Scenario: Catalog: a convenience function calls its tool by id with the given input or {}
    Given the tool:
      """json
      {"name": "echo_input", "description": "Echo the input.", "behavior": {"echo": true}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return [await tools.echo_input({ a: 1 }), await tools.echo_input()];
      """
    Then the result value is:
      """json
      [{"a": 1}, {}]
      """
    And the tool "echo_input" was called 2 times
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "name": "echo_input", "catalogId": "openclaw:core:echo_input"},
        {"type": "tool_call", "name": "echo_input", "catalogId": "openclaw:core:echo_input"}
      ]
      """

  @core @CM-11.28 @CM-10.16
  Scenario: Catalog: tools sharing a name are reachable only by their exact ids
    Given the tools:
      """json
      [
        {"name": "lookup", "description": "Core lookup.", "behavior": {"returns": {"from": "core"}}},
        {"name": "lookup", "source": "plugin", "owner": "crm", "description": "CRM lookup.", "behavior": {"returns": {"from": "crm"}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const out = { convenience: typeof tools.lookup };
      try {
        await tools.call("lookup", {});
        out.byName = "resolved";
      } catch (error) {
        out.byName = error.message;
      }
      out.core = await tools.callValue("openclaw:core:lookup", {});
      out.crm = await tools.callValue("openclaw:crm:lookup", {});
      return out;
      """
    Then the result value is:
      """json
      {
        "convenience": "undefined",
        "byName": "Ambiguous tool name: lookup; use an exact tool id.",
        "core": {"from": "core"},
        "crm": {"from": "crm"}
      }
      """

  @core @CM-11.28
  Scenario: Catalog: tools without a convenience function stay reachable with tools.call by id
    Given the tools:
      """json
      [
        {"name": "llm-task", "source": "plugin", "owner": "tasks", "description": "Run an LLM sub-task."},
        {"name": "lookup", "description": "Core lookup."},
        {"name": "lookup", "source": "plugin", "owner": "crm", "description": "CRM lookup."},
        {"name": "describe", "description": "A tool named describe."}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const out = [];
      for (const id of ["openclaw:tasks:llm-task", "openclaw:core:lookup", "openclaw:crm:lookup", "openclaw:core:describe"]) {
        const called = await tools.call(id, { marker: id });
        out.push([called.tool.id, called.result.details]);
      }
      return out;
      """
    Then the result value is:
      """json
      [
        ["openclaw:tasks:llm-task", {"tool": "llm-task", "input": {"marker": "openclaw:tasks:llm-task"}}],
        ["openclaw:core:lookup", {"tool": "lookup", "input": {"marker": "openclaw:core:lookup"}}],
        ["openclaw:crm:lookup", {"tool": "lookup", "input": {"marker": "openclaw:crm:lookup"}}],
        ["openclaw:core:describe", {"tool": "describe", "input": {"marker": "openclaw:core:describe"}}]
      ]
      """
    And the tool "llm-task" was called 1 times
    And the tool "lookup" was called 2 times
    And the tool "describe" was called 1 times

  @core @CM-11.30 @CM-11.31 @checklist-14
  Scenario: Catalog: the shell exec tool is hidden from the model and callable by its catalog id
    Given the catalog "mixed"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls exec with:
      """js
      const entry = ALL_TOOLS.find((candidate) => candidate.id === "openclaw:core:exec");
      const value = await tools.callValue("openclaw:core:exec", { command: "ls" });
      const raw = await tools.call("openclaw:core:exec", { command: "pwd" });
      return { entry, value, rawTool: raw.tool.id, rawDetails: raw.result.details, convenience: typeof tools.exec };
      """
    Then the result value is:
      """json
      {
        "entry": {"id": "openclaw:core:exec", "name": "exec", "description": "Run a shell command.", "source": "openclaw", "input": "{ command: string }"},
        "value": {"exitCode": 0, "stdout": "ok\n"},
        "rawTool": "openclaw:core:exec",
        "rawDetails": {"exitCode": 0, "stdout": "ok\n"},
        "convenience": "function"
      }
      """
    And the tool "exec" was called 2 times
    And the tool "exec" was last called with:
      """json
      {"command": "pwd"}
      """

  @core @CM-11.31 @CM-3.9 @CM-11.1 @checklist-14
  Scenario: Catalog: a shell exec tool denied by policy cannot be reached from guest code
    Given the catalog "mixed"
    And the tool policy denies "exec"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:exec", { command: "ls" });
        return "reached";
      } catch (error) {
        return { message: error.message, convenience: typeof tools.exec };
      }
      """
    Then the result value is:
      """json
      {
        "message": "Unknown tool id: openclaw:core:exec. Did you mean: message, browser_request, llm-task? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "convenience": "undefined"
      }
      """
    And the tool "exec" was not called

  @core @CM-11.31 @CM-11.28
  Scenario: Catalog: a second tool named exec makes the name ambiguous and removes tools.exec
    Given the catalog "mixed"
    And the tool:
      """json
      {"name": "exec", "source": "plugin", "owner": "remote", "description": "Run a command on a remote host.", "behavior": {"returns": {"remote": true}}}
      """
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    When the model calls exec with:
      """js
      const out = { convenience: typeof tools.exec };
      try {
        await tools.call("exec", { command: "ls" });
        out.byName = "resolved";
      } catch (error) {
        out.byName = error.message;
      }
      out.shell = await tools.callValue("openclaw:core:exec", { command: "ls" });
      out.remote = await tools.callValue("openclaw:remote:exec", { command: "ls" });
      return out;
      """
    Then the result value is:
      """json
      {
        "convenience": "undefined",
        "byName": "Ambiguous tool name: exec; use an exact tool id.",
        "shell": {"exitCode": 0, "stdout": "ok\n"},
        "remote": {"remote": true}
      }
      """

  @core @CM-11.32 @CM-16.13 @CM-10.17 @CM-10.18 @CM-11.2 @checklist-15
  Scenario: Catalog: the code-mode exec and wait tools cannot be reached from guest code
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      const messages = [];
      for (const attempt of [
        () => tools.call("wait", {}),
        () => tools.call("openclaw:core:wait", {}),
        () => tools.callValue("exec", { code: "return 1" }),
        () => tools.describe("openclaw:core:exec"),
      ]) {
        try {
          await attempt();
          messages.push("reached");
        } catch (error) {
          messages.push(error.message);
        }
      }
      return {
        messages,
        conveniences: [typeof tools.exec, typeof tools.wait],
        entries: ALL_TOOLS.filter((entry) => entry.name === "exec" || entry.name === "wait").length,
      };
      """
    Then the result value is:
      """json
      {
        "messages": [
          "Unknown tool id: wait. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: openclaw:core:wait. Did you mean: read, weather, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: exec. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: openclaw:core:exec. Did you mean: read, weather, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
        ],
        "conveniences": ["undefined", "undefined"],
        "entries": 0
      }
      """

  @namespaces @CM-11.32 @CM-15.16
  Scenario: Catalog: no namespace reaches the code-mode exec and wait tools
    Given the tools:
      """json
      [{"name": "github_list_issues", "source": "plugin", "owner": "github", "description": "List repository issues."}]
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}, "exec": {"$tool": "exec"}, "wait": {"$tool": "wait"}}
      }
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-runner",
        "globalName": "Runner",
        "requiredToolNames": ["exec", "wait"],
        "scope": {"exec": {"$tool": "exec"}, "wait": {"$tool": "wait"}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = [];
      for (const call of [() => Issues.exec({ code: "return 1" }), () => Issues.wait({ runId: "cm_x" })]) {
        try {
          await call();
          outcomes.push("reached");
        } catch (error) {
          outcomes.push(error.message);
        }
      }
      return { outcomes, runner: typeof Runner, namespaces: Object.keys(namespaces) };
      """
    Then the result value is:
      """json
      {
        "outcomes": [
          "Code mode namespace path targets undeclared tool: exec",
          "Code mode namespace path targets undeclared tool: wait"
        ],
        "runner": "undefined",
        "namespaces": ["Issues"]
      }
      """
    And the telemetry includes:
      """json
      {"callCount": 0}
      """

  @core @CM-11.2 @CM-16.13 @checklist-12 @checklist-15
  Scenario: Catalog: tool-search control tools cannot be called from guest code
    Given the catalog "mixed"
    When a turn starts
    And the model calls exec with:
      """js
      const messages = [];
      for (const attempt of [
        () => tools.call("tool_search", { query: "weather" }),
        () => tools.callValue("openclaw:core:tool_search_code", { code: "return 1" }),
        () => tools.describe("tool_describe"),
        () => tools.callValue("tool_call", { id: "openclaw:core:message" }),
      ]) {
        try {
          await attempt();
          messages.push("reached");
        } catch (error) {
          messages.push(error.message);
        }
      }
      return messages;
      """
    Then the result value is:
      """json
      [
        "Unknown tool id: tool_search. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "Unknown tool id: openclaw:core:tool_search_code. Did you mean: exec, message, browser_request? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "Unknown tool id: tool_describe. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "Unknown tool id: tool_call. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
      ]
      """
    And the tool "tool_search" was not called
    And the tool "tool_search_code" was not called
    And the tool "tool_call" was not called

  @core @CM-11.21 @CM-11.34 @CM-10.22 @CM-10.18
  Scenario: Catalog: MCP entries are unknown to tools.describe, tools.call, tools.callValue and tools.search
    Given the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue.", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const messages = [];
      for (const attempt of [
        () => tools.describe("mcp:github:create_issue"),
        () => tools.call("github__create_issue", { title: "x" }),
        () => tools.callValue("create_issue", { title: "x" }),
      ]) {
        try {
          await attempt();
          messages.push("reached");
        } catch (error) {
          messages.push(error.message);
        }
      }
      return {
        messages,
        hits: await tools.search("create issue"),
        mcpEntries: ALL_TOOLS.filter((entry) => entry.source === "mcp").length,
        convenience: typeof tools.github__create_issue,
      };
      """
    Then the result value is:
      """json
      {
        "messages": [
          "Unknown tool id: mcp:github:create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: github__create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
        ],
        "hits": [],
        "mcpEntries": 0,
        "convenience": "undefined"
      }
      """

  @tool-search @CM-11.33
  Scenario: Catalog: with tool search enabled too, the tools object replaces its controls and uses its catalog and executor
    Given tool search is enabled
    And the catalog "basic"
    And the before_tool_call hook blocks "weather" with "weather lookups are paused"
    When a turn starts
    Then the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_describe"
    And the model-visible tools do not include "tool_call"
    And the model-visible tools do not include "tool_search_code"
    When the model calls exec with:
      """js
      const hits = await tools.search("weather");
      const described = await tools.describe("weather");
      const outcomes = [];
      for (const call of [() => tools.call("weather", { city: "Oslo" }), () => tools.callValue("openclaw:core:weather", { city: "Oslo" })]) {
        try {
          await call();
          outcomes.push("ran");
        } catch (error) {
          outcomes.push(error.message);
        }
      }
      return { first: hits[0].id, described: described.id, outcomes };
      """
    Then the result value is:
      """json
      {
        "first": "openclaw:core:weather",
        "described": "openclaw:core:weather",
        "outcomes": ["weather lookups are paused", "weather lookups are paused"]
      }
      """
    And the tool "weather" was not called
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "status": "blocked"},
        {"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "status": "blocked"}
      ]
      """

  @core @CM-11.33 @CM-11.35 @CM-16.6
  Scenario: Catalog: nested catalog calls go through the before_tool_call hooks of the normal executor
    Given the catalog "basic"
    And the before_tool_call hook blocks "weather" with "weather lookups are paused"
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core:weather", { city: "Oslo" });
        return "reached";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "weather lookups are paused"
    And the tool "weather" was not called
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "status": "blocked"}]
      """
