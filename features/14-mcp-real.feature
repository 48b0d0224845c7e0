Feature: Real MCP transports and their failure modes
  SPEC chapter 14, section 14.1 (CM-14.1 to CM-14.7): real MCP server processes are listed at the
  start of a run, and failing, hanging or misbehaving servers surface as catchable guest errors.

  Background:
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 2000}
      """

  @real-mcp @CM-14.1 @CM-14.2
  Scenario: The real everything server is listed over stdio and its echo and get-sum tools answer
    Given the real MCP server "everything"
    When a turn starts
    And the model calls exec with:
      """js
      const servers = (await MCP.$api()).servers.map((server) => server.serverName);
      const echoed = await MCP.everything.echo({ message: "hello from code mode" });
      const sum = await MCP.everything.getSum({ a: 2, b: 3 });
      return { servers, echoed: echoed.content, sum: sum.content };
      """
    Then the result value is:
      """json
      {
        "servers": ["everything"],
        "echoed": [{"type": "text", "text": "Echo: hello from code mode"}],
        "sum": [{"type": "text", "text": "The sum of 2 and 3 is 5."}]
      }
      """
    And the telemetry includes:
      """json
      {"callCount": 2, "sources": {"openclaw": 0, "client": 0}}
      """

  @real-mcp @CM-14.1 @CM-14.2
  Scenario Outline: A server over <transport> is listed and its tool answers
    Given the MCP server "docs" with tools:
      """json
      [
        {
          "name": "lookup_topic",
          "description": "Look up a documentation topic.",
          "inputSchema": {"type": "object", "required": ["topic"], "properties": {"topic": {"type": "string"}}},
          "behavior": {"returns": {"pages": 3}}
        }
      ]
      """
    And the MCP server "docs" is served over <transport>
    When a turn starts
    And the model calls exec with:
      """js
      const servers = (await MCP.$api()).servers.map((server) => server.serverName);
      const found = await MCP.docs.lookupTopic({ topic: "transports" });
      return { servers, answered: typeof found === "object" && found !== null };
      """
    Then the result value is:
      """json
      {"servers": ["docs"], "answered": true}
      """
    And the tool "lookup_topic" was last called with:
      """json
      {"topic": "transports"}
      """

    Examples:
      | transport       |
      | streamable HTTP |
      | SSE             |

  @real-mcp @CM-14.1 @CM-14.16
  Scenario: A real server's structured content reaches the guest unchanged
    Given the real MCP server "everything"
    When a turn starts
    And the model calls exec with:
      """js
      return await MCP.everything.getStructuredContent({ location: "Chicago" });
      """
    Then the result value matches:
      """json
      {
        "content": [{"type": "text", "text": "{\"temperature\":36,\"conditions\":\"Light rain / drizzle\",\"humidity\":82}"}],
        "structuredContent": {"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82}
      }
      """

  @real-mcp @CM-14.1 @CM-14.2 @CM-14.16
  Scenario: The real memory server stores an entity that read_graph returns in the same cell
    Given the real MCP server "memory"
    When a turn starts
    And the model calls exec with:
      """js
      await MCP.memory.createEntities({
        entities: [{ name: "cm-conformance-probe", entityType: "test", observations: ["seen by code mode"] }],
      });
      const graph = await MCP.memory.readGraph({});
      const probe = graph.structuredContent.entities.find((entity) => entity.name === "cm-conformance-probe");
      return { entityType: probe.entityType, observations: probe.observations };
      """
    Then the result value is:
      """json
      {"entityType": "test", "observations": ["seen by code mode"]}
      """

  @real-mcp @CM-14.1 @CM-14.6 @CM-14.16
  Scenario: A real filesystem server error comes back as an isError result the guest can inspect
    Given the real MCP server "filesystem"
    When a turn starts
    And the model calls exec with:
      """js
      const allowed = await MCP.filesystem.listAllowedDirectories({});
      const outside = await MCP.filesystem.readTextFile({ path: "/definitely/not/an/allowed/dir/secret.txt" });
      return {
        listed: allowed.content[0].text.startsWith("Allowed directories:"),
        outsideIsError: outside.isError === true,
      };
      """
    Then the result value is:
      """json
      {"listed": true, "outsideIsError": true}
      """

  @real-mcp @CM-14.1 @CM-14.2 @timing
  Scenario Outline: A <transport> server that cannot be reached contributes nothing and the run still works
    Given the catalog "basic"
    And the real MCP server "everything"
    And the config also has:
      """json
      {"mcp": {"servers": {"broken": <server>}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const servers = (await MCP.$api()).servers.map((server) => server.serverName);
      const files = (await API.list("mcp")).files.map((file) => file.path);
      return { servers, files, broken: typeof MCP.broken };
      """
    Then the result value is:
      """json
      {"servers": ["everything"], "files": ["mcp/index.d.ts", "mcp/everything.d.ts"], "broken": "undefined"}
      """
    And the telemetry includes:
      """json
      {"sources": {"openclaw": 3, "client": 1}}
      """

    Examples:
      | transport       | server                                                                         |
      | stdio           | {"command": "/nonexistent/cm-mcp-server", "args": ["--stdio"], "timeoutMs": 1000} |
      | streamable HTTP | {"url": "http://127.0.0.1:9/mcp", "timeoutMs": 1000}                           |
      | SSE             | {"url": "http://127.0.0.1:9/sse", "transport": "sse", "timeoutMs": 1000}       |

  @real-mcp @CM-14.3 @CM-14.6 @CM-14.7
  Scenario: A hanging MCP server times out after its own timeoutMs without leaking its credentials
    Given the MCP server "slow" with tools:
      """json
      [{"name": "stall", "inputSchema": {"type": "object", "properties": {}}, "behavior": {"hold": true, "returns": {"content": []}}}]
      """
    And the config also has:
      """json
      {"mcp": {"servers": {"slow": {"timeoutMs": 300, "headers": {"Authorization": "Bearer sk-cm-secret-3141"}, "env": {"SLOW_TOKEN": "tok-cm-secret-2718"}}}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await MCP.slow.stall({});
        return "answered";
      } catch (error) {
        return error.message;
      }
      """
    Then the result status is "completed"
    And the result value is "MCP server slow timed out."

  @real-mcp @CM-14.3 @CM-14.6
  Scenario: A slow real operation is bounded by the server timeoutMs and the run completes
    Given the real MCP server "everything"
    And the config also has:
      """json
      {"mcp": {"servers": {"everything": {"timeoutMs": 300}}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      let outcome;
      try {
        await MCP.everything.triggerLongRunningOperation({ duration: 2, steps: 1 });
        outcome = "finished";
      } catch (error) {
        outcome = error.message;
      }
      const echoed = await MCP.everything.echo({ message: "still alive" });
      return [outcome, echoed.content[0].text];
      """
    Then the result value is:
      """json
      ["MCP server everything timed out.", "Echo: still alive"]
      """

  @real-mcp @CM-14.4 @CM-14.5 @CM-14.6 @CM-14.7
  Scenario: Invalid responses, JSON-RPC errors and a closed connection reject with the exact messages
    Given the catalog "basic"
    And the config also has:
      """json
      {"mcp": {"servers": {"dying": {
        "command": "node",
        "args": ["-e", "const rl=require('readline').createInterface({input:process.stdin});const send=(m)=>process.stdout.write(JSON.stringify(m)+'\\n');const none={type:'object',properties:{}};rl.on('line',(line)=>{let m;try{m=JSON.parse(line)}catch(e){return}if(m.id===undefined)return;if(m.method==='initialize')return send({jsonrpc:'2.0',id:m.id,result:{protocolVersion:m.params.protocolVersion,capabilities:{tools:{}},serverInfo:{name:'dying',version:'1.0.0'}}});if(m.method==='tools/list')return send({jsonrpc:'2.0',id:m.id,result:{tools:[{name:'garble',inputSchema:none},{name:'refuse',inputSchema:none},{name:'vanish',inputSchema:none}]}});if(m.method==='tools/call'){const n=m.params.name;if(n==='garble')return send({jsonrpc:'2.0',id:m.id,result:42});if(n==='refuse')return send({jsonrpc:'2.0',id:m.id,error:{code:-32000,message:'quota exhausted'}});process.exit(3)}send({jsonrpc:'2.0',id:m.id,result:{}})});"],
        "env": {"DYING_TOKEN": "tok-cm-secret-1618"},
        "timeoutMs": 1500
      }}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const messages = [];
      for (const call of [() => MCP.dying.garble({}), () => MCP.dying.refuse({}), () => MCP.dying.vanish({})]) {
        try {
          await call();
          messages.push("answered");
        } catch (error) {
          messages.push(error.message);
        }
      }
      const weather = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return { messages, stillRunning: weather.temp };
      """
    Then the result value is:
      """json
      {
        "messages": [
          "MCP server dying returned an invalid response.",
          "MCP server dying error: quota exhausted",
          "MCP server dying closed the connection."
        ],
        "stillRunning": 21
      }
      """

  @real-mcp @CM-14.12 @CM-14.24 @CM-14.26 @CM-14.27 @CM-11.21 @CM-10.22 @CM-14.16 @checklist-9 @checklist-10 @checklist-11
  Scenario Outline: The <fixture> server's declarations, $api header and namespace call work while tools.* never sees it
    Given the real MCP server "<fixture>"
    When a turn starts
    And the model calls exec with:
      """js
      const files = (await API.list("mcp")).files.map((file) => file.path);
      const declaration = await API.read("mcp/<server>.d.ts");
      const header = await MCP.<server>.$api("<tool>", { schema: true });
      const hits = await tools.search("<tool>");
      const described = await tools.describe("mcp:<fixture>:<tool>").then(() => "described", (error) => error.message);
      const result = await MCP.<server>.<method>(<input>);
      return {
        files,
        declares: declaration.content.includes("function <method>("),
        scope: header.scope,
        catalogMcpEntries: ALL_TOOLS.filter((tool) => String(tool.id).startsWith("mcp:")).length,
        searchMcpHits: JSON.stringify(hits).includes("mcp:"),
        described,
        isError: result.isError === true,
        text: result.content[0].text.slice(0, <length>),
      };
      """
    Then the result value is:
      """json
      {
        "files": ["mcp/index.d.ts", "mcp/<server>.d.ts"],
        "declares": true,
        "scope": "tool",
        "catalogMcpEntries": 0,
        "searchMcpHits": false,
        "described": "Unknown tool id: mcp:<fixture>:<tool>. Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name.",
        "isError": false,
        "text": "<text>"
      }
      """
    And the telemetry includes:
      """json
      {"callCount": 1}
      """

    Examples:
      | fixture     | server     | tool                     | method                 | input                      | length | text                 |
      | everything  | everything | echo                     | echo                   | { message: "from a cell" } | 17     | Echo: from a cell    |
      | memory      | memory     | read_graph               | readGraph              | {}                         | 1      | {                    |
      | filesystem  | filesystem | list_allowed_directories | listAllowedDirectories | {}                         | 20     | Allowed directories: |
      | gosdk-hello | gosdkHello | greet                    | greet                  | { name: "Ada" }            | 6      | Hi Ada               |

  @real-mcp @CM-14.3 @CM-14.7
  Scenario: MCP error messages name the configured server, not its identifier
    Given the MCP server "slow_box" with tools:
      """json
      [{"name": "stall", "inputSchema": {"type": "object", "properties": {}}, "behavior": {"hold": true, "returns": {"content": []}}}]
      """
    And the config also has:
      """json
      {"mcp": {"servers": {"slow_box": {"timeoutMs": 300, "headers": {"X-Api-Key": "key-cm-secret-1414"}}}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const message = await MCP.slowBox.stall({}).then(() => "answered", (error) => error.message);
      return { message, identifier: (await MCP.$api()).servers[0].identifier };
      """
    Then the result value is:
      """json
      {"message": "MCP server slow_box timed out.", "identifier": "slowBox"}
      """
