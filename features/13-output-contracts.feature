Feature: Declared output contracts
  SPEC chapter 13: trusted outputSchema declarations of OpenClaw core and plugin
  tools, their validation on every guest call path and their compact hints.

  Background:
    Given code mode is enabled

  @core @CM-13.4 @CM-13.6 @CM-13.2
  Scenario: Output contracts: a declared output lets one cell select, call and transform
    Given the catalog "basic"
    When a turn starts
    Then the exec description contains:
      """text
      - "openclaw:shipping:shipping_list" {} -> Array<{ id: string; paid: boolean; tons: number }>
      """
    When the model calls exec with:
      """js
      const [shipmentTool] = await tools.search("list shipments");
      const shipments = await tools.callValue(shipmentTool.id, {});
      return shipments.filter((shipment) => !shipment.paid && shipment.tons > 10);
      """
    Then the result value is:
      """json
      [{"id": "s1", "paid": false, "tons": 12}]
      """
    And the telemetry includes:
      """json
      {"searchCount": 1, "callCount": 1}
      """

  @core @CM-13.1 @CM-13.4
  Scenario: Output contracts: the schema describes the details value, not the rendered content blocks
    Given the catalog "basic"
    When a turn starts
    And the model calls exec with:
      """js
      const raw = await tools.call("openclaw:core:read", { path: "notes.txt" });
      return { details: raw.result.details, blocks: raw.result.content.map((block) => block.type) };
      """
    Then the result value is:
      """json
      {"details": {"kind": "text", "content": "hello from notes\n"}, "blocks": ["text"]}
      """

  @core @CM-13.4 @CM-13.5
  Scenario: Output contracts: details that do not match the declared schema are rejected without the value
    Given the tool:
      """json
      {"name": "ledger", "description": "Account ledger.", "outputSchema": {"type": "object", "required": ["balance"], "properties": {"balance": {"type": "number"}}, "additionalProperties": false}, "behavior": {"returns": {"balance": "secret-balance-9931"}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        return await tools.callValue("openclaw:core:ledger", {});
      } catch (error) {
        return { message: error.message, leaked: [error.message, String(error.stack)].join("\n").includes("secret-balance-9931") };
      }
      """
    Then the result value is:
      """json
      {"message": "Tool \"openclaw:core:ledger\" returned details that do not match its declared outputSchema.", "leaked": false}
      """
    And the result output is:
      """json
      []
      """
    And the tool "ledger" was called 1 times

  @core @CM-13.5
  Scenario: Output contracts: an uncaught validation failure keeps the rejected value out of the payload
    Given the tool:
      """json
      {"name": "ledger", "description": "Account ledger.", "outputSchema": {"type": "object", "required": ["balance"], "properties": {"balance": {"type": "number"}}, "additionalProperties": false}, "behavior": {"returns": {"balance": "secret-balance-9931"}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      text("before the call");
      return await tools.callValue("openclaw:core:ledger", {});
      """
    Then the result fails with code "internal_error"
    And the result error contains "returned details that do not match its declared outputSchema."
    And the result output is:
      """json
      [{"type": "text", "text": "before the call"}]
      """

  @core @CM-13.5
  Scenario: Output contracts: the rejected value appears neither in the payload nor in the debug log
    Given the target environment has "OPENCLAW_DEBUG_CODE_MODE" set to "1"
    And the tool:
      """json
      {"name": "ledger", "description": "Account ledger.", "outputSchema": {"type": "object", "required": ["balance"], "properties": {"balance": {"type": "number"}}, "additionalProperties": false}, "behavior": {"returns": {"balance": "secret-balance-9931"}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        return await tools.callValue("openclaw:core:ledger", {});
      } catch (error) {
        return error.message;
      }
      """
    Then the tool result details are:
      """json
      {
        "status": "completed",
        "value": "Tool \"openclaw:core:ledger\" returned details that do not match its declared outputSchema.",
        "output": [],
        "replaySafe": "<any>",
        "telemetry": "<object>"
      }
      """
    When the model calls exec with:
      """js
      return await tools.callValue("openclaw:core:ledger", {});
      """
    Then the result fails with code "internal_error"
    And the target log does not contain "secret-balance-9931"
    And the tool "ledger" was called 2 times

  @core @CM-13.3
  Scenario: Output contracts: an outputSchema that does not compile stops the tool before it runs
    Given the tool:
      """json
      {"name": "broken_report", "description": "A report with an invalid output schema.", "outputSchema": {"type": 42}, "behavior": {"returns": {"rows": 3}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        return await tools.callValue("openclaw:core:broken_report", {});
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "Tool \"openclaw:core:broken_report\" has an invalid outputSchema."
    And the tool "broken_report" was not called

  @core @CM-13.8 @CM-13.5
  Scenario Outline: Output contracts: declared output is validated when the tool is called through <path>
    Given the tool:
      """json
      {"name": "ledger", "description": "Account ledger.", "outputSchema": {"type": "object", "required": ["balance"], "properties": {"balance": {"type": "number"}}, "additionalProperties": false}, "behavior": {"returns": {"balance": "secret-balance-9931"}}}
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await <call>;
        return "accepted";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "Tool \"openclaw:core:ledger\" returned details that do not match its declared outputSchema."

    Examples:
      | path                 | call                                        |
      | tools.callValue      | tools.callValue("openclaw:core:ledger", {}) |
      | tools.call           | tools.call("openclaw:core:ledger", {})      |
      | a convenience name   | tools.ledger({})                            |

  @namespaces @CM-13.8
  Scenario: Output contracts: declared output is validated when the tool is called through an internal namespace
    Given the tools:
      """json
      [{"name": "ledger_balance", "source": "plugin", "owner": "ledger", "description": "Account balance.", "outputSchema": {"type": "object", "required": ["balance"], "properties": {"balance": {"type": "number"}}, "additionalProperties": false}, "behavior": {"returns": {"balance": "secret-balance-9931"}}}]
      """
    And the plugin "ledger" registers the namespace:
      """json
      {
        "id": "ledger",
        "globalName": "Ledger",
        "requiredToolNames": ["ledger_balance"],
        "scope": {"balance": {"$tool": "ledger_balance"}}
      }
      """
    When a turn starts
    And the model calls exec with:
      """js
      try {
        await Ledger.balance({});
        return "accepted";
      } catch (error) {
        return error.message;
      }
      """
    Then the result value is "Tool \"openclaw:ledger:ledger_balance\" returned details that do not match its declared outputSchema."
    And the tool "ledger_balance" was called 1 times

  @core @CM-13.2 @CM-11.19 @CM-11.20 @CM-10.12
  Scenario: Output contracts: client output schemas are untrusted and ignored
    Given the tool:
      """json
      {"name": "pick_color", "source": "client", "owner": "app", "description": "Ask the user for a color.", "outputSchema": {"type": "string"}, "behavior": {"returns": {"color": "teal"}}}
      """
    When a turn starts
    Then the exec description does not contain "pick_color"
    When the model calls exec with:
      """js
      const entry = ALL_TOOLS.find((candidate) => candidate.name === "pick_color");
      const described = await tools.describe(entry.id);
      return {
        outputAbsent: entry.output === undefined,
        describedHasSchema: Object.prototype.hasOwnProperty.call(described, "outputSchema"),
      };
      """
    Then the result value is:
      """json
      {"outputAbsent": true, "describedHasSchema": false}
      """

  @core @CM-13.6 @CM-13.7 @CM-11.25 @CM-11.20 @CM-11.19
  Scenario: Output contracts: incomplete or oversized output hints give an unknown arrow while describe keeps the schema
    Given the tools:
      """json
      [
        {"name":"open_status","outputSchema":{"type":"object","required":["state"],"properties":{"state":{"type":"string"}}}},
        {"name":"nested_closed","outputSchema":{"type":"object","required":["summary"],"properties":{"summary":{"type":"object","required":["total"],"properties":{"total":{"type":"number"}},"additionalProperties":false}},"additionalProperties":false}},
        {"name":"nested_open","outputSchema":{"type":"object","required":["summary"],"properties":{"summary":{"type":"object","properties":{"total":{"type":"number"}}}},"additionalProperties":false}},
        {"name":"wide_800","outputSchema":{"type":"object","properties":{"field_1_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_2_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_3_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_4_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_5_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_6_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"}},"additionalProperties":false}},
        {"name":"wide_801","outputSchema":{"type":"object","properties":{"field_1_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_2_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_3_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_4_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_5_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_6_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics_":{"type":"string"}},"additionalProperties":false}},
        {"name":"wide_list","outputSchema":{"type":"array","items":{"type":"object","properties":{"field_1_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_2_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_3_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_4_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_5_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"},"field_6_delivery_window_reference_with_carrier_and_customs_annotations_for_cross_border_shipments_tracked_by_the_logistics":{"type":"string"}},"additionalProperties":false}}}
      ]
      """
    When a turn starts
    Then the exec description contains:
      """text
      - "openclaw:core:nested_open" {} -> ?
      - "openclaw:core:open_status" {} -> ?
      - "openclaw:core:wide_801" {} -> ?
      - "openclaw:core:wide_list" {} -> ?
      """
    When the model calls exec with:
      """js
      const hints = ALL_TOOLS.map((entry) => ({
        name: entry.name,
        output: entry.output !== undefined && entry.output.length > 100 ? entry.output.length : entry.output,
      }));
      const open = await tools.describe("open_status");
      const wide = await tools.describe("wide_list");
      return {
        hints,
        openSchema: open.outputSchema,
        wideItems: [wide.outputSchema.type, Object.keys(wide.outputSchema.items.properties).length, wide.outputSchema.items.additionalProperties],
      };
      """
    Then the result value is:
      """json
      {
        "hints": [
          {"name": "nested_closed", "output": "{ summary: { total: number } }"},
          {"name": "nested_open"},
          {"name": "open_status"},
          {"name": "wide_800", "output": 800},
          {"name": "wide_801"},
          {"name": "wide_list"}
        ],
        "openSchema": {"type": "object", "required": ["state"], "properties": {"state": {"type": "string"}}},
        "wideItems": ["array", 6, false]
      }
      """

  @core @CM-13.6
  Scenario: Output contracts: an unsupported keyword gives the unknown arrow and no output while describe keeps the schema
    Given the tool:
      """json
      {"name": "ref_report", "description": "A report whose output uses $ref.", "outputSchema": {"type": "object", "required": ["total"], "properties": {"total": {"$ref": "#/$defs/amount"}}, "$defs": {"amount": {"type": "number"}}, "additionalProperties": false}}
      """
    When a turn starts
    Then the exec description contains:
      """text
      - "openclaw:core:ref_report" {} -> ?
      """
    When the model calls exec with:
      """js
      const entry = ALL_TOOLS.find((candidate) => candidate.name === "ref_report");
      const described = await tools.describe("ref_report");
      return { outputAbsent: !Object.prototype.hasOwnProperty.call(entry, "output"), outputSchema: described.outputSchema };
      """
    Then the result value is:
      """json
      {
        "outputAbsent": true,
        "outputSchema": {"type": "object", "required": ["total"], "properties": {"total": {"$ref": "#/$defs/amount"}}, "$defs": {"amount": {"type": "number"}}, "additionalProperties": false}
      }
      """
