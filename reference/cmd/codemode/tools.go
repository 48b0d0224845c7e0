package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
)

// A definition is one model-visible tool as the provider receives it.
type definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// toolsCommand prints the model-visible tools of an agent run.
func toolsCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("tools")
	var sf setupFlags
	sf.register(fs)
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if err != nil {
		return fail(stderr, "tools", toolsUsage, err)
	}
	if len(pos) > 0 {
		return fail(stderr, "tools", toolsUsage, usagef("unexpected argument %q", pos[0]))
	}
	s, err := sf.load()
	if err != nil {
		return fail(stderr, "tools", toolsUsage, err)
	}
	sess, err := s.start(ctx, stderr)
	if err != nil {
		return fail(stderr, "tools", toolsUsage, err)
	}
	defer sess.Close()
	defs := sess.turn.Tools()
	out := make([]definition, len(defs))
	for i, d := range defs {
		out[i] = definition{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fail(stderr, "tools", toolsUsage, fmt.Errorf("write: %w", err))
	}
	return exitOK
}
