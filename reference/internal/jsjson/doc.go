// Package jsjson is JSON as JavaScript sees it: the one place that parses
// and writes JSON text with the semantics of ECMAScript JSON.parse and
// JSON.stringify (SPEC.md section 1.2), which encoding/json does not give.
//
//   - [Parse] decodes JSON text into a [Value] that keeps object members in
//     order; a repeated key keeps the position of its first occurrence and
//     the value of its last, as JSON.parse does.
//   - Strings are held as WTF-8: UTF-8, except that a lone surrogate escape
//     ("\ud800") is kept as the three-byte generalized UTF-8 encoding of the
//     surrogate, so that it counts as one UTF-16 code unit ([UTF16Len]) and
//     is written back as the same escape ([Quote]).
//   - [Value.String], [Quote] and [FormatNumber] write JSON text as
//     JSON.stringify does: no HTML escaping, lower-case \u00XX escapes for
//     control characters only, numbers formatted by Number::toString, -0
//     written as 0 and non-finite numbers as null.
//   - [IsIdentifier] and [PropertyName] render object keys the way a
//     TypeScript-style declaration writes them.
package jsjson
