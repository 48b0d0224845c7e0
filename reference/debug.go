package codemode

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// The debug switches of SPEC.md chapter 21 the runtime reads.
const (
	envDebugCodeMode     = "OPENCLAW_DEBUG_CODE_MODE"
	envDebugModelPayload = "OPENCLAW_DEBUG_MODEL_PAYLOAD"
)

// typeScriptLoadedLine is logged the first time a runtime transforms a
// TypeScript cell (CM-21.2).
const typeScriptLoadedLine = "code mode typescript transform loaded"

// debugLog writes the targeted debug lines. Lines carry run ids, statuses,
// codes and durations, never cell source or tool inputs.
type debugLog struct {
	codeMode bool
	payload  string // "", "tools" or "full-redacted"

	mu  sync.Mutex
	out io.Writer // nil discards the lines
	ts  bool      // the TypeScript line was written
}

func newDebugLog(env map[string]string, out io.Writer) *debugLog {
	get := func(k string) string {
		if env != nil {
			return env[k]
		}
		return os.Getenv(k)
	}
	d := &debugLog{codeMode: get(envDebugCodeMode) == "1", out: out}
	if p := get(envDebugModelPayload); p == "tools" || p == "full-redacted" {
		d.payload = p
	}
	return d
}

// line writes one line to the log's writer, in one Write.
func (d *debugLog) line(format string, args ...any) {
	s := fmt.Sprintf(format, args...) + "\n"
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.out != nil {
		_, _ = io.WriteString(d.out, s)
	}
}

// event logs a code-mode lifecycle event when OPENCLAW_DEBUG_CODE_MODE=1.
func (d *debugLog) event(format string, args ...any) {
	if d.codeMode {
		d.line("code mode "+format, args...)
	}
}

// typeScriptLoaded logs typeScriptLoadedLine once.
func (d *debugLog) typeScriptLoaded() {
	if !d.codeMode {
		return
	}
	d.mu.Lock()
	first := !d.ts
	d.ts = true
	d.mu.Unlock()
	if first {
		d.line(typeScriptLoadedLine)
	}
}

// tools logs the model-visible tools of a model request when
// OPENCLAW_DEBUG_MODEL_PAYLOAD is tools or full-redacted.
func (d *debugLog) tools(names []string) {
	if d.payload != "" {
		d.line("model payload tools: %s", strings.Join(names, ", "))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%dms", d.Milliseconds()) }
