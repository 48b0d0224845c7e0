Feature: Model-visible tools
  SPEC chapter 4: the exec and wait definitions, the exec description with its
  sentences, namespace block and bounded quick index, direct-only tools and the payload check.

  Background:
    Given code mode is enabled

  @core @CM-4.1 @CM-4.2 @checklist-3
  Scenario: Model-visible tools: exec and wait replace every cataloged tool
    Given the catalog "basic"
    When a turn starts
    Then the model-visible tools are "exec, wait"
    And the model-visible tools do not include "weather"
    And the model-visible tools do not include "select_file"

  @core @CM-4.1 @CM-4.2 @CM-4.3 @CM-4.28 @CM-11.3 @checklist-3 @checklist-6
  Scenario: Model-visible tools: a direct-only tool stays visible after exec and wait and out of ALL_TOOLS
    Given the catalog "mixed"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the "computer" tool description is:
      """text
      Control the computer screen.
      """
    And the "computer" tool schema is:
      """json
      {"type": "object", "required": ["action"], "properties": {"action": {"type": "string"}}}
      """
    When the model calls exec with:
      """js
      return ALL_TOOLS.filter((entry) => entry.name === "computer").length;
      """
    Then the result value is 0
    And the telemetry includes:
      """json
      {"visibleTools": ["exec", "wait", "computer"]}
      """

  @core @CM-4.2 @CM-4.3 @CM-20.6
  Scenario: Model-visible tools: several direct-only tools keep their effective-tool order
    Given the tools:
      """json
      [
        {"name": "zoom_image", "directOnly": true, "description": "Load an image for vision."},
        {"name": "weather", "description": "Weather."},
        {"name": "camera_snapshot", "directOnly": true, "description": "Take a camera snapshot."}
      ]
      """
    When a turn starts
    Then the model-visible tools are "exec, wait, zoom_image, camera_snapshot"
    When the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name);
      """
    Then the result value is:
      """json
      ["weather"]
      """
    And the telemetry includes:
      """json
      {"visibleTools": ["exec", "wait", "zoom_image", "camera_snapshot"]}
      """

  @core @CM-4.4
  Scenario: Model-visible tools: a direct-only tool denied by policy is not visible
    Given the catalog "mixed"
    And the tool policy denies "computer"
    When a turn starts
    Then the model-visible tools are "exec, wait"

  @core @CM-4.29
  Scenario: Model-visible tools: a direct-only tool call runs through the normal tool path
    Given the catalog "mixed"
    When a turn starts
    And the model calls "computer" with:
      """json
      {"action": "screenshot"}
      """
    Then the tool "computer" was called 1 times
    And the tool "computer" was last called with:
      """json
      {"action": "screenshot"}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "name": "computer", "status": "ok", "parentToolCallId": "<absent>"}]
      """
    When the model calls exec with:
      """js
      return "after the direct call";
      """
    Then the telemetry includes:
      """json
      {"callCount": 0}
      """

  @core @CM-4.5 @CM-4.6 @CM-4.7
  Scenario: Model-visible tools: the exec schema is exact and has no unions or command
    Given the catalog "basic"
    When a turn starts
    Then the "exec" tool schema is:
      """json
      {
        "type": "object",
        "required": ["code"],
        "properties": {
          "code": {
            "type": "string",
            "description": "Required JS/TS; no Python, shell, `require`, `import`. Use explicit `return value`; a trailing expression is discarded and yields `null`. Use `callValue`, not `call`, for data; `call` wraps it under `.result`. Core text reads: `{kind:\"text\",content:string}`; use `.content`. Unknown format: return it first, then parse it in a later exec; never guess separators. Example: `const file=await tools.callValue(\"openclaw:core:read\", { path: \"notes.txt\" }); if(file.kind!==\"text\") return file; return file.content;`. Use exact ids from `ALL_TOOLS` or `tools.search(query)`; never invent ids or parallelize dependent calls."
          },
          "language": {
            "enum": ["javascript", "typescript"],
            "type": "string",
            "description": "Source language. Must be \"javascript\" or \"typescript\". Defaults to javascript."
          },
          "restartSafe": {
            "type": "boolean",
            "description": "Set true only when every catalog call is explicitly replay-safe and OpenClaw may reconstruct the work after a gateway restart. Leave unset for ordinary calls; true rejects unmarked, side-effecting, or namespace tool calls."
          }
        }
      }
      """

  @core @CM-4.7 @CM-5.3
  Scenario: Model-visible tools: exec accepts command although its schema does not declare it
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with arguments:
      """json
      {"command": "return 6 * 7;"}
      """
    Then the result value is 42

  @core @CM-4.8 @CM-4.19
  Scenario: Model-visible tools: exec and wait carry their labels
    Given the catalog "basic"
    When a turn starts
    Then the "exec" tool has the label "exec"
    And the "wait" tool has the label "wait"

  @core @CM-4.5 @CM-4.17 @CM-4.18
  Scenario: Model-visible tools: the wait schema and description are exact
    Given the catalog "basic"
    When a turn starts
    Then the "wait" tool schema is:
      """json
      {
        "type": "object",
        "required": ["runId"],
        "properties": {
          "runId": {
            "type": "string",
            "description": "Code mode run id returned by exec."
          }
        }
      }
      """
    And the "wait" tool description is:
      """text
      Resume a suspended OpenClaw code mode run returned by exec.
      """

  @core @CM-4.9 @CM-4.13 @CM-4.22 @CM-4.23 @CM-4.24 @CM-4.25 @CM-4.26 @CM-4.14
  Scenario: Model-visible tools: the exec description for the basic catalog is exact
    Given the catalog "basic"
    When a turn starts
    Then the "exec" tool description is:
      """text
      Run JavaScript or TypeScript in OpenClaw code mode. Use `return` to pass the final value back; otherwise the result is `null`. Quick-index arrows show trusted declared output hints; `-> ?` means never guess result field names. For declared fields, process them in the first exec; do not spend another exec inspecting them. Perform dependent reads, checks, and follow-up calls in order; parallelize independent work only. For an unknown output, including a final dependent call after declared-output calls, return the raw tool value unchanged; do not wrap it in the requested answer shape or guess fields; filter or map it only in a later exec. Nested calls enforce normal tool policy and approvals. `ALL_TOOLS` is the complete compact catalog. Select exact ids directly or with `tools.search(query: string, options?)`; use `tools.describe(id: string)` only when needed. Never invent or transform a tool id. `tools.callValue(id: string, args?)` returns its JSON value directly; `tools.call(id: string, args?)` preserves `{ tool, result }`. Example: `const hit = ALL_TOOLS.find((entry) => entry.description.includes('weather')) ?? (await tools.search('weather'))[0]; return await tools.callValue(hit.id, {});`. Node.js modules and `require`/`import` are NOT available; use enabled catalog tools allowed by policy for shell, file, network, or external actions. The `language` field accepts only "javascript" or "typescript"; do not pass "bash", "shell", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source.

      OpenClaw/plugin tool quick index (exact ids; descriptions are intentionally deferred):
      Each line is `id input -> output`; `-> ?` means unknown.
      OUTPUT DECLARED RULE: use declared fields for dependent calls in the first exec.
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:core:read" { path: string; limit?: number; offset?: number } -> { content: string; kind: "text" }
      - "openclaw:shipping:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>
      - "openclaw:core:weather" { city: string } -> ?

      Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous.
      """

  @core @CM-4.9 @CM-4.13 @CM-4.27 @CM-4.14
  Scenario: Model-visible tools: a catalog without OpenClaw tools gets no quick index
    Given the tools:
      """json
      [{"name": "select_file", "source": "client", "owner": "app", "description": "Ask the user to pick a file."}]
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    And the "exec" tool description is:
      """text
      Run JavaScript or TypeScript in OpenClaw code mode. Use `return` to pass the final value back; otherwise the result is `null`. Quick-index arrows show trusted declared output hints; `-> ?` means never guess result field names. For declared fields, process them in the first exec; do not spend another exec inspecting them. Perform dependent reads, checks, and follow-up calls in order; parallelize independent work only. For an unknown output, including a final dependent call after declared-output calls, return the raw tool value unchanged; do not wrap it in the requested answer shape or guess fields; filter or map it only in a later exec. Nested calls enforce normal tool policy and approvals. `ALL_TOOLS` is the complete compact catalog. Select exact ids directly or with `tools.search(query: string, options?)`; use `tools.describe(id: string)` only when needed. Never invent or transform a tool id. `tools.callValue(id: string, args?)` returns its JSON value directly; `tools.call(id: string, args?)` preserves `{ tool, result }`. Example: `const hit = ALL_TOOLS.find((entry) => entry.description.includes('weather')) ?? (await tools.search('weather'))[0]; return await tools.callValue(hit.id, {});`. Node.js modules and `require`/`import` are NOT available; use enabled catalog tools allowed by policy for shell, file, network, or external actions. The `language` field accepts only "javascript" or "typescript"; do not pass "bash", "shell", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source.
      """

  @core @CM-4.9 @CM-4.10 @CM-4.11 @CM-4.20 @CM-4.22 @CM-4.14
  Scenario: Model-visible tools: an MCP server adds the API and MCP sentences and the MCP section
    Given the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue.", "inputSchema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}}]
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    And the "exec" tool description is:
      """text
      Run JavaScript or TypeScript in OpenClaw code mode. Use `return` to pass the final value back; otherwise the result is `null`. Quick-index arrows show trusted declared output hints; `-> ?` means never guess result field names. For declared fields, process them in the first exec; do not spend another exec inspecting them. Perform dependent reads, checks, and follow-up calls in order; parallelize independent work only. For an unknown output, including a final dependent call after declared-output calls, return the raw tool value unchanged; do not wrap it in the requested answer shape or guess fields; filter or map it only in a later exec. Nested calls enforce normal tool policy and approvals. `ALL_TOOLS` is the complete compact catalog. Select exact ids directly or with `tools.search(query: string, options?)`; use `tools.describe(id: string)` only when needed. Never invent or transform a tool id. `tools.callValue(id: string, args?)` returns its JSON value directly; `tools.call(id: string, args?)` preserves `{ tool, result }`. Example: `const hit = ALL_TOOLS.find((entry) => entry.description.includes('weather')) ?? (await tools.search('weather'))[0]; return await tools.callValue(hit.id, {});`. Node.js modules and `require`/`import` are NOT available; use enabled catalog tools allowed by policy for shell, file, network, or external actions. Read TypeScript-style declaration files with `API.list(prefix?)` and `API.read(path)`. MCP tools are available only through the `MCP` namespace. The `language` field accepts only "javascript" or "typescript"; do not pass "bash", "shell", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source.

      MCP namespace globals are available in code mode:
      - MCP: MCP server tools grouped by server.
      Read API files such as mcp/index.d.ts and mcp/<server>.d.ts for TypeScript-style MCP headers; visible servers: github. Node-backed name collisions use a sanitized node-id fragment prefix.
      Call MCP tools as MCP.<server>.<tool>({ ...input }) with one object argument matching the header.

      OpenClaw/plugin tool quick index (exact ids; descriptions are intentionally deferred):
      Each line is `id input -> output`; `-> ?` means unknown.
      OUTPUT DECLARED RULE: use declared fields for dependent calls in the first exec.
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:core:read" { path: string; limit?: number; offset?: number } -> { content: string; kind: "text" }
      - "openclaw:shipping:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>
      - "openclaw:core:weather" { city: string } -> ?

      Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous.
      """

  @core @CM-4.20
  Scenario: Model-visible tools: the MCP section lists server identifiers in server order
    Given the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "chrome-devtools" with tools:
      """json
      [{"name": "take_screenshot", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    Then the exec description contains:
      """text
      Read API files such as mcp/index.d.ts and mcp/<server>.d.ts for TypeScript-style MCP headers; visible servers: chromeDevtools, github. Node-backed name collisions use a sanitized node-id fragment prefix.
      Call MCP tools as MCP.<server>.<tool>({ ...input }) with one object argument matching the header.
      """
    And the exec description does not contain "create_issue"
    And the exec description does not contain "take_screenshot"

  @core @CM-4.10 @CM-4.12 @CM-4.11
  Scenario: Model-visible tools: Swarm adds the API and Swarm sentences without the MCP sentence
    Given the catalog "basic"
    And the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    Then the exec description contains:
      """text
      for shell, file, network, or external actions. Read TypeScript-style declaration files with `API.list(prefix?)` and `API.read(path)`. Swarm globals `agents.run`, `phase`, and `log` are available; read `agents.d.ts` for types and orchestration idioms. The `language` field accepts only "javascript" or "typescript";
      """
    And the exec description does not contain "MCP tools are available only through the `MCP` namespace."
    And the exec description does not contain "MCP namespace globals"

  @core @CM-4.9 @CM-4.14
  Scenario: Model-visible tools: MCP and Swarm together add the API, MCP and Swarm sentences in that order
    Given the catalog "basic"
    And the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue.", "inputSchema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}}]
      """
    And the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    Then the exec description contains:
      """text
      for shell, file, network, or external actions. Read TypeScript-style declaration files with `API.list(prefix?)` and `API.read(path)`. MCP tools are available only through the `MCP` namespace. Swarm globals `agents.run`, `phase`, and `log` are available; read `agents.d.ts` for types and orchestration idioms. The `language` field accepts only "javascript" or "typescript"; do not pass "bash", "shell", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source.

      MCP namespace globals are available in code mode:
      """

  @core @CM-4.14 @CM-4.15
  Scenario: Model-visible tools: the exec description carries no nodes line, skills sentence or tool details
    Given the catalog "mixed"
    When a turn starts
    Then the exec description does not contain "- nodes:"
    And the exec description does not contain "skills"
    And the exec description does not contain "Send a message to a channel."
    And the exec description does not contain "Ask the user to pick a file."
    And the exec description does not contain "required"
    And the exec description does not contain "client:app:select_file"

  @core @CM-4.16 @CM-11.7 @CM-4.14
  Scenario: Model-visible tools: equivalent setups give byte-identical exec descriptions in every run
    Given the tools:
      """json
      [
        {"name": "select_file", "source": "client", "owner": "app", "description": "Ask the user to pick a file.", "parameters": {"type": "object", "properties": {"prompt": {"type": "string"}}}},
        {"name": "weather", "description": "Current weather and forecast for a city.", "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City name."}}}},
        {"name": "shipping_list", "source": "plugin", "owner": "shipping", "description": "List shipments.", "parameters": {"type": "object", "properties": {}}, "outputSchema": {"type": "array", "items": {"type": "object", "required": ["id", "paid", "tons"], "properties": {"id": {"type": "string"}, "paid": {"type": "boolean"}, "tons": {"type": "number"}}, "additionalProperties": false}}},
        {"name": "read", "label": "Read", "description": "Read a text file from the workspace.", "parameters": {"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}, "offset": {"type": "integer"}, "limit": {"type": "integer"}}}, "outputSchema": {"type": "object", "required": ["kind", "content"], "properties": {"kind": {"const": "text"}, "content": {"type": "string"}}, "additionalProperties": false}}
      ]
      """
    When a turn starts
    Then the "exec" tool description is:
      """text
      Run JavaScript or TypeScript in OpenClaw code mode. Use `return` to pass the final value back; otherwise the result is `null`. Quick-index arrows show trusted declared output hints; `-> ?` means never guess result field names. For declared fields, process them in the first exec; do not spend another exec inspecting them. Perform dependent reads, checks, and follow-up calls in order; parallelize independent work only. For an unknown output, including a final dependent call after declared-output calls, return the raw tool value unchanged; do not wrap it in the requested answer shape or guess fields; filter or map it only in a later exec. Nested calls enforce normal tool policy and approvals. `ALL_TOOLS` is the complete compact catalog. Select exact ids directly or with `tools.search(query: string, options?)`; use `tools.describe(id: string)` only when needed. Never invent or transform a tool id. `tools.callValue(id: string, args?)` returns its JSON value directly; `tools.call(id: string, args?)` preserves `{ tool, result }`. Example: `const hit = ALL_TOOLS.find((entry) => entry.description.includes('weather')) ?? (await tools.search('weather'))[0]; return await tools.callValue(hit.id, {});`. Node.js modules and `require`/`import` are NOT available; use enabled catalog tools allowed by policy for shell, file, network, or external actions. The `language` field accepts only "javascript" or "typescript"; do not pass "bash", "shell", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source.

      OpenClaw/plugin tool quick index (exact ids; descriptions are intentionally deferred):
      Each line is `id input -> output`; `-> ?` means unknown.
      OUTPUT DECLARED RULE: use declared fields for dependent calls in the first exec.
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:core:read" { path: string; limit?: number; offset?: number } -> { content: string; kind: "text" }
      - "openclaw:shipping:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>
      - "openclaw:core:weather" { city: string } -> ?

      Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous.
      """
    When a turn starts for agent "ops"
    Then the "exec" tool description is:
      """text
      Run JavaScript or TypeScript in OpenClaw code mode. Use `return` to pass the final value back; otherwise the result is `null`. Quick-index arrows show trusted declared output hints; `-> ?` means never guess result field names. For declared fields, process them in the first exec; do not spend another exec inspecting them. Perform dependent reads, checks, and follow-up calls in order; parallelize independent work only. For an unknown output, including a final dependent call after declared-output calls, return the raw tool value unchanged; do not wrap it in the requested answer shape or guess fields; filter or map it only in a later exec. Nested calls enforce normal tool policy and approvals. `ALL_TOOLS` is the complete compact catalog. Select exact ids directly or with `tools.search(query: string, options?)`; use `tools.describe(id: string)` only when needed. Never invent or transform a tool id. `tools.callValue(id: string, args?)` returns its JSON value directly; `tools.call(id: string, args?)` preserves `{ tool, result }`. Example: `const hit = ALL_TOOLS.find((entry) => entry.description.includes('weather')) ?? (await tools.search('weather'))[0]; return await tools.callValue(hit.id, {});`. Node.js modules and `require`/`import` are NOT available; use enabled catalog tools allowed by policy for shell, file, network, or external actions. The `language` field accepts only "javascript" or "typescript"; do not pass "bash", "shell", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source.

      OpenClaw/plugin tool quick index (exact ids; descriptions are intentionally deferred):
      Each line is `id input -> output`; `-> ?` means unknown.
      OUTPUT DECLARED RULE: use declared fields for dependent calls in the first exec.
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:core:read" { path: string; limit?: number; offset?: number } -> { content: string; kind: "text" }
      - "openclaw:shipping:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>
      - "openclaw:core:weather" { city: string } -> ?

      Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous.
      """

  @core @CM-4.22 @CM-4.23 @CM-4.24 @CM-4.25 @CM-1.6
  Scenario: Model-visible tools: quick index lines put declared outputs first, then ids in code point order
    Given the tools:
      """json
      [
        {"name": "alpha"},
        {"name": "Zeta"},
        {"name": "browser_open", "source": "plugin", "owner": "browser", "bundled": true, "parameters": {"type": "object", "required": ["url"], "properties": {"url": {"type": "string"}}}},
        {"name": "report", "outputSchema": {"type": "object", "required": ["ok"], "properties": {"ok": {"type": "boolean"}}, "additionalProperties": false}},
        {"name": "météo"},
        {"name": "r&d<tools>"},
        {"name": "tags_set", "parameters": {"type": "array", "items": {"type": "string"}}},
        {"name": "pick", "source": "client", "owner": "app", "outputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
      ]
      """
    When a turn starts
    Then the exec description ends with:
      """text
      OpenClaw/plugin tool quick index (exact ids; descriptions are intentionally deferred):
      Each line is `id input -> output`; `-> ?` means unknown.
      OUTPUT DECLARED RULE: use declared fields for dependent calls in the first exec.
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:core:report" {} -> { ok: boolean }
      - "openclaw:browser:browser_open" { url: string } -> ?
      - "openclaw:core:Zeta" {} -> ?
      - "openclaw:core:alpha" {} -> ?
      - "openclaw:core:météo" {} -> ?
      - "openclaw:core:r&d<tools>" {} -> ?
      - "openclaw:core:tags_set" Array<string> -> ?

      Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous.
      """

  @core @CM-4.26 @CM-4.25
  Scenario: Model-visible tools: a quick index of exactly 8000 UTF-16 code units is used whole
    Given the tools:
      """json
      [
        {"name": "fleet_report_01_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_02_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_03_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_04_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_05_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_06_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_07_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_08_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_09_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_10_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_11_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_12_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_13_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_14_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_15_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_16_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_17_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_18_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_19_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_20_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_21_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_22_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_23_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_24_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_25_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_26_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_27_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_28_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_29_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_30_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_31_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_32_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_33_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_34_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_35_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_36_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_37_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_38_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_39_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_40_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_41_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_42_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_43_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_44_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_45_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_46_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_47_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_48_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_49_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_50_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_51_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_52_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_53_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_54_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_55_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_56_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_57_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_58_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_59_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_60_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_61_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_62_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_63_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_64_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_65_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_66_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_67_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_68_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_69_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_70_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_71_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_72_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_73_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_74_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_75_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_76_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_77_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_78_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_79_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_80_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_81_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_82_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_83_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_84_quarterly_summary_with_extended_details_and_arc"},
        {"name": "fleet_report_85_é_𝔸_quarterly_summary_with_extended_details_an"}
      ]
      """
    When a turn starts
    Then the exec description contains:
      """text
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:core:fleet_report_01_quarterly_summary_with_extended_details_and_ar" {} -> ?
      - "openclaw:core:fleet_report_02_quarterly_summary_with_extended_details_and_ar" {} -> ?
      """
    And the exec description ends with:
      """text
      - "openclaw:core:fleet_report_84_quarterly_summary_with_extended_details_and_arc" {} -> ?
      - "openclaw:core:fleet_report_85_é_𝔸_quarterly_summary_with_extended_details_an" {} -> ?

      Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous.
      """

  @core @CM-4.26 @CM-4.25
  Scenario: Model-visible tools: an oversized quick index skips a line that does not fit and keeps later shorter ones
    Given the tools:
      """json
      [
        {"name": "fleet_report_01_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_02_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_03_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_04_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_05_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_06_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_07_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_08_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_09_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_10_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_11_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_12_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_13_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_14_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_15_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_16_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_17_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_18_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_19_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_20_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_21_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_22_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_23_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_24_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_25_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_26_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_27_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_28_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_29_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_30_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_31_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_32_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_33_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_34_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_35_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_36_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_37_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_38_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_39_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_40_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_41_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_42_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_43_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_44_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_45_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_46_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_47_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_48_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_49_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_50_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_51_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_52_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_53_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_54_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_55_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_56_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_57_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_58_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_59_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_60_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_61_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_62_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_63_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_64_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_65_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_66_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_67_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_68_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_69_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_70_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_71_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_72_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_73_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_74_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_75_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_76_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_77_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_78_quarterly_summary_with_extended_details_and_ar"},
        {"name": "fleet_report_79_quarterly_summary_with_extended_details_and_a"},
        {"name": "fleet_report_80_quarterly_summary_with_extended_details_and_a"},
        {"name": "fleet_report_81_quarterly_summary_with_extended_details_and_a"},
        {"name": "fleet_report_82_quarterly_summary_with_extended_details_and_a"},
        {"name": "fleet_report_83_quarterly_summary_with_extended_details_and_a"},
        {"name": "fleet_report_84_quarterly_summary_with_extended_details_and_a"},
        {"name": "fleet_report_99_quarterly_summary_with_extended_details_and_arch"},
        {"name": "zz_short_1"},
        {"name": "zz_short_2"}
      ]
      """
    When a turn starts
    Then the exec description contains:
      """text
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:core:fleet_report_01_quarterly_summary_with_extended_details_and_ar" {} -> ?
      - "openclaw:core:fleet_report_02_quarterly_summary_with_extended_details_and_ar" {} -> ?
      """
    And the exec description ends with:
      """text
      - "openclaw:core:fleet_report_83_quarterly_summary_with_extended_details_and_a" {} -> ?
      - "openclaw:core:fleet_report_84_quarterly_summary_with_extended_details_and_a" {} -> ?
      - "openclaw:core:zz_short_1" {} -> ?
      - "openclaw:core:zz_short_2" {} -> ?

      1 additional OpenClaw/plugin tools omitted from this prompt index. Use ALL_TOOLS or tools.search inside exec to find them.
      """
    And the exec description does not contain "fleet_report_99"
    When the model calls exec with:
      """js
      return ALL_TOOLS.filter((entry) => entry.name.startsWith("fleet_report_99")).map((entry) => entry.id);
      """
    Then the result value is:
      """json
      ["openclaw:core:fleet_report_99_quarterly_summary_with_extended_details_and_arch"]
      """

  @core @CM-4.26 @CM-4.25
  Scenario: Model-visible tools: a line that fills the index to exactly 8000 characters with the footer that then applies is kept
    # 84 lines of 89 characters, then one of 78: with the footer for the 9
    # tools left out, the block is exactly 8000 characters. Counting that
    # footer for 11 tools instead (one digit more) would leave the line out.
    Given the tools:
      """json
      [
        {"name": "fleet_00_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_01_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_02_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_03_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_04_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_05_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_06_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_07_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_08_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_09_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_10_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_11_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_12_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_13_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_14_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_15_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_16_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_17_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_18_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_19_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_20_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_21_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_22_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_23_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_24_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_25_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_26_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_27_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_28_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_29_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_30_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_31_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_32_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_33_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_34_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_35_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_36_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_37_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_38_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_39_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_40_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_41_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_42_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_43_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_44_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_45_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_46_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_47_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_48_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_49_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_50_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_51_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_52_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_53_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_54_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_55_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_56_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_57_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_58_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_59_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_60_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_61_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_62_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_63_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_64_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_65_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_66_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_67_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_68_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_69_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_70_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_71_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_72_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_73_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_74_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_75_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_76_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_77_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_78_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_79_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_80_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_81_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_82_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_83_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "gate_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
        {"name": "yard_00_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_01_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_02_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_03_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_04_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_05_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_06_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_07_quarterly_summary_with_extended_details_and_archive_xx"},
        {"name": "yard_08_quarterly_summary_with_extended_details_and_archive_xx"}
      ]
      """
    When a turn starts
    Then the exec description ends with:
      """text
      - "openclaw:core:fleet_83_quarterly_summary_with_extended_details_and_archive_x" {} -> ?
      - "openclaw:core:gate_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" {} -> ?

      9 additional OpenClaw/plugin tools omitted from this prompt index. Use ALL_TOOLS or tools.search inside exec to find them.
      """
    And the exec description does not contain "yard_00"

  @core @CM-4.26 @CM-4.25
  Scenario: Model-visible tools: an index whose lines and whole-index footer take 8001 characters leaves a line out
    # The heading, the 86 lines, the blank line and the footer for a whole
    # index take 8001 characters, one over the budget, so the budgeted
    # index applies and the last line does not fit beside its footer.
    Given the tools:
      """json
      [
        {"name": "fleet_00_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_01_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_02_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_03_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_04_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_05_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_06_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_07_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_08_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_09_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_10_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_11_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_12_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_13_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_14_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_15_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_16_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_17_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_18_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_19_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_20_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_21_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_22_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_23_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_24_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_25_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_26_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_27_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_28_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_29_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_30_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_31_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_32_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_33_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_34_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_35_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_36_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_37_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_38_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_39_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_40_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_41_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_42_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_43_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_44_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_45_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_46_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_47_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_48_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_49_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_50_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_51_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_52_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_53_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_54_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_55_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_56_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_57_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_58_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_59_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_60_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_61_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_62_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_63_quarterly_summary_with_extended_details_and_archive_"},
        {"name": "fleet_64_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_65_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_66_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_67_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_68_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_69_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_70_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_71_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_72_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_73_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_74_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_75_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_76_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_77_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_78_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_79_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_80_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_81_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_82_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_83_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "fleet_84_quarterly_summary_with_extended_details_and_archive_x"},
        {"name": "gate_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}
      ]
      """
    When a turn starts
    Then the exec description ends with:
      """text
      - "openclaw:core:fleet_83_quarterly_summary_with_extended_details_and_archive_x" {} -> ?
      - "openclaw:core:fleet_84_quarterly_summary_with_extended_details_and_archive_x" {} -> ?

      1 additional OpenClaw/plugin tools omitted from this prompt index. Use ALL_TOOLS or tools.search inside exec to find them.
      """
    And the exec description does not contain "gate_"

  @namespaces @CM-4.20 @CM-4.9 @CM-15.7
  Scenario: Model-visible tools: visible internal namespaces add the registered-namespace section
    Given the tools:
      """json
      [
        {"name": "github_list_issues", "source": "plugin", "owner": "github", "description": "List issues."},
        {"name": "calendar_events", "source": "plugin", "owner": "calendar", "description": "List calendar events."}
      ]
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "prompt": "\n Use Issues.list(params) for open issues.\nEach issue has number and title. \n",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    And the plugin "calendar" registers the namespace:
      """json
      {
        "id": "calendar",
        "globalName": "Calendar",
        "description": "   ",
        "requiredToolNames": ["calendar_events"],
        "scope": {"events": {"$tool": "calendar_events"}}
      }
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    And the exec description ends with:
      """text
      The `language` field accepts only "javascript" or "typescript"; do not pass "bash", "shell", or other values. The `code` field contains JavaScript or TypeScript, never a shell command. For shell or file operations, call the exact catalog tool from guest JavaScript; do not retry failed shell source.

      Registered namespace globals are available in code mode:
      - Calendar
      - Issues: GitHub issue helpers for the current repository.
      Use Issues.list(params) for open issues.
      Each issue has number and title.

      OpenClaw/plugin tool quick index (exact ids; descriptions are intentionally deferred):
      Each line is `id input -> output`; `-> ?` means unknown.
      OUTPUT DECLARED RULE: use declared fields for dependent calls in the first exec.
      OUTPUT UNKNOWN RULE: return the raw tool value unchanged; inspect or map it only in a later exec.
      - "openclaw:calendar:calendar_events" {} -> ?
      - "openclaw:github:github_list_issues" {} -> ?

      Use these exact ids with tools.callValue; use ALL_TOOLS or tools.search inside exec when lookup is ambiguous.
      """

  @namespaces @CM-4.21 @CM-15.7 @ns-1
  Scenario: Model-visible tools: a namespace whose required tool is denied adds no prompt text
    Given the tools:
      """json
      [
        {"name": "github_list_issues", "source": "plugin", "owner": "github", "description": "List issues."},
        {"name": "weather", "description": "Weather."}
      ]
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "prompt": "Use Issues.list(params) for open issues.",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    And the tool policy denies "github_list_issues"
    When a turn starts
    Then the exec description does not contain "Registered namespace globals"
    And the exec description does not contain "GitHub issue helpers"
    And the exec description does not contain "Use Issues.list"

  @core @CM-4.30 @CM-4.31 @CM-4.1
  Scenario Outline: Model-visible tools: a direct-only tool named <name> fails the payload check before any request
    Given the catalog "basic"
    And the tool:
      """json
      {"name": "<name>", "source": "core", "directOnly": true, "description": "A direct-only tool named like a control tool."}
      """
    When a turn starts
    Then the turn fails with "code mode payload check failed."

    Examples:
      | name |
      | exec |
      | wait |
