// Package mcpns is the MCP namespace model of code mode (SPEC.md chapter
// 14): it turns the MCP servers of a run catalog into the guest global
// MCP, with no I/O.
//
// [Build] assigns server identifiers and tool methods (section 14.2) and
// the catalog ids, compact names and labels of every entry (CM-11.10 to
// CM-11.15). A [Model] then renders:
//
//   - the virtual declaration files mcp/index.d.ts and mcp/<server>.d.ts
//     ([Model.IndexFile], [Model.ServerFile], [Model.Files]; sections
//     14.5 and 14.6), bounded for hostile schemas (CM-14.31);
//   - the $api results ([Model.RootAPI], [Model.ServerAPI], [Model.API];
//     section 14.4);
//   - the MCP section of the namespace prompt block ([Model.Prompt];
//     section 4.3);
//   - the guest descriptor of the MCP global ([Model.Guest]).
//
// It also prepares calls: [Model.Resolve] checks a namespace path and
// [PrepareInput] checks the guest arguments, fills defaults and reports
// missing required properties (section 14.3, CM-15.15). Executing the
// call by its exact catalog id is the caller's job.
//
// # Notes
//
//   - Schemas are parsed with package jsjson, which keeps JSON.parse
//     semantics and member order: parameters and object types follow
//     schema order, and defaults are written as ECMAScript JSON.stringify
//     would (SPEC.md section 1.2).
//   - Every string this package produces for the guest or the model is
//     byte-exact SPEC text; messages keep the SPEC's capitals and periods.
package mcpns
