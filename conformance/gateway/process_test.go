package gateway

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestSpawn(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		url    string
		err    string
	}{
		{name: "listens", script: `echo "booting"; echo "listening on http://127.0.0.1:4242/"; exec sleep 30`, url: "http://127.0.0.1:4242"},
		{name: "exits first", script: `echo "bad config" >&2; exit 3`, err: "gateway exited before it listened"},
		{name: "stderr quoted", script: `echo "bad config" >&2; exit 3`, err: "gateway stderr:\nbad config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := spawn([]string{"sh", "-c", tc.script}, os.Environ(), "")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("spawn = %v, want an error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.url != tc.url {
				t.Errorf("url = %q, want %q", p.url, tc.url)
			}
			if err := p.stop(5 * time.Second); err != nil {
				t.Errorf("stop: %v", err)
			}
			select {
			case <-p.exited:
			default:
				t.Error("the process has not exited after stop")
			}
		})
	}
}

// TestStopKills ends a gateway that ignores SIGTERM by killing its
// process group, and says so.
func TestStopKills(t *testing.T) {
	p, err := spawn([]string{"sh", "-c", `trap "" TERM; echo "listening on http://127.0.0.1:1"; while :; do sleep 1; done`}, os.Environ(), "")
	if err != nil {
		t.Fatal(err)
	}
	err = p.stop(500 * time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "did not exit") {
		t.Fatalf("stop = %v, want a report that the gateway had to be killed", err)
	}
	<-p.exited
}

func TestMakeTarget_NoCommand(t *testing.T) {
	if _, err := MakeTarget(Options{})(); err == nil {
		t.Fatal("MakeTarget without a command succeeded")
	}
}
