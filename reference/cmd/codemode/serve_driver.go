package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/harness"
)

const serveDriverUsage = `codemode serve-driver [--isolation process|in-process]`

// serveDriverCommand serves the reference over the conformance driver
// protocol (SPEC.md Appendix D) on stdin and stdout, one
// scenario per process, so that the suite can test it as it tests an
// implementation in any language. Diagnostics go to stderr, which the
// suite attaches to failures.
func serveDriverCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve-driver")
	isolation := fs.String("isolation", "process", "where guest code runs: process or in-process")
	pos, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if err != nil {
		return fail(stderr, "serve-driver", serveDriverUsage, err)
	}
	if len(pos) > 0 {
		return fail(stderr, "serve-driver", serveDriverUsage, usagef("unexpected argument %q", pos[0]))
	}
	iso, err := codemode.ParseIsolation(*isolation)
	if err != nil {
		return fail(stderr, "serve-driver", serveDriverUsage, usagef("%v", err))
	}
	if err := harness.ServeDriverWith(ctx, stdin, stdout, iso); err != nil {
		return fail(stderr, "serve-driver", serveDriverUsage, err)
	}
	return exitOK
}
