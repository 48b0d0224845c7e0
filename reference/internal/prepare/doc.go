// Package prepare turns model-written exec source into the script the guest VM evaluates.
//
// Preparation is the phase between reading an exec call's input and starting
// the guest. [Script] wraps the code as the body of an async arrow function,
// so that top-level await and return work, after these steps, in this order
// (SPEC.md CM-5.10); the first failure ends preparation:
//
//  1. The language gate (CM-5.11) belongs to the caller.
//  2. The module-access rule ([RejectsModuleAccess]) on the source.
//  3. The wrapper check: a source that would close the wrapper early, such
//     as `})(); evil(); (async () => {`, fails as a guest SyntaxError
//     (CM-5.24, a [Failure] with Syntax set).
//  4. For TypeScript only: the esbuild transform (chapter 6), the
//     module-access rule on its output, and the wrapper check on the body of
//     its function.
//  5. The shell rule ([IsShellLike]), with the source and, as prepared, the
//     source (JavaScript) or the transformed body (TypeScript).
//
// The wrapper check is not one of the SPEC's steps; CM-5.24 only says that a
// break-out must fail as a SyntaxError. It follows the module-access rule, so
// a source that both loads a module and breaks out reports module access as
// CM-5.10 orders, and it precedes everything that uses esbuild: the wrapped
// break-out is a valid script, so the transform would turn it into several
// statements and the shell rule's parse check would accept it. Running it
// again on the transformed body covers TypeScript syntax that the lexer
// cannot read, so no break-out reaches the guest.
//
// The module rule and the wrapper check work on tokens from a small
// JavaScript lexer, not a parser (esbuild's Go API gives no syntax tree). The
// lexer reads the source as the wrapper's body in a script, legacy HTML-like
// comments included, and tries every reading of a slash that only a parser
// could resolve. The module rule is a first line of defence with exact,
// model-visible messages; the guest runtime, which has no module loader and
// no require, is the boundary. Code that builds names at run time, such as
// globalThis["req" + "uire"], is left to it.
//
// The shell rule is the SPEC's procedure (section 5.4) with the expressions
// of Appendix B.3, translated to Go's regexp syntax. Those that every cell
// meets (steps 2 to 6) are matched by hand, for speed; the compiled
// expressions are the tests' oracle (shellmatch.go). It asks esbuild's parser
// whether the code parses only once it has found a command followed by more
// text; a JavaScript cell never reaches esbuild's transform.
//
// The caller reports every [Failure] as invalid_input, except a Syntax one,
// which it reports as the guest SyntaxError it stands for.
//
// See SPEC.md CM-5.x (exec input and source preparation) and CM-6.x
// (TypeScript).
package prepare
