// Package wire is the vocabulary an implementation and the conformance
// suite share, with nothing but the standard library behind it:
//
//   - the tool spec and the catalog file format ([Spec], [Behavior],
//     [ParseCatalog]; fixtures/catalogs/README.md), and what a scripted call
//     answers ([Behavior.Answer]);
//   - results, recorded calls and hook decisions ([Result], [Call],
//     [Decision]);
//   - [ToolHost], what a target delegates tool behaviour, the
//     before_tool_call hook and approvals to, and the tool-host HTTP
//     protocol, both halves ([HTTPHost] serves a ToolHost, [HTTPClient] is
//     one);
//   - the conformance profiles ([Profiles]).
//
// The driver protocol (SPEC.md Appendix D) is the subpackage protocol.
// Fakes and implementations import this module; it imports neither, so an
// implementation that speaks the contract links nothing of the suite.
package wire
