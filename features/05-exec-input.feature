Feature: exec input and source preparation
  SPEC.md chapter 5: the exec input check, the preparation order, the
  module-access rule, the shell rule and the evaluation of a cell.

  Background:
    Given code mode is enabled
    And the catalog "basic"

  # 5.1 Input check

  @core @CM-5.1 @CM-5.9 @CM-5.5
  Scenario: exec ignores input fields other than code, command, language and restartSafe
    Given a turn starts
    When the model calls exec with arguments:
      """json
      {"code": "return 1;", "timeoutMs": 1, "runId": "cm_not-a-run", "tools": ["weather"], "shell": true}
      """
    Then the result status is "completed"
    And the result value is 1
    And the result includes:
      """json
      {"replaySafe": false}
      """

  @core @CM-5.2 @CM-5.8 @CM-7.4 @CM-7.9 @CM-19.4
  Scenario: exec input check fails when code and command differ
    Given a turn starts
    When the model calls exec with arguments:
      """json
      {"code": "return 1;", "command": "return 2;"}
      """
    Then the result includes:
      """json
      {
        "status": "failed",
        "error": "code and command must match when both are provided.",
        "code": "invalid_input",
        "failurePhase": "input",
        "bridgeDispatchStarted": false,
        "output": [],
        "replaySafe": false,
        "telemetry": {
          "catalogSize": 4,
          "sources": {"openclaw": 3, "mcp": 0, "client": 1},
          "searchCount": 0,
          "describeCount": 0,
          "callCount": 0,
          "visibleTools": ["exec", "wait"]
        },
        "value": "<absent>",
        "runId": "<absent>",
        "repair": "<absent>"
      }
      """

  @core @CM-5.2 @CM-5.9 @CM-16.9
  Scenario: exec runs when code and command are the same string
    Given a turn starts
    When the model calls exec with arguments:
      """json
      {"code": "return 'same';", "command": "return 'same';"}
      """
    Then the result status is "completed"
    And the result value is "same"
    And the hook saw an event including:
      """json
      {"toolKind": "code_mode_exec", "toolInputKind": "javascript"}
      """

  @core @CM-5.3 @CM-5.2 @CM-5.1
  Scenario Outline: exec takes its source from command <case>
    Given a turn starts
    When the model calls exec with arguments:
      """json
      <arguments>
      """
    Then the result status is "completed"
    And the result value is <value>

    Examples:
      | case                                | arguments                                           | value |
      | when code is absent                 | {"command": "return 40 + 2;"}                       | 42    |
      | when code is not a string           | {"code": 7, "command": "return 'from command';"}    | "from command" |

  # The source is the code string as JSON.parse reads the arguments: an
  # escaped surrogate pair is one character, U+1F600, and \u0000 is the
  # character NUL inside the string literal.
  @core @CM-5.3
  Scenario Outline: exec reads the escapes of its JSON arguments into the source: <case>
    Given a turn starts
    When the model calls exec with arguments:
      """json
      <arguments>
      """
    Then the result value is <value>

    Examples:
      | case                                   | arguments                                                                                                 | value              |
      | an escaped surrogate pair is one character | {"code": "const s = \"\ud83d\ude00\"; return [s.length, s.codePointAt(0), s === \"\\\\u{1F600}\"];"} | [2, 128512, true]  |
      | an escaped NUL is a character          | {"code": "const s = \"a\u0000b\"; return [s.length, s.charCodeAt(1)];"}                                    | [3, 0]             |
      | a short source with an escaped newline | {"code": "1\\n"}                                                                                        | null               |
      | a source that ends in the number 0      | {"code": "return 0"}                                                                                      | 0                  |

  @core @CM-5.4 @CM-5.8 @CM-7.6 @CM-19.4 @CM-19.2
  Scenario Outline: exec input check rejects a missing or blank source: <case>
    Given a turn starts
    When the model calls exec with arguments:
      """json
      <arguments>
      """
    Then the result fails with code "invalid_input"
    And the result error is "code or command must be a non-empty string."
    And the result failure phase is "input"
    And the result output is:
      """json
      []
      """

    Examples:
      | case                         | arguments                         |
      | no code and no command       | {}                                |
      | whitespace-only code         | {"code": " \\n\\t  "}             |
      | numeric code                 | {"code": 42}                      |
      | empty code                   | {"code": ""}                      |

  @core @CM-5.5 @CM-5.8 @CM-19.4
  Scenario Outline: exec input check rejects the language <language>
    Given a turn starts
    When the model calls exec with arguments:
      """json
      {"code": "return 1;", "language": <language>}
      """
    Then the result fails with code "invalid_input"
    And the result error is "language must be javascript or typescript."
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "replaySafe": false}
      """

    Examples:
      | language     |
      | "bash"       |
      | "JavaScript" |

  @core @CM-5.5
  Scenario: exec accepts the language javascript given explicitly
    Given a turn starts
    When the model calls exec with arguments:
      """json
      {"code": "return typeof 1;", "language": "javascript"}
      """
    Then the result status is "completed"
    And the result value is "number"

  @core @CM-5.6 @CM-5.8 @CM-19.4 @CM-5.1
  Scenario Outline: exec input check rejects restartSafe <restartSafe>
    Given a turn starts
    When the model calls exec with arguments:
      """json
      {"code": "return 1;", "restartSafe": <restartSafe>}
      """
    Then the result fails with code "invalid_input"
    And the result error is "restartSafe must be a boolean."
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": [], "replaySafe": false}
      """

    Examples:
      | restartSafe |
      | "true"      |
      | 1           |

  @core @CM-5.7
  Scenario Outline: exec input checks report only the first failure: <first>
    Given a turn starts
    When the model calls exec with arguments:
      """json
      <arguments>
      """
    Then the result fails with code "invalid_input"
    And the result error is "<error>"

    Examples:
      | first              | arguments                                                                              | error                                                 |
      | code mismatch      | {"code": "return 1;", "command": "", "language": "bash", "restartSafe": "yes"}         | code and command must match when both are provided. |
      | blank source       | {"code": "   ", "language": "bash", "restartSafe": "yes"}                              | code or command must be a non-empty string.           |
      | unknown language   | {"code": "return 1;", "language": "python", "restartSafe": "yes"}                      | language must be javascript or typescript.            |

  @core @CM-5.8
  Scenario: a failed exec input check runs no guest code
    Given a turn starts
    When the model calls exec with arguments:
      """json
      {"code": "text(\"started\");\nawait tools.callValue(\"weather\", {city: \"Oslo\"});\nreturn 1;", "restartSafe": "yes"}
      """
    Then the result fails with code "invalid_input"
    And the result error is "restartSafe must be a boolean."
    And the result output is:
      """json
      []
      """
    And the tool "weather" was not called

  # 5.2 Preparation order

  @core @CM-5.9 @CM-5.10 @CM-5.11 @CM-5.12 @CM-19.4
  Scenario: exec without a language is a JavaScript cell and is gated before the module-access rule
    Given code mode is configured as:
      """json
      {"enabled": true, "languages": ["typescript"]}
      """
    And a turn starts
    When the model calls exec with:
      """js
      const fs = require("node:fs");
      return fs;
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode javascript input is disabled."
    And the result failure phase is "input"

  @core @CM-5.10 @CM-5.12 @CM-5.17
  Scenario: exec applies the module-access rule before the shell rule and evaluates nothing
    Given a turn starts
    When the model calls exec with:
      """js
      ls -la; await tools.callValue("weather", {city: "Oslo"}); require("node:fs")
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode module access is disabled."
    And the result failure phase is "input"
    And the tool "weather" was not called

  @core @CM-5.25
  Scenario Outline: the nesting bound does not count 1001 brackets inside <form>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result status is "completed"
    And the result value is 1001

    Examples:
      | form                          | code |
      | a string literal              | return "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[".length; |
      | a comment                     | // {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\nreturn 1001; |
      | a regular-expression literal  | return /[(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((]/.source.length - 2; |
      | the text of a template literal | return `(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((`.length; |

  @typescript @CM-5.25
  Scenario: a TypeScript cell nesting brackets 1001 levels deep is refused before the transform reads it
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      const v: number = (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    And the result error is "code mode source nests brackets more than 1000 levels deep."

  # "0;" is two tokens: 99997 of them and "return [1, 2]" (six tokens) make
  # 200000, the bound itself; one more ";" passes it.
  @core @CM-5.25
  Scenario: a source of exactly 200000 tokens runs
    Given a turn starts
    When the model calls exec with "0;" repeated 99997 times, then:
      """js
      return [1, 2]
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [1, 2]
      """

  @core @CM-5.25
  Scenario: a source of 200001 tokens fails preparation with invalid_input
    Given a turn starts
    When the model calls exec with "0;" repeated 99997 times, then:
      """js
      return [1, 2];
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    And the result error is "code mode source has more than 200000 tokens."
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": []}
      """

  # With its 99997 comments counted the source would have 299997 tokens.
  @core @CM-5.25
  Scenario: comments do not count toward the 200000-token bound
    Given a turn starts
    When the model calls exec with "0; /* not a token */" repeated 99997 times, then:
      """js
      // nor is this line
      return [1, 2]
      """
    Then the result status is "completed"
    And the result value is:
      """json
      [1, 2]
      """

  # 5.3 Module-access rule

  @core @CM-5.14 @CM-5.15 @CM-5.17 @CM-5.12 @checklist-17 @CM-19.2
  Scenario Outline: exec module-access rule rejects <form>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode module access is disabled."
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": []}
      """

    Examples:
      | form                                   | code                                                      |
      | a static import declaration            | import fs from "node:fs";\nreturn 1;                      |
      | a dynamic import expression            | const fs = await import("node:fs");\nreturn 1;            |
      | import.meta                            | return import.meta.url;                                   |
      | a require call                         | const fs = require("node:fs");\nreturn 1;                 |
      | an optional require call               | return require?.("node:fs");                              |
      | a comma-sequence require call          | return (0, require)("node:child_process");                |
      | a require named with a unicode escape  | text("ran");\nconst fs = \u0072equire("node:fs");\nreturn 1; |
      | an import named with a hex-letter escape | text("ran");\nreturn i\u006dport("node:fs");             |
      | an import inside a template substitution | return `${import('node:fs')}`;                          |

  @core @CM-5.16
  Scenario Outline: exec module-access rule accepts <form>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result status is "completed"
    And the result value is <value>

    Examples:
      | form                                       | code                                                                                   | value |
      | identifiers that contain the words         | const important = 1;\nconst required = 2;\nreturn important + required;               | 3     |
      | a string literal holding module code       | return "import fs from 'node:fs'; require('fs')";                                     | "import fs from 'node:fs'; require('fs')" |
      | comments holding module code               | // import fs from "node:fs"\n/* require("node:fs") */\nreturn 4;                      | 4     |
      | a regular expression with the words        | return /require\(/.test("require(x)");                                                 | true  |
      | member names import and require            | const obj = { import: 1, require: (x) => x * 2 };\nreturn obj.import + obj.require(20); | 41    |

  @core @CM-5.18 @CM-7.6 @CM-19.4 @checklist-17
  Scenario Outline: a guest ReferenceError for <name> is reported as module access
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode module access is disabled."
    And the result failure phase is "guest"

    Examples:
      | name    | code                                              |
      | require | const load = require;\nreturn load("node:fs");    |
      | process | return process.env.HOME;                          |
      | module  | module.exports = { secret: 1 };\nreturn 1;        |

  @core @CM-5.18
  Scenario: a ReferenceError thrown by guest code with the exact module message is reported as module access
    Given a turn starts
    When the model calls exec with:
      """js
      throw new ReferenceError("process is not defined");
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode module access is disabled."

  @core @CM-5.18 @CM-10.36 @checklist-17
  Scenario: network access from guest code fails as an ordinary ReferenceError
    Given a turn starts
    When the model calls exec with:
      """js
      return await fetch("https://example.com/");
      """
    Then the result fails with code "internal_error"
    And the result error starts with "ReferenceError: fetch is not defined"
    And the result failure phase is "guest"

  @core @CM-5.24
  Scenario: template literals with substitutions, nested templates and braces in them run and break nothing out
    Given a turn starts
    When the model calls exec with:
      """js
      const who = "code mode";
      const inner = (n) => `${n}!`;
      return `hello ${who}, ${ { a: 1 }.a + 1 } ${`nested ${inner(3)}`}`;
      """
    Then the result value is "hello code mode, 2 nested 3!"

  # 5.4 Shell rule

  @core @CM-5.19 @CM-5.21 @CM-19.4 @CM-19.2
  Scenario Outline: exec shell rule rejects <form>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    And the result error is:
      """text
      code-mode exec runs JavaScript or TypeScript, not shell commands. Call shell, file, or other tools from guest JavaScript with tools.callValue and an exact tool id from ALL_TOOLS or tools.search. Do not retry the same shell command as code.
      """

    Examples:
      | form                                      | code                                                 |
      | a shebang script                          | #!/bin/bash\necho hello                              |
      | an if test block                          | if [ -f notes.txt ]; then cat notes.txt; fi          |
      | a for-in loop                             | for f in *.txt; do echo $f; done                     |
      | an arithmetic for loop                    | for ((i = 0; i < 3; i++)); do echo $i; done          |
      | a brace function definition               | function greet {\n  echo hi\n}                       |
      | a case selection                          | case "$1" in\n  start) echo go;;\nesac              |
      | environment assignments before a command  | FOO=bar BAZ=1 node server.js                         |
      | a known command with flags                | ls -la /tmp                                          |
      | a known command alone                     | pwd                                                  |
      | a bin-prefixed known command              | /usr/local/bin/git status                            |
      | a /bin/-prefixed known command            | /bin/ls -la /tmp                                     |
      | a /usr/bin/-prefixed known command        | /usr/bin/git status                                  |
      | an executable path with arguments         | ./gradlew build --info                               |
      | a pipe that also parses as JavaScript     | ls \| wc                                             |
      | a redirection that also parses as JavaScript | ls > files.txt                                    |
      | a PowerShell command                      | Get-ChildItem -Path .                                |
      | a known command after a leading comment   | // list the files\nls -la /tmp                       |

  @core @CM-5.20
  Scenario Outline: exec shell rule accepts JavaScript with <form>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result status is "completed"
    And the result value is <value>

    Examples:
      | form                                   | code                                                                   | value         |
      | a hoisted variable named ls            | ls = [3, 1, 2];\nvar ls;\nreturn ls.sort();                            | [1,2,3]       |
      | a hoisted function named ls            | ls -1;\nfunction ls() { return 10; }\nreturn ls() - 1;                 | 9             |
      | a declared function named echo         | echo("hi");\nfunction echo(v) { return v; }\nreturn echo("echoed");    | "echoed"      |
      | a shell command inside a string        | return "ls -la /tmp";                                                  | "ls -la /tmp" |

  @core @CM-5.20
  Scenario Outline: exec shell rule lets <form> through to the guest
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result fails with code "internal_error"
    And the result error starts with "SyntaxError"

    Examples:
      | form                   | code                                  |
      | export const           | export const x = 1;                   |
      | an export list         | export { x };                         |
      | export interface       | export interface Shape { x: number }  |
      | export enum            | export enum Color { Red }             |
      | a bare export star     | export *                              |

  # 5.5 Evaluation

  @core @CM-5.22 @CM-5.23
  Scenario: an exec cell is an async function body with top-level await and return
    Given a turn starts
    When the model calls exec with:
      """js
      // The cell below completes with value 3.
      const a = 1;
      const b = await Promise.resolve(2);
      return a + b;
      """
    Then the result status is "completed"
    And the result value is 3

  @core @CM-5.23
  Scenario Outline: an exec cell without return completes with null: <case>
    Given a turn starts
    When the model calls exec with:
      """js
      <code>
      """
    Then the result status is "completed"
    And the result value is null

    Examples:
      | case                            | code                               |
      | a trailing expression           | const a = 1;\nconst b = 2;\na + b; |
      | only a comment                  | // nothing to do                   |

  @core @CM-5.24
  Scenario: a cell that closes the exec wrapper early fails as a guest SyntaxError
    Given a turn starts
    When the model calls exec with:
      """js
      return 1;
      });
      globalThis.escaped = true;
      (async () => {
      """
    Then the result fails with code "internal_error"
    And the result error starts with "SyntaxError"
    And the result failure phase is "guest"
