Feature: Catalog search ranking
  SPEC chapter 12: tools.search ranks the non-MCP catalog with BM25 over the
  lexicon of Appendix B; exact matches, limits, MCP exclusion and the search counter.

  Background:
    Given code mode is enabled
    And the tools:
      """json
      [
        {"name": "web_search", "description": "Search the web for current information.", "parameters": {"type": "object", "required": ["query"], "properties": {"query": {"type": "string"}}}},
        {"name": "web_fetch", "description": "Fetch a web page by URL.", "parameters": {"type": "object", "required": ["url"], "properties": {"url": {"type": "string"}}}},
        {"name": "get_weather", "description": "Current weather for a city.", "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}},
        {"name": "news_feed", "description": "Latest news headlines."},
        {"name": "calendar_agenda", "description": "Show the agenda of meetings, events, tasks, deadlines, holidays and birthdays for today or any other day."},
        {"name": "ticket_open", "description": "Open a new ticket for an issue."},
        {"name": "reminder_create", "description": "Create a reminder for later."},
        {"name": "cron_list", "description": "List scheduled automations."},
        {"name": "file_read", "description": "Read a file from the workspace.", "parameters": {"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}}}},
        {"name": "spreadsheet_open", "description": "Open a spreadsheet document."},
        {"name": "process_runner", "description": "Running jobs in the background."},
        {"name": "translate", "description": "Translate text.", "parameters": {"type": "object", "properties": {"target": {"type": "string", "description": "Target language code."}}}},
        {"name": "getHTTPResponse", "description": "Low-level request helper."},
        {"name": "alpha_probe", "description": "Probe endpoint."},
        {"name": "beta_probe", "description": "Probe endpoint."},
        {"name": "the", "description": "A tool named like a stopword."},
        {"name": "pick_color", "source": "client", "owner": "app", "description": "Read a color from the user.", "parameters": {"type": "object", "properties": {"palette": {"type": "string", "description": "Language code of the palette."}}}}
      ]
      """

  @core @CM-12.1 @CM-12.2 @CM-12.4 @CM-12.7 @CM-11.33 @CM-10.11
  Scenario Outline: Search: the query "<query>" ranks <names>
    When a turn starts
    And the model calls exec with:
      """js
      return (await tools.search("<query>")).map((entry) => entry.name);
      """
    Then the result value is <names>

    Examples:
      | query               | names                                            |
      | weather             | ["get_weather", "web_search", "web_fetch"]       |
      | today               | ["calendar_agenda", "web_search", "web_fetch"]   |
      | reminders           | ["reminder_create", "cron_list"]                 |
      | running             | ["process_runner"]                               |
      | news                | ["news_feed", "web_search", "web_fetch"]         |
      | read                | ["file_read", "pick_color"]                      |
      | web                 | ["web_fetch", "web_search"]                      |

  @core @CM-12.2
  Scenario: Search: term saturation and length normalization follow k1 = 1.2 and b = 0.75
    # "dense" repeats one query word; "mixed" has both query words once at the
    # same length: their order flips when k1 is 1.1 or 1.3 instead of 1.2.
    # "short" and "long" differ in length and term count: their order flips
    # when b is 0.7 or 0.8 instead of 0.75.
    Given the tools:
      """json
      [
        {"name": "vekdense", "description": "vek vek vek vek vek vek vek vek vek vek vek"},
        {"name": "vekmixed", "description": "vek jib pad pad pad pad pad pad pad pad pad"},
        {"name": "vekrare", "description": "jib pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad"},
        {"name": "daxdense", "description": "dax dax dax dax dax dax dax dax dax dax"},
        {"name": "daxmixed", "description": "dax nib pad pad pad pad pad pad pad pad"},
        {"name": "daxrare", "description": "nib pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad pad"},
        {"name": "wueshort", "description": "wue pad pad"},
        {"name": "wuelong", "description": "wue wue pad pad pad pad pad pad pad pad pad pad pad pad"},
        {"name": "wufshort", "description": "wuf pad pad"},
        {"name": "wuflong", "description": "wuf wuf pad pad pad pad pad pad pad pad pad pad pad pad pad"}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const names = async (query) => (await tools.search(query)).map((entry) => entry.name);
      return [await names("vek jib"), await names("dax nib"), await names("wue"), await names("wuf")];
      """
    Then the result value is:
      """json
      [
        ["vekdense", "vekmixed", "vekrare"],
        ["daxmixed", "daxdense", "daxrare"],
        ["wuelong", "wueshort"],
        ["wufshort", "wuflong"]
      ]
      """

  @core @CM-12.2
  Scenario: Search: idf is the natural logarithm computed as section 12.2 says
    # With the 17 tools of the background, 27 documents: "mur" is in 2 of them,
    # so its idf is ln(28 / 2.5) = ln(11.2), which fdlibm's log computes on
    # a path other idfs here do not take, and "zqb" scores just above "zqa":
    # a logarithm a few percent off on that path puts "zqa" first.
    Given the tools:
      """json
      [
        {"name": "zqa", "description": "kol"},
        {"name": "zqb", "description": "mur pad pad pad"},
        {"name": "zqcb", "description": "kol kol kol pad"},
        {"name": "zqcc", "description": "kol kol kol pad"},
        {"name": "zqdb", "description": "mur mur mur pad"},
        {"name": "zqea", "description": "pad pad"},
        {"name": "zqeb", "description": "pad pad"},
        {"name": "zqec", "description": "pad pad"},
        {"name": "zqed", "description": "pad pad"},
        {"name": "zqee", "description": "pad pad"}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      return (await tools.search("kol mur")).map((entry) => entry.name);
      """
    Then the result value is:
      """json
      ["zqdb", "zqcb", "zqcc", "zqb", "zqa"]
      """

  @core @CM-12.7 @CM-10.11
  Scenario: Search: results are compact catalog entries
    When a turn starts
    And the model calls exec with:
      """js
      return await tools.search("web", { limit: 1 });
      """
    Then the result value is:
      """json
      [{"id": "openclaw:core:web_fetch", "name": "web_fetch", "description": "Fetch a web page by URL.", "source": "openclaw", "input": "{ url: string }"}]
      """

  @core @CM-12.3 @CM-12.4 @CM-12.6
  Scenario: Search: an exact name or id match ranks first even when another tool scores higher
    Given the tools:
      """json
      [
        {"name": "memo", "description": "Memo."},
        {"name": "memo_board", "description": "Memo board with memo notes, memo pins and memo memo memo."}
      ]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const names = (entries) => entries.map((entry) => entry.name);
      return {
        plain: names(await tools.search("memo")),
        padded: names(await tools.search("  MEMO  ")),
        single: names(await tools.search("memo", { limit: 1 })),
        byId: names(await tools.search("openclaw:core:memo_board", { limit: 2 })),
      };
      """
    Then the result value is:
      """json
      {"plain": ["memo", "memo_board"], "padded": ["memo", "memo_board"], "single": ["memo"], "byId": ["memo_board", "memo"]}
      """

  @core @CM-12.5 @CM-12.3 @CM-12.8
  Scenario: Search: a tool named like a stopword is found by its exact name only
    When a turn starts
    And the model calls exec with:
      """js
      const names = (entries) => entries.map((entry) => entry.name);
      return [names(await tools.search("the")), names(await tools.search("THE")), names(await tools.search("the web"))];
      """
    Then the result value is:
      """json
      [["the"], ["the"], ["web_fetch", "web_search"]]
      """

  @core @CM-12.8
  Scenario Outline: Search: the query "<query>" has no usable term and returns nothing
    When a turn starts
    And the model calls exec with:
      """js
      return await tools.search("<query>");
      """
    Then the result value is []
    And the telemetry includes:
      """json
      {"searchCount": 1}
      """

    Examples:
      | query          |
      |                |
      | of the and     |
      | !!! --- ...    |

  @core @CM-12.7 @CM-10.11 @CM-2.8
  Scenario Outline: Search: default, explicit and capped limits with <config>
    Given code mode is configured as:
      """json
      <config>
      """
    When a turn starts
    And the model calls exec with:
      """js
      return [
        (await tools.search("openclaw")).length,
        (await tools.search("openclaw", { limit: 2 })).length,
        (await tools.search("openclaw", { limit: 50 })).length,
      ];
      """
    Then the result value is <counts>

    Examples:
      | config                                  | counts     |
      | {"enabled": true}                       | [8, 2, 16] |
      | {"enabled": true, "maxSearchLimit": 5}  | [5, 2, 5]  |

  @core @CM-12.10 @CM-10.9 @CM-10.10 @CM-20.4
  Scenario: Search: invalid search arguments reject inside the guest and are not counted
    When a turn starts
    And the model calls exec with:
      """js
      const messages = [];
      for (const attempt of [
        () => tools.search(42),
        () => tools.search("web", { limit: 0 }),
        () => tools.search("web", { limit: 1.5 }),
        () => tools.search("web", { limit: "2" }),
        () => tools.search("web", { limit: -1 }),
      ]) {
        try {
          await attempt();
          messages.push("resolved");
        } catch (error) {
          messages.push(error.message);
        }
      }
      return { messages, hits: (await tools.search("web")).length };
      """
    Then the result value is:
      """json
      {
        "messages": [
          "search query must be a string.",
          "limit must be a positive integer.",
          "limit must be a positive integer.",
          "limit must be a positive integer.",
          "limit must be a positive integer."
        ],
        "hits": 2
      }
      """
    And the telemetry includes:
      """json
      {"searchCount": 1, "describeCount": 0, "callCount": 0}
      """

  @core @CM-12.10 @CM-20.3 @CM-20.4
  Scenario: Search: searchCount accumulates over the exec calls of one agent run only
    When a turn starts
    And the model calls exec with:
      """js
      await tools.search("weather");
      await tools.search("news");
      return "two searches";
      """
    Then the telemetry includes:
      """json
      {"searchCount": 2}
      """
    When the model calls exec with:
      """js
      await tools.search("web");
      return "one more";
      """
    Then the telemetry includes:
      """json
      {"searchCount": 3}
      """
    When a turn starts
    And the model calls exec with:
      """js
      await tools.search("web");
      return "new agent run";
      """
    Then the telemetry includes:
      """json
      {"searchCount": 1}
      """

  @core @CM-12.9 @CM-11.21 @CM-10.11
  Scenario: Search: MCP tools are never returned, even for their exact names
    Given the MCP server "github" with tools:
      """json
      [{"name": "create_issue", "description": "Create a GitHub issue.", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const names = (entries) => entries.map((entry) => entry.name);
      return [
        names(await tools.search("github create issue")),
        names(await tools.search("github__create_issue")),
        names(await tools.search("mcp:github:create_issue")),
      ];
      """
    Then the result value is:
      """json
      [["reminder_create", "ticket_open"], ["reminder_create", "ticket_open"], ["reminder_create", "ticket_open"]]
      """
    And the telemetry includes:
      """json
      {"catalogSize": 18, "sources": {"openclaw": 16, "mcp": 1, "client": 1}, "searchCount": 3}
      """

  @core @CM-12.1
  Scenario: Search: parameter text reaches schemas at depth 4 and no deeper
    # The schema of elodin is at depth 4, so its description "quux" is
    # searched; the schema of bastas is at depth 5, so its name is searched
    # (it is a member of elodin's properties) but not its description, nor
    # the names of its own properties.
    Given the tools:
      """json
      [{"name": "deep_tool", "description": "A tool with a deep schema.", "parameters": {"type": "object", "properties": {"kvothe": {"type": "object", "properties": {"denna": {"type": "object", "properties": {"auri": {"type": "object", "properties": {"elodin": {"type": "object", "description": "quux", "properties": {"bastas": {"type": "object", "description": "zorblax", "properties": {"chandrian": {"type": "string", "description": "zorblax"}}}}}}}}}}}}}}]
      """
    When a turn starts
    And the model calls exec with:
      """js
      const names = async (query) => (await tools.search(query)).map((entry) => entry.name);
      return [await names("quux"), await names("bastas"), await names("zorblax"), await names("chandrian")];
      """
    Then the result value is:
      """json
      [["deep_tool"], ["deep_tool"], [], []]
      """

  @core @CM-12.1
  Scenario: Search: words, camelCase parts and parameter text of OpenClaw tools are searched but client schemas are not
    When a turn starts
    And the model calls exec with:
      """js
      const names = (entries) => entries.map((entry) => entry.name);
      return [
        names(await tools.search("language code")),
        names(await tools.search("palette")),
        names(await tools.search("color")),
        names(await tools.search("http response")),
        names(await tools.search("look up the weather")),
      ];
      """
    Then the result value is:
      """json
      [["translate"], [], ["pick_color"], ["getHTTPResponse"], ["get_weather", "web_search", "web_fetch"]]
      """
