// Package prepare turns model-written exec source into the script the guest VM evaluates.
//
// Preparation is the phase between reading an exec call's input and starting
// the guest. [Script] rejects source that loads modules ([RejectsModuleAccess])
// or is a shell command rather than a program ([IsShellLike]), strips
// TypeScript syntax with esbuild, and wraps the code as the body of an async
// arrow function, so that top-level await and return work. The caller reports
// every [Failure] as invalid_input.
//
// The module and shell rules are static checks over tokens from a small
// JavaScript lexer, not a parser. They are a first line of defence with exact,
// model-visible messages; the guest runtime, which has no module loader and no
// require, is the boundary. Code that builds names at run time, such as
// globalThis["req" + "uire"], is left to it.
//
// See SPEC.md CM-5.x (exec input and source preparation) and CM-6.x
// (TypeScript).
package prepare
