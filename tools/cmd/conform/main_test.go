package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// closingLine is conform's last line for a run with passes and no failure.
var closingLine = regexp.MustCompile(`(?m)^conformance: [1-9][0-9]* passed, 0 failed, 0 expected-fail$`)

// TestRun_embeddedReference runs the main job's command (make
// conformance) on one feature file against the embedded reference, with
// guests in worker processes and in process: the exit status, the closing
// line and every report file. The reference's own tests run the whole
// suite.
func TestRun_embeddedReference(t *testing.T) {
	for _, isolation := range []string{"process", "in-process"} {
		t.Run(isolation, func(t *testing.T) {
			dir := t.TempDir()
			var stdout, stderr bytes.Buffer
			code := run([]string{"--path", "02-configuration.feature", "--isolation", isolation, "--format", "junit",
				"--report", dir}, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("conform exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
			}
			if !closingLine.Match(stderr.Bytes()) && !closingLine.Match(stdout.Bytes()) {
				t.Errorf("no closing line with passes and no failure\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
			for _, name := range []string{"report.json", "summary.md", "report.html", "cucumber.json", "junit.xml"} {
				if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
					t.Errorf("report file %s: %v", name, err)
				}
			}
		})
	}
}
