package checkdocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/format"
	"go/scanner"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// The exec cell wrapper of SPEC.md section 5.5, as the reference's source
// preparation writes it: a block of n lines starts on the wrapper's line 2.
const (
	cellHead = "(async () => {\n"
	cellTail = "\n})"
)

// checkBlocks checks the fenced code blocks of d (see the package doc).
func checkBlocks(d *doc, ps *problems) {
	if d.Unclosed > 0 && d.Path != SpecPath { // parseSpec reports SPEC.md's
		ps.add(d.Path, d.Unclosed, "code fence is never closed")
	}
	for _, b := range d.Blocks {
		var line int
		var msg string
		switch b.Lang {
		case "js", "javascript":
			line, msg = checkJS(b.Text)
		case "ts", "typescript":
			line, msg = checkTS(b.Text)
		case "go", "golang":
			line, msg = checkGo(b.Text)
		case "json":
			line, msg = checkJSON(b.Text)
		default:
			continue
		}
		if msg != "" {
			line = min(max(line, 1), max(strings.Count(b.Text, "\n"), 1))
			ps.add(d.Path, b.firstLine()+line-1, "%s block: %s", b.Lang, msg)
		}
	}
}

// checkJS parses text as the body of an exec cell. It returns the 1-based
// line of the block where the first error is, and its message; "" if the
// block parses.
func checkJS(text string) (line int, msg string) {
	return esbuildParse(cellHead+text+cellTail, api.LoaderJS, 1)
}

// checkTS parses text as a TypeScript module or declaration file and, if
// that fails, as a TypeScript exec cell (the body of an async function): a
// cell that uses await is read as a module, where its return is an error.
// When both fail it reports the module reading's error; esbuild reports a
// syntax error before the misplaced return.
func checkTS(text string) (line int, msg string) {
	line, msg = esbuildParse(text, api.LoaderTS, 0)
	if msg == "" {
		return 0, ""
	}
	if _, cellMsg := esbuildParse(cellHead+text+cellTail, api.LoaderTS, 1); cellMsg == "" {
		return 0, ""
	}
	return line, msg
}

// esbuildParse parses src with esbuild. skip is the number of wrapper lines
// before the block.
func esbuildParse(src string, loader api.Loader, skip int) (line int, msg string) {
	res := api.Transform(src, api.TransformOptions{Loader: loader})
	if len(res.Errors) == 0 {
		return 0, ""
	}
	e := res.Errors[0]
	line = 1
	if e.Location != nil {
		line = max(1, e.Location.Line-skip)
	}
	return line, "does not parse: " + e.Text
}

// checkGo requires text to be gofmt-clean: go/format.Source, which takes a
// file or a list of declarations or statements, leaves it unchanged.
func checkGo(text string) (line int, msg string) {
	out, err := format.Source([]byte(text))
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			return max(1, list[0].Pos.Line), "does not parse: " + list[0].Msg
		}
		return 1, "does not parse: " + err.Error()
	}
	if string(out) == text {
		return 0, ""
	}
	got, want := strings.Split(text, "\n"), strings.Split(string(out), "\n")
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return i + 1, "not gofmt-clean: gofmt writes this line as " + strconv.Quote(want[i])
		}
	}
	return min(len(got), len(want)), "not gofmt-clean"
}

// checkJSON requires text to be one JSON value.
func checkJSON(text string) (line int, msg string) {
	var v any
	err := json.Unmarshal([]byte(text), &v)
	if err == nil {
		return 0, ""
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return lineOf(text, syn.Offset), "invalid JSON: " + syn.Error()
	}
	return 1, "invalid JSON: " + err.Error()
}

// lineOf returns the 1-based line of byte offset off of text.
func lineOf(text string, off int64) int {
	off = min(max(off, 0), int64(len(text)))
	return 1 + bytes.Count([]byte(text[:off]), []byte("\n"))
}
