Feature: Guest runtime API
  SPEC.md chapter 10: the guest globals, the catalog helpers and their lookup
  rule, output and virtual files, host errors, time and randomness.

  Background:
    Given code mode is enabled

  # 10.1 Globals

  @core @CM-10.1
  Scenario: the guest global object defines the code-mode globals and no Swarm globals
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const present = ["ALL_TOOLS", "tools", "MCP", "namespaces", "API", "text", "json", "yield_control"];
      return {
        present: present.map((name) => [name, typeof globalThis[name]]),
        absent: ["agents", "phase", "log", "nodes", "skills"].filter((name) => name in globalThis),
      };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {
        "present": [
          ["ALL_TOOLS", "object"],
          ["tools", "object"],
          ["MCP", "object"],
          ["namespaces", "object"],
          ["API", "object"],
          ["text", "function"],
          ["json", "function"],
          ["yield_control", "function"]
        ],
        "absent": []
      }
      """

  @core @CM-10.2
  Scenario: the code-mode globals are non-writable and non-configurable
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const names = ["ALL_TOOLS", "tools", "MCP", "namespaces", "API", "text", "json", "yield_control"];
      const flags = names.map((name) => {
        const d = Object.getOwnPropertyDescriptor(globalThis, name);
        return d !== undefined && d.writable === false && d.configurable === false;
      });
      try { tools = null; } catch (e) { /* strict mode throws */ }
      try { delete globalThis.ALL_TOOLS; } catch (e) { /* strict mode throws */ }
      return { flags, toolsKept: typeof tools, allToolsKept: Array.isArray(ALL_TOOLS) };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"flags": [true, true, true, true, true, true, true, true], "toolsKept": "object", "allToolsKept": true}
      """

  @core @CM-10.3 @CM-10.4 @CM-10.5 @checklist-5
  Scenario: ALL_TOOLS is a frozen array of frozen compact entries in catalog order
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      return {
        frozen: [
          Array.isArray(ALL_TOOLS),
          Object.isFrozen(ALL_TOOLS),
          ALL_TOOLS.every((entry) => Object.isFrozen(entry)),
          Object.isFrozen(tools),
          Object.isFrozen(namespaces),
          Object.isFrozen(API),
          Object.isFrozen(MCP),
          Reflect.ownKeys(MCP).length,
        ],
        entries: ALL_TOOLS,
      };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {
        "frozen": [true, true, true, true, true, true, true, 0],
        "entries": [
          {"id": "openclaw:core:read", "name": "read", "label": "Read", "description": "Read a text file from the workspace.", "source": "openclaw", "input": "{ path: string; limit?: number; offset?: number }", "output": "{ content: string; kind: \"text\" }"},
          {"id": "openclaw:core:weather", "name": "weather", "description": "Current weather and forecast for a city.", "source": "openclaw", "input": "{ city: string }"},
          {"id": "openclaw:shipping:shipping_list", "name": "shipping_list", "description": "List shipments.", "source": "openclaw", "sourceName": "shipping", "input": "{}", "output": "Array<{ id: string; paid: boolean; tons: number }>"},
          {"id": "client:app:select_file", "name": "select_file", "description": "Ask the user to pick a file.", "source": "client", "sourceName": "app", "input": "unknown"}
        ]
      }
      """

  @security @CM-10.6 @CM-10.7 @SB-01 @checklist-17
  Scenario: the guest global object has no host, module, network, timer or bridge globals
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const forbidden = [
        "console", "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate",
        "require", "module", "exports", "process", "fetch", "XMLHttpRequest", "WebSocket", "WebAssembly",
        "Deno", "Bun", "std", "os",
      ];
      return {
        present: forbidden.filter((name) => typeof globalThis[name] !== "undefined"),
        bridge: Object.getOwnPropertyNames(globalThis).filter((name) => name.startsWith("__openclaw")),
      };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"present": [], "bridge": []}
      """

  @security @CM-10.8 @CM-18.14 @SB-15
  Scenario: globals and prototypes changed by one exec are not visible to the next exec
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      Object.prototype.polluted = "yes";
      Array.prototype.extra = function () { return "extra"; };
      globalThis.leaked = 42;
      return ({}).polluted;
      """
    Then the result value is "yes"
    When the model calls exec with:
      """js
      return [({}).polluted ?? null, typeof [].extra, typeof globalThis.leaked];
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [null, "undefined", "undefined"]
      """

  # 10.2 Catalog helpers

  @core @CM-10.9 @CM-10.10 @CM-12.10 @CM-10.31
  Scenario: tools.search rejects a query that is not a string and a limit that is not a positive integer
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const attempts = [
        () => tools.search(42),
        () => tools.search(undefined),
        () => tools.search("weather", { limit: 0 }),
        () => tools.search("weather", { limit: 1.5 }),
        () => tools.search("weather", { limit: "2" }),
        () => tools.search("weather", { limit: -1 }),
      ];
      const out = [];
      for (const attempt of attempts) {
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
      [
        "search query must be a string.",
        "search query must be a string.",
        "limit must be a positive integer.",
        "limit must be a positive integer.",
        "limit must be a positive integer.",
        "limit must be a positive integer."
      ]
      """
    And the telemetry includes:
      """json
      {"searchCount": 0}
      """

  @core @CM-10.11 @CM-2.8
  Scenario Outline: tools.search uses searchDefaultLimit and caps a given limit at maxSearchLimit: <config>
    Given code mode is configured as:
      """json
      <config>
      """
    And the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const query = "read weather shipments file";
      const byDefault = await tools.search(query);
      const one = await tools.search(query, { limit: 1 });
      const many = await tools.search(query, { limit: 10 });
      return [byDefault.length, one.length, many.length];
      """
    Then the result status is "completed"
    And the result value is <lengths>

    Examples:
      | config                                       | lengths |
      | {"enabled": true, "searchDefaultLimit": 3}   | [3,1,4] |
      | {"enabled": true, "maxSearchLimit": 2}       | [2,1,2] |

  @core @CM-10.12 @CM-10.13 @CM-10.14
  Scenario: describe, call and callValue reject an id that is not a string
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const attempts = [
        () => tools.describe(5),
        () => tools.call(null, { city: "Oslo" }),
        () => tools.callValue({ id: "openclaw:core:weather" }, { city: "Oslo" }),
      ];
      const out = [];
      for (const attempt of attempts) {
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
      ["describe id must be a string.", "call id must be a string.", "callValue id must be a string."]
      """
    And the tool "weather" was not called

  @core @CM-10.12 @CM-10.15 @CM-11.20
  Scenario: tools.describe returns the compact entry with its parameters and trusted output schema
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      return [await tools.describe("openclaw:core:read"), await tools.describe(" select_file ")];
      """
    Then the result status is "completed"
    And the result value is:
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
          "id": "client:app:select_file",
          "name": "select_file",
          "description": "Ask the user to pick a file.",
          "source": "client",
          "sourceName": "app",
          "input": "unknown",
          "parameters": {"type": "object", "properties": {"prompt": {"type": "string"}}}
        }
      ]
      """

  @core @CM-10.15 @checklist-8
  Scenario: the lookup rule accepts an exact id or a unique name, trimmed
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const a = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      const b = await tools.callValue("weather", { city: "Oslo" });
      const c = await tools.callValue("  openclaw:core:weather\n", { city: "Oslo" });
      const d = await tools.describe("\tweather ");
      return [a.temp, b.temp, c.temp, d.id];
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [21, 21, 21, "openclaw:core:weather"]
      """
    And the tool "weather" was called 3 times

  @core @CM-10.16 @CM-10.17 @CM-10.18
  Scenario: a name shared by two tools is ambiguous and suggestions name their ids
    Given the tools:
      """json
      [
        {"name": "lookup", "source": "plugin", "owner": "alpha", "description": "Alpha lookup.", "behavior": {"returns": {"owner": "alpha"}}},
        {"name": "lookup", "source": "plugin", "owner": "beta", "description": "Beta lookup.", "behavior": {"returns": {"owner": "beta"}}}
      ]
      """
    And a turn starts
    When the model calls exec with:
      """js
      const out = [];
      for (const attempt of [() => tools.callValue("lookup", {}), () => tools.describe("lookup"), () => tools.call("lookup_item", {})]) {
        try {
          await attempt();
          out.push("resolved");
        } catch (error) {
          out.push(error.message);
        }
      }
      out.push((await tools.callValue("openclaw:beta:lookup", {})).owner);
      return out;
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [
        "Ambiguous tool name: lookup; use an exact tool id.",
        "Ambiguous tool name: lookup; use an exact tool id.",
        "Unknown tool id: lookup_item. Did you mean: openclaw:alpha:lookup, openclaw:beta:lookup? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "beta"
      ]
      """
    And the tool "lookup" was called 1 time

  @core @CM-10.17 @CM-10.18
  Scenario: an unknown tool id suggests the closest tool name
    Given the tools:
      """json
      [
        {"name": "write", "description": "Write text to a file."},
        {"name": "weather", "description": "Current weather for a city."}
      ]
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.call("file_write", { path: "notes.txt" });
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "Unknown tool id: file_write. Did you mean: write? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
    And the tool "write" was not called

  @core @CM-10.18
  Scenario: unknown tool id suggestions are capped at three and ordered by score then name
    Given the tools:
      """json
      [
        {"name": "note_read", "description": "Notes."},
        {"name": "note_write", "description": "Notes."},
        {"name": "note_list", "description": "Notes."},
        {"name": "note_delete", "description": "Notes."}
      ]
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("note", {});
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "Unknown tool id: note. Did you mean: note_delete, note_list, note_read? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."

  @core @CM-10.18
  Scenario: unknown tool id suggestions name a suggestion value only once
    # The core tool a shares its name, so it is suggested by its id, which is
    # also the unique name of the third tool: one suggestion stands for both.
    Given the tools:
      """json
      [
        {"name": "a", "description": "First tool."},
        {"name": "a", "source": "plugin", "owner": "p", "description": "Second tool."},
        {"name": "openclaw:core:a", "description": "Third tool."}
      ]
      """
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("openclaw:core", {});
        return "resolved";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "Unknown tool id: openclaw:core. Did you mean: openclaw:core:a, openclaw:p:a? Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."

  @core @CM-10.17 @CM-10.30 @CM-10.31 @CM-19.3
  Scenario: an unknown tool id without suggestions reaches the guest as a plain catchable Error
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("no_such_tool", {});
        return "resolved";
      } catch (error) {
        return [error.message, error instanceof Error, error.name];
      }
      """
    Then the result status is "completed"
    And the result value is:
      """json
      ["Unknown tool id: no_such_tool. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.", true, "Error"]
      """

  @core @CM-10.19 @CM-10.20 @CM-10.15 @checklist-8
  Scenario: tools.call preserves the tool envelope and tools.callValue returns the details
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const call = await tools.call("weather", { city: "Oslo" });
      const value = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return { call, value };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {
        "call": {
          "tool": {"id": "openclaw:core:weather", "name": "weather", "description": "Current weather and forecast for a city.", "source": "openclaw", "input": "{ city: string }"},
          "result": {
            "content": [{"type": "text", "text": "{\"city\":\"Oslo\",\"temp\":21,\"sky\":\"clear\"}"}],
            "details": {"city": "Oslo", "temp": 21, "sky": "clear"}
          }
        },
        "value": {"city": "Oslo", "temp": 21, "sky": "clear"}
      }
      """

  @core @CM-10.19 @CM-10.20
  Scenario: tools.callValue returns the whole tool result when the tool gives no details
    Given the catalog "basic"
    And the tool "weather" returns the text "sunny"
    And a turn starts
    When the model calls exec with:
      """js
      const call = await tools.call("weather", { city: "Oslo" });
      const value = await tools.callValue("weather", { city: "Oslo" });
      return { result: call.result, value };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {
        "result": {"content": [{"type": "text", "text": "sunny"}]},
        "value": {"content": [{"type": "text", "text": "sunny"}]}
      }
      """

  @core @CM-10.21
  Scenario: an omitted or undefined tool input is sent as an empty object
    Given the tool:
      """json
      {"name": "echo_input", "description": "Echo the input.", "behavior": {"echo": true}}
      """
    And a turn starts
    When the model calls exec with:
      """js
      return [
        await tools.callValue("echo_input"),
        await tools.callValue("echo_input", undefined),
        await tools.echo_input(),
      ];
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [{}, {}, {}]
      """
    And the tool "echo_input" was called 3 times

  @mcp @CM-10.22 @CM-10.3 @CM-11.21 @checklist-11
  Scenario: MCP catalog entries are unknown to the tools helpers
    Given the MCP server "docs" with tools:
      """json
      [{"name": "search_docs", "description": "Search the documentation."}]
      """
    And a turn starts
    When the model calls exec with:
      """js
      const out = [ALL_TOOLS.length];
      for (const id of ["mcp:docs:search_docs", "docs__search_docs"]) {
        try {
          await tools.callValue(id, {});
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
      [
        0,
        "Unknown tool id: mcp:docs:search_docs. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "Unknown tool id: docs__search_docs. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
      ]
      """
    And the tool "search_docs" was not called

  # 10.4 Output, yield and virtual files

  @core @CM-10.25 @CM-10.28 @CM-10.29 @CM-10.31
  Scenario: API.list and API.read work inside the VM without any bridge request
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      json(await API.list());
      const errors = [];
      for (const path of ["../secrets", "mcp/./index.d.ts", "mcp//index.d.ts", "", "mcp/index.d.ts"]) {
        try {
          await API.read(path);
          errors.push("resolved");
        } catch (error) {
          errors.push(error.message);
        }
      }
      json(errors);
      throw new Error("stop");
      """
    Then the result fails with code "internal_error"
    And the result failure phase is "guest"
    And the result includes:
      """json
      {
        "bridgeDispatchStarted": false,
        "output": [
          {"type": "json", "value": {"files": []}},
          {"type": "json", "value": ["invalid API file path", "invalid API file path", "invalid API file path", "invalid API file path", "Unknown API file: mcp/index.d.ts"]}
        ]
      }
      """
    And the telemetry includes:
      """json
      {"searchCount": 0, "describeCount": 0, "callCount": 0}
      """

  @mcp @CM-10.25 @CM-10.26 @CM-10.27 @CM-10.4 @CM-10.29
  Scenario: API.list filters virtual files by prefix and API.read returns a frozen file
    Given the MCP server "docs" with tools:
      """json
      [{"name": "search_docs", "description": "Sök i dokumentationen ☃."}]
      """
    And a turn starts
    When the model calls exec with:
      """js
      const utf8 = (s) => {
        let n = 0;
        for (const ch of s) {
          const c = ch.codePointAt(0);
          n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        }
        return n;
      };
      const all = await API.list();
      const slash = await API.list("mcp/");
      const one = await API.list("mcp/docs.d.ts");
      const none = await API.list("mc");
      const root = await API.read("/mcp/index.d.ts");
      const server = await API.read("mcp/docs.d.ts");
      return {
        all: all.files.map((file) => [file.path, file.description]),
        slashSame: JSON.stringify(slash) === JSON.stringify(all),
        one: one.files.map((file) => file.path),
        none: none.files.length,
        root: [root.path, root.bytes, Object.isFrozen(root), all.files[0].bytes],
        serverBytes: [server.bytes === utf8(server.content), server.bytes > server.content.length, all.files[1].bytes === server.bytes],
        frozenServer: Object.isFrozen(MCP.docs),
      };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {
        "all": [
          ["mcp/index.d.ts", "Root MCP namespace declaration and server list."],
          ["mcp/docs.d.ts", "MCP server declaration for docs."]
        ],
        "slashSame": true,
        "one": ["mcp/docs.d.ts"],
        "none": 0,
        "root": ["mcp/index.d.ts", 261, true, 261],
        "serverBytes": [true, true, true],
        "frozenServer": true
      }
      """
    And the telemetry includes:
      """json
      {"callCount": 0}
      """

  @mcp @CM-10.25
  Scenario: API.list resolves to an object whose files have exactly a path, a description and a byte count
    Given the MCP server "docs" with tools:
      """json
      [{"name": "search_docs", "description": "Search the documentation."}]
      """
    And a turn starts
    When the model calls exec with:
      """js
      const listing = await API.list();
      return {
        keys: Object.keys(listing),
        files: listing.files.map((file) => [Object.keys(file).sort(), typeof file.path, typeof file.description, typeof file.bytes]),
      };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {
        "keys": ["files"],
        "files": [
          [["bytes", "description", "path"], "string", "string", "number"],
          [["bytes", "description", "path"], "string", "string", "number"]
        ]
      }
      """

  # 10.5 Errors, time and randomness

  @core @CM-10.30 @CM-10.31 @CM-19.3 @CM-18.10
  Scenario Outline: a failed nested call reaches the guest as a plain Error with <case>
    Given the catalog "basic"
    And the tool "weather" fails with "<host message>"
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await tools.callValue("weather", { city: "Oslo" });
        return "resolved";
      } catch (error) {
        return {
          message: error.message,
          name: error.name,
          plainPrototype: Object.getPrototypeOf(error) === Error.prototype,
          plainConstructor: error.constructor === Error,
          ownEnumerable: Object.keys(error),
        };
      }
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"message": "<guest message>", "name": "Error", "plainPrototype": true, "plainConstructor": true, "ownEnumerable": []}
      """

    Examples:
      | case                      | host message | guest message      |
      | the host message          | offline      | offline            |
      | a fallback for no message |              | nested tool failed |

  @namespaces @CM-10.30 @CM-10.31
  Scenario: a failed namespace call reaches the guest as a plain Error with the host message
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
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    And the tool "github_list_issues" fails with "rate limited"
    And a turn starts
    When the model calls exec with:
      """js
      try {
        await Issues.list({ state: "open" });
        return "resolved";
      } catch (error) {
        return {
          message: error.message,
          name: error.name,
          plainPrototype: Object.getPrototypeOf(error) === Error.prototype,
          plainConstructor: error.constructor === Error,
          ownEnumerable: Object.keys(error),
        };
      }
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"message": "rate limited", "name": "Error", "plainPrototype": true, "plainConstructor": true, "ownEnumerable": []}
      """

  @core @CM-10.32
  Scenario: Math.random produces distinct values in the unit interval
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const xs = Array.from({ length: 8 }, () => Math.random());
      return [xs.every((x) => typeof x === "number" && x >= 0 && x < 1), new Set(xs).size];
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [true, 8]
      """

  @core @CM-10.33 @CM-17.14
  Scenario: Date reflects the host wall clock in UTC
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const now = new Date();
      return [
        now.getTimezoneOffset(),
        Date.now() > 1700000000000,
        Math.abs(Date.now() - now.getTime()) < 5000,
        new Date(2024, 0, 1, 12).toISOString(),
      ];
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [0, true, true, "2024-01-01T12:00:00.000Z"]
      """

  @snapshots @CM-10.33 @CM-8.24
  Scenario: Date reads the wall clock again after a run is restored
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const before = Date.now();
      await yield_control();
      return Date.now() - before >= 250;
      """
    Then the result is waiting with reason "yield"
    When 300 ms pass
    And the model calls wait
    Then the result status is "completed"
    And the result value is true

  @core @CM-10.34 @CM-16.12 @CM-10.31
  Scenario: a bridge request over maxPendingToolCalls is rejected inside the guest and not dispatched
    Given code mode is configured as:
      """json
      {"enabled": true, "maxPendingToolCalls": 2}
      """
    And the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      const calls = [0, 1, 2].map(async (i) => tools.callValue("weather", { city: "c" + i }));
      const settled = await Promise.allSettled(calls);
      return settled.map((r) => (r.status === "fulfilled" ? r.value.temp : r.reason.message));
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [21, 21, "too many pending code mode tool calls"]
      """
    And the tool "weather" was called 2 times

  @core @CM-10.35 @CM-10.36 @CM-19.2
  Scenario Outline: the error text of an uncaught guest exception for <case>
    Given the catalog "basic"
    And a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "internal_error"
    And the result error is "<error>"
    And the result failure phase is "guest"

    Examples:
      | case                                   | code                                             | error             |
      | an object with name and message        | throw { name: "Custom", message: "bad thing" };  | Custom: bad thing |
      | an object with an empty message        | throw { name: "Custom", message: "" };           | Custom            |
      | a thrown string                        | throw "plain failure";                           | plain failure     |
