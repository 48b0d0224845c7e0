Feature: Internal code-mode namespaces
  SPEC chapter 15: trusted loaders register namespaces such as Issues; guest code calls them as
  serialized scopes whose callable paths run the owning plugin's catalog tools by exact id.

  Background:
    Given code mode is enabled
    And the tools:
      """json
      [
        {"name": "github_list_issues", "source": "plugin", "owner": "github", "description": "List repository issues.",
         "parameters": {"type": "object", "properties": {"state": {"type": "string"}}}},
        {"name": "github_update_issue", "source": "plugin", "owner": "github", "description": "Update one issue.",
         "parameters": {"type": "object", "properties": {"number": {"type": "integer"}, "patch": {"type": "object"}}}}
      ]
      """

  @namespaces @CM-15.13 @CM-15.17 @CM-15.18 @CM-15.19 @CM-15.20 @ns-7
  Scenario: Namespace calls run the backing catalog tools and resolve to their details
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "prompt": "Use Issues.list(params) and Issues.update(number, patch).",
        "requiredToolNames": ["github_list_issues", "github_update_issue"],
        "scope": {
          "repository": {"owner": "openclaw", "repo": "openclaw"},
          "list": {"$tool": "github_list_issues"},
          "update": {"$tool": "github_update_issue", "$args": ["number", "patch"]}
        }
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      const open = await Issues.list({ state: "open" });
      const alsoOpen = await namespaces.Issues.list({ state: "open" });
      const updated = await Issues.update(7, { state: "closed" });
      return { open, alsoOpen, updated, same: namespaces.Issues === Issues, repository: Issues.repository };
      """
    Then the result value is:
      """json
      {
        "open": {"tool": "github_list_issues", "input": {"state": "open"}},
        "alsoOpen": {"tool": "github_list_issues", "input": {"state": "open"}},
        "updated": {"tool": "github_update_issue", "input": {"number": 7, "patch": {"state": "closed"}}},
        "same": true,
        "repository": {"owner": "openclaw", "repo": "openclaw"}
      }
      """
    And the telemetry includes:
      """json
      {"callCount": 3, "catalogSize": 2, "sources": {"openclaw": 2, "mcp": 0, "client": 0}}
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "name": "github_list_issues", "catalogId": "openclaw:github:github_list_issues", "parentToolCallId": "<string>", "status": "ok"},
        {"type": "tool_call", "name": "github_update_issue", "catalogId": "openclaw:github:github_update_issue", "parentToolCallId": "<string>", "status": "ok"}
      ]
      """

  @namespaces @CM-15.18
  Scenario: A namespace tool without an input mapper sends the first argument, or an empty object
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      const none = await Issues.list();
      const extra = await Issues.list({ state: "all" }, "ignored second argument");
      return [none.input, extra.input];
      """
    Then the result value is:
      """json
      [{}, {"state": "all"}]
      """

  @namespaces @CM-15.9
  Scenario: createScope receives the run context of each exec
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {
          "agent": {"$context": "agentId"},
          "key": {"$context": "sessionKey"},
          "session": {"$context": "sessionId"},
          "run": {"$context": "runId"}
        }
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return { agent: Issues.agent, key: Issues.key, session: Issues.session, run: Issues.run };
      """
    Then the result value is:
      """json
      {"agent": "main", "key": "agent:main:main", "session": "session-1", "run": "<string>"}
      """
    When a turn starts for agent "ops"
    And the model calls exec with:
      """js
      return Issues.agent;
      """
    Then the result value is "ops"

  @namespaces @CM-15.7 @CM-4.21 @CM-4.20 @CM-10.1 @CM-15.1 @ns-1
  Scenario: The namespace prompt text appears when every backing tool is visible
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "prompt": "  Use Issues.list(params) and Issues.update(number, patch).  ",
        "requiredToolNames": ["github_list_issues", "github_update_issue"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    When a turn starts
    Then the exec description contains:
      """text
      Registered namespace globals are available in code mode:
      - Issues: GitHub issue helpers for the current repository.
      Use Issues.list(params) and Issues.update(number, patch).
      """
    When the model calls exec with:
      """js
      return { type: typeof Issues, keys: Object.keys(namespaces) };
      """
    Then the result value is:
      """json
      {"type": "object", "keys": ["Issues"]}
      """

  @namespaces @CM-15.1 @CM-4.20
  Scenario: A namespace prompt given as a function of the run context is computed for each run
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "prompt": {"$template": "Use Issues for agent {agentId} in {sessionKey}."},
        "requiredToolNames": ["github_list_issues", "github_update_issue"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    When a turn starts
    Then the exec description contains:
      """text
      - Issues: GitHub issue helpers for the current repository.
      Use Issues for agent main in agent:main:main.
      """
    When a turn starts for agent "ops"
    Then the exec description contains:
      """text
      - Issues: GitHub issue helpers for the current repository.
      Use Issues for agent ops in agent:ops:main.
      """
    And the exec description does not contain "agent main"

  @namespaces @CM-15.7 @CM-4.21 @ns-1
  Scenario: A namespace whose backing tool is denied has no global, no namespaces member and no prompt text
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "prompt": "Use Issues.list(params) and Issues.update(number, patch).",
        "requiredToolNames": ["github_list_issues", "github_update_issue"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    And the tool policy denies "github_update_issue"
    When a turn starts
    Then the exec description does not contain "Registered namespace globals are available in code mode:"
    And the exec description does not contain "Issues"
    When the model calls exec with:
      """js
      return { type: typeof Issues, keys: Object.keys(namespaces) };
      """
    Then the result value is:
      """json
      {"type": "undefined", "keys": []}
      """

  @namespaces @CM-15.8 @CM-15.7 @ns-2
  Scenario: A same-named tool owned by another plugin does not expose the namespace
    Given the plugin "gitlab" registers the namespace:
      """json
      {
        "id": "gitlab-issues",
        "globalName": "Tickets",
        "description": "GitLab issue helpers.",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    When a turn starts
    Then the exec description does not contain "Tickets"
    When the model calls exec with:
      """js
      return { type: typeof Tickets, keys: Object.keys(namespaces) };
      """
    Then the result value is:
      """json
      {"type": "undefined", "keys": []}
      """
    And the tool "github_list_issues" was not called

  @namespaces @CM-15.17 @CM-15.8
  Scenario: A namespace call runs its own plugin's tool even when another plugin has the same tool name
    Given the tool:
      """json
      {"name": "github_list_issues", "source": "plugin", "owner": "mirror", "description": "Mirror of the issue list.",
       "behavior": {"returns": {"from": "mirror"}}}
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
    When a turn starts
    And the model calls exec with:
      """js
      return await Issues.list({ state: "open" });
      """
    Then the result value is:
      """json
      {"tool": "github_list_issues", "input": {"state": "open"}}
      """
    And the trajectory includes:
      """json
      [{"type": "tool_call", "catalogId": "openclaw:github:github_list_issues", "status": "ok"}]
      """

  @namespaces @CM-4.20 @CM-15.7
  Scenario: Visible namespaces are listed in the prompt by namespace id, with bare names for empty descriptions
    Given the plugin "github" registers the namespace:
      """json
      {"id": "zeta-helpers", "globalName": "Alpha", "description": "   ", "requiredToolNames": ["github_list_issues"],
       "scope": {"list": {"$tool": "github_list_issues"}}}
      """
    And the plugin "github" registers the namespace:
      """json
      {"id": "alpha-helpers", "globalName": "Zed", "description": "Zed helpers.", "prompt": "Call Zed.list().",
       "requiredToolNames": ["github_update_issue"], "scope": {"list": {"$tool": "github_update_issue"}}}
      """
    When a turn starts
    Then the exec description contains:
      """text
      Registered namespace globals are available in code mode:
      - Zed: Zed helpers.
      Call Zed.list().
      - Alpha
      """
    When the model calls exec with:
      """js
      return Object.keys(namespaces).sort();
      """
    Then the result value is:
      """json
      ["Alpha", "Zed"]
      """

  @namespaces @CM-15.12 @ns-3
  Scenario: A raw host function in the scope is rejected before the VM starts
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}, "util": {"helper": {"$function": "helper"}}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return await Issues.list();
      """
    Then the result fails with code "invalid_input"
    And the result error is "Code mode namespace function at util.helper must be created with createCodeModeNamespaceTool."
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": []}
      """
    And the tool "github_list_issues" was not called

  @namespaces @CM-15.12 @ns-6
  Scenario: A circular scope is rejected with its dotted path
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"tree": {"leaf": 1, "self": {"$ref": "tree"}}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return Issues.tree.leaf;
      """
    Then the result fails with code "invalid_input"
    And the result error is "Circular code mode namespace scope at tree.self."
    And the result failure phase is "input"

  @namespaces @CM-15.12
  Scenario Outline: A scope key "<key>" is an invalid path segment
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}, "meta": {"<key>": 1}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return 1;
      """
    Then the result fails with code "invalid_input"
    And the result error is "Invalid code mode namespace path segment: <segment>"
    And the result failure phase is "input"

    Examples:
      | key         | segment     |
      | __proto__   | __proto__   |
      | constructor | constructor |
      | prototype   | prototype   |
      |             | (empty)     |
      | a.b         | a.b         |

  @namespaces @CM-15.10
  Scenario: createScope must return an object
    Given the plugin "github" registers the namespace:
      """json
      {"id": "github-issues", "globalName": "Issues", "requiredToolNames": ["github_list_issues"], "scope": 42}
      """
    When a turn starts
    And the model calls exec with:
      """js
      return typeof Issues;
      """
    Then the result fails with code "invalid_input"
    And the result error is:
      """text
      Code mode namespace "github-issues" createScope must return an object.
      """
    And the result failure phase is "input"

  @namespaces @CM-15.11 @CM-10.4 @ns-6
  Scenario: Nested objects and shared references serialize at each place as frozen plain data
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {
          "defaults": {"labels": ["bug", "triage"], "depth": {"level": {"x": 1, "empty": null}}},
          "alias": {"$ref": "defaults"},
          "big": {"$bigint": "12345678901234567890"},
          "list": {"$tool": "github_list_issues"}
        }
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      return {
        alias: Issues.alias,
        equalContent: JSON.stringify(Issues.alias) === JSON.stringify(Issues.defaults),
        sameObject: Issues.alias === Issues.defaults,
        big: Issues.big,
        frozen: [Object.isFrozen(Issues), Object.isFrozen(Issues.defaults.depth.level), Object.isFrozen(Issues.defaults.labels)],
        listIsFunction: typeof Issues.list,
      };
      """
    Then the result value is:
      """json
      {
        "alias": {"labels": ["bug", "triage"], "depth": {"level": {"x": 1, "empty": null}}},
        "equalContent": true,
        "sameObject": false,
        "big": "12345678901234567890",
        "frozen": [true, true, true],
        "listIsFunction": "function"
      }
      """

  @namespaces @CM-10.4
  Scenario: Every namespace object reachable from namespaces is frozen
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {
          "settings": {"labels": ["bug"], "paging": {"size": 20}},
          "list": {"$tool": "github_list_issues"}
        }
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      const issues = namespaces.Issues;
      const attempts = (() => {
        "use strict";
        const attempt = (change) => {
          try {
            change();
            return "changed";
          } catch (error) {
            return error.name;
          }
        };
        return [
          attempt(() => { issues.list = null; }),
          attempt(() => { issues.extra = 1; }),
          attempt(() => { issues.settings.paging.size = 99; }),
          attempt(() => { issues.settings.labels.push("triage"); }),
        ];
      })();
      return {
        frozen: [Object.isFrozen(issues), Object.isFrozen(issues.settings), Object.isFrozen(issues.settings.paging), Object.isFrozen(issues.settings.labels)],
        attempts,
        kept: [typeof issues.list, issues.settings.paging.size, issues.settings.labels.length],
      };
      """
    Then the result value is:
      """json
      {
        "frozen": [true, true, true, true],
        "attempts": ["TypeError", "TypeError", "TypeError", "TypeError"],
        "kept": ["function", 20, 1]
      }
      """

  @namespaces @CM-15.16 @ns-5
  Scenario: A callable path cannot target a tool outside requiredToolNames
    Given the tool:
      """json
      {"name": "github_delete_repo", "source": "plugin", "owner": "github", "description": "Delete the repository."}
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}, "purge": {"$tool": "github_delete_repo"}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await Issues.purge({ confirm: true });
        return "purged";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "Code mode namespace path targets undeclared tool: github_delete_repo"
    And the tool "github_delete_repo" was not called

  @namespaces @CM-15.14 @CM-15.13 @ns-4
  Scenario: Guest code cannot forge namespace paths through data members, copies or redefinition
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues", "github_update_issue"],
        "scope": {"repository": {"owner": "openclaw"}, "list": {"$tool": "github_list_issues"}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      const attempts = {};
      const attempt = async (name, fn) => {
        try {
          await fn();
          attempts[name] = "ran";
        } catch (error) {
          attempts[name] = error.name;
        }
      };
      await attempt("callData", () => Issues.repository());
      await attempt("unknownMember", () => Issues.update(1, {}));
      await attempt("redefine", () => Object.defineProperty(Issues, "update", { value: Issues.list }));
      await attempt("newGlobalEntry", () => Object.defineProperty(namespaces, "Fake", { value: { list: Issues.list } }));
      await attempt("boundThis", () => Reflect.apply(Issues.list, { path: "update", namespace: "github-issues" }, [{ state: "open" }]));
      return { attempts, unknownNamespace: typeof namespaces.Nope, keys: Object.keys(namespaces) };
      """
    Then the result value is:
      """json
      {
        "attempts": {
          "callData": "TypeError",
          "unknownMember": "TypeError",
          "redefine": "TypeError",
          "newGlobalEntry": "TypeError",
          "boundThis": "ran"
        },
        "unknownNamespace": "undefined",
        "keys": ["Issues"]
      }
      """
    And the tool "github_list_issues" was called 1 times
    And the tool "github_list_issues" was last called with:
      """json
      {"state": "open"}
      """
    And the tool "github_update_issue" was not called

  @namespaces @CM-15.20 @CM-10.31 @ns-8
  Scenario: Guest code catches failed and hook-blocked namespace calls
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues", "github_update_issue"],
        "scope": {"list": {"$tool": "github_list_issues"}, "update": {"$tool": "github_update_issue", "$args": ["number", "patch"]}}
      }
      """
    And the tool "github_list_issues" fails with "rate limited"
    And the before_tool_call hook blocks "github_update_issue" with "issues are read-only today"
    When a turn starts
    And the model calls exec with:
      """js
      const outcomes = [];
      for (const call of [() => Issues.list({}), () => Issues.update(1, { state: "closed" })]) {
        try {
          await call();
          outcomes.push("ok");
        } catch (error) {
          outcomes.push(error.message);
        }
      }
      return outcomes;
      """
    Then the result status is "completed"
    And the result value is:
      """json
      ["rate limited", "issues are read-only today"]
      """
    And the tool "github_update_issue" was not called
    And the telemetry includes:
      """json
      {"callCount": 2}
      """
    And the trajectory includes:
      """json
      [
        {"type": "tool_call", "catalogId": "openclaw:github:github_list_issues", "status": "error"},
        {"type": "tool_call", "catalogId": "openclaw:github:github_update_issue", "status": "blocked"}
      ]
      """

  @namespaces @CM-15.20 @ns-8
  Scenario: Namespace calls need the same approval as direct calls
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "requiredToolNames": ["github_list_issues", "github_update_issue"],
        "scope": {"list": {"$tool": "github_list_issues"}, "update": {"$tool": "github_update_issue", "$args": ["number", "patch"]}}
      }
      """
    And the tool "github_update_issue" requires approval
    And approval for "github_update_issue" is denied
    When a turn starts
    And the model calls exec with:
      """js
      const listed = await Issues.list({});
      try {
        await Issues.update(3, {});
        return "updated";
      } catch (error) {
        return [listed.tool, error.message];
      }
      """
    Then the result value is:
      """json
      ["github_list_issues", "Tool call denied: openclaw:github:github_update_issue."]
      """
    And the tool "github_update_issue" was not called

  @namespaces @CM-15.21 @CM-8.11 @ns-9 @timing
  Scenario: A namespace call still pending at the deadline resumes through wait
    Given code mode is configured as:
      """json
      {"enabled": true, "timeoutMs": 400}
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
    And the tool "github_list_issues" is held until released
    When a turn starts
    And the model calls exec with:
      """js
      text("asked");
      const listed = await Issues.list({ state: "open" });
      text("answered");
      return listed;
      """
    Then the result is waiting with reason "pending_tools"
    And the result pending tool calls are:
      """json
      [{"id": "bridge:namespace:1", "method": "namespace"}]
      """
    And the result output is:
      """json
      [{"type": "text", "text": "asked"}]
      """
    When the tool "github_list_issues" is released
    And the model calls wait
    Then the result status is "completed"
    And the result value is:
      """json
      {"tool": "github_list_issues", "input": {"state": "open"}}
      """
    And the result output is:
      """json
      [{"type": "text", "text": "answered"}]
      """

  @namespaces @CM-15.5 @ns-10
  Scenario: Rolling back a plugin clears the namespaces it registered and keeps the others
    Given the tool:
      """json
      {"name": "tracker_list", "source": "plugin", "owner": "tracker", "description": "List tracker items."}
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    And the plugin "tracker" registers the namespace:
      """json
      {
        "id": "tracker-items",
        "globalName": "Tracker",
        "description": "Tracker helpers.",
        "requiredToolNames": ["tracker_list"],
        "scope": {"list": {"$tool": "tracker_list"}}
      }
      """
    And the plugin "github" is rolled back
    When a turn starts
    Then the exec description does not contain "GitHub issue helpers"
    And the exec description contains "- Tracker: Tracker helpers."
    When the model calls exec with:
      """js
      return [typeof Issues, Object.keys(namespaces), (await Tracker.list({})).tool];
      """
    Then the result value is:
      """json
      ["undefined", ["Tracker"], "tracker_list"]
      """

  @namespaces @CM-15.5 @ns-10
  Scenario Outline: A plugin that is <event> has the namespaces it registered cleared and the others kept
    Given the tool:
      """json
      {"name": "tracker_list", "source": "plugin", "owner": "tracker", "description": "List tracker items."}
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    And the plugin "tracker" registers the namespace:
      """json
      {
        "id": "tracker-items",
        "globalName": "Tracker",
        "description": "Tracker helpers.",
        "requiredToolNames": ["tracker_list"],
        "scope": {"list": {"$tool": "tracker_list"}}
      }
      """
    And the plugin "github" is <event>
    When a turn starts
    Then the exec description does not contain "GitHub issue helpers"
    And the exec description contains "- Tracker: Tracker helpers."
    When the model calls exec with:
      """js
      return [typeof Issues, Object.keys(namespaces), (await Tracker.list({})).tool];
      """
    Then the result value is:
      """json
      ["undefined", ["Tracker"], "tracker_list"]
      """

    Examples:
      | event       |
      | disabled    |
      | uninstalled |

  @namespaces @CM-15.1 @CM-15.2
  Scenario: Registering a namespace id twice is refused
    Given the plugin "github" registers the namespace:
      """json
      {"id": "github-issues", "globalName": "Issues", "requiredToolNames": ["github_list_issues"], "scope": {}}
      """
    When the plugin "github" registers the namespace:
      """json
      {"id": "github-issues", "globalName": "Tracker", "requiredToolNames": ["github_list_issues"], "scope": {}}
      """
    Then the registration is refused with:
      """text
      Code mode namespace id "github-issues" is already registered.
      """

  @namespaces @CM-15.2
  Scenario: Registering a global name already taken by another namespace is refused
    Given the plugin "github" registers the namespace:
      """json
      {"id": "github-issues", "globalName": "Issues", "requiredToolNames": ["github_list_issues"], "scope": {"list": {"$tool": "github_list_issues"}}}
      """
    When the plugin "other" registers the namespace:
      """json
      {"id": "other-issues", "globalName": "Issues", "requiredToolNames": ["github_list_issues"], "scope": {}}
      """
    Then the registration is refused with:
      """text
      Code mode namespace globalName "Issues" is already registered by "github-issues".
      """
    When a turn starts
    And the model calls exec with:
      """js
      return Object.keys(namespaces);
      """
    Then the result value is:
      """json
      ["Issues"]
      """

  @namespaces @CM-15.2
  Scenario: Registering a namespace without a plugin id is refused after the id check
    When the plugin "" registers the namespace:
      """json
      {"id": "github-issues", "globalName": "tools", "requiredToolNames": [], "scope": {}}
      """
    Then the registration is refused with:
      """text
      Code mode namespace pluginId must be non-empty.
      """

  @namespaces @CM-15.2 @CM-15.3 @CM-15.4
  Scenario Outline: Namespace registration validation: <case>
    When the plugin "github" registers the namespace:
      """json
      <registration>
      """
    Then the registration is refused with:
      """text
      <message>
      """

    Examples:
      | case                     | registration                                                                                                                   | message                                                                    |
      | empty id                 | {"id": "", "globalName": "Issues", "requiredToolNames": ["github_list_issues"], "scope": {}}                                   | Code mode namespace id must be non-empty.                                  |
      | id checked first         | {"id": "", "globalName": "tools", "requiredToolNames": [], "scope": {}}                                                        | Code mode namespace id must be non-empty.                                  |
      | not an identifier        | {"id": "github-issues", "globalName": "my-issues", "requiredToolNames": ["github_list_issues"], "scope": {}}                   | Code mode namespace globalName must be a JavaScript identifier.            |
      | reserved tools           | {"id": "github-issues", "globalName": "tools", "requiredToolNames": ["github_list_issues"], "scope": {}}                       | Code mode namespace globalName "tools" is reserved.                        |
      | reserved ALL_TOOLS       | {"id": "github-issues", "globalName": "ALL_TOOLS", "requiredToolNames": ["github_list_issues"], "scope": {}}                   | Code mode namespace globalName "ALL_TOOLS" is reserved.                    |
      | reserved namespaces      | {"id": "github-issues", "globalName": "namespaces", "requiredToolNames": ["github_list_issues"], "scope": {}}                  | Code mode namespace globalName "namespaces" is reserved.                   |
      | reserved text            | {"id": "github-issues", "globalName": "text", "requiredToolNames": ["github_list_issues"], "scope": {}}                        | Code mode namespace globalName "text" is reserved.                         |
      | reserved json            | {"id": "github-issues", "globalName": "json", "requiredToolNames": ["github_list_issues"], "scope": {}}                        | Code mode namespace globalName "json" is reserved.                         |
      | reserved MCP             | {"id": "github-issues", "globalName": "MCP", "requiredToolNames": ["github_list_issues"], "scope": {}}                         | Code mode namespace globalName "MCP" is reserved.                          |
      | reserved API             | {"id": "github-issues", "globalName": "API", "requiredToolNames": ["github_list_issues"], "scope": {}}                         | Code mode namespace globalName "API" is reserved.                          |
      | reserved Swarm agents    | {"id": "github-issues", "globalName": "agents", "requiredToolNames": ["github_list_issues"], "scope": {}}                      | Code mode namespace globalName "agents" is reserved.                       |
      | reserved bridge prefix   | {"id": "github-issues", "globalName": "__openclawBridge", "requiredToolNames": ["github_list_issues"], "scope": {}}            | Code mode namespace globalName "__openclawBridge" is reserved.             |
      | reserved before required | {"id": "github-issues", "globalName": "yield_control", "requiredToolNames": [], "scope": {}}                                   | Code mode namespace globalName "yield_control" is reserved.                |
      | built-in global          | {"id": "github-issues", "globalName": "Reflect", "requiredToolNames": ["github_list_issues"], "scope": {}}                     | Code mode namespace globalName "Reflect" collides with a global.           |
      | no createScope           | {"id": "github-issues", "globalName": "Issues", "requiredToolNames": ["github_list_issues"]}                                   | Code mode namespace createScope must be a function.                        |
      | no required tools        | {"id": "github-issues", "globalName": "Issues", "requiredToolNames": [], "scope": {}}                                          | Code mode namespace requiredToolNames must include at least one tool name. |
      | empty required tool name | {"id": "github-issues", "globalName": "Issues", "requiredToolNames": ["github_list_issues", ""], "scope": {}}                  | Code mode namespace requiredToolNames must be non-empty strings.           |
      | blank tool marker        | {"id": "github-issues", "globalName": "Issues", "requiredToolNames": ["github_list_issues"], "scope": {"list": {"$tool": "  "}}} | Code mode namespace toolName must be non-empty.                            |

  @namespaces @CM-15.5 @ns-10
  Scenario: Rolling back a plugin clears every namespace it registered
    Given the plugin "github" registers the namespace:
      """json
      {
        "id": "github-issues",
        "globalName": "Issues",
        "description": "GitHub issue helpers for the current repository.",
        "requiredToolNames": ["github_list_issues"],
        "scope": {"list": {"$tool": "github_list_issues"}}
      }
      """
    And the plugin "github" registers the namespace:
      """json
      {
        "id": "github-updates",
        "globalName": "Updates",
        "description": "GitHub issue updates.",
        "requiredToolNames": ["github_update_issue"],
        "scope": {"update": {"$tool": "github_update_issue"}}
      }
      """
    And the plugin "github" is rolled back
    When a turn starts
    Then the exec description does not contain "Registered namespace globals are available in code mode:"
    When the model calls exec with:
      """js
      return [typeof Issues, typeof Updates, Object.keys(namespaces)];
      """
    Then the result value is:
      """json
      ["undefined", "undefined", []]
      """
