Feature: TypeScript cells
  SPEC.md chapter 6: TypeScript is a source transform only; the transformed
  JavaScript runs exactly like a JavaScript cell (plus the TypeScript cases of
  CM-5.10 and CM-5.11).

  Background:
    Given code mode is enabled
    And the catalog "basic"

  @typescript @CM-6.3 @CM-6.4 @CM-6.5 @checklist-16
  Scenario: the SPEC TypeScript example cell selects heavy unpaid shipments
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      interface Shipment { id: string; paid: boolean; tons: number }
      enum Level { Low = 1, High = 2 }
      const rows = (await tools.callValue("openclaw:shipping:shipping_list", {})) as Shipment[];
      const heavy: Shipment[] = rows.filter((row) => !row.paid && row.tons > 10);
      return { count: heavy.length, level: Level.High };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"count": 1, "level": 2}
      """
    And the tool "shipping_list" was called 1 time

  @typescript @CM-6.4 @CM-6.1 @CM-5.1 @CM-5.5
  Scenario: a TypeScript cell has its type-only syntax erased and is not type-checked
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      interface Named { name: string }
      type Pair<T> = [T, T];
      declare const hidden: number;
      function first<T>(pair: Pair<T>): T {
        return pair[0];
      }
      class Box {
        private readonly value: number;
        public constructor(value: number) {
          this.value = value;
        }
        protected get doubled(): number {
          return this.value * 2;
        }
        public read(): number {
          return this.doubled;
        }
      }
      const named = { name: "ada" } satisfies Named;
      const maybe: string | undefined = named.name;
      const wrong: number = "not a number";
      const n = first<number>([4, 5]) as number;
      return { first: n, name: maybe!.toUpperCase(), boxed: new Box(21).read(), wrong };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"first": 4, "name": "ADA", "boxed": 42, "wrong": "not a number"}
      """

  @typescript @CM-6.1
  Scenario: a TypeScript cell does not resolve the files and packages its reference directives name
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      /// <reference path="./types/missing-shipments.d.ts" />
      /// <reference types="missing-package" />
      const count: number = 2;
      return count;
      """
    Then the result status is "completed"
    And the result value is 2

  @typescript @CM-6.5
  Scenario: a TypeScript cell compiles enums and parameter properties
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      enum Color { Red, Green = "green", Blue = 5 }
      class Point {
        constructor(public x: number, private y: number) {}
        sum(): number {
          return this.x + this.y;
        }
      }
      const p = new Point(1, 2);
      return { red: Color.Red, green: Color.Green, blue: Color.Blue, reverse: Color[0], x: p.x, sum: p.sum() };
      """
    Then the result status is "completed"
    And the result value is:
      """json
      {"red": 0, "green": "green", "blue": 5, "reverse": "Red", "x": 1, "sum": 3}
      """

  @typescript @CM-6.3
  Scenario: a TypeScript cell without return completes with null
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      const total: number = 1 + 2;
      total * 2;
      """
    Then the result status is "completed"
    And the result value is null

  @typescript @CM-6.6 @CM-6.7 @CM-19.4 @CM-19.2
  Scenario: a TypeScript syntax error fails the transform
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      const broken: number = ;
      await tools.callValue("openclaw:core:weather", { city: "Oslo" });
      return broken;
      """
    Then the result fails with code "invalid_input"
    And the result error starts with "typescript transform failed: "
    And the result failure phase is "input"
    And the result includes:
      """json
      {"bridgeDispatchStarted": false, "output": [], "replaySafe": false}
      """
    And the tool "weather" was not called

  @typescript @CM-6.11 @CM-6.6
  Scenario: JSX in a TypeScript cell is a transform error
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      const element = <div>hello</div>;
      return element;
      """
    Then the result fails with code "invalid_input"
    And the result error starts with "typescript transform failed: "
    And the result failure phase is "input"

  @typescript @CM-6.8
  Scenario: a TypeScript transform warning does not fail the cell
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      const settings = { mode: "first", mode: "second" };
      return settings.mode;
      """
    Then the result status is "completed"
    And the result value is "second"

  @typescript @CM-6.9 @CM-5.10 @CM-5.14 @CM-5.17 @checklist-17
  Scenario Outline: a TypeScript cell with <form> is refused before the transform
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      <code>
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode module access is disabled."
    And the result failure phase is "input"

    Examples:
      | form                       | code                                                          |
      | import type                | import type { Shipment } from "./types";\nreturn 1;           |
      | import equals require      | import fs = require("node:fs");\nreturn fs;                   |
      | export from                | export { helper } from "./helper";\nreturn 1;                 |
      | export type from           | export type { Shipment } from "./types";\nreturn 1;           |
      | export star from           | export * from "./helper";\nreturn 1;                          |
      | export star as from        | export * as helpers from "./helper";\nreturn 1;               |

  @typescript @CM-6.9 @CM-6.6
  Scenario: a TypeScript cell that ends in an unterminated export list is no re-export and fails the transform
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      export { helper
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    And the result error starts with "typescript transform failed: "

  @typescript @CM-6.9 @CM-6.6
  Scenario: a TypeScript cell that ends in a bare export star is no re-export and fails the transform
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      export *
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    And the result error starts with "typescript transform failed: "

  @typescript @CM-6.9 @CM-5.10 @checklist-17
  Scenario Outline: the module-access rule also checks the transformed JavaScript of <form>
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      <code>
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode module access is disabled."
    And the result failure phase is "input"

    Examples:
      | form                                | code                                  |
      | a require hidden by an as cast      | return (require as any)("node:fs");   |

  @typescript @CM-6.10 @CM-5.10 @CM-5.19
  Scenario: the shell rule rejects a shell command sent as a TypeScript cell
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      ls -la /tmp
      """
    Then the result fails with code "invalid_input"
    And the result failure phase is "input"
    And the result error starts with "code-mode exec runs JavaScript or TypeScript, not shell commands."

  @typescript @CM-6.10 @CM-6.6 @CM-5.10
  Scenario: a shell command that is not TypeScript fails the transform before the shell rule runs
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      if [ -f notes.txt ]; then cat notes.txt; fi
      """
    Then the result fails with code "invalid_input"
    And the result error starts with "typescript transform failed: "
    And the result failure phase is "input"

  @typescript @CM-6.10 @CM-5.20
  Scenario: the shell rule parses the transformed JavaScript of a TypeScript cell
    Given a turn starts
    When the model calls exec in typescript with:
      """ts
      cat = "meow" as string;
      var cat: string;
      return cat;
      """
    Then the result status is "completed"
    And the result value is "meow"

  @typescript @CM-5.11 @CM-5.10 @CM-19.4
  Scenario: a TypeScript cell is refused when only javascript is enabled, before the module-access rule
    Given code mode is configured as:
      """json
      {"enabled": true, "languages": ["javascript"]}
      """
    And a turn starts
    When the model calls exec in typescript with:
      """ts
      import type { Shipment } from "./types";
      return 1;
      """
    Then the result fails with code "invalid_input"
    And the result error is "code mode typescript input is disabled."
    And the result failure phase is "input"

  @typescript @CM-6.2 @CM-21.2 @checklist-16
  Scenario: the TypeScript transformer is not loaded for JavaScript cells
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And a turn starts
    When the model calls exec with:
      """js
      const label = "plain";
      return label;
      """
    Then the result value is "plain"
    And the target log does not contain "code mode typescript transform loaded"

  @typescript @CM-6.2 @CM-21.2 @checklist-16
  Scenario: the TypeScript transformer is loaded lazily by the first TypeScript cell
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And a turn starts
    When the model calls exec in typescript with:
      """ts
      const label: string = "typed";
      return label;
      """
    Then the result value is "typed"
    And the target log contains "code mode typescript transform loaded"

  @typescript @CM-6.2 @checklist-16
  Scenario: the TypeScript transformer is not loaded while code mode is disabled
    Given code mode is disabled
    And the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And a turn starts
    Then the model-visible tools include "weather"
    And the target log does not contain "code mode typescript transform loaded"
