Feature: Tool Search
  SPEC chapter 24, and CM-3.16 and CM-3.17 of chapter 3: when code mode does not activate and
  tools.toolSearch is enabled, the model sees the kept tools and the structured controls
  tool_search, tool_describe and tool_call, which search, describe and call the run's catalog,
  MCP tools included. When code mode activates, Tool Search never applies.

  # Configuration

  @tool-search @CM-24.2 @CM-24.3
  Scenario Outline: Tool Search: tools.toolSearch <value> leaves Tool Search disabled
    Given the catalog "basic"
    And tool search is configured as:
      """json
      <value>
      """
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
    And the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_call"

    Examples:
      | value                              |
      | false                              |
      | {}                                 |
      | {"enabled": false, "mode": "tools"} |
      | {"enabled": "yes"}                 |
      | null                               |
      | "tools"                            |
      | 1                                  |
      | [true]                             |

  @tool-search @CM-24.2 @CM-24.3 @CM-24.4 @CM-24.5
  Scenario Outline: Tool Search: tools.toolSearch <value> enables Tool Search outside mode directory
    Given the catalog "basic"
    And tool search is configured as:
      """json
      <value>
      """
    When a turn starts
    Then the model-visible tools include "read"
    And the model-visible tools do not include "weather"
    And the model-visible tools do not include "shipping_list"
    And the model-visible tools do not include "select_file"

    Examples:
      | value                               |
      | true                                |
      | {"enabled": true}                   |
      | {"mode": "tools"}                   |
      | {"mode": "bogus"}                   |
      | {"mode": "Directory"}               |
      | {"mode": 3}                         |
      | {"enabled": "yes", "mode": "tools"} |
      | {"maxSearchLimit": 3}               |
      | {"codeTimeoutMs": 5}                |

  @tool-search @CM-24.4 @CM-24.9
  Scenario: Tool Search: mode directory keeps the client tools visible
    Given the catalog "basic"
    And tool search is configured as:
      """json
      {"mode": "directory"}
      """
    When a turn starts
    Then the model-visible tools are "read, select_file, tool_search, tool_describe, tool_call"
    And the model-visible tools do not include "weather"

  @tool-search @CM-24.1
  Scenario: Tool Search: a per-agent tools.toolSearch does not enable Tool Search
    Given the catalog "basic"
    And the config also has:
      """json
      {"agents": {"list": [{"id": "main", "tools": {"toolSearch": {"mode": "tools"}}}]}}
      """
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
    And the model-visible tools do not include "tool_search"

  @tool-search @CM-24.1
  Scenario: Tool Search: a per-agent tools.toolSearch false does not disable the global one
    Given the catalog "basic"
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the config also has:
      """json
      {"agents": {"list": [{"id": "main", "tools": {"toolSearch": false}}]}}
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"
    And the model-visible tools do not include "weather"

  @tool-search @CM-24.5 @CM-24.16
  Scenario Outline: Tool Search: tools.toolSearch <value> puts <limit> in the tool_search schema
    Given the catalog "basic"
    And tool search is configured as:
      """json
      <value>
      """
    When a turn starts
    Then the "tool_search" tool schema is:
      """json
      {
        "type": "object",
        "properties": {
          "query": {"type": "string", "description": "Single search query, in English. Do not set this when queries is present."},
          "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of single-search results."},
          "queries": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["query"],
              "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 512, "description": "Search query, in English. Describe the capability you need."},
                "limit": {"type": "integer", "minimum": 1, "description": "Maximum results for this query. Defaults to <limit> when omitted."}
              }
            },
            "minItems": 1,
            "maxItems": 16,
            "description": "Independent searches. Do not set query when this is present. Their effective limits may total at most 50; an omitted item limit counts as <limit>. The serialized query strings may use at most 512 UTF-8 bytes in total."
          }
        }
      }
      """

    Examples:
      | value                                                             | limit |
      | {"mode": "tools"}                                                 | 8     |
      | {"mode": "tools", "searchDefaultLimit": 3}                        | 3     |
      | {"mode": "tools", "maxSearchLimit": 3}                            | 3     |
      | {"mode": "tools", "searchDefaultLimit": 60}                       | 20    |
      | {"mode": "tools", "maxSearchLimit": 100, "searchDefaultLimit": 60} | 50    |
      | {"mode": "tools", "searchDefaultLimit": 0.5}                      | 8     |
      | {"mode": "tools", "searchDefaultLimit": 0}                        | 8     |
      | {"mode": "tools", "searchDefaultLimit": "5"}                      | 8     |
      | {"mode": "tools", "maxSearchLimit": -1, "searchDefaultLimit": 30} | 20    |

  @tool-search @CM-24.5 @CM-24.23 @CM-24.24
  Scenario Outline: Tool Search: with <value> a search for <args> returns <n> entries
    Given the tools:
      """json
      [
        {"name": "alpha_report", "source": "core", "description": "Write a report."},
        {"name": "beta_report", "source": "core", "description": "Write a report."},
        {"name": "gamma_report", "source": "core", "description": "Write a report."}
      ]
      """
    And tool search is configured as:
      """json
      <value>
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      <args>
      """
    Then the tool result details include:
      """json
      <ids>
      """

    Examples:
      | value                                        | args                                       | n | ids                                                                                                    |
      | {"mode": "tools"}                            | {"query": "report"}                        | 3 | [{"id": "openclaw:core:alpha_report"}, {"id": "openclaw:core:beta_report"}, {"id": "openclaw:core:gamma_report"}] |
      | {"mode": "tools", "searchDefaultLimit": 1}   | {"query": "report"}                        | 1 | [{"id": "openclaw:core:alpha_report"}]                                                                 |
      | {"mode": "tools", "maxSearchLimit": 2}       | {"query": "report"}                        | 2 | [{"id": "openclaw:core:alpha_report"}, {"id": "openclaw:core:beta_report"}]                            |
      | {"mode": "tools", "maxSearchLimit": 2}       | {"query": "report", "limit": 40}           | 2 | [{"id": "openclaw:core:alpha_report"}, {"id": "openclaw:core:beta_report"}]                            |
      | {"mode": "tools"}                            | {"query": "report", "limit": 1}            | 1 | [{"id": "openclaw:core:alpha_report"}]                                                                 |
      | {"mode": "tools"}                            | {"query": "report", "options": {"limit": 2}} | 2 | [{"id": "openclaw:core:alpha_report"}, {"id": "openclaw:core:beta_report"}]                          |
      | {"mode": "tools", "searchDefaultLimit": 1}   | {"query": "report", "limit": null}         | 1 | [{"id": "openclaw:core:alpha_report"}]                                                                 |
      | {"mode": "tools"}                            | {"query": "report", "limit": null, "options": {"limit": 2}} | 2 | [{"id": "openclaw:core:alpha_report"}, {"id": "openclaw:core:beta_report"}]           |

  @tool-search @CM-24.4
  Scenario Outline: Tool Search: tools.toolSearch <value> resolves the mode to code
    Given the catalog "basic"
    And tool search is configured as:
      """json
      <value>
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search_code"

    Examples:
      | value                 |
      | {"enabled": true}     |
      | {"mode": "bogus"}     |
      | {"mode": "Directory"} |
      | {"mode": 3}           |
      | {"mode": null}        |

  @tool-search @CM-24.5 @timing
  Scenario: Tool Search: a codeTimeoutMs below the range is clamped up to 1000 ms
    Given tool search is configured as:
      """json
      {"mode": "code", "codeTimeoutMs": 5}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "const started = Date.now();\nwhile (Date.now() - started < 300) {}\nreturn \"finished\";"}
      """
    Then the tool result is not flagged as an error
    And the tool result details at "$.value" are:
      """json
      "finished"
      """

  # Which surface applies

  @tool-search @CM-3.16
  Scenario: Tool Search: a raw model call gets neither surface
    Given code mode is enabled
    And tool search is enabled
    And the catalog "basic"
    When a raw model call starts
    Then the model-visible tools are ""
    And the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_search_code"

  @tool-search @CM-3.16
  Scenario: Tool Search: a run with tools disabled gets no controls
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts with tools disabled
    Then the model-visible tools are ""
    And the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_describe"
    And the model-visible tools do not include "tool_call"

  @tool-search @CM-3.16 @CM-3.5
  Scenario: Tool Search: an empty allow list gets no controls
    Given code mode is enabled
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool policy allows only ""
    When a turn starts
    Then the model-visible tools are ""
    And the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_call"

  @tool-search @CM-3.10 @CM-3.11 @CM-11.2 @checklist-12
  Scenario: Tool Search: with code mode active the controls are hidden even when Tool Search and policy allow them
    Given code mode is enabled
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "mixed"
    And the tool policy allows only "tool_search_code, tool_search, tool_describe, tool_call, message, computer"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_describe"
    And the model-visible tools do not include "tool_call"
    And the model-visible tools do not include "tool_search_code"
    When the model calls exec with:
      """js
      return ALL_TOOLS.filter((entry) => entry.source !== "client").map((entry) => entry.name);
      """
    Then the result value is:
      """json
      ["message"]
      """

  @tool-search @CM-3.10 @CM-3.11 @CM-11.2 @checklist-12
  Scenario: Tool Search: with code mode active the controls are in neither ALL_TOOLS nor tools.search, describe or call
    Given code mode is enabled
    And tool search is enabled
    And the catalog "basic"
    When a turn starts
    Then the model-visible tools are "exec, wait"
    And the model-visible tools do not include "tool_search"
    And the model-visible tools do not include "tool_search_code"
    When the model calls exec with:
      """js
      const messages = [];
      for (const attempt of [
        () => tools.describe("tool_search"),
        () => tools.call("openclaw:core:tool_call", { id: "openclaw:core:weather", args: { city: "Oslo" } }),
        () => tools.callValue("tool_describe", { id: "weather" }),
        () => tools.call("tool_search_code", { code: "return 1" }),
      ]) {
        try {
          await attempt();
          messages.push("reached");
        } catch (error) {
          messages.push(error.message);
        }
      }
      const searched = [];
      for (const query of ["tool_search", "tool call", "tool_describe", "tool_search_code"]) {
        searched.push(...(await tools.search(query)).map((entry) => entry.id));
      }
      return { names: ALL_TOOLS.map((entry) => entry.name).sort(), messages, searched };
      """
    Then the result value is:
      """json
      {
        "names": ["read", "select_file", "shipping_list", "weather"],
        "messages": [
          "Unknown tool id: tool_search. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: openclaw:core:tool_call. Did you mean: read, weather, shipping_list? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: tool_describe. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "Unknown tool id: tool_search_code. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
        ],
        "searched": []
      }
      """
    And the tool "weather" was not called

  @tool-search @CM-3.17 @CM-24.7 @CM-24.8
  Scenario: Tool Search: code mode disabled for the agent gives the Tool Search surface
    Given code mode is enabled
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the config also has:
      """json
      {"agents": {"list": [{"id": "main", "tools": {"codeMode": false}}]}}
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"

  @tool-search @CM-3.17 @CM-24.7 @CM-24.8
  Scenario: Tool Search: code mode configured false gives the Tool Search surface
    Given code mode is configured as:
      """json
      false
      """
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"

  @tool-search @CM-3.17 @CM-24.7 @CM-24.24
  Scenario: Tool Search: code mode enabled for a run without tools gives the controls alone
    Given code mode is enabled
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "empty"
    When a turn starts
    Then the model-visible tools are "tool_search, tool_describe, tool_call"
    When the model calls "tool_search" with:
      """json
      {"query": "weather"}
      """
    Then the tool result details are:
      """json
      []
      """
    And the tool result text is:
      """text
      []
      """

  @tool-search @CM-3.17 @CM-24.7 @CM-24.12 @CM-3.4
  Scenario: Tool Search: a policy that denies every tool leaves the controls alone
    Given code mode is enabled
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool policy denies "*"
    When a turn starts
    Then the model-visible tools are "tool_search, tool_describe, tool_call"

  # The surface

  @tool-search @CM-24.7 @CM-24.8 @CM-24.9 @CM-24.10 @CM-24.4
  Scenario: Tool Search: mode tools shows the kept tools in effective-tool order, then the three controls
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "mixed"
    When a turn starts
    Then the model-visible tools are "exec, computer, tool_search, tool_describe, tool_call"

  @tool-search @CM-24.7 @CM-24.8 @CM-24.9 @CM-24.10
  Scenario: Tool Search: mode directory shows the kept tools with the client tools, then the three controls
    Given tool search is configured as:
      """json
      {"mode": "directory"}
      """
    And the catalog "mixed"
    When a turn starts
    Then the model-visible tools are "exec, computer, select_file, tool_search, tool_describe, tool_call"

  @tool-search @CM-24.9
  Scenario: Tool Search: only core tools keep a coding-tool name visible, with their own definitions
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tools:
      """json
      [
        {"name": "edit", "source": "plugin", "owner": "editor", "description": "Edit through a plugin."},
        {"name": "apply_patch", "source": "core", "description": "Apply a unified diff.",
         "parameters": {"type": "object", "required": ["patch"], "properties": {"patch": {"type": "string"}}}},
        {"name": "process", "source": "client", "owner": "app", "description": "A client tool named process."},
        {"name": "write", "source": "plugin", "owner": "files", "description": "Write through a plugin."}
      ]
      """
    When a turn starts
    Then the model-visible tools are "read, apply_patch, tool_search, tool_describe, tool_call"
    And the model-visible tools do not include "edit"
    And the model-visible tools do not include "process"
    And the model-visible tools do not include "write"
    And the "read" tool description is:
      """text
      Read a text file from the workspace.
      """
    And the "apply_patch" tool schema is:
      """json
      {"type": "object", "required": ["patch"], "properties": {"patch": {"type": "string"}}}
      """

  @tool-search @CM-24.9 @CM-24.16 @CM-24.17 @CM-24.18
  Scenario: Tool Search: the three controls and the kept tools carry their labels
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    Then the "tool_search" tool has the label "Tool Search"
    And the "tool_describe" tool has the label "Tool Describe"
    And the "tool_call" tool has the label "Tool Call"
    And the "read" tool has the label "Read"

  @tool-search @CM-24.16 @CM-24.17 @CM-24.18
  Scenario: Tool Search: the three controls have their exact descriptions and schemas
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    Then the "tool_search" tool description is:
      """text
      Search the effective Tool Search catalog. Pass exactly one of query for one search or queries for several independent searches in one call. Batch results stay grouped in request order. Queries must be in English: matching is lexical against tool names and descriptions, which are written in English, so another language will usually match nothing. Pass an exact result id or name to tool_call; use tool_describe only when you need its input schema.
      """
    And the "tool_search" tool schema is:
      """json
      {
        "type": "object",
        "properties": {
          "query": {"type": "string", "description": "Single search query, in English. Do not set this when queries is present."},
          "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of single-search results."},
          "queries": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["query"],
              "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 512, "description": "Search query, in English. Describe the capability you need."},
                "limit": {"type": "integer", "minimum": 1, "description": "Maximum results for this query. Defaults to 8 when omitted."}
              }
            },
            "minItems": 1,
            "maxItems": 16,
            "description": "Independent searches. Do not set query when this is present. Their effective limits may total at most 50; an omitted item limit counts as 8. The serialized query strings may use at most 512 UTF-8 bytes in total."
          }
        }
      }
      """
    And the "tool_describe" tool description is:
      """text
      Load the full schema and metadata for one search result when its input is not already clear.
      """
    And the "tool_describe" tool schema is:
      """json
      {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "description": "Tool search result id or tool name."}}}
      """
    And the "tool_call" tool description is:
      """text
      Call an exact Tool Search result id or name through OpenClaw.
      """
    And the "tool_call" tool schema is:
      """json
      {
        "type": "object",
        "required": ["id"],
        "properties": {
          "id": {"type": "string", "description": "Tool search result id or tool name."},
          "args": {"type": "object", "patternProperties": {"^.*$": {}}, "description": "Tool input."}
        }
      }
      """

  @tool-search @CM-24.12 @CM-24.13
  Scenario: Tool Search: the controls come after policy, and host tools named like a control are dropped
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "mixed"
    And the tool policy denies "tool_search"
    And the tool policy denies "tool_describe"
    When a turn starts
    Then the model-visible tools are "exec, computer, tool_search, tool_describe, tool_call"
    And the model-visible tools do not include "tool_search_code"
    And the "tool_call" tool description is:
      """text
      Call an exact Tool Search result id or name through OpenClaw.
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "openclaw:core:tool_search_code"}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_describe",
        "error": "Unknown tool id: openclaw:core:tool_search_code. Did you mean: exec, message, browser_request? Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """
    When the model calls "tool_call" with:
      """json
      {"id": "tool_call", "args": {"id": "openclaw:core:message"}}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_call",
        "error": "Unknown tool id: tool_call. Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """
    And the tool "tool_call" was not called
    And the tool "tool_search_code" was not called
    And the tool "message" was not called

  @tool-search @CM-24.12
  Scenario: Tool Search: an allow list that does not name the controls keeps them
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool policy allows only "read, weather"
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"
    When the model calls "tool_describe" with:
      """json
      {"id": "shipping_list"}
      """
    Then the tool result details include:
      """json
      {"status": "error", "tool": "tool_describe"}
      """

  @tool-search @CM-24.12 @CM-24.13
  Scenario: Tool Search: host tools named tool_search or tool_describe are neither visible nor cataloged
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tools:
      """json
      [
        {"name": "tool_describe", "source": "core", "description": "Describe anything.", "directOnly": true},
        {"name": "tool_search", "source": "plugin", "owner": "finder", "description": "Find tools."}
      ]
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"
    And the "tool_describe" tool description is:
      """text
      Load the full schema and metadata for one search result when its input is not already clear.
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "openclaw:finder:tool_search"}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_describe",
        "error": "Unknown tool id: openclaw:finder:tool_search. Did you mean: read, shipping_list, weather? Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "tool_describe"}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_describe",
        "error": "Unknown tool id: tool_describe. Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """

  # The catalog

  @tool-search @CM-24.13
  Scenario: Tool Search: kept core tools are cataloged and direct-only tools are not
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "mixed"
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "openclaw:core:exec"}
      """
    Then the tool result details include:
      """json
      {"id": "openclaw:core:exec", "name": "exec", "input": "{ command: string }"}
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "computer"}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_describe",
        "error": "Unknown tool id: computer. Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "select_file"}
      """
    Then the tool result details include:
      """json
      {"id": "client:app:select_file", "source": "client"}
      """

  @tool-search @CM-24.13 @CM-24.15 @CM-24.29
  Scenario: Tool Search: mode directory runs a hidden tool called by its name and leaves client tools out of the catalog
    Given tool search is configured as:
      """json
      {"mode": "directory"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "weather" with:
      """json
      {"city": "Oslo"}
      """
    Then the tool "weather" was called 1 times
    And the tool "weather" was last called with:
      """json
      {"city": "Oslo"}
      """
    And the tool result details are:
      """json
      {"city": "Oslo", "temp": 21, "sky": "clear"}
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "select_file"}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_describe",
        "error": "Unknown tool id: select_file. Did you mean: read? Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """

  @tool-search @CM-24.13 @CM-24.14 @CM-24.21 @CM-24.24 @CM-24.30 @CM-24.28
  Scenario: Tool Search: MCP tools are searchable and describable through the controls
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue.",
        "inputSchema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}},
        "behavior": {"returns": {"number": 7}}}]
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"
    When the model calls "tool_search" with:
      """json
      {"query": "create a github issue"}
      """
    Then the tool result details are:
      """json
      [
        {
          "id": "mcp:github:create_issue",
          "source": "mcp",
          "sourceName": "github",
          "mcp": {"serverName": "github", "safeServerName": "github", "toolName": "create_issue", "operation": "tool"},
          "name": "github__create_issue",
          "label": "create_issue",
          "description": "Create a GitHub issue.",
          "input": "unknown"
        }
      ]
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "github__create_issue"}
      """
    Then the tool result details are:
      """json
      {
        "id": "mcp:github:create_issue",
        "source": "mcp",
        "sourceName": "github",
        "mcp": {"serverName": "github", "safeServerName": "github", "toolName": "create_issue", "operation": "tool"},
        "name": "github__create_issue",
        "label": "create_issue",
        "description": "Create a GitHub issue.",
        "input": "unknown",
        "parameters": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}
      }
      """

  @tool-search @CM-24.14 @CM-24.34 @CM-24.37
  Scenario: Tool Search: tool_call runs an MCP tool
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue.",
        "inputSchema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}},
        "behavior": {"returns": {"number": 7}}}]
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "github__create_issue", "args": {"title": "Bug"}}
      """
    Then the tool "create_issue" was last called with:
      """json
      {"title": "Bug"}
      """
    And the tool result details at "$.tool" include:
      """json
      {"source": "mcp", "name": "github__create_issue"}
      """
    And the tool result details at "$.result.details" include:
      """json
      {"structuredContent": {"number": 7}}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "github__create_issue", "parentToolCallId": "call_1", "status": "ok"}]
      """

  @tool-search @CM-24.29 @CM-24.14 @CM-24.33 @CM-24.20
  Scenario: Tool Search: an unknown id suggests MCP entries too
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue."}]
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "github_issue", "args": {}}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_call",
        "error": "Unknown tool id: github_issue. Did you mean: github__create_issue? Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """
    And the tool "create_issue" was not called

  @tool-search @CM-24.13 @CM-24.24
  Scenario: Tool Search: exact matches that are not scored come in catalog order
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "the", "source": "client", "owner": "app", "description": "A client tool named like a stopword."},
        {"name": "the", "source": "plugin", "owner": "zeta", "description": "A plugin tool named like a stopword."},
        {"name": "the", "source": "core", "description": "A core tool named like a stopword."}
      ]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": "the"}
      """
    Then the tool result details include:
      """json
      [{"id": "openclaw:core:the"}, {"id": "openclaw:zeta:the"}, {"id": "client:app:the"}]
      """

  @tool-search @CM-24.21 @CM-24.13
  Scenario: Tool Search: an MCP utility entry names its configured server, its safe owner and its utility
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the MCP server "my docs" with tools:
      """json
      [{"name": "get_page", "description": "Get a page."}]
      """
    And the MCP server "my docs" also offers resources:
      """json
      [{"uri": "memo://one", "name": "One", "text": "hello"}]
      """
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "mcp:my-docs:resources_list"}
      """
    Then the tool result details are:
      """json
      {
        "id": "mcp:my-docs:resources_list",
        "source": "mcp",
        "sourceName": "my-docs",
        "mcp": {"serverName": "my docs", "safeServerName": "my-docs", "toolName": "resources_list", "operation": "resources_list"},
        "name": "my-docs__resources_list",
        "label": "List MCP resources",
        "description": "List resources advertised by MCP server \"my docs\". Resource contents are untrusted server output.",
        "input": "unknown",
        "parameters": {"type": "object", "properties": {}}
      }
      """

  # Results, entries and tool_search

  @tool-search @CM-24.19 @CM-24.21 @CM-24.24
  Scenario: Tool Search: a search answers the pretty JSON of its entries in OpenClaw's member order
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": "read"}
      """
    Then the tool result text is:
      """text
      [
        {
          "id": "openclaw:core:read",
          "source": "openclaw",
          "sourceName": "core",
          "name": "read",
          "label": "Read",
          "description": "Read a text file from the workspace.",
          "input": "{ path: string; limit?: number; offset?: number }",
          "output": "{ content: string; kind: \"text\" }"
        }
      ]
      """
    And the tool result text is the pretty JSON of its details
    And the tool result is not flagged as an error

  @tool-search @CM-24.21 @CM-24.30
  Scenario Outline: Tool Search: tool_describe of <id> gives its entry and schemas
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool:
      """json
      {"name": "pick_color", "source": "client", "description": "Pick a color.", "parameters": {"type": "object", "properties": {"hue": {"type": "string"}}}}
      """
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "<id>"}
      """
    Then the tool result details are:
      """json
      <described>
      """
    And the tool result text is the pretty JSON of its details

    Examples:
      | id                               | described                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                    |
      | openclaw:shipping:shipping_list  | {"id": "openclaw:shipping:shipping_list", "source": "openclaw", "sourceName": "shipping", "name": "shipping_list", "description": "List shipments.", "input": "{}", "output": "Array<{ id: string; paid: boolean; tons: number }>", "parameters": {"type": "object", "properties": {}}, "outputSchema": {"type": "array", "items": {"type": "object", "required": ["id", "paid", "tons"], "properties": {"id": {"type": "string"}, "paid": {"type": "boolean"}, "tons": {"type": "number"}}, "additionalProperties": false}}} |
      | select_file                      | {"id": "client:app:select_file", "source": "client", "sourceName": "app", "name": "select_file", "description": "Ask the user to pick a file.", "input": "unknown", "parameters": {"type": "object", "properties": {"prompt": {"type": "string"}}}}                                                                                                                                                                                                                                             |
      | pick_color                       | {"id": "client:client:pick_color", "source": "client", "sourceName": "client", "name": "pick_color", "description": "Pick a color.", "input": "unknown", "parameters": {"type": "object", "properties": {"hue": {"type": "string"}}}}                                                                                                                                                                                                                                                          |
      | weather                          | {"id": "openclaw:core:weather", "source": "openclaw", "sourceName": "core", "name": "weather", "description": "Current weather and forecast for a city.", "input": "{ city: string }", "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City name."}}}}                                                                                                                                                                          |

  @tool-search @CM-24.21 @CM-24.30
  Scenario: Tool Search: tool_describe keeps OpenClaw's member order with a label and an output hint
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "read"}
      """
    Then the tool result text is:
      """text
      {
        "id": "openclaw:core:read",
        "source": "openclaw",
        "sourceName": "core",
        "name": "read",
        "label": "Read",
        "description": "Read a text file from the workspace.",
        "input": "{ path: string; limit?: number; offset?: number }",
        "output": "{ content: string; kind: \"text\" }",
        "parameters": {
          "type": "object",
          "required": [
            "path"
          ],
          "properties": {
            "path": {
              "type": "string",
              "description": "Workspace-relative file path."
            },
            "offset": {
              "type": "integer",
              "description": "First line to read."
            },
            "limit": {
              "type": "integer",
              "description": "Maximum number of lines."
            }
          }
        },
        "outputSchema": {
          "type": "object",
          "required": [
            "kind",
            "content"
          ],
          "properties": {
            "kind": {
              "const": "text"
            },
            "content": {
              "type": "string"
            }
          },
          "additionalProperties": false
        }
      }
      """

  @tool-search @CM-24.20 @CM-24.22
  Scenario Outline: Tool Search: tool_search with <case> is refused in the error payload
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search" with:
      """json
      <args>
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search", "error": "provide exactly one of query or queries."}
      """
    And the tool result text is:
      """text
      {
        "status": "error",
        "tool": "tool_search",
        "error": "provide exactly one of query or queries."
      }
      """
    And the tool result is flagged as an error

    Examples:
      | case                    | args                                                  |
      | both query and queries  | {"query": "weather", "queries": [{"query": "read"}]} |
      | neither                 | {"limit": 3}                                          |
      | a null query and queries | {"query": null, "queries": [{"query": "read"}]}      |

  @tool-search @CM-24.20 @CM-24.23
  Scenario: Tool Search: a limit that is not a positive integer is refused
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": "weather", "options": {"limit": 0}}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search", "error": "limit must be a positive integer."}
      """

  @tool-search @CM-24.25 @CM-24.26
  Scenario: Tool Search: a batch answers one group per query in request order
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"queries": [{"query": "weather"}, {"query": "  list shipments ", "limit": 1}]}
      """
    Then the tool result details are:
      """json
      {
        "results": [
          {
            "query": "weather",
            "candidates": [
              {"id": "openclaw:core:weather", "source": "openclaw", "sourceName": "core", "name": "weather", "description": "Current weather and forecast for a city.", "input": "{ city: string }"}
            ]
          },
          {
            "query": "list shipments",
            "candidates": [
              {"id": "openclaw:shipping:shipping_list", "source": "openclaw", "sourceName": "shipping", "name": "shipping_list", "description": "List shipments.", "input": "{}", "output": "Array<{ id: string; paid: boolean; tons: number }>"}
            ]
          }
        ]
      }
      """
    And the tool result text is the pretty JSON of its details

  @tool-search @CM-24.25 @CM-24.20
  Scenario Outline: Tool Search: a batch with <case> is refused
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search" with:
      """json
      <args>
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search", "error": "<error>"}
      """

    Examples:
      | case                   | args                                                                                          | error                                                                                                                                        |
      | a limit beside it      | {"queries": [{"query": "weather"}], "limit": 2}                                               | set limit on each batch query, not on the batch request.                                                                                     |
      | a blank query          | {"queries": [{"query": "weather"}, {"query": "   "}]}                                          | queries[1].query must be a non-empty string.                                                                                                 |
      | too many results       | {"queries": [{"query": "a", "limit": 20}, {"query": "b", "limit": 20}, {"query": "c"}, {"query": "d", "limit": 30}]} | batch queries resolve to 68 results, but may request at most 50 in total. An omitted limit counts as 8; set smaller per-query limits and retry. |
      | too many query bytes   | {"queries": [{"query": "éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé"}, {"query": "èèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèèè"}]} | serialized batch query text may use at most 512 UTF-8 bytes.                                                                                 |

  @tool-search @CM-24.26
  Scenario: Tool Search: a batch cuts long descriptions and keeps its text within 4000 characters
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "report_01", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_02", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_03", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_04", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_05", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_06", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_07", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_08", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_09", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."},
        {"name": "report_10", "source": "core", "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summary for the board."}
      ]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"queries": [{"query": "report", "limit": 10}, {"query": "quarterly report", "limit": 3}]}
      """
    Then the tool result details include:
      """json
      {
        "results": [
          {
            "query": "report",
            "candidates": [
              {"id": "openclaw:core:report_01"}, {"id": "openclaw:core:report_02"}, {"id": "openclaw:core:report_03"},
              {"id": "openclaw:core:report_04"}, {"id": "openclaw:core:report_05"}, {"id": "openclaw:core:report_06"}
            ],
            "truncated": true
          },
          {
            "query": "quarterly report",
            "candidates": [{"id": "openclaw:core:report_01"}, {"id": "openclaw:core:report_02"}, {"id": "openclaw:core:report_03"}],
            "truncated": "<absent>"
          }
        ],
        "truncated": true
      }
      """
    And the tool result details at "$.results[0].candidates[0]" are:
      """json
      {
        "id": "openclaw:core:report_01",
        "source": "openclaw",
        "sourceName": "core",
        "name": "report_01",
        "description": "Write a report about the quarterly numbers of the company and its many subsidiaries in every region, with charts, tables, commentary, footnotes, appendices and an executive summ...",
        "input": "{}"
      }
      """
    And the tool result text is the pretty JSON of its details

  @tool-search @CM-24.20 @CM-24.23
  Scenario Outline: Tool Search: a query <query> that is not a string is refused
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": <query>}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search", "error": "query must be a string."}
      """

    Examples:
      | query       |
      | 7           |
      | null        |
      | ["weather"] |

  @tool-search @CM-24.24
  Scenario: Tool Search: only OpenClaw entries are found by their parameter text
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "alpha", "source": "core", "description": "First tool.",
         "parameters": {"type": "object", "properties": {"zebra": {"type": "string", "description": "Stripe pattern."}}}},
        {"name": "beta", "source": "client", "description": "Second tool.",
         "parameters": {"type": "object", "properties": {"zebra": {"type": "string", "description": "Stripe pattern."}}}}
      ]
      """
    And the MCP server "zoo" with tools:
      """json
      [{"name": "gamma", "description": "Third tool.",
        "inputSchema": {"type": "object", "properties": {"zebra": {"type": "string", "description": "Stripe pattern."}}}}]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": "zebra stripe"}
      """
    Then the tool result details include:
      """json
      [{"id": "openclaw:core:alpha"}]
      """

  @tool-search @CM-24.24
  Scenario: Tool Search: MCP entries count as documents when a single search ranks the catalog
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "aaa", "source": "core", "description": "qux pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad"},
        {"name": "bbb", "source": "core", "description": "zap"},
        {"name": "ccc", "source": "core", "description": "zap"}
      ]
      """
    And the MCP server "srv" with tools:
      """json
      [
        {"name": "mirror_one", "description": "Mirror."},
        {"name": "mirror_two", "description": "Mirror."},
        {"name": "mirror_three", "description": "Mirror."},
        {"name": "mirror_four", "description": "Mirror."},
        {"name": "mirror_five", "description": "Mirror."},
        {"name": "mirror_six", "description": "Mirror."},
        {"name": "mirror_seven", "description": "Mirror."},
        {"name": "mirror_eight", "description": "Mirror."}
      ]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": "qux zap"}
      """
    Then the tool result details include:
      """json
      [{"id": "openclaw:core:bbb"}, {"id": "openclaw:core:ccc"}, {"id": "openclaw:core:aaa"}]
      """

  @tool-search @CM-24.26
  Scenario: Tool Search: a batch collapses white space in descriptions and trims a cut description before its ellipsis
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "spaced_tool", "source": "core", "description": "  Write   a\n\treport   now.  "},
        {"name": "padded_tool", "source": "core", "description": "ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab "}
      ]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"queries": [{"query": "spaced"}, {"query": "padded"}]}
      """
    Then the tool result details at "$.results[0].candidates[0].description" are:
      """json
      "Write a report now."
      """
    And the tool result details at "$.results[1].candidates[0].description" are:
      """json
      "ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab ab..."
      """
    And the tool result details include:
      """json
      {"truncated": "<absent>"}
      """

  @tool-search @CM-24.26
  Scenario: Tool Search: a batch drops a candidate whose id, source, name and input exceed 2000 characters
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "long_lllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll", "source": "core", "description": "Zebra crossing survey."},
        {"name": "short_tool", "source": "core", "description": "Zebra crossing survey."}
      ]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"queries": [{"query": "zebra crossing"}, {"query": "short"}]}
      """
    Then the tool result details include:
      """json
      {
        "results": [
          {"query": "zebra crossing", "candidates": [{"id": "openclaw:core:short_tool"}], "truncated": true},
          {"query": "short", "candidates": [{"id": "openclaw:core:short_tool"}], "truncated": "<absent>"}
        ],
        "truncated": true
      }
      """

  @tool-search @CM-24.26
  Scenario: Tool Search: a batch keeps sourceName, label and output of a candidate only while they fit in 2000 characters
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "wide_wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww", "source": "core", "label": "Wide", "description": "Zebra crossing survey.",
         "outputSchema": {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}, "additionalProperties": false}}
      ]
      """
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "openclaw:core:wide_wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"}
      """
    Then the tool result details include:
      """json
      {"sourceName": "core", "label": "Wide", "input": "{}", "output": "{ ok: boolean }"}
      """
    When the model calls "tool_search" with:
      """json
      {"queries": [{"query": "zebra crossing"}]}
      """
    Then the tool result details at "$.results[0].candidates[0]" include:
      """json
      {"sourceName": "core", "label": "Wide", "input": "{}", "description": "Zebra crossing survey.", "output": "<absent>"}
      """
    And the tool result details include:
      """json
      {"results": [{"query": "zebra crossing", "truncated": "<absent>"}], "truncated": "<absent>"}
      """

  @tool-search @CM-24.26
  Scenario: Tool Search: a batch over 4000 characters drops from the result whose last candidate is longer, then from the first result
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "alpha_01", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "alpha_02", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "alpha_03", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "alpha_04", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "alpha_05", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "gamma_01", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "gamma_02", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "gamma_03", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "gamma_04", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "gamma_05", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "delta_01", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "delta_02", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "delta_03", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "delta_04", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."},
        {"name": "delta_05_wide", "source": "core", "description": "Prepare the quarterly statement of accounts for every subsidiary, with tables, charts, commentary, footnotes, appendices, reconciliations, forecasts and an executive summary for the board of directors."}
      ]
      """
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"queries": [{"query": "alpha", "limit": 5}, {"query": "gamma", "limit": 5}]}
      """
    Then the tool result details include:
      """json
      {
        "results": [
          {
            "query": "alpha",
            "candidates": [{"id": "openclaw:core:alpha_01"}, {"id": "openclaw:core:alpha_02"}, {"id": "openclaw:core:alpha_03"}, {"id": "openclaw:core:alpha_04"}],
            "truncated": true
          },
          {
            "query": "gamma",
            "candidates": [{"id": "openclaw:core:gamma_01"}, {"id": "openclaw:core:gamma_02"}, {"id": "openclaw:core:gamma_03"}, {"id": "openclaw:core:gamma_04"}, {"id": "openclaw:core:gamma_05"}],
            "truncated": "<absent>"
          }
        ],
        "truncated": true
      }
      """
    When the model calls "tool_search" with:
      """json
      {"queries": [{"query": "alpha", "limit": 5}, {"query": "delta", "limit": 5}]}
      """
    Then the tool result details include:
      """json
      {
        "results": [
          {
            "query": "alpha",
            "candidates": [{"id": "openclaw:core:alpha_01"}, {"id": "openclaw:core:alpha_02"}, {"id": "openclaw:core:alpha_03"}, {"id": "openclaw:core:alpha_04"}, {"id": "openclaw:core:alpha_05"}],
            "truncated": "<absent>"
          },
          {
            "query": "delta",
            "candidates": [{"id": "openclaw:core:delta_01"}, {"id": "openclaw:core:delta_02"}, {"id": "openclaw:core:delta_03"}, {"id": "openclaw:core:delta_04"}],
            "truncated": true
          }
        ],
        "truncated": true
      }
      """
    And the tool result text is the pretty JSON of its details

  # tool_describe

  @tool-search @CM-24.27 @CM-24.20
  Scenario: Tool Search: a blank id is refused
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "   "}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_describe", "error": "id must be a non-empty string."}
      """

  @tool-search @CM-24.27 @CM-24.28
  Scenario: Tool Search: tool_describe trims the id
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "  weather \t\n"}
      """
    Then the tool result details include:
      """json
      {"id": "openclaw:core:weather", "name": "weather"}
      """

  @tool-search @CM-24.28
  Scenario: Tool Search: a name that two entries share is ambiguous, and their ids are not
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [
        {"name": "lookup", "source": "plugin", "owner": "atlas", "description": "Look up a place."},
        {"name": "lookup", "source": "plugin", "owner": "books", "description": "Look up a book."}
      ]
      """
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "lookup"}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_describe", "error": "Ambiguous tool name: lookup; use an exact tool id."}
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "openclaw:books:lookup"}
      """
    Then the tool result details include:
      """json
      {"id": "openclaw:books:lookup", "sourceName": "books", "description": "Look up a book."}
      """

  @tool-search @CM-24.29 @CM-24.20
  Scenario: Tool Search: an unknown id is refused with suggestions
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "weather_now"}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_describe",
        "error": "Unknown tool id: weather_now. Did you mean: weather? Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """
    And the tool result text is the pretty JSON of its details
    And the tool result is flagged as an error

  @tool-search @CM-24.27
  Scenario Outline: Tool Search: tool_describe reads the id from <form>
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      <args>
      """
    Then the tool result details include:
      """json
      {"id": "openclaw:core:weather", "name": "weather"}
      """

    Examples:
      | form                    | args                                            |
      | toolId                  | {"toolId": "weather"}                           |
      | toolId when id is null  | {"id": null, "toolId": "weather"}               |
      | name                    | {"name": "weather"}                             |
      | name when the others are null | {"id": null, "toolId": null, "name": "weather"} |

  @tool-search @CM-24.20 @CM-24.27
  Scenario Outline: Tool Search: tool_describe refuses <case>
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      <args>
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_describe", "error": "id must be a non-empty string."}
      """

    Examples:
      | case                     | args                        |
      | an id that is no string  | {"id": 5}                   |
      | arguments without an id  | {}                          |
      | an empty toolId          | {"toolId": ""}              |

  @tool-search @CM-24.30 @CM-24.21
  Scenario: Tool Search: tool_describe gives an outputSchema only for OpenClaw entries
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [{"name": "pick_color", "source": "client", "description": "Pick a color.",
        "outputSchema": {"type": "object", "properties": {"hue": {"type": "string"}}}}]
      """
    And the MCP server "docs" with tools:
      """json
      [{"name": "get_page", "description": "Get a page.",
        "outputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}}]
      """
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "pick_color"}
      """
    Then the tool result details are:
      """json
      {"id": "client:client:pick_color", "source": "client", "sourceName": "client", "name": "pick_color", "description": "Pick a color.", "input": "unknown", "parameters": {"type": "object", "properties": {}}}
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "mcp:docs:get_page"}
      """
    Then the tool result details include:
      """json
      {"id": "mcp:docs:get_page", "parameters": {"type": "object", "properties": {}}, "outputSchema": "<absent>"}
      """

  @tool-search @CM-24.30
  Scenario: Tool Search: tool_describe gives {} as the parameters of a tool that declares none
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tools:
      """json
      [{"name": "ping", "description": "Ping the service.", "parameters": null, "behavior": {"returns": {"ok": true}}}]
      """
    When a turn starts
    And the model calls "tool_describe" with:
      """json
      {"id": "ping"}
      """
    Then the tool result details include:
      """json
      {"id": "openclaw:core:ping", "name": "ping"}
      """
    And the tool result details at "$.parameters" are:
      """json
      {}
      """

  # tool_call

  @tool-search @CM-24.24 @CM-24.30 @CM-24.31 @CM-24.34 @CM-24.35 @CM-24.37 @CM-24.43
  Scenario: Tool Search: search, describe and call a tool of the catalog
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search" with:
      """json
      {"query": "weather forecast"}
      """
    Then the tool result details are:
      """json
      [{"id": "openclaw:core:weather", "source": "openclaw", "sourceName": "core", "name": "weather", "description": "Current weather and forecast for a city.", "input": "{ city: string }"}]
      """
    When the model calls "tool_describe" with:
      """json
      {"id": "openclaw:core:weather"}
      """
    Then the tool result details at "$.parameters" are:
      """json
      {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City name."}}}
      """
    When the model calls "tool_call" with:
      """json
      {"id": "openclaw:core:weather", "args": {"city": "Oslo"}}
      """
    Then the tool result details are:
      """json
      {
        "tool": {"id": "openclaw:core:weather", "source": "openclaw", "sourceName": "core", "name": "weather", "description": "Current weather and forecast for a city.", "input": "{ city: string }"},
        "result": {
          "content": [{"type": "text", "text": "{\"city\":\"Oslo\",\"temp\":21,\"sky\":\"clear\"}"}],
          "details": {"city": "Oslo", "temp": 21, "sky": "clear"}
        }
      }
      """
    And the tool result text is the pretty JSON of its details
    And the tool "weather" was called 1 times
    And the tool "weather" was last called with:
      """json
      {"city": "Oslo"}
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "toolCallId": "call_3", "name": "tool_call", "parentToolCallId": "<absent>"},
        {"type": "tool_call", "toolCallId": "tool_search_code:call_3:weather:1", "name": "weather", "catalogId": "openclaw:core:weather", "parentToolCallId": "call_3", "status": "ok"}
      ]
      """

  @tool-search @CM-24.31 @CM-24.32 @CM-24.37
  Scenario Outline: Tool Search: tool_call with <form> sends the tool <input>
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_call" with:
      """json
      <args>
      """
    Then the tool "weather" was last called with:
      """json
      <input>
      """
    And the tool result details at "$.tool.id" are:
      """json
      "openclaw:core:weather"
      """

    Examples:
      | form                          | args                                                                   | input                                      |
      | args                          | {"id": "weather", "args": {"city": "Oslo"}}                            | {"city": "Oslo"}                           |
      | input                         | {"id": "weather", "input": {"city": "Bergen"}}                         | {"city": "Bergen"}                         |
      | a dotted args member          | {"id": "weather", "args": {"city": "Oslo"}, "args.units": "c"}         | {"city": "Oslo", "units": "c"}             |
      | flattened arguments           | {"id": "openclaw:core:weather", "city": "Tromsø"}                      | {"city": "Tromsø"}                         |
      | a name that is no selector    | {"id": "weather", "city": "Oslo", "name": "not a tool"}                | {"city": "Oslo", "name": "not a tool"}     |
      | null args beside input        | {"id": "weather", "args": null, "input": {"city": "Bergen"}}           | {"city": "Bergen"}                         |
      | a toolId and args             | {"toolId": "weather", "args": {"city": "Oslo"}}                        | {"city": "Oslo"}                           |
      | a dotted member the args have | {"id": "weather", "args": {"city": "Oslo"}, "args.city": "Bergen"}     | {"city": "Oslo"}                           |

  @tool-search @CM-24.32 @CM-24.20
  Scenario: Tool Search: flattened selectors that name two tools are ambiguous
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "weather", "name": "read", "city": "Oslo"}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_call", "error": "Ambiguous tool selectors: pass the target tool id and nest target arguments under args."}
      """
    And the tool "weather" was not called
    And the tool "read" was not called

  @tool-search @CM-24.35
  Scenario Outline: Tool Search: nested call ids derive from the tool_call id "<id>" and count the run's calls
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_call" with tool call id "<id>":
      """json
      {"id": "weather", "args": {"city": "Oslo"}}
      """
    And the model calls "tool_call" with tool call id "second":
      """json
      {"id": "read", "args": {"path": "notes.txt"}}
      """
    Then the trajectory includes:
      """json
      [
        {"type": "tool_call", "toolCallId": "tool_search_code:<parent>:weather:1", "name": "weather", "parentToolCallId": "<id>"},
        {"type": "tool_call", "toolCallId": "tool_search_code:second:read:2", "name": "read", "parentToolCallId": "second"}
      ]
      """

    Examples:
      | id          | parent      |
      | call_1      | call_1      |
      | run 7/α:β   | run_7_:_    |
      | %%%         | _           |

  @tool-search @CM-24.34 @CM-24.38
  Scenario: Tool Search: a denied approval answers tool_call with the error payload and the tool does not run
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool "weather" requires approval
    And approval for "weather" is denied
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "weather", "args": {"city": "Oslo"}}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_call", "error": "Tool call denied: openclaw:core:weather."}
      """
    And the tool result is flagged as an error
    And the tool "weather" was not called
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "parentToolCallId": "call_1", "status": "denied"}]
      """

  @tool-search @CM-24.34
  Scenario: Tool Search: a granted approval lets tool_call run the tool
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool "weather" requires approval
    And approval for "weather" is granted
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "weather", "args": {"city": "Oslo"}}
      """
    Then the tool result details at "$.result.details" are:
      """json
      {"city": "Oslo", "temp": 21, "sky": "clear"}
      """
    And the tool "weather" was called 1 times

  @tool-search @CM-24.34 @CM-24.38
  Scenario Outline: Tool Search: a before_tool_call hook that blocks <how> answers tool_call with the error payload
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And <hook>
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "openclaw:core:weather", "args": {"city": "Oslo"}}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_call", "error": "<error>"}
      """
    And the tool "weather" was not called
    And the hook saw an event including:
      """json
      {"toolName": "weather", "toolCallId": "tool_search_code:call_1:weather:1", "params": {"city": "Oslo"}}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "parentToolCallId": "call_1", "status": "blocked"}]
      """

    Examples:
      | how            | hook                                                                      | error                                      |
      | with a reason  | the before_tool_call hook blocks "weather" with "paused by the operator" | paused by the operator                     |
      | without one    | the before_tool_call hook blocks "weather"                                | Tool call blocked by before_tool_call hook. |

  @tool-search @CM-24.34
  Scenario: Tool Search: a before_tool_call hook rewrites the params of the tool tool_call runs
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the before_tool_call hook rewrites "weather" params to:
      """json
      {"city": "Bergen"}
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "weather", "args": {"city": "Oslo"}}
      """
    Then the tool "weather" was last called with:
      """json
      {"city": "Bergen"}
      """

  @tool-search @CM-24.38
  Scenario: Tool Search: a tool that fails answers tool_call with its message
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool "weather" fails with "forecast service unavailable"
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "weather", "args": {"city": "Oslo"}}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_call", "error": "forecast service unavailable"}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "parentToolCallId": "call_1", "status": "error"}]
      """

  @tool-search @CM-24.36 @CM-24.38
  Scenario: Tool Search: details that break the declared outputSchema fail tool_call
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tool:
      """json
      {"name": "status_check", "source": "core", "description": "Check the service status.",
       "outputSchema": {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}, "additionalProperties": false},
       "behavior": {"returns": {"ok": "yes"}}}
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "status_check", "args": {}}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_call", "error": "Tool \"openclaw:core:status_check\" returned details that do not match its declared outputSchema."}
      """
    And the tool "status_check" was called 1 times

  @tool-search @CM-24.36 @CM-24.38
  Scenario: Tool Search: an outputSchema that does not compile keeps tool_call from running the tool
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tool:
      """json
      {"name": "status_check", "source": "core", "description": "Check the service status.",
       "outputSchema": {"type": 12},
       "behavior": {"returns": {"ok": true}}}
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "status_check", "args": {}}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_call", "error": "Tool \"openclaw:core:status_check\" has an invalid outputSchema."}
      """
    And the tool "status_check" was not called

  @tool-search @CM-24.32
  Scenario: Tool Search: flattened selectors stay out of the tool input and other members reach it
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"name": "weather", "id": "abc", "args": null, "input": null, "city": "Oslo", "args.units": "c"}
      """
    Then the tool "weather" was last called with:
      """json
      {"city": "Oslo", "units": "c", "id": "abc", "name": "<absent>", "args": "<absent>", "input": "<absent>"}
      """
    And the tool result details at "$.tool.id" are:
      """json
      "openclaw:core:weather"
      """

  @tool-search @CM-24.32 @CM-24.20
  Scenario: Tool Search: flattened arguments without a selector take the target id from the first present member
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": null, "toolId": "weather_now", "name": "forecast", "city": "Oslo"}
      """
    Then the tool result details are:
      """json
      {
        "status": "error",
        "tool": "tool_call",
        "error": "Unknown tool id: weather_now. Did you mean: weather? Use tool_search to find a tool, tool_describe to inspect it, then tool_call with the exact id or name."
      }
      """
    And the tool "weather" was not called

  @tool-search @CM-24.34
  Scenario: Tool Search: a tool the policy denies cannot be reached through tool_call
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool policy denies "weather"
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "openclaw:core:weather", "args": {"city": "Oslo"}}
      """
    Then the tool result details include:
      """json
      {"status": "error", "tool": "tool_call"}
      """
    And the tool result is flagged as an error
    And the tool "weather" was not called

  @tool-search @CM-24.37
  Scenario: Tool Search: a tool result without details gives a result without details
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the catalog "basic"
    And the tool "weather" returns the text "cloudy"
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "weather", "args": {"city": "Oslo"}}
      """
    Then the tool result details are:
      """json
      {
        "tool": {"id": "openclaw:core:weather", "source": "openclaw", "sourceName": "core", "name": "weather", "description": "Current weather and forecast for a city.", "input": "{ city: string }"},
        "result": {"content": [{"type": "text", "text": "cloudy"}]}
      }
      """
    And the tool result text is the pretty JSON of its details
    And the tool result is not flagged as an error

  @tool-search @CM-24.37 @CM-24.44 @CM-24.20
  Scenario Outline: Tool Search: tool_call marks a result whose details are <details> with the failure kind <kind>
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tool:
      """json
      {"name": "deploy", "source": "core", "description": "Deploy the site."}
      """
    And the tool "deploy" returns:
      """json
      <details>
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "deploy", "args": {}}
      """
    Then the tool result details at "$.status" are:
      """json
      "<kind>"
      """
    And the tool result details at "$.result.details" are:
      """json
      <details>
      """
    And the tool result is flagged as an error

    Examples:
      | details | kind |
      | {"status": "error", "message": "quota exceeded"} | failed |
      | {"status": "failed"} | failed |
      | {"status": "failure"} | failed |
      | {"status": "unavailable"} | failed |
      | {"status": "invalid"} | failed |
      | {"status": " Error "} | failed |
      | {"ok": false} | failed |
      | {"success": false, "status": "completed"} | failed |
      | {"error": "disk full"} | failed |
      | {"error": {"code": 7}, "ok": true} | failed |
      | {"exitCode": 2} | failed |
      | {"status": "blocked"} | blocked |
      | {"status": "denied"} | blocked |
      | {"status": "forbidden"} | blocked |
      | {"status": "disabled"} | blocked |
      | {"status": "approval-unavailable"} | blocked |
      | {"timedOut": true} | timed_out |
      | {"status": "timeout"} | timed_out |
      | {"status": "timed_out"} | timed_out |
      | {"status": "aborted"} | cancelled |
      | {"status": "cancelled"} | cancelled |
      | {"status": "canceled"} | cancelled |
      | {"status": "killed"} | cancelled |

  @tool-search @CM-24.37 @CM-24.44
  Scenario Outline: Tool Search: tool_call does not mark a result whose details are <details>
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tool:
      """json
      {"name": "deploy", "source": "core", "description": "Deploy the site."}
      """
    And the tool "deploy" returns:
      """json
      <details>
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "deploy", "args": {}}
      """
    Then the tool result details at "$.result.details" are:
      """json
      <details>
      """
    And the tool result details have no "status"
    And the tool result is not flagged as an error

    Examples:
      | details |
      | {"status": "error", "ok": true} |
      | {"status": "failed", "success": true} |
      | {"status": "completed", "exitCode": 2} |
      | {"exitCode": 0} |
      | {"error": ""} |
      | {"ok": "false", "timedOut": "yes"} |
      | {"status": "done"} |

  @tool-search @CM-24.37 @CM-24.19
  Scenario: Tool Search: the text of a flagged tool_call result stays the pretty JSON of its tool and result
    Given tool search is configured as:
      """json
      {"mode": "tools"}
      """
    And the tool:
      """json
      {"name": "deploy", "source": "core", "description": "Deploy the site."}
      """
    And the tool "deploy" returns:
      """json
      {"status": "error", "message": "quota exceeded"}
      """
    When a turn starts
    And the model calls "tool_call" with:
      """json
      {"id": "deploy", "args": {}}
      """
    Then the tool result text is the pretty JSON of its details without "status"

  # tool_search_code

  @tool-search @CM-24.4 @CM-24.8 @CM-24.11 @CM-24.39
  Scenario: Tool Search: mode code shows tool_search_code alone after the kept tools
    Given the catalog "basic"
    And tool search is configured as:
      """json
      {"mode": "code"}
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search_code"
    And the "tool_search_code" tool has the label "Tool Search Code"
    And the "tool_search_code" tool description is:
      """text
      Run JavaScript in an isolated Node subprocess over a large tool catalog. APIs: `openclaw.tools.search(query: string, options?)`, `openclaw.tools.describe(id: string)`, and `openclaw.tools.call(id: string, args?)`. Search takes a positional query string, which must be in English: matching is lexical against tool names and descriptions, which are written in English. Call returns `{ tool, result }`; JSON values normally live in `result.details`.
      """
    And the "tool_search_code" tool schema is:
      """json
      {"type": "object", "required": ["code"], "properties": {"code": {"type": "string", "description": "JavaScript body for an async function. Use return to return the final value. The openclaw.tools bridge is available."}}}
      """

  @tool-search @CM-24.2 @CM-24.11
  Scenario: Tool Search: tools.toolSearch true shows tool_search_code
    Given the catalog "basic"
    And tool search is configured as:
      """json
      true
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search_code"

  @tool-search @CM-24.40 @CM-24.41 @CM-24.34
  Scenario: Tool Search: tool_search_code searches, describes and calls the catalog
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "const [hit] = await openclaw.tools.search(\"weather forecast\", { limit: 1 });\nconst d = await openclaw.tools.describe(hit.id);\nconst r = await openclaw.tools.call(hit.id, { city: \"Oslo\" });\nreturn { id: hit.id, required: d.parameters.required, tool: r.tool.name, temp: r.result.details.temp };"}
      """
    Then the tool result is not flagged as an error
    And the tool result details at "$.ok" are:
      """json
      true
      """
    And the tool result details at "$.value" are:
      """json
      {"id": "openclaw:core:weather", "required": ["city"], "tool": "weather", "temp": 21}
      """
    And the tool "weather" was last called with:
      """json
      {"city": "Oslo"}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "weather", "catalogId": "openclaw:core:weather", "parentToolCallId": "call_1", "status": "ok"}]
      """

  @tool-search @CM-24.40 @CM-24.41
  Scenario: Tool Search: tool_search_code's console adds one log line per call
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "console.log(\"hits\", 2, { a: 1 });\nconsole.warn([1, \"x\"]);\nconsole.error(\"done\");"}
      """
    Then the tool result details at "$.logs" are:
      """json
      ["hits 2 {\"a\":1}", "[1,\"x\"]", "done"]
      """
    And the tool result details at "$.value" are:
      """json
      null
      """

  @tool-search @CM-24.40
  Scenario: Tool Search: tool_search_code's globals are openclaw and console, frozen, and no code mode API
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "return { frozen: [Object.isFrozen(openclaw), Object.isFrozen(openclaw.tools), Object.isFrozen(console)], absent: [typeof ALL_TOOLS, typeof tools, typeof MCP, typeof API, typeof require, typeof process, typeof fetch, typeof setTimeout] };"}
      """
    Then the tool result details at "$.value" are:
      """json
      {"frozen": [true, true, true], "absent": ["undefined", "undefined", "undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]}
      """

  @tool-search @CM-24.40 @CM-24.43
  Scenario: Tool Search: a tool_search_code call nobody awaits never runs
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "openclaw.tools.call(\"weather\", { city: \"Bergen\" });\nreturn 1;"}
      """
    Then the tool result details at "$.value" are:
      """json
      1
      """
    And the tool "weather" was not called
    And the tool result details at "$.telemetry.callCount" are:
      """json
      0
      """

  @tool-search @CM-24.40 @CM-24.41
  Scenario: Tool Search: a tool_search_code call started with then runs before the result
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "openclaw.tools.call(\"weather\", { city: \"Bergen\" }).then(() => console.log(\"called\"));\nreturn 1;"}
      """
    Then the tool "weather" was last called with:
      """json
      {"city": "Bergen"}
      """
    And the tool result details at "$.logs" are:
      """json
      ["called"]
      """

  @tool-search @CM-24.40
  Scenario: Tool Search: tool_search_code's bridge failures reject with catchable errors
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "const out = [];\nfor (const f of [() => openclaw.tools.search(5), () => openclaw.tools.describe(5), () => openclaw.tools.call(5), () => openclaw.tools.describe(\"zzzz_nothing\")]) {\n  try { await f(); out.push(\"resolved\"); } catch (e) { out.push([e instanceof Error, e.message]); }\n}\nreturn out;"}
      """
    Then the tool result details at "$.value" are:
      """json
      [
        [true, "search query must be a string."],
        [true, "describe id must be a string."],
        [true, "call id must be a string."],
        [true, "Unknown tool id: zzzz_nothing. Use openclaw.tools.search to find a tool, openclaw.tools.describe to inspect it, then openclaw.tools.call with the exact id or name."]
      ]
      """

  @tool-search @CM-24.41 @CM-24.20
  Scenario: Tool Search: an uncaught exception in tool_search_code is the error payload
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "throw new Error(\"guest boom\");"}
      """
    Then the tool result is flagged as an error
    And the tool result details are:
      """json
      {"status": "error", "tool": "tool_search_code", "error": "Error: guest boom"}
      """

  @tool-search @CM-24.40
  Scenario: Tool Search: tool_search_code refuses empty code
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "  "}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search_code", "error": "code must be a non-empty string."}
      """

  @tool-search @CM-24.42
  Scenario Outline: Tool Search: tool_search_code stops at codeTimeoutMs when <case>
    Given tool search is configured as:
      """json
      {"mode": "code", "codeTimeoutMs": 1000}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "<code>"}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search_code", "error": "tool_search_code timed out"}
      """

    Examples:
      | case                       | code                                  |
      | the code loops             | for (;;) {}                           |
      | the code awaits forever    | await new Promise(() => {});          |

  @tool-search @CM-24.43
  Scenario: Tool Search: tool_search_code reports the catalog and counters of the run's Tool Search calls
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "await openclaw.tools.search(\"weather\");\ntry { await openclaw.tools.describe(\"zzzz_nothing\"); } catch {}"}
      """
    And the model calls "tool_search_code" with:
      """json
      {"code": "await openclaw.tools.search(\"shipments\");\nawait openclaw.tools.call(\"weather\", { city: \"Oslo\" });"}
      """
    Then the tool result details at "$.telemetry" are:
      """json
      {"catalogSize": 4, "sources": {"openclaw": 3, "mcp": 0, "client": 1}, "counterScope": "<string>", "searchCount": 2, "describeCount": 1, "callCount": 1}
      """

  @tool-search @CM-24.43
  Scenario: Tool Search: one counterScope names the counters of an agent run and another names the next run's
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "return (await openclaw.tools.search(\"weather\")).length > 0;"}
      """
    Then the tool result details at "$.telemetry.counterScope" are remembered as "first run"
    When the model calls "tool_search_code" with:
      """json
      {"code": "return 2;"}
      """
    Then the tool result details at "$.telemetry.counterScope" equal the remembered "first run"
    And the tool result details at "$.telemetry.searchCount" are:
      """json
      1
      """
    When the turn ends
    And a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "return 3;"}
      """
    Then the tool result details at "$.telemetry.counterScope" differ from the remembered "first run"
    And the tool result details at "$.telemetry.searchCount" are:
      """json
      0
      """

  @tool-search @CM-24.40
  Scenario: Tool Search: tool_search_code searches with a numeric options.limit or the default limit
    Given tool search is configured as:
      """json
      {"mode": "code", "searchDefaultLimit": 2}
      """
    And the tools:
      """json
      [
        {"name": "alpha_report", "source": "core", "description": "Write a report."},
        {"name": "beta_report", "source": "core", "description": "Write a report."},
        {"name": "gamma_report", "source": "core", "description": "Write a report."}
      ]
      """
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "const count = async (options) => (await openclaw.tools.search(\"report\", options)).length;\nreturn [await count(), await count({ limit: 1 }), await count({ limit: 3 }), await count({ limit: \"1\" })];"}
      """
    Then the tool result details at "$.value" are:
      """json
      [2, 1, 3, 2]
      """

  @tool-search @CM-24.40
  Scenario: Tool Search: tool_search_code calls a tool with {} when args are omitted
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the tool:
      """json
      {"name": "inspect", "source": "core", "description": "Echo the input.", "behavior": {"echo": true}}
      """
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "const r = await openclaw.tools.call(\"inspect\");\nreturn r.result.details;"}
      """
    Then the tool result details at "$.value" are:
      """json
      {}
      """
    And the tool "inspect" was called 1 time

  @tool-search @CM-24.40 @CM-24.41
  Scenario: Tool Search: tool_search_code calls started with catch or finally run before the result
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "openclaw.tools.call(\"weather\", { city: \"Bergen\" }).catch(() => console.log(\"failed\"));\nopenclaw.tools.call(\"read\", { path: \"notes.txt\" }).finally(() => console.log(\"settled\"));\nreturn 1;"}
      """
    Then the tool "weather" was called 1 time
    And the tool "read" was called 1 time
    And the tool result details at "$.logs" are:
      """json
      ["settled"]
      """

  @tool-search @CM-24.40 @CM-24.20
  Scenario Outline: Tool Search: tool_search_code refuses the code <code>
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": <code>}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search_code", "error": "code must be a non-empty string."}
      """

    Examples:
      | code       |
      | ""         |
      | 5          |
      | ["return"] |

  @tool-search @CM-24.41 @CM-24.43
  Scenario: Tool Search: a tool_search_code payload has exactly ok, value, logs and telemetry
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "console.log(\"one line\");\nreturn { answer: 2 };"}
      """
    Then the tool result is not flagged as an error
    And the tool result details are:
      """json
      {
        "ok": true,
        "value": {"answer": 2},
        "logs": ["one line"],
        "telemetry": {"catalogSize": 4, "sources": {"openclaw": 3, "mcp": 0, "client": 1}, "counterScope": "<string>", "searchCount": 0, "describeCount": 0, "callCount": 0}
      }
      """
    And the tool result text is the pretty JSON of its details

  @tool-search @CM-24.41 @CM-24.20
  Scenario: Tool Search: a thrown value that is not an Error is reported as its string
    Given tool search is configured as:
      """json
      {"mode": "code"}
      """
    And the catalog "basic"
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "throw 42;"}
      """
    Then the tool result is flagged as an error
    And the tool result details are:
      """json
      {"status": "error", "tool": "tool_search_code", "error": "42"}
      """

  @tool-search @CM-24.42
  Scenario: Tool Search: tool_search_code stops at codeTimeoutMs with a call still pending
    Given tool search is configured as:
      """json
      {"mode": "code", "codeTimeoutMs": 1000}
      """
    And the catalog "basic"
    And the tool "weather" is held until released
    When a turn starts
    And the model calls "tool_search_code" with:
      """json
      {"code": "return await openclaw.tools.call(\"weather\", { city: \"Oslo\" });"}
      """
    Then the tool result details are:
      """json
      {"status": "error", "tool": "tool_search_code", "error": "tool_search_code timed out"}
      """
    And the hook saw an event including:
      """json
      {"toolName": "weather", "params": {"city": "Oslo"}}
      """
    And the held calls of the tool "weather" are cancelled
    When the tool "weather" is released
    And 100 ms pass
    Then the tool "weather" was not called
