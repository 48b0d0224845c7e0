package prepare

import "github.com/evanw/esbuild/pkg/api"

// parse is the esbuild entry point of the parse check; it is not the
// TypeScript transform (see transform). Tests replace it to watch the calls.
var parse = api.Transform

// parseOptions read JavaScript and nothing else: no minification, no
// lowering (the default target is esnext), no module format.
var parseOptions = api.TransformOptions{Loader: api.LoaderJS}

// parsesAsGuest reports whether s parses as guest JavaScript (SPEC.md
// section 5.4): whether esbuild parses wrap(s) as a script without an error.
// Warnings, such as a legacy HTML comment, do not count.
//
// # Notes
//
//   - esbuild reports the early errors that matter here: a let or const that
//     redeclares a var, function or another lexical binding of the same
//     scope is "The symbol "N" has already been declared", which is what step
//     10 of the shell rule relies on. A var or function that redeclares a var
//     or function is not an error, as in ECMAScript.
//   - esbuild checks less than an engine in a few places: it does not
//     validate the pattern of a regular expression literal, only its flags.
//     Such a source counts as parsing; the guest then reports a SyntaxError.
func parsesAsGuest(s string) bool {
	return len(parse(wrap(s), parseOptions).Errors) == 0
}
