Feature: Configuration
  SPEC chapter 2: tools.codeMode activation values, numeric defaults and clamps,
  languages, runtime and mode values, unknown fields and per-agent overrides.

  Background:
    Given the catalog "basic"

  @core @CM-2.1 @CM-2.2 @CM-2.3 @CM-2.12 @CM-2.10
  Scenario Outline: Configuration: tools.codeMode <value> enables code mode
    Given code mode is configured as:
      """json
      <value>
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return ALL_TOOLS.map((entry) => entry.name).sort();
      """
    Then the result value is:
      """json
      ["read", "select_file", "shipping_list", "weather"]
      """

    Examples:
      | value                                                    |
      | true                                                     |
      | {"enabled": true, "experimentalFlag": "on", "nodes": 3}  |

  @core @CM-2.2 @CM-2.3 @CM-2.4 @CM-2.5 @CM-2.13 @checklist-1 @checklist-2
  Scenario Outline: Configuration: tools.codeMode <value> leaves code mode disabled
    Given code mode is configured as:
      """json
      <value>
      """
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
    And the model-visible tools do not include "exec"
    And the model-visible tools do not include "wait"

    Examples:
      | value                                            |
      | false                                            |
      | "auto"                                           |
      | "true"                                           |
      | {"timeoutMs": 1234, "languages": ["typescript"]} |

  @core @CM-2.4
  Scenario Outline: Configuration: an enabled member that is <case> leaves code mode disabled
    Given code mode is configured as:
      """json
      {"enabled": <enabled>}
      """
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"

    Examples:
      | case                | enabled            |
      | false               | false              |
      | null                | null               |
      | the string auto     | "auto"             |
      | the string true     | "true"             |
      | another string      | "yes"              |
      | a number            | 1                  |
      | an array            | [true]             |
      | an object           | {"enabled": true}  |

  @core @CM-2.5 @checklist-1
  Scenario: Configuration: without tools.codeMode every tool keeps its normal definition and path
    Given code mode is disabled
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
    And the "weather" tool description is:
      """text
      Current weather and forecast for a city.
      """
    And the "weather" tool schema is:
      """json
      {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City name."}}}
      """
    And the "read" tool has the label "Read"
    When the model calls "weather" with:
      """json
      {"city": "Oslo"}
      """
    Then the tool "weather" was last called with:
      """json
      {"city": "Oslo"}
      """

  @tool-search @CM-2.5
  Scenario: Configuration: a disabled code mode leaves Tool Search as it is without tools.codeMode
    Given code mode is configured as:
      """json
      {"enabled": false, "timeoutMs": 1234}
      """
    And tool search is configured as:
      """json
      {"mode": "tools"}
      """
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"
    Given code mode is disabled
    When a turn starts
    Then the model-visible tools are "read, tool_search, tool_describe, tool_call"

  @core @CM-2.6 @CM-2.7 @CM-7.20 @CM-7.21
  Scenario Outline: Configuration: maxOutputBytes <value> lets <fits> characters through and rejects <over>
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": <value>}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return "x".repeat(<fits>);
      """
    Then the result status is "completed"
    When the model calls exec with:
      """js
      return "x".repeat(<over>);
      """
    Then the result fails with code "output_limit_exceeded"
    And the result error is "code mode output limit exceeded"

    Examples:
      | value    | fits   | over     |
      | 1        | 1022   | 1023     |
      | 1024.0   | 1022   | 1023     |
      | 1024.5   | 65534  | 65535    |
      | 99999999 | 100000 | 10485759 |
      | true     | 65534  | 65535    |
      | -1       | 65534  | 65535    |

  @core @CM-2.6 @CM-8.6
  Scenario: Configuration: a fractional timeoutMs falls back to the default and waits for a 400 ms tool inline
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 0.5}
      """
    And the tool "weather" takes 400 ms
    When a turn starts
    And the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      """
    Then the result value is:
      """json
      {"city": "Oslo", "temp": 21, "sky": "clear"}
      """

  @core @CM-2.7 @timing
  Scenario: Configuration: timeoutMs below the range is clamped up so a short cell still completes
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 1}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return 1 + 1;
      """
    Then the result value is 2

  @snapshots @CM-2.7 @CM-8.15
  Scenario: Configuration: timeoutMs 1 is clamped to 100 ms and parks a run waiting for a 400 ms tool
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 1}
      """
    And the tool "weather" takes 400 ms
    When a turn starts
    And the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:callValue:1", "method": "callValue"}]
      """

  @core @CM-2.7
  Scenario: Configuration: memoryLimitBytes below the range is clamped to 1 MiB
    Given code mode is configured as:
      """json
      {"enabled": true, "memoryLimitBytes": 1}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return "x".repeat(16).length;
      """
    Then the result value is 16
    When the model calls exec with:
      """js
      return "x".repeat(8 * 1024 * 1024).length;
      """
    Then the result fails with code "internal_error"

  @core @CM-2.6
  Scenario: Configuration: a fractional memoryLimitBytes falls back to the default limit
    Given code mode is configured as:
      """json
      {"enabled": true, "memoryLimitBytes": 1.5}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return "x".repeat(8 * 1024 * 1024).length;
      """
    Then the result value is 8388608

  @core @CM-2.6 @CM-2.7 @CM-10.34
  Scenario Outline: Configuration: maxPendingToolCalls <value> admits <accepted> concurrent nested calls
    Given code mode is configured as:
      """json
      {"enabled": true, "maxPendingToolCalls": <value>}
      """
    And the tool "weather" takes 1000 ms
    When a turn starts
    And the model calls exec with:
      """js
      const calls = [];
      const rejected = [];
      for (let i = 0; i < <accepted> + 1; i++) {
        try {
          calls.push(tools.callValue("openclaw:core:weather", { city: "c" + i }).then(() => "ok", (error) => error.message));
        } catch (error) {
          rejected.push(error.message);
        }
      }
      const settled = await Promise.all(calls);
      return {
        accepted: settled.filter((s) => s === "ok").length,
        rejected: rejected.concat(settled.filter((s) => s !== "ok")),
      };
      """
    Then the result value is:
      """json
      {"accepted": <accepted>, "rejected": ["too many pending code mode tool calls"]}
      """
    And the tool "weather" was called <accepted> times

    Examples:
      | value | accepted |
      | 0     | 16       |
      | 500   | 128      |

  @snapshots @CM-2.6
  Scenario: Configuration: snapshotTtlSeconds 0 falls back to the default and keeps a suspended run alive
    Given code mode is configured as:
      """json
      {"enabled": true, "snapshotTtlSeconds": 0}
      """
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control("ttl");
      return "resumed";
      """
    Then the result is waiting with reason "yield"
    When 1200 ms pass
    And the model calls wait
    Then the result value is "resumed"

  @snapshots @CM-2.7 @CM-8.29
  Scenario: Configuration: snapshotTtlSeconds 1 expires a suspended run after 1.2 seconds
    Given code mode is configured as:
      """json
      {"enabled": true, "snapshotTtlSeconds": 1}
      """
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control("ttl");
      return "resumed";
      """
    Then the result is waiting with reason "yield"
    When 1200 ms pass
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."

  @snapshots @CM-2.7 @CM-8.35
  Scenario: Configuration: maxSnapshotBytes 1 is clamped to 1024 bytes and refuses any snapshot
    Given code mode is configured as:
      """json
      {"enabled": true, "maxSnapshotBytes": 1}
      """
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control("snapshot");
      return "resumed";
      """
    Then the result fails with code "snapshot_limit_exceeded"
    And the result error is "code mode snapshot limit exceeded"

  @snapshots @CM-2.6
  Scenario: Configuration: a maxSnapshotBytes string falls back to the default and allows suspension
    Given code mode is configured as:
      """json
      {"enabled": true, "maxSnapshotBytes": "1"}
      """
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control("snapshot");
      return "resumed";
      """
    Then the result is waiting with reason "yield"

  @core @CM-2.6 @CM-2.7 @CM-2.8 @CM-10.11
  Scenario Outline: Configuration: searchDefaultLimit <default> and maxSearchLimit <max> return <plain> and <capped> results
    Given code mode is configured as:
      """json
      {"enabled": true, "searchDefaultLimit": <default>, "maxSearchLimit": <max>}
      """
    And the tools:
      """json
      [
        {"name": "probe_01", "description": "Probe."}, {"name": "probe_02", "description": "Probe."}, {"name": "probe_03", "description": "Probe."}, {"name": "probe_04", "description": "Probe."}, {"name": "probe_05", "description": "Probe."},
        {"name": "probe_06", "description": "Probe."}, {"name": "probe_07", "description": "Probe."}, {"name": "probe_08", "description": "Probe."}, {"name": "probe_09", "description": "Probe."}, {"name": "probe_10", "description": "Probe."},
        {"name": "probe_11", "description": "Probe."}, {"name": "probe_12", "description": "Probe."}, {"name": "probe_13", "description": "Probe."}, {"name": "probe_14", "description": "Probe."}, {"name": "probe_15", "description": "Probe."},
        {"name": "probe_16", "description": "Probe."}, {"name": "probe_17", "description": "Probe."}, {"name": "probe_18", "description": "Probe."}, {"name": "probe_19", "description": "Probe."}, {"name": "probe_20", "description": "Probe."},
        {"name": "probe_21", "description": "Probe."}, {"name": "probe_22", "description": "Probe."}, {"name": "probe_23", "description": "Probe."}, {"name": "probe_24", "description": "Probe."}, {"name": "probe_25", "description": "Probe."},
        {"name": "probe_26", "description": "Probe."}, {"name": "probe_27", "description": "Probe."}, {"name": "probe_28", "description": "Probe."}, {"name": "probe_29", "description": "Probe."}, {"name": "probe_30", "description": "Probe."},
        {"name": "probe_31", "description": "Probe."}, {"name": "probe_32", "description": "Probe."}, {"name": "probe_33", "description": "Probe."}, {"name": "probe_34", "description": "Probe."}, {"name": "probe_35", "description": "Probe."},
        {"name": "probe_36", "description": "Probe."}, {"name": "probe_37", "description": "Probe."}, {"name": "probe_38", "description": "Probe."}, {"name": "probe_39", "description": "Probe."}, {"name": "probe_40", "description": "Probe."},
        {"name": "probe_41", "description": "Probe."}, {"name": "probe_42", "description": "Probe."}, {"name": "probe_43", "description": "Probe."}, {"name": "probe_44", "description": "Probe."}, {"name": "probe_45", "description": "Probe."},
        {"name": "probe_46", "description": "Probe."}, {"name": "probe_47", "description": "Probe."}, {"name": "probe_48", "description": "Probe."}, {"name": "probe_49", "description": "Probe."}, {"name": "probe_50", "description": "Probe."},
        {"name": "probe_51", "description": "Probe."}, {"name": "probe_52", "description": "Probe."}, {"name": "probe_53", "description": "Probe."}, {"name": "probe_54", "description": "Probe."}, {"name": "probe_55", "description": "Probe."}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const plain = await tools.search("probe");
      const capped = await tools.search("probe", { limit: 100 });
      return [plain.length, capped.length];
      """
    Then the result value is [<plain>, <capped>]

    Examples:
      | default | max  | plain | capped |
      | null    | 100  | 8     | 50     |
      | null    | 3    | 3     | 3      |
      | 0       | "10" | 8     | 50     |

  @core @CM-2.9 @CM-5.11 @CM-19.2
  Scenario: Configuration: languages keeps only known entries so typescript alone disables javascript cells
    Given code mode is configured as:
      """json
      {"enabled": true, "languages": ["typescript", "python", "JavaScript", 7]}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode javascript input is disabled."
    And the result failure phase is "input"

  @core @CM-2.9
  Scenario Outline: Configuration: languages <languages> falls back to the default list
    Given code mode is configured as:
      """json
      {"enabled": true, "languages": <languages>}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return "javascript runs";
      """
    Then the result value is "javascript runs"

    Examples:
      | languages    |
      | "typescript" |
      | ["python"]   |

  @typescript @CM-2.9 @CM-5.11
  Scenario: Configuration: languages with only javascript entries disables typescript cells
    Given code mode is configured as:
      """json
      {"enabled": true, "languages": ["javascript", "javascript", "python"]}
      """
    When a turn starts
    And the model calls exec in typescript with:
      """ts
      const n: number = 1;
      return n;
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode typescript input is disabled."

  @core @CM-2.10 @CM-3.13 @CM-19.4
  Scenario Outline: Configuration: runtime <runtime> keeps code mode active and fails every exec
    Given code mode is configured as:
      """json
      {"enabled": true, "runtime": <runtime>}
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "runtime_unavailable"
    And the result failure phase is "host"
    And the result error is:
      """text
      code mode runtime is unavailable: unsupported runtime <runtime>.
      """
    When the model calls exec with:
      """js
      return 2;
      """
    Then the result fails with code "runtime_unavailable"

    Examples:
      | runtime |
      | "v8"    |
      | 42      |

  @core @CM-2.10 @CM-2.11
  Scenario: Configuration: any mode value is treated as only
    Given code mode is configured as:
      """json
      {"enabled": true, "mode": "all", "runtime": "quickjs-wasi"}
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return ALL_TOOLS.length;
      """
    Then the result value is 4

  @core @CM-2.12 @CM-8.6
  Scenario: Configuration: unknown fields under tools.codeMode have no effect
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMS": 1, "maxOutputBytez": 1, "futureOption": {"nested": true}}
      """
    And the tool "weather" takes 400 ms
    When a turn starts
    And the model calls exec with:
      """js
      const weather = await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return { city: weather.city, padding: "x".repeat(2000).length };
      """
    Then the result value is:
      """json
      {"city": "Oslo", "padding": 2000}
      """

  @core @CM-2.13 @CM-2.6
  Scenario: Configuration: invalid limit values never make the run fail
    Given code mode is configured as:
      """json
      {
        "enabled": true,
        "timeoutMs": "abc",
        "memoryLimitBytes": [],
        "maxOutputBytes": {},
        "maxSnapshotBytes": false,
        "maxPendingToolCalls": -2,
        "snapshotTtlSeconds": 0.25,
        "searchDefaultLimit": "all",
        "maxSearchLimit": null,
        "languages": 5,
        "mode": false
      }
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return (await tools.search("weather")).map((entry) => entry.id);
      """
    Then the result value is:
      """json
      ["openclaw:core:weather"]
      """

  @core @CM-2.15 @CM-2.16 @CM-2.3 @CM-2.4
  Scenario Outline: Configuration: global <global> merged with agent override <agent> shows <visible>
    Given the config is:
      """json
      {"tools": {"codeMode": <global>}, "agents": {"list": [{"id": "main", "tools": {"codeMode": <agent>}}]}}
      """
    When a turn starts
    Then the model-visible tools are "<visible>"

    Examples:
      | global            | agent               | visible                                   |
      | true              | false               | read, weather, shipping_list, select_file |
      | true              | null                | read, weather, shipping_list, select_file |
      | true              | "auto"              | read, weather, shipping_list, select_file |
      | true              | 1                   | read, weather, shipping_list, select_file |
      | true              | [true]              | read, weather, shipping_list, select_file |
      | {"enabled": true} | {"enabled": "true"} | read, weather, shipping_list, select_file |
      | "auto"            | true                | exec, wait                                |

  @core @CM-2.15 @CM-2.16
  Scenario: Configuration: an agent override applies only to the agent with that id
    Given the config is:
      """json
      {"agents": {"list": [{"id": "ops", "tools": {"codeMode": true}}, {"id": "main", "tools": {"deny": []}}]}}
      """
    When a turn starts
    Then the model-visible tools are "read, weather, shipping_list, select_file"
    When a turn starts for agent "ops"
    Then the model-visible tools are "exec, wait"

  @core @CM-2.15 @CM-2.17
  Scenario: Configuration: only the first agents.list entry with the agent id is merged
    Given the config is:
      """json
      {
        "tools": {"codeMode": {"enabled": true}},
        "agents": {"list": [
          {"id": "main", "tools": {"codeMode": {"maxOutputBytes": 1024}}},
          {"id": "main", "tools": {"codeMode": false}}
        ]}
      }
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return "x".repeat(1023);
      """
    Then the result fails with code "output_limit_exceeded"

  @core @CM-2.15 @CM-2.16 @CM-2.17
  Scenario: Configuration: an agent override of one limit keeps the global values of the other fields
    Given the config is:
      """json
      {
        "tools": {"codeMode": {"enabled": true, "maxOutputBytes": 1024}},
        "agents": {"list": [{"id": "main", "tools": {"codeMode": {"maxPendingToolCalls": 1}}}]}
      }
      """
    And the tool "weather" takes 300 ms
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = [];
      for (const city of ["Oslo", "Rome"]) {
        try {
          outcomes.push(tools.callValue("openclaw:core:weather", { city }).then(() => "ok", (error) => error.message));
        } catch (error) {
          outcomes.push(error.message);
        }
      }
      return await Promise.all(outcomes);
      """
    Then the result value is:
      """json
      ["ok", "too many pending code mode tool calls"]
      """
    When the model calls exec with:
      """js
      return "x".repeat(1023);
      """
    Then the result fails with code "output_limit_exceeded"

  @core @CM-2.17
  Scenario: Configuration: an agent override of one limit keeps the global languages
    Given the config is:
      """json
      {
        "tools": {"codeMode": {"enabled": true, "languages": ["typescript"]}},
        "agents": {"list": [{"id": "main", "tools": {"codeMode": {"maxOutputBytes": 2048}}}]}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode javascript input is disabled."

  @core @CM-2.17 @CM-2.10
  Scenario: Configuration: an agent override of one limit keeps the global runtime
    Given the config is:
      """json
      {
        "tools": {"codeMode": {"enabled": true, "runtime": "v8"}},
        "agents": {"list": [{"id": "main", "tools": {"codeMode": {"timeoutMs": 5000}}}]}
      }
      """
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "runtime_unavailable"

  @snapshots @CM-2.14 @CM-3.15 @CM-7.21
  Scenario: Configuration: a suspended run keeps the limits resolved when its exec started
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control("change the configuration");
      return "x".repeat(2000);
      """
    Then the result is waiting with reason "yield"
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 65536}
      """
    When the model calls wait
    Then the result fails with code "output_limit_exceeded"
    When a turn starts
    And the model calls exec with:
      """js
      return "x".repeat(2000).length;
      """
    Then the result value is 2000
