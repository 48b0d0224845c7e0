package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nats-io/nats.go"

	codemode "github.com/codemodekit/kit/reference"
)

func openTranscripts(t *testing.T, url string, streamReplicas int) *Transcripts {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tr, err := OpenTranscripts(ctx, nc, streamReplicas)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestTranscripts_threeServers: records appended through one
// replica are read, in order, through another, session by session, on a
// three-server cluster.
func TestTranscripts_threeServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-server cluster")
	}
	servers := startCluster(t, 3)
	a := openTranscripts(t, servers[0].ClientURL(), 3)
	b := openTranscripts(t, servers[2].ClientURL(), 3)
	want := map[string][]codemode.TranscriptRecord{}
	for i := range 300 {
		key := fmt.Sprintf("agent:main:%d", i%3)
		if i%3 == 2 {
			key = "agent:main:with spaces/and.dots>*"
		}
		rec := codemode.TranscriptRecord{Type: "tool_call", AgentRunID: "ar", ToolCallID: fmt.Sprintf("call_%d", i),
			Name: "exec", Arguments: json.RawMessage(`{"code":"return 1 < 2 && a > b"}`), Boot: "b1"}
		if err := []*Transcripts{a, b}[i%2].Append(key, rec); err != nil {
			t.Fatal(err)
		}
		want[key] = append(want[key], rec)
	}
	// The records keep their JSON as written, without HTML escapes.
	raw, err := b.Records("agent:main:0")
	if err != nil || len(raw) == 0 || string(raw[0].Arguments) != `{"code":"return 1 < 2 && a > b"}` {
		t.Fatalf("the arguments read back = %v, %v", raw, err)
	}
	for key, recs := range want {
		got, err := b.Records(key)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(recs, got); diff != "" {
			t.Errorf("Records(%q) mismatch (-want +got):\n%s", key, diff)
		}
	}
	if got, err := a.Records("agent:main:never"); err != nil || len(got) != 0 {
		t.Errorf("Records of an empty session = %v, %v", got, err)
	}
}

// TestTranscripts_largeRecords: records of megabytes, appended in chunks
// from two replicas at once into one session, read back whole and in the
// order their appends ended.
func TestTranscripts_largeRecords(t *testing.T) {
	s := startServer(t)
	a := openTranscripts(t, s.ClientURL(), 1)
	b := openTranscripts(t, s.ClientURL(), 1)
	big := func(c string, n int) codemode.TranscriptRecord {
		return codemode.TranscriptRecord{Type: "tool_result", Name: "exec", Text: strings.Repeat(c, n)}
	}
	var wg sync.WaitGroup
	for i, tr := range []*Transcripts{a, b} {
		wg.Go(func() {
			for j := range 3 {
				if err := tr.Append("k", big(fmt.Sprint(i), 3<<20+j)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := a.Append("k", big("s", 10)); err != nil {
		t.Fatal(err)
	}
	got, err := b.Records("k")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 7 || got[6].Text != "ssssssssss" {
		t.Fatalf("read %d records, want 7 ending with the small one", len(got))
	}
	seen := map[string]int{}
	for _, r := range got[:6] {
		c := r.Text[:1]
		if r.Text != strings.Repeat(c, 3<<20+seen[c]) {
			t.Fatalf("record %d of writer %s is %d bytes of mixed text", seen[c], c, len(r.Text))
		}
		seen[c]++
	}
}

// TestTranscripts_appendsWhileReading: a read sees a prefix of what is
// being appended concurrently, never a gap or a reordering.
func TestTranscripts_appendsWhileReading(t *testing.T) {
	s := startServer(t)
	tr := openTranscripts(t, s.ClientURL(), 1)
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 200 {
			if err := tr.Append("k", codemode.TranscriptRecord{Type: "tool_result", ToolCallID: fmt.Sprint(i)}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 20 {
		got, err := tr.Records("k")
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range got {
			if r.ToolCallID != fmt.Sprint(i) {
				t.Fatalf("record %d is %q", i, r.ToolCallID)
			}
		}
	}
	wg.Wait()
}
