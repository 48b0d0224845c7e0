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
// as absent.
func ParseExec(args json.RawMessage) (ExecInput, *Result) {
	fail := func(msg string) (ExecInput, *Result) {
		r := Failed(CodeInvalidInput, PhaseInput, msg)
		return ExecInput{}, &r
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return fail(MsgCodeRequired)
	}
	code, codeIsString := stringField(obj, "code")
	command, commandIsString := stringField(obj, "command")
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
	if raw, ok := present(obj, "language"); ok {
		var lang string
		if json.Unmarshal(raw, &lang) != nil || (lang != "javascript" && lang != "typescript") {
			return fail(MsgLanguage)
		}
		in.Language = lang
	}
	if raw, ok := present(obj, "restartSafe"); ok {
		if json.Unmarshal(raw, &in.RestartSafe) != nil {
			return fail(MsgRestartSafe)
		}
	}
	return in, nil
}

// ParseWait validates wait's arguments: runId (or run_id), trimmed.
func ParseWait(args json.RawMessage) (string, *Result) {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(args, &obj)
	id, ok := stringField(obj, "runId")
	if !ok {
		id, ok = stringField(obj, "run_id")
	}
	id = strings.TrimSpace(id)
	if !ok || id == "" {
		r := Failed(CodeInvalidInput, PhaseInput, MsgRunIDRequired)
		return "", &r
	}
	return id, nil
}

func present(obj map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	raw, ok := obj[key]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

func stringField(obj map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := present(obj, key)
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
