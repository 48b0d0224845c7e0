// Command fakemcp serves a fake MCP server over stdio, so that targets can
// launch it as an MCP server process:
//
//	fakemcp definition.json
//
// The definition file is a fakemcp.Definition in JSON. The server reads
// requests on stdin and answers on stdout until stdin ends, a scripted
// "close" reply stops it, or it receives SIGINT or SIGTERM. Errors go to
// stderr.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/codemodekit/kit/fakes/fakemcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: fakemcp <definition.json>")
		return 2
	}
	if err := fakemcp.ServeFile(ctx, args[0], stdin, stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "fakemcp: %v\n", err)
		return 1
	}
	return 0
}
