Feature: Swarm orchestration globals
  SPEC chapter 23: with tools.swarm enabled on top of code mode, guest code gets agents.run,
  phase and log plus the agents.d.ts virtual file, and sub-agents run as ordinary nested calls.

  Background:
    Given code mode is enabled
    And the catalog "basic"
    And the tool:
      """json
      {"name": "sessions_spawn", "source": "core", "description": "Spawn a sub-agent session.",
       "parameters": {"type": "object", "properties": {"task": {"type": "string"}}}}
      """

  @core @CM-23.2 @CM-4.10 @CM-4.12 @CM-10.1
  Scenario: Without tools.swarm there are no Swarm globals, sentences or files
    When a turn starts
    Then the exec description does not contain "Swarm globals"
    And the exec description does not contain "Read TypeScript-style declaration files"
    When the model calls exec with:
      """js
      return {
        types: [typeof agents, typeof phase, typeof log],
        files: (await API.list()).files.map((file) => file.path),
        agentsFile: await API.read("agents.d.ts").then(() => "read", (error) => error.message),
      };
      """
    Then the result value is:
      """json
      {"types": ["undefined", "undefined", "undefined"], "files": [], "agentsFile": "Unknown API file: agents.d.ts"}
      """

  @core @CM-23.1
  Scenario Outline: tools.swarm set to <value> gives Swarm globals of type <types>
    Given the config also has:
      """json
      {"tools": {"swarm": <value>}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return [typeof agents, typeof phase, typeof log];
      """
    Then the result value is:
      """json
      <types>
      """

    Examples:
      | value             | types                                    |
      | true              | ["object", "function", "function"]       |
      | {"enabled": true} | ["object", "function", "function"]       |
      | false             | ["undefined", "undefined", "undefined"]  |
      | "auto"            | ["undefined", "undefined", "undefined"]  |
      | {"maxAgents": 3}  | ["undefined", "undefined", "undefined"]  |

  @core @CM-23.1
  Scenario: tools.swarm is normalised and shallow-merged per agent like tools.codeMode
    Given the config also has:
      """json
      {
        "tools": {"swarm": {"enabled": true}},
        "agents": {"list": [
          {"id": "quiet", "tools": {"swarm": false}},
          {"id": "busy", "tools": {"swarm": {"maxAgents": 2}}},
          {"id": "odd", "tools": {"swarm": "auto"}}
        ]}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return typeof agents;
      """
    Then the result value is "object"
    When a turn starts for agent "quiet"
    And the model calls exec with:
      """js
      return typeof agents;
      """
    Then the result value is "undefined"
    When a turn starts for agent "busy"
    And the model calls exec with:
      """js
      return typeof agents;
      """
    Then the result value is "object"
    When a turn starts for agent "odd"
    And the model calls exec with:
      """js
      return typeof agents;
      """
    Then the result value is "undefined"

  @core @CM-23.1 @CM-2.5
  Scenario: tools.swarm alone does not activate code mode
    Given code mode is disabled
    And the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    Then the model-visible tools include "sessions_spawn"
    And the model-visible tools do not include "exec"
    And the model-visible tools do not include "wait"

  @core @CM-23.3 @CM-10.1 @CM-10.2
  Scenario: Swarm globals are a frozen agents object and two functions that cannot be replaced
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const descriptor = (name) => {
        const found = Object.getOwnPropertyDescriptor(globalThis, name);
        return [found.writable, found.configurable];
      };
      try {
        agents.extra = "added";
      } catch (error) {
        // strict-mode cells throw on frozen objects
      }
      return {
        types: [typeof agents, typeof agents.run, typeof phase, typeof log],
        frozen: Object.isFrozen(agents),
        extra: typeof agents.extra,
        descriptors: [descriptor("agents"), descriptor("phase"), descriptor("log")],
      };
      """
    Then the result value is:
      """json
      {
        "types": ["object", "function", "function", "function"],
        "frozen": true,
        "extra": "undefined",
        "descriptors": [[false, false], [false, false], [false, false]]
      }
      """

  @core @CM-23.10 @CM-4.10 @CM-4.12 @CM-10.25
  Scenario: With Swarm the exact agents.d.ts is listed first and the description mentions it
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    Then the exec description contains:
      """text
      `API.read(path)`. Swarm globals `agents.run`, `phase`, and `log` are available; read `agents.d.ts` for types and orchestration idioms. The `language` field
      """
    When the model calls exec with:
      """js
      const file = await API.read("/agents.d.ts");
      return { listed: (await API.list()).files, path: file.path, lines: file.content.split("\n") };
      """
    Then the result value is:
      """json
      {
        "listed": [{"path": "agents.d.ts", "description": "Swarm collector globals and orchestration idioms.", "bytes": 1160}],
        "path": "agents.d.ts",
        "lines": [
          "type AgentJsonSchema = Record<string, unknown>;",
          "",
          "interface AgentRunOptions {",
          "  label?: string;",
          "  model?: string;",
          "  thinking?: string;",
          "  fastMode?: boolean | \"auto\";",
          "  agentId?: string;",
          "  schema?: AgentJsonSchema;",
          "  phase?: string;",
          "}",
          "",
          "interface AgentsApi {",
          "  run(prompt: string, options?: AgentRunOptions & { schema?: undefined }): Promise<string>;",
          "  run<T>(prompt: string, options: AgentRunOptions & { schema: AgentJsonSchema }): Promise<T>;",
          "}",
          "",
          "/** Spawn collector agents concurrently. */",
          "declare const agents: Readonly<AgentsApi>;",
          "/** Publish a phase heading for this swarm. */",
          "declare function phase(title: string): void;",
          "/** Publish a progress note for this swarm. */",
          "declare function log(message: string): void;",
          "",
          "// Fan-out: const reports = await Promise.all(prompts.map((prompt) => agents.run(prompt)));",
          "// Gate: while (!ready) { ready = await agents.run(\"Check readiness\") === \"ready\"; }",
          "// Cycle: for (let pass = 0; pass < 3; pass++) draft = await agents.run(\"Improve: \" + draft);",
          "// Schema: const fact = await agents.run<{ answer: string }>(\"Research\", { schema: { type: \"object\", properties: { answer: { type: \"string\" } }, required: [\"answer\"] } });",
          ""
        ]
      }
      """

  @mcp @CM-14.27 @CM-23.10
  Scenario: With Swarm and an MCP server, agents.d.ts comes before the MCP files
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And the MCP server "zeta" with tools:
      """json
      [{"name": "ping", "inputSchema": {"type": "object", "properties": {}}}]
      """
    And the MCP server "alpha" with tools:
      """json
      [{"name": "pong", "inputSchema": {"type": "object", "properties": {}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      // Only the files these clauses order: which other files a host lists
      // is CM-10.25's.
      const ordered = (list) => list.files.map((file) => file.path).filter((path) => path === "agents.d.ts" || path.startsWith("mcp/"));
      return [ordered(await API.list()), ordered(await API.list("mcp"))];
      """
    Then the result value is:
      """json
      [
        ["agents.d.ts", "mcp/index.d.ts", "mcp/alpha.d.ts", "mcp/zeta.d.ts"],
        ["mcp/index.d.ts", "mcp/alpha.d.ts", "mcp/zeta.d.ts"]
      ]
      """

  @core @CM-23.4
  Scenario: agents.run rejects prompts that are not non-empty strings before spawning
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const attempts = {
        empty: () => agents.run(""),
        blank: () => agents.run("   \n\t"),
        number: () => agents.run(42),
        missing: () => agents.run(),
        nullWithOptions: () => agents.run(null, {}),
        array: () => agents.run(["Summarise"]),
      };
      const outcomes = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        outcomes[name] = await Promise.resolve().then(attempt).then(() => "spawned", (error) => error.message);
      }
      return outcomes;
      """
    Then the result value is:
      """json
      {
        "empty": "agents.run prompt must be a non-empty string",
        "blank": "agents.run prompt must be a non-empty string",
        "number": "agents.run prompt must be a non-empty string",
        "missing": "agents.run prompt must be a non-empty string",
        "nullWithOptions": "agents.run prompt must be a non-empty string",
        "array": "agents.run prompt must be a non-empty string"
      }
      """
    And the tool "sessions_spawn" was not called

  @core @CM-23.5 @CM-23.8
  Scenario: agents.run needs a sessions_spawn entry in the run catalog
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And the tool policy denies "sessions_spawn"
    When a turn starts
    And the model calls exec with:
      """js
      return await agents.run("Summarise pricing").then(() => "spawned", (error) => error.message);
      """
    Then the result value is "agents.run requires the sessions_spawn tool."
    And the tool "sessions_spawn" was not called

  @core @CM-23.9 @CM-23.3
  Scenario: phase and log publish notes synchronously without bridge requests or output
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const returned = [phase("Research"), log("collected " + "x".repeat(5000))];
      text("visible");
      return returned.map((value) => value === undefined);
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [true, true]
      """
    And the result output is:
      """json
      [{"type": "text", "text": "visible"}]
      """
    And the telemetry includes:
      """json
      {"callCount": 0, "searchCount": 0, "describeCount": 0}
      """

  @core @CM-23.9 @CM-23.11
  Scenario: phase and log notes reach the trajectory in call order, each cut to 2000 characters
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      phase("Forecast");
      const sky = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      log("collected " + "x".repeat(5000));
      return sky.temp;
      """
    Then the result value is 21
    And the trajectory includes:
      """json
      [
        {"type": "swarm_note", "name": "phase", "text": "Forecast"},
        {"type": "tool_call", "name": "weather", "status": "ok"},
        {"type": "swarm_note", "name": "log"}
      ]
      """
    And the trajectory has a "phase" note "Forecast"
    And the trajectory has a "log" note of 2000 characters starting with "collected xxx"

  @e2e @CM-23.6 @CM-23.8
  Scenario: agents.run fans out sub-agents through sessions_spawn and resolves their final texts
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer "summary ready"
    When a turn starts
    And the model calls exec with:
      """js
      phase("Research");
      const reports = await Promise.all(["pricing", "latency", "errors"].map((topic) => agents.run("Summarise " + topic)));
      log("collected " + reports.length + " reports");
      return reports;
      """
    Then the result value is:
      """json
      ["summary ready", "summary ready", "summary ready"]
      """
    And the tool "sessions_spawn" was called 3 times
    And the trajectory shows "sessions_spawn" under the exec call

  @e2e @CM-23.6 @CM-23.7
  Scenario: agents.run with a schema resolves to the parsed structured answer
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer:
      """text
      {"answer": "forty-two", "confidence": 0.9}
      """
    When a turn starts
    And the model calls exec with:
      """js
      const fact = await agents.run("Research the answer", {
        schema: { type: "object", properties: { answer: { type: "string" }, confidence: { type: "number" } }, required: ["answer"] },
      });
      return { answer: fact.answer, confidence: fact.confidence, type: typeof fact };
      """
    Then the result value is:
      """json
      {"answer": "forty-two", "confidence": 0.9, "type": "object"}
      """

  @e2e @CM-23.7
  Scenario: agents.run accepts the documented options and ignores unknown ones
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer "ready"
    When a turn starts
    And the model calls exec with:
      """js
      return await agents.run("Check readiness", {
        label: "gate",
        model: "default",
        thinking: "low",
        fastMode: "auto",
        agentId: "main",
        phase: "Gate",
        bogus: { nested: true },
      });
      """
    Then the result value is "ready"
    And the tool "sessions_spawn" was called 1 times

  @e2e @CM-23.8 @CM-16.5
  Scenario: A denied approval for sessions_spawn rejects agents.run
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And the tool "sessions_spawn" requires approval
    And approval for "sessions_spawn" is denied
    When a turn starts
    And the model calls exec with:
      """js
      return await agents.run("Summarise pricing").then(() => "spawned", (error) => error.message);
      """
    Then the result value is "Tool call denied: openclaw:core:sessions_spawn."
    And the tool "sessions_spawn" was not called

  @e2e @CM-23.8 @CM-16.6
  Scenario: A before_tool_call hook can block sub-agent spawns
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And the before_tool_call hook blocks "sessions_spawn"
    When a turn starts
    And the model calls exec with:
      """js
      return await agents.run("Summarise pricing").then(() => "spawned", (error) => error.message);
      """
    Then the result value is "Tool call blocked by before_tool_call hook."
    And the tool "sessions_spawn" was not called

  @e2e @CM-23.8 @CM-10.34
  Scenario: Sub-agent spawns count toward maxPendingToolCalls
    Given code mode is configured as:
      """json
      {"enabled": true, "maxPendingToolCalls": 1}
      """
    And the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer "done"
    And the tool "sessions_spawn" takes 300 ms
    When a turn starts
    And the model calls exec with:
      """js
      const settled = await Promise.allSettled([agents.run("First task"), agents.run("Second task")]);
      return settled.map((entry) => (entry.status === "fulfilled" ? entry.value : entry.reason.message));
      """
    Then the result value is:
      """json
      ["done", "too many pending code mode tool calls"]
      """
    And the tool "sessions_spawn" was called 1 times

  @e2e @CM-23.6 @CM-8.12 @CM-8.11 @timing
  Scenario: A spawn still pending at the deadline suspends the run as an agentSpawn request
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
      """
    And the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer "late summary"
    And the tool "sessions_spawn" is held until released
    When a turn starts
    And the model calls exec with:
      """js
      return await agents.run("Summarise errors");
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:agentSpawn:1", "method": "agentSpawn"}]
      """
    When the tool "sessions_spawn" is released
    And the model calls wait
    Then the result value is "late summary"

  @e2e @CM-8.12 @CM-8.11 @CM-9.5 @CM-23.6
  Scenario: A restart-safe sub-agent run suspends first on its agentSpawn and then on its agentWait request
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer "restart-safe summary"
    When a turn starts
    And the model calls exec restart-safe with:
      """js
      return await agents.run("Summarise errors");
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:agentSpawn:1", "method": "agentSpawn"}]
      """
    And the result includes:
      """json
      {"replaySafe": true}
      """
    When the model calls wait
    Then the result is waiting with reason "pending_tools"
    And the result run id is the previous one
    And the result pending tool calls are:
      """json
      [{"id": "bridge:agentWait:1", "method": "agentWait"}]
      """
    And the result includes:
      """json
      {"replaySafe": true}
      """
    When the model calls wait
    Then the result value is "restart-safe summary"
    And the tool "sessions_spawn" was called 1 times

  @core @CM-23.9 @timing
  Scenario: phase and log add no pending tool call and no output when the run suspends
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
      """
    And the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And the tool "weather" is held until released
    When a turn starts
    And the model calls exec with:
      """js
      phase("Forecast");
      log("asking for the weather");
      const sky = await tools.callValue("weather", { city: "Oslo" });
      log("got " + sky.temp);
      return sky.temp;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """
    And the result output is:
      """json
      []
      """
    When the tool "weather" is released
    And the model calls wait
    Then the result value is 21
    And the result output is:
      """json
      []
      """

  @e2e @CM-23.8
  Scenario: Sub-agent spawns count as tool calls in telemetry
    Given the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer "done"
    When a turn starts
    And the model calls exec with:
      """js
      await agents.run("First task");
      await agents.run("Second task");
      return "ok";
      """
    Then the result value is "ok"
    And the telemetry includes:
      """json
      {"callCount": 2, "searchCount": 0, "describeCount": 0}
      """
    And the tool "sessions_spawn" was called 2 times

  @e2e @CM-23.8
  Scenario: Aborting the agent run ends a pending sub-agent spawn
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 10000}
      """
    And the config also has:
      """json
      {"tools": {"swarm": true}}
      """
    And sub-agents answer "too late"
    And the tool "sessions_spawn" is held until released
    And a turn starts
    And the turn will be aborted once a call of the tool "sessions_spawn" is held
    When the model calls exec with:
      """js
      return await agents.run("Summarise errors");
      """
    Then the result fails with code "timeout"
    And the result error is "code mode execution aborted"
    And the held calls of the tool "sessions_spawn" are cancelled
    When the tool "sessions_spawn" is released
    And 100 ms pass
    Then the tool "sessions_spawn" was not called
