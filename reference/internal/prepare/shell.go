package prepare

import "strings"

// IsShellLike reports whether source is a shell command rather than a
// program, by the procedure of the shell rule (SPEC.md section 5.4, steps 1
// to 12) with the expressions of Appendix B.3. prepared is the JavaScript
// that the cell will run: source itself for a JavaScript cell, the body of
// the transformed function for a TypeScript cell (see [Script]).
//
// Steps 1 to 8 look only at source. Steps 9 and 10 ask whether JavaScript
// parses as guest JavaScript (see parsesAsGuest), so IsShellLike calls
// esbuild's parser, up to three times, only for a source that starts with a
// command followed by more text.
//
// The parse check trusts the wrapper, so [Script] runs the shell rule only
// on sources that do not break out of it (see breakOut).
func IsShellLike(source, prepared string) bool {
	shell, _ := classifyShell(source, prepared)
	return shell
}

// classifyShell runs the shell-rule procedure and returns its answer and the
// number of the step that gave it.
func classifyShell(source, prepared string) (shell bool, step int) {
	// 1. Trim; a #! line is shell.
	t := strings.TrimFunc(source, isJSSpace)
	if strings.HasPrefix(t, "#!") {
		return true, 1
	}
	// 2. Skip leading comments; nothing left, or an export, is not shell.
	u := t
	if n := leadingCommentsLen(u); n > 0 {
		u = u[n:]
	}
	if u == "" || isJSExport(u) {
		return false, 2
	}
	// 3. Shell control syntax.
	if isShellControl(u) {
		return true, 3
	}
	// 4. Skip environment assignments.
	c := u
	for {
		n := envAssignmentLen(c)
		if n <= 0 {
			break
		}
		c = c[n:]
	}
	// 5. The command: a known one, or another name that is not JavaScript's.
	end, name, known := shellCommandAt(c)
	command := known
	if !known {
		if e, n, ok := shellIdentifierAt(c); ok && !keywordWords[n] && !globalWords[n] {
			end, name, command = e, n, true
		}
	}
	// 6. No command and no executable path: not shell.
	if !command && !isExecutablePath(c) {
		return false, 6
	}
	// 7. What follows the command.
	tail := ""
	if command {
		tail = c[end:]
	}
	rest := strings.TrimLeftFunc(tail, isJSSpace)
	// 8. A command alone.
	if command && rest == "" {
		return known, 8
	}
	// 9. JavaScript that does not parse.
	if !parsesAsGuest(prepared) {
		return true, 9
	}
	// 10. A name the program declares with a hoisted binding (var or
	// function): redeclaring it with let fails and with var does not.
	if command && !parsesAsGuest("let "+name+";\n"+prepared) && parsesAsGuest("var "+name+";\n"+prepared) {
		return false, 10
	}
	// 11. A separator or pipe right after the command.
	if shellSeparator.MatchString(tail) {
		return known, 11
	}
	// 12. Shell arguments after the command.
	if command && (shellArgument.MatchString(rest) ||
		known && shellRedirection.MatchString(rest) ||
		name == "jq" && strings.HasPrefix(rest, ".")) {
		return true, 12
	}
	return false, 12
}
