package prepare

import (
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// transform is the esbuild entry point. Tests replace it to watch the calls.
var transform = api.Transform

// transformOptions strip TypeScript syntax and nothing else: ES2022 output, no
// minification, no source map, and the default format, which adds no module
// wrapper.
var transformOptions = api.TransformOptions{
	Loader: api.LoaderTS,
	Target: api.ES2022,
}

// transpile turns TypeScript code into the JavaScript script that Script
// returns: esbuild's transform of the wrapped code. Helper declarations that
// esbuild adds for lowered syntax precede the function expression. It also
// returns body, the JavaScript between the output's wrapper head and its
// final "})": the transformed code, which the shell rule parses as prepared
// and the wrapper check reads.
func transpile(code string) (out, body string, f *Failure) {
	res := transform(wrap(code), transformOptions)
	if len(res.Errors) > 0 {
		msgs := make([]string, len(res.Errors))
		for i, m := range res.Errors {
			msgs[i] = formatMessage(m)
		}
		return "", "", &Failure{Message: TypeScriptFailedPrefix + strings.Join(msgs, "\n")}
	}
	out = string(res.Code)
	if !completesWithFunction(out) {
		return "", "", &Failure{Message: TypeScriptFailedPrefix + "output is not the wrapped async function"}
	}
	return out, functionBody(out), nil
}

// functionBody returns the text of out, which completesWithFunction accepts,
// between the first wrapper head that starts a line and the final "})".
// esbuild writes helpers before the wrapper and indents the body, so the
// first such head is the wrapper's.
func functionBody(out string) string {
	start := 0
	if !strings.HasPrefix(out, wrapperHead) {
		start = strings.Index(out, "\n"+wrapperHead) + 1
	}
	start += len(wrapperHead)
	end := len(strings.TrimSuffix(strings.TrimRightFunc(out, isBlank), ";")) - len("})")
	if end < start {
		return ""
	}
	return out[start:end]
}

// formatMessage renders an esbuild message as "line:column: text", with the
// line counted in the user's code (the wrapper's first line taken off, and
// never below 1) and the column 1-based.
func formatMessage(m api.Message) string {
	if m.Location == nil {
		return m.Text
	}
	return fmt.Sprintf("%d:%d: %s", max(m.Location.Line-1, 1), m.Location.Column+1, m.Text)
}

// completesWithFunction reports whether esbuild output still ends with the
// wrapper's function expression as its own statement, so that it is the
// script's completion value: a line that starts with the wrapper's head, and
// "})" with an optional ';' at the end.
func completesWithFunction(out string) bool {
	end := strings.TrimSuffix(strings.TrimRightFunc(out, isBlank), ";")
	head := strings.HasPrefix(out, wrapperHead) || strings.Contains(out, "\n"+wrapperHead)
	return head && strings.HasSuffix(end, "})")
}
