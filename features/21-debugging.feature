Feature: Debug logging for code mode
  SPEC chapter 21: the OPENCLAW_DEBUG_* variables enable targeted gateway log lines that never
  carry cell sources, tool inputs or secrets, and never change payloads or the tool surface.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  @typescript @CM-21.2 @checklist-16
  Scenario: The first TypeScript cell logs that the transformer was loaded
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    When a turn starts
    And the model calls exec in typescript with:
      """ts
      const answer: number = 42;
      return answer;
      """
    Then the result value is 42
    And the target log contains "code mode typescript transform loaded"

  @core @CM-21.2 @CM-6.2 @checklist-16
  Scenario: JavaScript-only debugging sessions never load the TypeScript transformer
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    When a turn starts
    And the model calls exec with:
      """js
      return [1, 2, 3].map((n) => n * 2);
      """
    Then the result value is:
      """json
      [2, 4, 6]
      """
    And the target log does not contain "code mode typescript transform loaded"

  @core @CM-21.1
  Scenario: Lifecycle debug lines never contain the cell source or nested tool inputs
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    When a turn starts
    And the model calls exec with:
      """js
      const marker = "cm-source-marker-5081";
      const sky = await tools.callValue("openclaw:core:weather", { city: "cm-input-marker-7734" });
      text(marker);
      await yield_control("cm-yield-marker-2209");
      return sky.temp;
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is 21
    And the target log does not contain "cm-source-marker-5081"
    And the target log does not contain "cm-input-marker-7734"
    And the target log does not contain "const marker"

  @typescript @CM-21.9 @CM-21.2
  Scenario Outline: OPENCLAW_DEBUG_CODE_MODE=<value> does not enable code-mode debug lines
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "<value>"
    When a turn starts
    And the model calls exec in typescript with:
      """ts
      const flag: boolean = true;
      return flag;
      """
    Then the result value is true
    And the target log does not contain "code mode typescript transform loaded"

    Examples:
      | value |
      | true  |
      | 0     |

  @core @CM-21.9 @CM-21.8 @CM-21.4
  Scenario: Enabling every debug variable changes neither the tool surface nor the payload
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_TRANSPORT" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "tools"
    And the target environment has "OPENCLAW_DEBUG_SSE" set to "events"
    When a turn starts
    Then the model-visible tools are "exec, wait"
    When the model calls exec with:
      """js
      text("visible output");
      return 3;
      """
    Then the result status is "completed"
    And the result value is 3
    And the result output is:
      """json
      [{"type": "text", "text": "visible output"}]
      """
    And the telemetry includes:
      """json
      {
        "catalogSize": 4,
        "sources": {"openclaw": 3, "mcp": 0, "client": 1},
        "searchCount": 0,
        "describeCount": 0,
        "callCount": 0,
        "visibleTools": ["exec", "wait"]
      }
      """
    And the target log does not contain "shipping_list"

  @core @CM-21.7 @CM-21.5
  Scenario: Debug logs redact configured secrets
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_TRANSPORT" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "full-redacted"
    And the target environment has "OPENCLAW_DEBUG_SSE" set to "peek"
    And the config also has:
      """json
      {"models": {"providers": {"openai": {"apiKey": "sk-cm-secret-4417", "headers": {"Authorization": "Bearer cm-bearer-secret-9931"}}}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return (await tools.callValue("openclaw:core:read", { path: "notes.txt" })).kind;
      """
    Then the result value is "text"
    And the target log does not contain "sk-cm-secret-4417"
    And the target log does not contain "cm-bearer-secret-9931"

  @core @CM-21.1
  Scenario: Lifecycle debug lines name the visible tools at activation and give the status and code of a failed exec
    Given code mode is configured as:
      """json
      {"enabled": true, "maxOutputBytes": 1024}
      """
    And the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true}
      """
    And the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    When a turn starts
    And the model calls exec with:
      """js
      text("x".repeat(2048));
      return 1;
      """
    Then the result fails with code "output_limit_exceeded"
    And the target log contains "computer"
    And the target log contains "failed"
    And the target log contains "output_limit_exceeded"

  @snapshots @CM-21.1
  Scenario: Lifecycle debug lines carry the run id of a suspended run
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    And the target log contains the run id of the latest waiting result

  @snapshots @CM-21.1 @CM-21.10
  Scenario: Lifecycle debug lines mark the activation, exec, suspension, wait, resume and disposal of a run
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    When the model calls wait
    Then the result value is 1
    And the target log has a "activated" lifecycle line with:
      | catalogSize  | 4         |
      | visibleTools | exec,wait |
    And the target log has a "exec start" lifecycle line
    And the target log has a "exec end" lifecycle line with:
      | runId    | {runId} |
      | status   | waiting |
      | code     |         |
      | duration | {ms}    |
    And the target log has a "suspended" lifecycle line with:
      | runId | {runId} |
    And the target log has a "wait start" lifecycle line with:
      | runId | {runId} |
    And the target log has a "resumed" lifecycle line with:
      | runId | {runId} |
    And the target log has a "wait end" lifecycle line with:
      | runId    | {runId}   |
      | status   | completed |
      | code     |           |
      | duration | {ms}      |
    And the target log has a "disposed" lifecycle line with:
      | runId | {runId} |

  @snapshots @CM-21.1 @CM-21.10 @CM-8.30 @timing
  Scenario: A lifecycle debug line marks the expiry of a suspended run
    Given code mode is configured as:
      """json
      {"enabled": true, "snapshotTtlSeconds": 1}
      """
    And the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    When a turn starts
    And the model calls exec with:
      """js
      await yield_control();
      return 1;
      """
    Then the result is waiting with reason "yield"
    When 1200 ms pass
    And the model calls wait
    Then the wait is refused with "code mode run is unavailable or expired."
    And the target log has a "expired" lifecycle line with:
      | runId | {runId} |
    And the target log does not contain "code mode disposed"

  @core @CM-21.4 @CM-21.10
  Scenario: OPENCLAW_DEBUG_MODEL_PAYLOAD=tools logs exec, wait and the direct-only tool in payload order but no hidden tool
    Given the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true}
      """
    And the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "tools"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the target log contains "model payload tools: exec, wait, computer"
    And the target log does not contain "shipping_list"

  @core @CM-21.9 @CM-21.4
  Scenario: OPENCLAW_DEBUG_MODEL_PAYLOAD=names does not log the model-visible tools
    Given the tool:
      """json
      {"name": "computer", "source": "core", "description": "Control the computer screen.", "directOnly": true}
      """
    And the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "names"
    When a turn starts
    Then the model-visible tools are "exec, wait, computer"
    And the target log does not contain "computer"

  @typescript @CM-21.9 @CM-21.2
  Scenario: Without OPENCLAW_DEBUG_CODE_MODE no code-mode debug line is logged
    When a turn starts
    And the model calls exec in typescript with:
      """ts
      const flag: boolean = true;
      return flag;
      """
    Then the result value is true
    And the target log does not contain "code mode typescript transform loaded"

  @core @CM-21.7
  Scenario: Debug logs redact the API key, credential headers, cookies, tokens and secrets that a cell repeats
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_TRANSPORT" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "full-redacted"
    And the target environment has "OPENCLAW_DEBUG_SSE" set to "peek"
    And the config also has:
      """json
      {"models": {"providers": {"openai": {
        "apiKey": "sk-cm-secret-7702",
        "clientSecret": "cm-client-secret-4410",
        "headers": {
          "Authorization": "Bearer cm-bearer-secret-1184",
          "X-Api-Key": "cm-header-secret-3318",
          "X-Auth-Token": "cm-token-secret-2291",
          "Cookie": "session=cm-cookie-secret-5521"
        }
      }}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return ["sk-cm-secret-7702", "cm-client-secret-4410", "cm-bearer-secret-1184", "cm-header-secret-3318", "cm-token-secret-2291", "session=cm-cookie-secret-5521"].length;
      """
    Then the result value is 6
    And the target log does not contain "sk-cm-secret-7702"
    And the target log does not contain "cm-client-secret-4410"
    And the target log does not contain "cm-bearer-secret-1184"
    And the target log does not contain "cm-header-secret-3318"
    And the target log does not contain "cm-token-secret-2291"
    And the target log does not contain "cm-cookie-secret-5521"

  @e2e @CM-21.4 @CM-21.10
  Scenario: OPENCLAW_DEBUG_MODEL_PAYLOAD=tools logs the model-visible tools for every model request
    Given the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "tools"
    When a turn starts
    And the model calls exec with:
      """js
      return 1;
      """
    And the model calls exec with:
      """js
      return 2;
      """
    Then the result value is 2
    When the turn ends
    Then the target log has a line with "model payload tools: exec, wait" for every model request of the turn

  @e2e @CM-21.7 @CM-21.5
  Scenario: The redacted payload snapshot of a model request replaces each credential with [redacted]
    Given the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "full-redacted"
    And the target environment has "OPENCLAW_DEBUG_MODEL_TRANSPORT" set to "1"
    And the config also has:
      """json
      {"models": {"providers": {"openai": {"apiKey": "sk-cm-secret-6613", "headers": {"Authorization": "Bearer cm-bearer-secret-8420"}}}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return "sk-cm-secret-6613".length;
      """
    Then the result value is 17
    And the turn sends model requests
    And the target log contains "[redacted]"
    And the target log does not contain "sk-cm-secret-6613"
    And the target log does not contain "cm-bearer-secret-8420"

  @e2e @CM-21.9 @CM-21.8
  Scenario: Enabling every debug variable leaves the model request's conversation as it is
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_TRANSPORT" set to "1"
    And the target environment has "OPENCLAW_DEBUG_MODEL_PAYLOAD" set to "full-redacted"
    And the target environment has "OPENCLAW_DEBUG_SSE" set to "peek"
    When a turn starts
    And the model calls exec with:
      """js
      text("visible output");
      return 3;
      """
    Then the result value is 3
    And the model request replays the latest exec call with its id, arguments and result text
    And every model request of the turn offers function tools only

