// Package checkdocs is the documentation check of the repository
// (SPEC.md CM-22.10). [Check] reads a repository tree rooted at a directory,
// so tests can point it at small synthetic trees, and reports every problem
// as a [Problem] at a file and line:
//
//   - Coverage. Every clause of SPEC.md (a list item that starts
//     "- **CM-x.y**") is named by at least one scenario tag @CM-x.y in
//     features/*.feature, read with conformance.Index, or has a written
//     exclusion "CM-x.y :: reason" in conformance/exclusions/chNN.txt. Every
//     clause tag and every exclusion names an existing clause; an exclusion
//     sits in the file of its chapter, is listed once, and names a clause no
//     scenario covers. Clause ids are unique, sit in their own chapter and
//     carry a BCP 14 keyword, and the SPEC's prose refers only to existing
//     clauses.
//   - Listed items. Each row of the table of SPEC.md section F.1 maps an item
//     of a clause (a phrase of the clause's text) to a scenario that exists
//     and carries the clause's tag; a clause's items are distinct and at
//     least two, and no section F.3 lists items without a scenario. Every MUST clause that reads as a list (three or
//     more distinct code spans, or a serial list in its prose) has its items
//     there, or is in F.2 (its list is one requirement, with a scenario
//     tagged with it that checks it whole), or is excluded.
//   - Configuration. The table of SPEC.md section 2.1 matches the reference's
//     defaults and ranges (see below).
//   - Code blocks of SPEC.md and of every README.md, RATIONALE.md and STEPS.md
//     (see below).
//   - Relative links of the same files resolve (see below).
//   - The traceability matrix docs/traceability.md is up to date: it lists each
//     clause with its chapter, key words and the scenarios that cover it
//     (feature:line and name) or its exclusion reason; Options.Update
//     rewrites it.
//
// # The configuration table
//
// The reference keeps its settings in reference/internal/config, which the
// tools module cannot import (it is internal to the reference module), and
// the reference exports no view of it. Check therefore parses
// reference/internal/config/config.go with go/parser and reads every
// composite literal Field{Name: ..., Default: ..., Range: Range{min, max}};
// the values may be constant expressions of literals and package constants.
// Each table row with a numeric default must match the Field of that name
// (default and both range bounds), and every Field must have a row. A range
// bound that names another field (searchDefaultLimit's `1`-`maxSearchLimit`)
// must equal that field's upper bound, the largest value it can resolve to.
// The rows runtime, mode and languages are compared with the package's
// Runtime and Mode constants and its Languages variable; enabled has no
// counterpart in the code.
//
// # Code blocks
//
// A fence's language is the first word of its info string:
//
//   - js, javascript: an exec cell. The block must parse as the body of an
//     async function: esbuild's JS loader parses the block between the lines
//     "(async () => {" and "})", as the reference's source preparation does.
//   - ts, typescript: TypeScript, parsed by esbuild's TS loader at the top
//     level, as a module or a declaration file (declare statements). A block
//     that does not parse there but parses as the body of an async function
//     (a TypeScript exec cell: with await, esbuild reads the top level as a
//     module, where return is an error) also passes; when both fail, the
//     module reading's error is reported.
//   - go, golang: the block must be gofmt-clean, that is go/format.Source
//     must accept it and return it unchanged. go/format accepts complete
//     files and also lists of declarations or of statements, so a snippet of
//     a function body needs no wrapper (unlike gofmt the command, which
//     formats files only); the formatting is the one gofmt gives the same
//     code inside a file.
//   - json: the block must be valid JSON.
//
// Every other language (text, sh, console, none) is not checked.
//
// # Links
//
// Every inline link or image [x](target) and every reference definition
// [x]: target outside code that has no URL scheme must name an existing file
// or directory, relative to the file (or to the repository root when it
// starts with "/") and inside the repository. A fragment #anchor on a
// Markdown target (or on the file itself, for [x](#anchor)) must be the
// GitHub anchor of one of its headings: the heading's text, lower-cased,
// with every character other than letters, marks, digits, "_", "-" and space
// removed and spaces turned into "-"; a repeated anchor gets "-1", "-2", ...
// Fragments on other files (such as #L12) are not checked.
//
// The documentation files are SPEC.md at the root and every README.md,
// RATIONALE.md and STEPS.md below it, skipping hidden directories,
// node_modules and testdata.
package checkdocs
