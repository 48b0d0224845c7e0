package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// baseDigestEnv makes TestBase_sameInEveryProcess's child print its base
// image's digest.
const baseDigestEnv = "CODEMODE_TEST_BASE_DIGEST"

func baseDigest(t *testing.T) string {
	t.Helper()
	sb, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatalf("engine unavailable: %v", err)
	}
	defer sb.Close()
	b := sb.Base()
	if b == nil {
		t.Fatal("no base image")
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestBase_sameInEveryProcess: two processes with the same engine binary
// make the same base image, so a run stored as a delta in one restores in
// the other (the replicas of a clustered gateway, SPEC.md Appendix G).
func TestBase_sameInEveryProcess(t *testing.T) {
	if os.Getenv(baseDigestEnv) != "" {
		fmt.Println("base " + baseDigest(t))
		return
	}
	mine := baseDigest(t)
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBase_sameInEveryProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), baseDigestEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		var theirs string
		for _, line := range strings.Split(string(out), "\n") {
			if d, ok := strings.CutPrefix(line, "base "); ok {
				theirs = d
			}
		}
		if theirs != mine {
			t.Fatalf("a child process made base %q, this one %q", theirs, mine)
		}
	}
}
