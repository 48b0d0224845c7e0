package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// isTerminal reports whether w is an interactive terminal outside CI.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("CI") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// liveCounter turns the runner's one-line-per-scenario progress into a
// counter that rewrites one terminal line. Scenarios that do not pass, and
// every line that is not a scenario line, are printed in full above it.
//
// The run's first line ("running N scenarios, seed S") gives the total;
// the counter then shows n/N and an estimate of the time left, from the
// mean time per scenario so far.
type liveCounter struct {
	w       io.Writer
	pending []byte
	done    int
	total   int
	counts  map[string]int
	shown   bool // the counter line is on screen
	started time.Time
	now     func() time.Time
}

func newLiveCounter(w io.Writer) *liveCounter {
	return &liveCounter{w: w, counts: map[string]int{}, now: time.Now}
}

// statuses are the first words of scenario progress lines.
var statuses = []string{"passed", "failed", "not-applicable", "expected-fail", "stale-baseline", "reason-drift"}

func (c *liveCounter) Write(p []byte) (int, error) {
	c.pending = append(c.pending, p...)
	for {
		i := bytes.IndexByte(c.pending, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(c.pending[:i])
		c.pending = c.pending[i+1:]
		if err := c.line(line); err != nil {
			return len(p), err
		}
	}
}

func (c *liveCounter) line(line string) error {
	status, _, _ := strings.Cut(line, " ")
	isScenario := false
	for _, s := range statuses {
		isScenario = isScenario || s == status
	}
	clear := ""
	if c.shown {
		clear = "\r\033[K"
	}
	if !isScenario {
		var n int
		var seed int64
		if _, err := fmt.Sscanf(line, "running %d scenarios, seed %d", &n, &seed); err == nil {
			c.total, c.started = n, c.now()
		}
		c.shown = false
		_, err := fmt.Fprintf(c.w, "%s%s\n", clear, line)
		return err
	}
	c.done++
	c.counts[status]++
	if status != "passed" {
		if _, err := fmt.Fprintf(c.w, "%s%s\n", clear, line); err != nil {
			return err
		}
		clear = ""
	}
	c.shown = true
	done := fmt.Sprintf("%d scenarios", c.done)
	eta := ""
	if c.total > 0 {
		done = fmt.Sprintf("%d/%d scenarios", c.done, c.total)
		if left := c.total - c.done; left > 0 {
			per := c.now().Sub(c.started) / time.Duration(c.done)
			eta = fmt.Sprintf(", about %s left", (per * time.Duration(left)).Round(time.Second))
		}
	}
	_, err := fmt.Fprintf(c.w, "%s%s: %d passed, %d failed, %d expected-fail, %d not applicable%s",
		clear, done, c.counts["passed"], c.counts["failed"]+c.counts["stale-baseline"]+c.counts["reason-drift"],
		c.counts["expected-fail"], c.counts["not-applicable"], eta)
	return err
}

// Close ends the counter line.
func (c *liveCounter) Close() error {
	if len(c.pending) > 0 {
		if err := c.line(string(c.pending)); err != nil {
			return err
		}
		c.pending = nil
	}
	if c.shown {
		c.shown = false
		_, err := io.WriteString(c.w, "\n")
		return err
	}
	return nil
}
