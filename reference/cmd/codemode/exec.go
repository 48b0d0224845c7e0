package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	codemode "github.com/codemodekit/kit/reference"
)

// execInput is the exec tool's input (SPEC.md chapter 5).
type execInput struct {
	Code        string `json:"code"`
	Language    string `json:"language,omitempty"`
	RestartSafe bool   `json:"restartSafe,omitempty"`
}

// runCommand execs a program and waits until its run completes or fails.
func runCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("run")
	var sf setupFlags
	sf.register(fs)
	language := fs.String("language", "", "source language: javascript (default) or typescript")
	restartSafe := fs.Bool("restart-safe", false, "exec with restartSafe: true")
	isolation := fs.String("isolation", "process", "where guest code runs: process or in-process")
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if err != nil {
		return fail(stderr, "run", runUsage, err)
	}
	switch {
	case len(pos) == 0:
		return fail(stderr, "run", runUsage, usagef("missing program FILE (or - for stdin)"))
	case len(pos) > 1:
		return fail(stderr, "run", runUsage, usagef("want one program FILE, got %d arguments", len(pos)))
	}
	switch *language {
	case "", "javascript", "typescript":
	default:
		return fail(stderr, "run", runUsage, usagef("--language must be javascript or typescript, not %q", *language))
	}
	iso, err := codemode.ParseIsolation(*isolation)
	if err != nil {
		return fail(stderr, "run", runUsage, usagef("%v", err))
	}
	s, err := sf.load()
	if err != nil {
		return fail(stderr, "run", runUsage, err)
	}
	s.isolation = iso
	src, err := readProgram(pos[0], stdin)
	if err != nil {
		return fail(stderr, "run", runUsage, err)
	}
	sess, err := s.start(ctx, stderr)
	if err != nil {
		return fail(stderr, "run", runUsage, err)
	}
	defer sess.Close()
	if !sess.turn.Active() {
		return fail(stderr, "run", runUsage, errors.New("code mode is not active: the config disables it or no tool is active after policy"))
	}
	input, err := json.Marshal(execInput{Code: src, Language: *language, RestartSafe: *restartSafe})
	if err != nil {
		return fail(stderr, "run", runUsage, err)
	}
	status, err := drive(ctx, sess, input, stdout)
	if err != nil {
		return fail(stderr, "run", runUsage, err)
	}
	if status == "completed" {
		return exitOK
	}
	return exitFailed
}

// readProgram reads the program from path, or from stdin for "-".
func readProgram(path string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("read program: %w", err)
	}
	return string(b), nil
}

// drive calls exec with input, then wait while the result is waiting,
// printing every payload as one line. It returns the final status,
// "completed" or "failed".
func drive(ctx context.Context, sess *session, input json.RawMessage, stdout io.Writer) (string, error) {
	name, args := "exec", input
	for n := 1; ; n++ {
		res, err := sess.turn.Call(ctx, fmt.Sprintf("call_%d", n), name, args)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		if len(res.Details) == 0 {
			return "", fmt.Errorf("%s returned no payload: %s", name, resultText(res.Content))
		}
		var line bytes.Buffer
		if err := json.Compact(&line, res.Details); err != nil {
			return "", fmt.Errorf("%s payload: %w", name, err)
		}
		line.WriteByte('\n')
		if _, err := stdout.Write(line.Bytes()); err != nil {
			return "", fmt.Errorf("write: %w", err)
		}
		var p struct {
			Status string `json:"status"`
			RunID  string `json:"runId"`
		}
		if err := json.Unmarshal(res.Details, &p); err != nil {
			return "", fmt.Errorf("%s payload: %w", name, err)
		}
		switch p.Status {
		case "completed", "failed":
			return p.Status, nil
		case "waiting":
		default:
			return "", fmt.Errorf("%s payload has unknown status %q", name, p.Status)
		}
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("interrupted while run %s is waiting", p.RunID)
		}
		sess.release()
		name = "wait"
		args, err = json.Marshal(map[string]string{"runId": p.RunID})
		if err != nil {
			return "", err
		}
	}
}

func resultText(blocks []codemode.ContentBlock) string {
	var b bytes.Buffer
	for i, c := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.Text)
	}
	return b.String()
}
