// Command codemode runs the reference code-mode runtime against a scripted
// tool catalog, for users trying code mode and for debugging.
//
// Usage:
//
//	codemode tools --catalog FILE [--config FILE] [--agent ID]
//	codemode run --catalog FILE [--config FILE] [--agent ID]
//	             [--language javascript|typescript] [--restart-safe] FILE|-
//	codemode serve-driver
//
// tools prints the model-visible tools of one agent run (name, description
// and parameters JSON schema of each, as the provider receives them) as a
// JSON array. run calls exec with the program read from FILE (or stdin for
// -), then calls wait with the run id for as long as the result is waiting,
// and prints every result payload (SPEC.md chapter 7) as one compact JSON
// line. serve-driver speaks the conformance driver protocol
// (SPEC.md Appendix D) on stdin and stdout, for the
// conformance suite.
//
// The catalog file has the format of fixtures/catalogs/README.md; its tools
// answer as their scripted behaviours say. The config file is an
// OpenClaw-style configuration document; without --config, code mode is
// enabled with every default ({"tools":{"codeMode":true}}).
//
// # Notes
//
//   - A held tool ({"hold": true}) answers once codemode calls wait: a call
//     to it keeps exec pending until the exec deadline (timeoutMs, default
//     10 s) parks the run as waiting, and codemode releases every held tool
//     just before each wait. Once released, a held tool answers at once.
//   - Tools that require approval are denied: codemode has no approver.
//   - Debug lines (OPENCLAW_DEBUG_CODE_MODE=1, SPEC.md chapter 21) go to
//     stderr.
//
// The exit status is 0 when tools succeeds or the final run result is
// completed, 1 when it is failed, and 2 on a usage or host error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// Exit statuses.
const (
	exitOK     = 0 // tools succeeded, or the run completed
	exitFailed = 1 // the run's final result is failed
	exitError  = 2 // usage or host error
)

const toolsUsage = `codemode tools --catalog FILE [--config FILE] [--agent ID]`

const runUsage = `codemode run --catalog FILE [--config FILE] [--agent ID]
             [--language javascript|typescript] [--restart-safe]
             [--isolation process|in-process] FILE|-`

const usage = `Usage:
  ` + toolsUsage + `
  ` + runUsage + `
  ` + serveDriverUsage + `

Commands:
  tools  print the model-visible tools (name, description, parameters) as JSON
  run    exec the program in FILE (- reads stdin), then wait while the result
         is waiting; print every result payload as one compact JSON line
  serve-driver
         speak the conformance driver protocol on stdin and stdout
         (SPEC.md Appendix D)

Flags:
  --catalog FILE   tool catalog, as in fixtures/catalogs/README.md (required)
  --config FILE    OpenClaw-style config (default {"tools":{"codeMode":true}})
  --agent ID       agent id of the run, for agents.list overrides (default main)
  --language LANG  run only: javascript (default) or typescript
  --restart-safe   run only: exec with restartSafe: true
  --isolation MODE run and serve-driver: where guest code runs, process
                   (default: worker processes, killed when a cell passes
                   its deadline) or in-process (trusted code only)

Held tools ({"hold": true}) answer once codemode calls wait. Tools that
require approval are denied.

Exit status: 0 when tools succeeds or the run completes, 1 when the run
fails, 2 on a usage or host error.
`

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	stderr = &lockedWriter{w: stderr}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "tools":
		return toolsCommand(ctx, args[1:], stdout, stderr)
	case "run":
		return runCommand(ctx, args[1:], stdin, stdout, stderr)
	case "serve-driver":
		return serveDriverCommand(ctx, args[1:], stdin, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "codemode: unknown command %q\n\n%s", args[0], usage)
		return exitError
	}
}

// A usageError is a command line the command cannot run.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// fail reports err for command cmd and returns exitError; usage errors add
// the command's usage line.
func fail(stderr io.Writer, cmd, cmdUsage string, err error) int {
	fmt.Fprintf(stderr, "codemode %s: %v\n", cmd, err)
	if ue := (*usageError)(nil); errors.As(err, &ue) {
		fmt.Fprintf(stderr, "usage: %s\n", cmdUsage)
	}
	return exitError
}

// parseArgs parses flags and positional arguments in any order; arguments
// after "--" are positional. It returns flag.ErrHelp for -h.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{msg: err.Error()}
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// newFlagSet returns a silent flag set: errors are reported by the caller.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// lockedWriter serializes writes: the runtime's debug log and the command
// share stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
