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

// A Failure is a preparation failure; the caller reports it as invalid_input.
type Failure struct{ Message string }

func (f *Failure) Error() string { return f.Message }

// wrapperHead and wrapperTail surround the user's code. The code starts on
// the wrapper's second line, so guest line numbers are one more than the
// user's.
const (
	wrapperHead = "(async () => {\n"
	wrapperTail = "\n})"
)

// wrap returns code as the body of an async arrow function expression.
func wrap(code string) string { return wrapperHead + code + wrapperTail }

// Script prepares code. On success the returned script, evaluated as a global
// QuickJS script, has as its completion value an async arrow function whose body
// is the user's code: `(async () => {\n<code>\n})` for JavaScript (code verbatim),
// and the esbuild transform of that same wrapper for TypeScript.
//
// Script checks, in order: the module rule ([RejectsModuleAccess], failing
// with [ModuleAccessMessage]) and the shell rule ([IsShellLike], failing with
// [ShellMessage]) on code; then, for TypeScript only, the esbuild transform
// (failing with [TypeScriptFailedPrefix] and esbuild's messages as
// "line:column: text", the line counted in code and the column 1-based), and
// both rules again on its output. JavaScript never reaches esbuild.
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
	if f := check(code); f != nil {
		return "", f
	}
	if lang != TypeScript {
		return wrap(code), nil
	}
	out, f := transpile(code)
	if f != nil {
		return "", f
	}
	if f := check(out); f != nil {
		return "", f
	}
	return out, nil
}

// check applies the module rule, then the shell rule.
func check(src string) *Failure {
	switch {
	case RejectsModuleAccess(src):
		return &Failure{Message: ModuleAccessMessage}
	case IsShellLike(src):
		return &Failure{Message: ShellMessage}
	}
	return nil
}
