package prepare

// Messages of preparation failures. They are part of the model-visible
// contract; see SPEC.md CM-5.x.
const (
	// ModuleAccessMessage reports code that loads modules.
	ModuleAccessMessage = "code mode module access is disabled."
	// ShellMessage reports code that looks like a shell command.
	ShellMessage = "code-mode exec runs JavaScript or TypeScript, not shell commands. Call shell, file, or other tools from guest JavaScript with tools.callValue and an exact tool id from ALL_TOOLS or tools.search. Do not retry the same shell command as code."
	// TypeScriptFailedPrefix starts the message of a failed TypeScript
	// transform; esbuild's messages follow, one per line.
	TypeScriptFailedPrefix = "typescript transform failed: "
)

// languageMessage reports a Language that is neither JavaScript nor TypeScript.
const languageMessage = "language must be javascript or typescript."

// Language is the language of exec source.
type Language string

// The languages exec accepts.
const (
	JavaScript Language = "javascript"
	TypeScript Language = "typescript"
)

// A Failure is a preparation failure. The caller reports it as invalid_input
// (SPEC.md CM-5.12), except a Syntax failure, which it reports as the guest
// SyntaxError that evaluating the source would have thrown (CM-5.24).
type Failure struct {
	Message string
	// Syntax is true when the source breaks out of the wrapper function; the
	// Message is then "SyntaxError: unexpected token '<c>'", with c the
	// closing bracket that ends the wrapper early.
	Syntax bool
}

func (f *Failure) Error() string { return f.Message }

// wrapperHead and wrapperTail surround the user's code. The code starts on
// the wrapper's second line, so guest line numbers are one more than the
// user's.
const (
	wrapperHead = "(async () => {\n"
	wrapperTail = "\n})"
)

// WrapperLines is how many lines of a prepared JavaScript script come
// before the model's first line: guest stack frames name lines of the
// script, and the payload's error text renumbers them.
const WrapperLines = 1

// wrap returns code as the body of an async arrow function expression.
func wrap(code string) string { return wrapperHead + code + wrapperTail }

// Script prepares code, the source of an exec cell of language lang. On
// success the returned script, evaluated as a global QuickJS script, has as
// its completion value an async arrow function whose body is the user's
// code: `(async () => {\n<code>\n})` for JavaScript (code verbatim), and the
// esbuild transform of that same wrapper for TypeScript.
//
// Script applies, in this order, stopping at the first failure (SPEC.md
// CM-5.10; the language gate, CM-5.11, is the caller's):
//
//  0. the source's bounds (checkBounds): MaxSourceDepth and
//     MaxSourceTokens, failing with DepthMessage or TokensMessage;
//  1. the module-access rule on code ([RejectsModuleAccess] with lang),
//     failing with [ModuleAccessMessage];
//  2. the wrapper check on code (see breakOut): code that would close the
//     wrapper early fails with a Syntax failure;
//  3. for TypeScript only: the esbuild transform, failing with
//     [TypeScriptFailedPrefix] and esbuild's messages as "line:column: text"
//     joined by "\n" (the line counted in code, the column 1-based); the
//     module-access rule on the output, as JavaScript; and the wrapper check
//     on the body of the output's function;
//  4. the shell rule ([IsShellLike]) on code, with code as prepared for
//     JavaScript and the body of the output's function for TypeScript,
//     failing with [ShellMessage].
//
// The wrapper check is not a step of CM-5.10. It comes right after the
// module-access rule so that a source that breaks out never reaches the
// TypeScript transform nor the guest. A JavaScript source that breaks out
// still meets the shell rule, which may reject it as shell (a case
// statement's patterns close brackets they never opened); when the rule
// answers not shell, as its parse check does for a break-out the wrapper
// hides from a parser, the source fails with a Syntax failure. The check
// on the transform's output catches what the lexer cannot read in
// TypeScript source (such as an instantiation expression, f<T> / 2), so
// that no break-out reaches the guest.
//
// JavaScript never reaches the TypeScript transform. The shell rule may ask
// esbuild whether JavaScript parses (steps 9 and 10 of SPEC.md section 5.4),
// which is a parse, not a transform.
//
// The empty Language means JavaScript, as a missing language does in
// OpenClaw. Any other value fails with "language must be javascript or
// typescript.". See SPEC.md CM-5.x and CM-6.x.
func Script(code string, lang Language) (string, *Failure) {
	switch lang {
	case JavaScript, TypeScript, "":
	default:
		return "", &Failure{Message: languageMessage}
	}
	if f := checkBounds(code); f != nil {
		return "", f
	}
	if RejectsModuleAccess(code, lang) {
		return "", &Failure{Message: ModuleAccessMessage}
	}
	if c, ok := breakOut(code); ok {
		// A shell command can hold a closing bracket that nothing of its
		// own opened, as every pattern of a case statement does. The shell
		// rule is a step of preparation (CM-5.10), so it answers first;
		// either way the source is never evaluated.
		if lang != TypeScript && IsShellLike(code, code) {
			return "", &Failure{Message: ShellMessage}
		}
		return "", syntaxFailure(c)
	}
	script, prepared := wrap(code), code
	if lang == TypeScript {
		out, body, f := transpile(code)
		if f != nil {
			return "", f
		}
		if RejectsModuleAccess(out, JavaScript) {
			return "", &Failure{Message: ModuleAccessMessage}
		}
		if c, ok := breakOut(body); ok {
			return "", syntaxFailure(c)
		}
		script, prepared = out, body
	}
	if IsShellLike(code, prepared) {
		return "", &Failure{Message: ShellMessage}
	}
	return script, nil
}
