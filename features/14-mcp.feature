Feature: MCP namespace, $api and virtual declaration files
  SPEC chapter 14 (CM-14.8 to CM-14.31): MCP tools are reachable from guest code only through
  the generated MCP namespace, described by $api() headers and the virtual mcp/*.d.ts files.

  Background:
    Given code mode is enabled
    And the MCP server "github" with tools:
      """json
      [
        {
          "name": "create_issue",
          "description": "Create a GitHub issue.",
          "inputSchema": {
            "type": "object",
            "required": ["owner", "repo", "title"],
            "properties": {
              "owner": {"type": "string", "description": "Repository owner"},
              "repo": {"type": "string", "description": "Repository name"},
              "title": {"type": "string", "description": "Issue title\nShown in tracker"},
              "body": {"type": "string", "default": ""}
            }
          },
          "behavior": {"returns": {"number": 7}}
        },
        {
          "name": "list_issues",
          "description": "List repository issues.\nNewest first; closes */ are escaped.",
          "inputSchema": {
            "type": "object",
            "properties": {
              "state": {"type": "string", "enum": ["open", "closed"], "description": "Issue state"},
              "labels": {"type": "array", "items": {"type": "string"}},
              "limit": {"type": "integer", "default": 30}
            }
          },
          "behavior": {"returns": {"count": 2}}
        }
      ]
      """
    And the MCP server "github" also offers resources:
      """json
      [
        {"uri": "memo://one", "name": "one", "mimeType": "text/plain", "text": "first memo"},
        {"uri": "memo://two", "name": "two", "mimeType": "text/plain", "text": "second memo"}
      ]
      """

  @mcp @CM-14.20 @CM-14.24 @CM-14.11 @checklist-10
  Scenario: MCP root $api returns the server list of the SPEC example
    When a turn starts
    And the model calls exec with:
      """js
      return await MCP.$api();
      """
    Then the result value is:
      """json
      {
        "kind": "mcp_api",
        "scope": "root",
        "header": "/// <reference path=\"./github.d.ts\" />\n\ntype McpApiHeader = { header: string; servers?: unknown[] };\n\ndeclare const MCP: {\n  /** List visible MCP servers and request server-specific headers. */\n  $api(): Promise<McpApiHeader>;\n  readonly github: typeof MCP.github;\n};",
        "servers": [
          {
            "identifier": "github",
            "serverName": "github",
            "toolCount": 4
          }
        ],
        "note": "Call MCP.<server>.$api() for a TypeScript-style header, then call tools with one object argument matching the shown input type."
      }
      """
    And the tool "create_issue" was not called
    And the tool "list_issues" was not called

  @mcp @CM-14.21 @CM-14.22 @CM-14.23 @checklist-10
  Scenario: MCP server $api without a selector describes every entry of the server
    When a turn starts
    And the model calls exec with:
      """js
      const api = await MCP.github.$api();
      return {
        kind: api.kind,
        scope: api.scope,
        server: api.server,
        note: api.note,
        hasSchemas: Object.prototype.hasOwnProperty.call(api, "schemas"),
        headerNamesEveryTool: ["createIssue", "listIssues", "list", "read"].every((name) => api.header.includes("function " + name + "(")),
        byMethod: Object.fromEntries(api.tools.map((tool) => [tool.method, [tool.path, tool.mcpTool, tool.operation]])),
        createDescription: api.tools.find((tool) => tool.method === "createIssue").description,
        unmatched: await MCP.github.$api("delete_repository").then((none) => [none.scope, none.tools]),
      };
      """
    Then the result value is:
      """json
      {
        "kind": "mcp_api",
        "scope": "server",
        "server": {"identifier": "github", "serverName": "github"},
        "note": "Call MCP tools with one object argument, for example MCP.server.tool({ requiredField: value }).",
        "hasSchemas": false,
        "headerNamesEveryTool": true,
        "byMethod": {
          "createIssue": [["createIssue"], "create_issue", "tool"],
          "listIssues": [["listIssues"], "list_issues", "tool"],
          "resources.list": [["resources", "list"], "resources_list", "resources_list"],
          "resources.read": [["resources", "read"], "resources_read", "resources_read"]
        },
        "createDescription": "Create a GitHub issue.",
        "unmatched": ["server", []]
      }
      """

  @mcp @CM-14.21 @CM-14.22 @CM-14.23 @checklist-10
  Scenario Outline: MCP server $api selects one tool by "<selector>"
    When a turn starts
    And the model calls exec with:
      """js
      const api = await MCP.github.$api("  <selector>  ");
      return {
        scope: api.scope,
        tools: api.tools.map((tool) => [tool.method, tool.path, tool.mcpTool, tool.operation]),
        hasSchemas: "schemas" in api,
        headerHasOtherTool: api.header.includes("function <other>("),
      };
      """
    Then the result value is:
      """json
      {"scope": "tool", "tools": [["<method>", <path>, "<mcpTool>", "<operation>"]], "hasSchemas": false, "headerHasOtherTool": false}
      """

    Examples:
      | selector       | method         | path                  | mcpTool        | operation      | other      |
      | create_issue   | createIssue    | ["createIssue"]       | create_issue   | tool           | listIssues |
      | listIssues     | listIssues     | ["listIssues"]        | list_issues    | tool           | createIssue |
      | resources.read | resources.read | ["resources", "read"] | resources_read | resources_read | createIssue |

  @mcp @CM-14.23 @CM-14.21
  Scenario: MCP server $api names the operation of tools and of every resource and prompt utility entry
    Given the MCP server "docs" with tools:
      """json
      [{"name": "lookup", "description": "Look up a document.", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "docs" also offers resources:
      """json
      [{"uri": "memo://one", "name": "one", "mimeType": "text/plain", "text": "first memo"}]
      """
    And the MCP server "docs" also offers prompts:
      """json
      [{"name": "brief", "description": "Release brief.", "arguments": [{"name": "topic", "required": true}], "text": "Write a brief."}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const api = await MCP.docs.$api();
      return Object.fromEntries(api.tools.map((tool) => [tool.method, [tool.path, tool.mcpTool, tool.operation]]));
      """
    Then the result value is:
      """json
      {
        "lookup": [["lookup"], "lookup", "tool"],
        "resources.list": [["resources", "list"], "resources_list", "resources_list"],
        "resources.read": [["resources", "read"], "resources_read", "resources_read"],
        "prompts.list": [["prompts", "list"], "prompts_list", "prompts_list"],
        "prompts.get": [["prompts", "get"], "prompts_get", "prompts_get"]
      }
      """
    And the tool "lookup" was not called

  @mcp @CM-14.21 @CM-14.22
  Scenario: MCP server $api returns input schemas only when options.schema is true
    When a turn starts
    And the model calls exec with:
      """js
      const withSchema = await MCP.github.$api("create_issue", { schema: true });
      const truthyOnly = await MCP.github.$api("create_issue", { schema: "yes" });
      return { scope: withSchema.scope, schemas: withSchema.schemas, truthyHasSchemas: "schemas" in truthyOnly };
      """
    Then the result value is:
      """json
      {
        "scope": "tool",
        "schemas": {
          "createIssue": {
            "type": "object",
            "required": ["owner", "repo", "title"],
            "properties": {
              "owner": {"type": "string", "description": "Repository owner"},
              "repo": {"type": "string", "description": "Repository name"},
              "title": {"type": "string", "description": "Issue title\nShown in tracker"},
              "body": {"type": "string", "default": ""}
            }
          }
        },
        "truthyHasSchemas": false
      }
      """

  @mcp @CM-14.26 @CM-14.27 @CM-10.25 @CM-10.26 @checklist-9
  Scenario: API.list returns the MCP declaration files with descriptions and UTF-8 sizes
    # The sizes are compared with the files' own contents (CM-14.27); the
    # texts themselves are the API.read scenarios' (CM-14.29, CM-14.30).
    When a turn starts
    And the model calls exec with:
      """js
      const utf8 = (s) => { let n = 0; for (const ch of s) { const c = ch.codePointAt(0); n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; } return n; };
      const view = async (prefix) => {
        const listed = prefix === undefined ? await API.list() : await API.list(prefix);
        const files = [];
        for (const f of listed.files) {
          const read = await API.read(f.path);
          files.push({ path: f.path, description: f.description, utf8Size: f.bytes === utf8(read.content) && f.bytes === read.bytes });
        }
        return files;
      };
      return { all: await view(), mcp: await view("mcp"), slash: await view("mcp/"), one: await view("mcp/github.d.ts"), partial: await view("mc") };
      """
    Then the result value is:
      """json
      {
        "all": [
          {"path": "mcp/index.d.ts", "description": "Root MCP namespace declaration and server list.", "utf8Size": true},
          {"path": "mcp/github.d.ts", "description": "MCP server declaration for github.", "utf8Size": true}
        ],
        "mcp": [
          {"path": "mcp/index.d.ts", "description": "Root MCP namespace declaration and server list.", "utf8Size": true},
          {"path": "mcp/github.d.ts", "description": "MCP server declaration for github.", "utf8Size": true}
        ],
        "slash": [
          {"path": "mcp/index.d.ts", "description": "Root MCP namespace declaration and server list.", "utf8Size": true},
          {"path": "mcp/github.d.ts", "description": "MCP server declaration for github.", "utf8Size": true}
        ],
        "one": [
          {"path": "mcp/github.d.ts", "description": "MCP server declaration for github.", "utf8Size": true}
        ],
        "partial": []
      }
      """

  @mcp @CM-14.29 @CM-10.27 @checklist-9
  Scenario: API.read returns the exact root declaration file mcp/index.d.ts
    When a turn starts
    And the model calls exec with:
      """js
      const file = await API.read("mcp/index.d.ts");
      return { path: file.path, description: file.description, bytes: file.bytes, frozen: Object.isFrozen(file), lines: file.content.split("\n") };
      """
    Then the result value is:
      """json
      {
        "path": "mcp/index.d.ts",
        "description": "Root MCP namespace declaration and server list.",
        "bytes": 267,
        "frozen": true,
        "lines": [
          "/// <reference path=\"./github.d.ts\" />",
          "",
          "type McpApiHeader = { header: string; servers?: unknown[] };",
          "",
          "declare const MCP: {",
          "  /** List visible MCP servers and request server-specific headers. */",
          "  $api(): Promise<McpApiHeader>;",
          "  readonly github: typeof MCP.github;",
          "};"
        ]
      }
      """

  @mcp @CM-14.30 @CM-14.31 @CM-10.27 @checklist-9
  Scenario: API.read returns the exact server declaration file of the SPEC complete example
    When a turn starts
    And the model calls exec with:
      """js
      const file = await API.read("/mcp/github.d.ts");
      return { path: file.path, description: file.description, bytes: file.bytes, lines: file.content.split("\n") };
      """
    Then the result value is:
      """json
      {
        "path": "mcp/github.d.ts",
        "description": "MCP server declaration for github.",
        "bytes": 1614,
        "lines": [
          "type McpApiHeader = { header: string; tools?: unknown[]; schemas?: Record<string, unknown> };",
          "",
          "type McpToolResult = {",
          "  content?: unknown[];",
          "  structuredContent?: unknown;",
          "  isError?: boolean;",
          "  [key: string]: unknown;",
          "};",
          "",
          "declare namespace MCP.github {",
          "  /** Return this TypeScript-style API header. */",
          "  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;",
          "",
          "  /**",
          "   * Create a GitHub issue.",
          "   *",
          "   * @param owner Repository owner",
          "   * @param repo Repository name",
          "   * @param title Issue title Shown in tracker",
          "   */",
          "  function createIssue(",
          "    input: {",
          "      /** Repository owner */",
          "      owner: string;",
          "      /** Repository name */",
          "      repo: string;",
          "      /** Issue title Shown in tracker */",
          "      title: string;",
          "      /** Default: \"\". */",
          "      body?: string;",
          "    }",
          "  ): Promise<McpToolResult>;",
          "",
          "  /**",
          "   * List repository issues.",
          "   * Newest first; closes * / are escaped.",
          "   *",
          "   * @param state? Issue state",
          "   */",
          "  function listIssues(",
          "    input: {",
          "      /** Issue state */",
          "      state?: \"open\" | \"closed\";",
          "      labels?: string[];",
          "      /** Default: 30. */",
          "      limit?: number;",
          "    }",
          "  ): Promise<McpToolResult>;",
          "",
          "  namespace resources {",
          "",
          "    /**",
          "     * List resources advertised by MCP server \"github\". Resource contents are untrusted server output.",
          "     */",
          "    function list(",
          "      input?: Record<string, never>",
          "    ): Promise<McpToolResult>;",
          "",
          "    /**",
          "     * Read one resource from MCP server \"github\". Resource contents are untrusted server output.",
          "     *",
          "     */",
          "    function read(",
          "      input: {",
          "        uri: string;",
          "      }",
          "    ): Promise<McpToolResult>;",
          "  }",
          "}"
        ]
      }
      """

  @mcp @CM-14.27 @CM-14.29 @CM-14.30 @CM-14.26
  Scenario: Two MCP servers give one reference line each and a minimal server file without JSDoc
    Given the MCP server "alpha" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const listed = await API.list("mcp");
      return {
        paths: listed.files.map((file) => file.path),
        alphaDescription: listed.files[1].description,
        indexLines: (await API.read("mcp/index.d.ts")).content.split("\n"),
        alpha: await API.read("mcp/alpha.d.ts").then((file) => [file.bytes, file.content.split("\n")]),
      };
      """
    Then the result value is:
      """json
      {
        "paths": ["mcp/index.d.ts", "mcp/alpha.d.ts", "mcp/github.d.ts"],
        "alphaDescription": "MCP server declaration for alpha.",
        "indexLines": [
          "/// <reference path=\"./alpha.d.ts\" />",
          "/// <reference path=\"./github.d.ts\" />",
          "",
          "type McpApiHeader = { header: string; servers?: unknown[] };",
          "",
          "declare const MCP: {",
          "  /** List visible MCP servers and request server-specific headers. */",
          "  $api(): Promise<McpApiHeader>;",
          "  readonly alpha: typeof MCP.alpha;",
          "  readonly github: typeof MCP.github;",
          "};"
        ],
        "alpha": [476, [
          "type McpApiHeader = { header: string; tools?: unknown[]; schemas?: Record<string, unknown> };",
          "",
          "type McpToolResult = {",
          "  content?: unknown[];",
          "  structuredContent?: unknown;",
          "  isError?: boolean;",
          "  [key: string]: unknown;",
          "};",
          "",
          "declare namespace MCP.alpha {",
          "  /** Return this TypeScript-style API header. */",
          "  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;",
          "",
          "  function ping(",
          "    input?: Record<string, never>",
          "  ): Promise<McpToolResult>;",
          "}"
        ]]
      }
      """

  @mcp @CM-14.25 @CM-14.24 @CM-10.29 @checklist-9
  Scenario: Reading MCP declarations and $api headers issues no bridge request and calls no MCP server
    When a turn starts
    And the model calls exec with:
      """js
      const files = await API.list("mcp");
      const header = await API.read("mcp/github.d.ts");
      const root = await MCP.$api();
      const server = await MCP.github.$api("list_issues", { schema: true });
      return [files.files.length, header.bytes > 0, root.servers.length, server.scope];
      """
    Then the result value is:
      """json
      [2, true, 1, "tool"]
      """
    And the telemetry includes:
      """json
      {"searchCount": 0, "describeCount": 0, "callCount": 0}
      """
    And the tool "list_issues" was not called
    And the tool "create_issue" was not called

  @mcp @CM-14.8 @CM-11.10 @CM-14.20
  Scenario: MCP server identifiers are sanitized, made unique and assigned in server order
    Given the MCP server "chrome-devtools" with tools:
      """json
      [{"name": "take_snapshot", "inputSchema": {"type": "object", "properties": {"output": {"type": "string"}}}}]
      """
    And the MCP server "my_server" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "my.server" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "constructor" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "class" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "json" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "___" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "9lives" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "Zv0.9az_A" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const root = await MCP.$api();
      await MCP.chromeDevtools.takeSnapshot({ output: "markdown" });
      await MCP.zv09azA.ping({});
      return {
        servers: root.servers.map((server) => [server.identifier, server.serverName, server.toolCount]),
        constructorIsServer: typeof MCP.constructor2.ping,
      };
      """
    Then the result value is:
      """json
      {
        "servers": [
          ["lives", "9lives", 1],
          ["zv09azA", "Zv0.9az_A", 1],
          ["server", "___", 1],
          ["chromeDevtools", "chrome-devtools", 1],
          ["class2", "class", 1],
          ["constructor2", "constructor", 1],
          ["github", "github", 4],
          ["json2", "json", 1],
          ["myServer", "my.server", 1],
          ["myServer2", "my_server", 1]
        ],
        "constructorIsServer": "function"
      }
      """
    And the tool "take_snapshot" was last called with:
      """json
      {"output": "markdown"}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "catalogId": "mcp:Zv0-9az_A:ping", "status": "ok"}]
      """

  @mcp @CM-14.8
  Scenario: An MCP server named my_server gets the identifier myServer
    Given the MCP server "my_server" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const root = await MCP.$api();
      return {
        servers: root.servers.map((server) => [server.identifier, server.serverName]),
        ping: typeof MCP.myServer.ping,
      };
      """
    Then the result value is:
      """json
      {"servers": [["github", "github"], ["myServer", "my_server"]], "ping": "function"}
      """

  @mcp @CM-14.9
  Scenario: MCP tool method identifiers avoid reserved words, forbidden segments and the $api/resources/prompts slots
    Given the MCP server "kit" with tools:
      """json
      [
        {"name": "!!!", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "$api", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "Tool", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "__proto__", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "delete", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "get-item", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "get_item", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "open_ticket", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "prototype", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "resources", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "text", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "zebra_AZ09az", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "0Zed", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "9Apple", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "alpha_zulu", "inputSchema": {"type": "object", "properties": {}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const api = await MCP.kit.$api();
      await MCP.kit.prototype2({});
      await MCP.kit.delete2({});
      return {
        methods: Object.fromEntries(api.tools.map((tool) => [tool.mcpTool, tool.method])),
        apiIsHelper: typeof MCP.kit.$api === "function" && MCP.kit.$api !== MCP.kit.api,
      };
      """
    Then the result value is:
      """json
      {
        "methods": {
          "!!!": "tool",
          "$api": "api",
          "Tool": "tool2",
          "__proto__": "proto",
          "delete": "delete2",
          "get-item": "getItem",
          "get_item": "getItem2",
          "open_ticket": "openTicket",
          "prototype": "prototype2",
          "resources": "resources2",
          "text": "text2",
          "zebra_AZ09az": "zebraAZ09az",
          "0Zed": "Zed",
          "9Apple": "Apple",
          "alpha_zulu": "alphaZulu"
        },
        "apiIsHelper": true
      }
      """
    And the tool "prototype" was called 1 times
    And the tool "delete" was called 1 times

  @mcp @CM-14.9
  Scenario: Each server starts its tool methods with the $api, resources and prompts slots taken
    Given the MCP server "kit" with tools:
      """json
      [
        {"name": "create_issue", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "prompts", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "resources", "inputSchema": {"type": "object", "properties": {}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const methods = async (server) => Object.fromEntries(
        (await MCP[server].$api()).tools.filter((tool) => tool.operation === "tool").map((tool) => [tool.mcpTool, tool.method]),
      );
      return { github: await methods("github"), kit: await methods("kit") };
      """
    Then the result value is:
      """json
      {
        "github": {"create_issue": "createIssue", "list_issues": "listIssues"},
        "kit": {"create_issue": "createIssue", "prompts": "prompts2", "resources": "resources2"}
      }
      """

  @mcp @CM-14.10 @CM-14.17 @CM-14.19 @CM-20.5
  Scenario: MCP resources and prompts are grouped under fixed paths and send the MCP methods
    Given the MCP server "docs" with tools:
      """json
      [{"name": "lookup", "description": "Look up a document.", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "docs" also offers resources:
      """json
      [{"uri": "memo://one", "name": "one", "mimeType": "text/plain", "text": "first memo"}]
      """
    And the MCP server "docs" also offers prompts:
      """json
      [{"name": "brief", "description": "Release brief.", "arguments": [{"name": "topic", "required": true}], "text": "Write a brief."}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const listed = await MCP.docs.resources.list();
      const read = await MCP.docs.resources.read({ uri: "memo://one" });
      const prompts = await MCP.docs.prompts.list();
      const prompt = await MCP.docs.prompts.get({ name: "brief", arguments: { topic: "release" } });
      return {
        paths: [typeof MCP.docs.resources.list, typeof MCP.docs.resources.read, typeof MCP.docs.prompts.list, typeof MCP.docs.prompts.get],
        resourceUris: listed.resources.map((resource) => resource.uri),
        readText: read.contents.map((content) => content.text),
        promptNames: prompts.prompts.map((entry) => entry.name),
        promptHasMessages: Array.isArray(prompt.messages),
      };
      """
    Then the result value is:
      """json
      {
        "paths": ["function", "function", "function", "function"],
        "resourceUris": ["memo://one"],
        "readText": ["first memo"],
        "promptNames": ["brief"],
        "promptHasMessages": true
      }
      """
    And the telemetry includes:
      """json
      {"callCount": 4}
      """
    And the tool "lookup" was not called

  @mcp @CM-14.11 @CM-10.4
  Scenario: The MCP namespace objects are frozen and expose $api at the root and per server
    When a turn starts
    And the model calls exec with:
      """js
      const reassigned = (() => {
        "use strict";
        try {
          MCP.github.createIssue = null;
          return "assigned";
        } catch (error) {
          return error.name;
        }
      })();
      return {
        mcpFrozen: Object.isFrozen(MCP),
        serverFrozen: Object.isFrozen(MCP.github),
        groupFrozen: Object.isFrozen(MCP.github.resources),
        rootApi: typeof MCP.$api,
        serverApi: typeof MCP.github.$api,
        hasPrompts: "prompts" in MCP.github,
        methods: [typeof MCP.github.createIssue, typeof MCP.github.listIssues, typeof MCP.github.resources.read],
        reassigned,
      };
      """
    Then the result value is:
      """json
      {
        "mcpFrozen": true,
        "serverFrozen": true,
        "groupFrozen": true,
        "rootApi": "function",
        "serverApi": "function",
        "hasPrompts": false,
        "methods": ["function", "function", "function"],
        "reassigned": "TypeError"
      }
      """

  @mcp @CM-14.13 @checklist-11
  Scenario: MCP namespace calls fill schema defaults for absent and undefined properties
    When a turn starts
    And the model calls exec with:
      """js
      const created = await MCP.github.createIssue({ owner: "openclaw", repo: "openclaw", title: "Investigate gateway logs" });
      const listed = await MCP.github.listIssues({ state: "open", limit: undefined });
      return [typeof created, typeof listed];
      """
    Then the result value is:
      """json
      ["object", "object"]
      """
    And the tool "create_issue" was last called with:
      """json
      {"owner": "openclaw", "repo": "openclaw", "title": "Investigate gateway logs", "body": ""}
      """
    And the tool "list_issues" was last called with:
      """json
      {"state": "open", "limit": 30}
      """
    When the model calls exec with:
      """js
      return typeof (await MCP.github.listIssues());
      """
    Then the result value is:
      """json
      "object"
      """
    And the tool "list_issues" was last called with:
      """json
      {"limit": 30}
      """

  @mcp @CM-14.14 @CM-10.31
  Scenario: Missing required MCP arguments are rejected by name in required order
    When a turn starts
    And the model calls exec with:
      """js
      const attempts = {
        none: () => MCP.github.createIssue(),
        owner: () => MCP.github.createIssue({ owner: "o" }),
        undefinedTitle: () => MCP.github.createIssue({ owner: "o", repo: "r", title: undefined }),
        uri: () => MCP.github.resources.read({}),
      };
      const outcomes = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        outcomes[name] = await Promise.resolve().then(attempt).then(() => "called", (error) => error.message);
      }
      return outcomes;
      """
    Then the result value is:
      """json
      {
        "none": "Missing required MCP namespace arguments: owner, repo, title",
        "owner": "Missing required MCP namespace arguments: repo, title",
        "undefinedTitle": "Missing required MCP namespace argument: title",
        "uri": "Missing required MCP namespace argument: uri"
      }
      """
    And the tool "create_issue" was not called

  @mcp @CM-14.12 @checklist-11
  Scenario: MCP namespace tools accept at most one argument, which must be an object
    When a turn starts
    And the model calls exec with:
      """js
      const attempts = {
        twoObjects: () => MCP.github.listIssues({}, {}),
        objectAndString: () => MCP.github.listIssues({ state: "open" }, "and"),
        string: () => MCP.github.listIssues("open"),
        number: () => MCP.github.listIssues(7),
        boolean: () => MCP.github.listIssues(true),
      };
      const outcomes = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        outcomes[name] = await Promise.resolve().then(attempt).then(() => "called", (error) => error.message);
      }
      return outcomes;
      """
    Then the result value is:
      """json
      {
        "twoObjects": "MCP namespace tools accept one object argument.",
        "objectAndString": "MCP namespace tools accept one object argument.",
        "string": "MCP namespace tools accept one object argument.",
        "number": "MCP namespace tools accept one object argument.",
        "boolean": "MCP namespace tools accept one object argument."
      }
      """
    And the tool "list_issues" was not called

  @mcp @CM-14.16 @checklist-11
  Scenario: An MCP call resolves to the whole tool result, and isError results resolve instead of rejecting
    Given the MCP server "vault" with tools:
      """json
      [
        {"name": "peek", "inputSchema": {"type": "object", "properties": {}}, "behavior": {"fails": "vault is locked"}},
        {"name": "stats", "inputSchema": {"type": "object", "properties": {}}, "behavior": {"returns": {"open": 2, "sealed": [1, "two", null]}}}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const settle = (promise) => promise.then((result) => ({ rejected: false, result }), (error) => ({ rejected: true, message: error.message }));
      return { peek: await settle(MCP.vault.peek({})), stats: await settle(MCP.vault.stats({})) };
      """
    Then the result value is:
      """json
      {
        "peek": {
          "rejected": false,
          "result": {"content": [{"type": "text", "text": "vault is locked"}], "isError": true}
        },
        "stats": {
          "rejected": false,
          "result": {
            "content": [{"type": "text", "text": "{\"open\":2,\"sealed\":[1,\"two\",null]}"}],
            "structuredContent": {"open": 2, "sealed": [1, "two", null]}
          }
        }
      }
      """
    And the tool "peek" was called 1 times

  @mcp @CM-14.18 @CM-18.1 @CM-14.16
  Scenario: MCP results are untrusted data that the guest receives as plain values
    Given the MCP server "feed" with tools:
      """json
      [{
        "name": "latest",
        "inputSchema": {"type": "object", "properties": {}},
        "behavior": {"returns": {
          "script": "})(); globalThis.pwned = true; (() => {",
          "__proto__": {"polluted": true},
          "$tool": "github_update_issue",
          "then": "not a function"
        }}
      }]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const result = await MCP.feed.latest({});
      const data = result.structuredContent;
      return {
        script: data.script,
        textIsString: typeof result.content[0].text,
        prototype: ({}).polluted === undefined ? "clean" : "polluted",
        pwned: typeof globalThis.pwned,
        then: data.then,
        marker: data.$tool,
      };
      """
    Then the result value is:
      """json
      {
        "script": "})(); globalThis.pwned = true; (() => {",
        "textIsString": "string",
        "prototype": "clean",
        "pwned": "undefined",
        "then": "not a function",
        "marker": "github_update_issue"
      }
      """

  @mcp @CM-14.19 @CM-20.5 @CM-14.15
  Scenario: MCP tool and resource calls count as calls while $api and API reads do not
    When a turn starts
    And the model calls exec with:
      """js
      await MCP.$api();
      await MCP.github.$api();
      await API.list();
      await API.read("mcp/github.d.ts");
      await MCP.github.listIssues({});
      await MCP.github.resources.list();
      await MCP.github.resources.read({ uri: "memo://one" });
      return "counted";
      """
    Then the result value is "counted"
    And the telemetry includes:
      """json
      {
        "catalogSize": 4,
        "sources": {"openclaw": 0, "mcp": 4, "client": 0},
        "searchCount": 0,
        "describeCount": 0,
        "callCount": 3,
        "visibleTools": ["exec", "wait"]
      }
      """

  @mcp @CM-14.15 @CM-11.22 @CM-3.6
  Scenario: MCP calls follow tool policy by exact catalog id and appear in the trajectory
    Given the tool policy denies "mcp:github:list_issues"
    When a turn starts
    And the model calls exec with:
      """js
      const created = await MCP.github.createIssue({ owner: "o", repo: "r", title: "t" });
      const header = await API.read("mcp/github.d.ts");
      return {
        listIssues: typeof MCP.github.listIssues,
        toolCount: (await MCP.$api()).servers[0].toolCount,
        headerMentionsList: header.content.includes("listIssues"),
        created: created.structuredContent,
      };
      """
    Then the result value is:
      """json
      {"listIssues": "undefined", "toolCount": 3, "headerMentionsList": false, "created": {"number": 7}}
      """
    And the tool "list_issues" was not called
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "toolKind": "code_mode_exec", "status": "ok"},
        {"type": "tool_call", "catalogId": "mcp:github:create_issue", "parentToolCallId": "<string>", "status": "ok"}
      ]
      """

  @mcp @CM-14.15 @CM-14.26 @CM-3.6 @CM-10.5
  Scenario: Denying bundle-mcp leaves an empty MCP namespace and no declaration files
    Given the catalog "basic"
    And the tool policy denies "bundle-mcp"
    When a turn starts
    And the model calls exec with:
      """js
      return { own: Object.getOwnPropertyNames(MCP), frozen: Object.isFrozen(MCP), files: (await API.list()).files };
      """
    Then the result value is:
      """json
      {"own": [], "frozen": true, "files": []}
      """
    And the exec description does not contain "MCP namespace globals are available in code mode:"
    And the telemetry includes:
      """json
      {"catalogSize": 4, "sources": {"openclaw": 3, "mcp": 0, "client": 1}}
      """

  @mcp @CM-11.21 @CM-10.22 @CM-12.9 @checklist-11
  Scenario: MCP entries are absent from ALL_TOOLS and unknown to the tools helpers
    When a turn starts
    And the model calls exec with:
      """js
      const attempts = {};
      for (const id of ["mcp:github:create_issue", "github__create_issue", "create_issue"]) {
        try {
          await tools.callValue(id, {});
          attempts[id] = "called";
        } catch (error) {
          attempts[id] = error.message;
        }
      }
      return {
        allTools: ALL_TOOLS.length,
        search: await tools.search("github create issue"),
        describe: await tools.describe("mcp:github:create_issue").then(() => "described", (error) => error.message),
        attempts,
      };
      """
    Then the result value is:
      """json
      {
        "allTools": 0,
        "search": [],
        "describe": "Unknown tool id: mcp:github:create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "attempts": {
          "mcp:github:create_issue": "Unknown tool id: mcp:github:create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "github__create_issue": "Unknown tool id: github__create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
          "create_issue": "Unknown tool id: create_issue. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
        }
      }
      """
    And the tool "create_issue" was not called

  @mcp @CM-14.30
  Scenario: An enum declares the union of its string, number and boolean members and leaves the others out
    Given the MCP server "flags" with tools:
      """json
      [{
        "name": "set_flags",
        "inputSchema": {
          "type": "object",
          "properties": {
            "on": {"enum": [true, false]},
            "level": {"enum": ["low", null, 2, {"x": 1}, ["y"]]},
            "none": {"type": "string", "enum": [null, {"x": 1}]}
          }
        }
      }]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const lines = (await API.read("mcp/flags.d.ts")).content.split("\n");
      return lines.filter((line) => line.startsWith("      ") && line.includes("?:"));
      """
    Then the result value is:
      """json
      [
        "      on?: true | false;",
        "      level?: \"low\" | 2;",
        "      none?: string;"
      ]
      """

  @mcp @CM-14.31 @CM-14.30
  Scenario: A hostile MCP schema renders a bounded, escaped declaration file
    Given the MCP server "hostile" with tools:
      """json
      [{
        "name": "evil",
        "description": "  Line one */ end  \n\n   line2\nline3\nline4\nline5\nline6\nline7\nline8\nline9\nline10\nline11\nline12\nline13 is dropped\n",
        "inputSchema": {
          "type": "object",
          "required": ["x-y"],
          "properties": {
            "x-y": {"type": "string"},
            "ref": {"$ref": "#/$defs/thing", "description": "Linked */ thing"},
            "big": {
              "type": "string",
              "enum": [
                  "axxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "bxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "cxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "dxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "exxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "fxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "gxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "hxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "ixxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "jxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "lxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "mxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "oxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                  "pxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
              ]
            }
          }
        }
      }]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return (await API.read("mcp/hostile.d.ts")).content.split("\n");
      """
    Then the result value is:
      """json
      [
        "type McpApiHeader = { header: string; tools?: unknown[]; schemas?: Record<string, unknown> };",
        "",
        "type McpToolResult = {",
        "  content?: unknown[];",
        "  structuredContent?: unknown;",
        "  isError?: boolean;",
        "  [key: string]: unknown;",
        "};",
        "",
        "declare namespace MCP.hostile {",
        "  /** Return this TypeScript-style API header. */",
        "  function $api(toolName?: string, options?: { schema?: boolean }): Promise<McpApiHeader>;",
        "",
        "  /**",
        "   * Line one * / end",
        "   * line2",
        "   * line3",
        "   * line4",
        "   * line5",
        "   * line6",
        "   * line7",
        "   * line8",
        "   * line9",
        "   * line10",
        "   * line11",
        "   * line12",
        "   *",
        "   * @param ref? Linked * / thing",
        "   */",
        "  function evil(",
        "    input: {",
        "      \"x-y\": string;",
        "      /** Linked * / thing */",
        "      ref?: unknown;",
        "      big?: unknown;",
        "    }",
        "  ): Promise<McpToolResult>;",
        "}"
      ]
      """

  @mcp @CM-14.31
  Scenario: A schema nested deeper than eight levels renders unknown instead of its leaf type
    Given the MCP server "deep" with tools:
      """json
      [{
        "name": "nest",
        "inputSchema": {"type": "object", "properties": {
          "deep": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "object", "properties": {"a": {"type": "boolean"}}}}}}}}}}}}}}}}}}}}}}}}},
          "flag": {"type": "boolean"}
        }}
      }]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const lines = (await API.read("mcp/deep.d.ts")).content.split("\n");
      const deepLine = lines.find((line) => line.includes("deep?:"));
      return { unknownInside: deepLine.includes("unknown"), leafRendered: deepLine.includes("boolean"), flag: lines.includes("      flag?: boolean;") };
      """
    Then the result value is:
      """json
      {"unknownInside": true, "leafRendered": false, "flag": true}
      """

  @mcp @CM-14.15 @CM-8.12 @CM-14.16
  Scenario: A pending MCP call is a namespace bridge request that wait resumes
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2000}
      """
    And the tool "list_issues" is held until released
    When a turn starts
    And the model calls exec with:
      """js
      const listed = await MCP.github.listIssues({ state: "open" });
      return listed.structuredContent;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:namespace:1", "method": "namespace"}]
      """
    When the tool "list_issues" is released
    And the model calls wait
    Then the result value is:
      """json
      {"count": 2}
      """

  @mcp @CM-14.21 @CM-14.22
  Scenario: MCP server $api with an empty or blank selector describes every entry of the server
    When a turn starts
    And the model calls exec with:
      """js
      const view = async (...args) => {
        const api = await MCP.github.$api(...args);
        return [api.scope, api.tools.map((tool) => tool.method).sort()];
      };
      return { empty: await view(""), blank: await view("   "), undefinedSelector: await view(undefined, { schema: false }) };
      """
    Then the result value is:
      """json
      {
        "empty": ["server", ["createIssue", "listIssues", "resources.list", "resources.read"]],
        "blank": ["server", ["createIssue", "listIssues", "resources.list", "resources.read"]],
        "undefinedSelector": ["server", ["createIssue", "listIssues", "resources.list", "resources.read"]]
      }
      """
    And the tool "create_issue" was not called

  @mcp @CM-14.14 @CM-14.13
  Scenario: A required MCP argument with a schema default is filled in instead of rejected
    Given the MCP server "pager" with tools:
      """json
      [{
        "name": "fetch_page",
        "inputSchema": {
          "type": "object",
          "required": ["size", "cursor"],
          "properties": {"size": {"type": "integer", "default": 20}, "cursor": {"type": "string"}}
        }
      }]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const missing = await MCP.pager.fetchPage({ size: undefined }).then(() => "called", (error) => error.message);
      await MCP.pager.fetchPage({ cursor: "c1" });
      return missing;
      """
    Then the result value is "Missing required MCP namespace argument: cursor"
    And the tool "fetch_page" was called 1 times
    And the tool "fetch_page" was last called with:
      """json
      {"size": 20, "cursor": "c1"}
      """

  @mcp @CM-14.15 @CM-16.6 @CM-14.16
  Scenario: A before_tool_call hook blocks an MCP call by its catalog name like every nested call
    Given the before_tool_call hook blocks "github__create_issue" with "issues are read-only today"
    When a turn starts
    And the model calls exec with:
      """js
      const created = await MCP.github.createIssue({ owner: "o", repo: "r", title: "t" }).then(() => "ran", (error) => error.message);
      const listed = await MCP.github.listIssues({});
      return [created, listed.structuredContent];
      """
    Then the result value is:
      """json
      ["issues are read-only today", {"count": 2}]
      """
    And the tool "create_issue" was not called
    And the hook saw an event including:
      """json
      {"toolName": "github__create_issue", "params": {"owner": "o", "repo": "r", "title": "t", "body": ""}}
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "catalogId": "mcp:github:create_issue", "parentToolCallId": "<string>", "status": "blocked"},
        {"type": "tool_call", "catalogId": "mcp:github:list_issues", "parentToolCallId": "<string>", "status": "ok"}
      ]
      """

  @mcp @CM-14.15 @CM-11.22 @CM-16.5
  Scenario: An approval-gated MCP tool waits for approval like every nested call: denied it does not run, granted it does
    Given the tool "create_issue" requires approval
    And approval for "github__create_issue" is denied
    When a turn starts
    And the model calls exec with:
      """js
      return await MCP.github.createIssue({ owner: "o", repo: "r", title: "t" }).then(() => "ran", (error) => error.message);
      """
    Then the result value is "Tool call denied: mcp:github:create_issue."
    And the tool "create_issue" was not called
    Given approval for "github__create_issue" is granted
    When a turn starts
    And the model calls exec with:
      """js
      return await MCP.github.createIssue({ owner: "o", repo: "r", title: "t" }).then(() => "ran", (error) => error.message);
      """
    Then the result value is "ran"
    And the tool "create_issue" was called 1 times

  @mcp @CM-14.15 @CM-8.38
  Scenario: Aborting the agent run ends a cell waiting on an MCP call and cancels the call
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 10000}
      """
    And the tool "list_issues" is held until released
    And a turn starts
    And the turn will be aborted once a call of the tool "list_issues" is held
    When the model calls exec with:
      """js
      const listed = await MCP.github.listIssues({ state: "open" });
      return listed.structuredContent;
      """
    Then the result fails with code "timeout"
    And the result error is "code mode execution aborted"
    And the result failure phase is "bridge"
    And the held calls of the tool "list_issues" are cancelled
    When the tool "list_issues" is released
    And 100 ms pass
    Then the tool "list_issues" was not called

  @mcp @CM-14.26 @CM-14.27
  Scenario: A server file is named by the server identifier and described by the configured server name
    Given the MCP server "my_server" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const listed = await API.list("mcp");
      return {
        files: listed.files.map((file) => [file.path, file.description]),
        declares: (await API.read("mcp/myServer.d.ts")).content.includes("declare namespace MCP.myServer {"),
      };
      """
    Then the result value is:
      """json
      {
        "files": [
          ["mcp/index.d.ts", "Root MCP namespace declaration and server list."],
          ["mcp/github.d.ts", "MCP server declaration for github."],
          ["mcp/myServer.d.ts", "MCP server declaration for my_server."]
        ],
        "declares": true
      }
      """
