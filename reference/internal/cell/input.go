package cell

import (
	"encoding/json"
	"strings"
)

// ExecInput is a validated exec call.
type ExecInput struct {
	Code        string
	Language    string
	RestartSafe bool
}

// ParseExec validates exec's arguments (SPEC.md chapter 5). command is an
// alias of code; when both are strings they must match. A JSON null counts
// as absent. The arguments are read as encoding/json would read them into
// a map[string]json.RawMessage (a repeated key: its last value), by hand
// (wirejson.go).
func ParseExec(args json.RawMessage) (ExecInput, *Result) {
	fail := func(msg string) (ExecInput, *Result) {
		r := Failed(CodeInvalidInput, PhaseInput, msg)
		return ExecInput{}, &r
	}
	m, ok := members(args, "code", "command", "language", "restartSafe")
	if !ok {
		return fail(MsgCodeRequired)
	}
	codeRaw, commandRaw, langRaw, restartRaw := m[0], m[1], m[2], m[3]
	code, codeIsString := stringValue(codeRaw)
	command, commandIsString := stringValue(commandRaw)
	if codeIsString && commandIsString && code != command {
		return fail(MsgCodeCommandMismatch)
	}
	src := code
	if commandIsString {
		src = command
	}
	if (!codeIsString && !commandIsString) || strings.TrimSpace(src) == "" {
		return fail(MsgCodeRequired)
	}
	in := ExecInput{Code: src, Language: "javascript"}
	if present(langRaw) {
		lang, ok := stringValue(langRaw)
		if !ok || (lang != "javascript" && lang != "typescript") {
			return fail(MsgLanguage)
		}
		in.Language = lang
	}
	if present(restartRaw) {
		switch string(restartRaw) {
		case "true":
			in.RestartSafe = true
		case "false":
		default:
			return fail(MsgRestartSafe)
		}
	}
	return in, nil
}

// ParseWait validates wait's arguments: runId, or run_id when runId is
// absent or null (a runId of another type is refused, not passed over),
// trimmed.
func ParseWait(args json.RawMessage) (string, *Result) {
	m, _ := members(args, "runId", "run_id")
	raw := m[0]
	if !present(raw) {
		raw = m[1]
	}
	id, ok := stringValue(raw)
	id = strings.TrimSpace(id)
	if !ok || id == "" {
		r := Failed(CodeInvalidInput, PhaseInput, MsgRunIDRequired)
		return "", &r
	}
	return id, nil
}

// present reports whether a member was given and is not null.
func present(raw []byte) bool { return raw != nil && string(raw) != "null" }

// stringValue decodes a member that is a JSON string.
func stringValue(raw []byte) (string, bool) {
	if !present(raw) || raw[0] != '"' {
		return "", false
	}
	return unquote(raw)
}
