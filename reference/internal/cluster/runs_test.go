package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nats-io/nats.go/jetstream"
)

var scopeA = Scope{AgentRunID: "ar-1", SessionID: "s-1", SessionKey: "agent:main:one", AgentID: "main"}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestClaim_refusalsInSpecOrder(t *testing.T) {
	s := startServer(t)
	rs := openRuns(t, s, "r1", 64)
	ctx := testCtx(t)
	if err := rs.Put(ctx, &Record{ID: "run-1", Scope: scopeA, Generation: 1}, nil, time.Minute); err != nil {
		t.Fatal(err)
	}
	otherRun := scopeA
	otherRun.AgentRunID = "ar-2"
	otherSession := scopeA
	otherSession.SessionKey = "agent:main:two"
	otherAgent := scopeA
	otherAgent.AgentID = "helper"
	bothDiffer := otherSession
	bothDiffer.AgentRunID = "ar-2"
	tests := []struct {
		name  string
		id    string
		scope Scope
		want  Refusal
	}{
		{"unknown run", "run-2", scopeA, Unavailable},
		{"malformed id", "../run-1", scopeA, Unavailable},
		{"other agent run", "run-1", otherRun, OtherAgentRun},
		{"other session", "run-1", otherSession, OtherSession},
		{"other agent", "run-1", otherAgent, OtherSession},
		{"agent run is checked first", "run-1", bothDiffer, OtherAgentRun},
		{"same scope", "run-1", scopeA, Claimed},
		{"claimed already", "run-1", scopeA, Resuming},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, got, err := rs.Claim(ctx, tc.id, tc.scope, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Claim(%q) = %v, want %v", tc.id, got, tc.want)
			}
		})
	}
}

func TestClaim_expiredAndLapsed(t *testing.T) {
	s := startServer(t)
	rs := openRuns(t, s, "r1", 64)
	ctx := testCtx(t)
	now := time.Now()
	rs.now = func() time.Time { return now }
	if err := rs.Put(ctx, &Record{ID: "run-1", Scope: scopeA}, nil, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, got, _ := rs.Claim(ctx, "run-1", scopeA, 10*time.Second); got != Claimed {
		t.Fatalf("first claim: %v", got)
	}
	// Another replica sees the claim until its lease lapses.
	other := openRuns(t, s, "r2", 64)
	other.now = rs.now
	if _, got, _ := other.Claim(ctx, "run-1", scopeA, 10*time.Second); got != Resuming {
		t.Fatalf("claim during the lease: %v, want Resuming", got)
	}
	now = now.Add(11 * time.Second)
	if _, got, _ := other.Claim(ctx, "run-1", scopeA, 10*time.Second); got != Claimed {
		t.Fatalf("claim after the lease lapsed: %v, want Claimed", got)
	}
	now = now.Add(time.Minute)
	if _, got, _ := other.Claim(ctx, "run-1", scopeA, 10*time.Second); got != Unavailable {
		t.Fatalf("claim after expiry: %v, want Unavailable", got)
	}
}

// TestClaim_race is the race the cluster exists to win: the same wait sent
// to two replicas at once resumes the run exactly once.
func TestClaim_race(t *testing.T) {
	s := startServer(t)
	replicas := []*Runs{openRuns(t, s, "r1", 64), openRuns(t, s, "r2", 64)}
	ctx := testCtx(t)
	for i := range 100 {
		id := fmt.Sprintf("run-%d", i)
		if err := replicas[0].Put(ctx, &Record{ID: id, Scope: scopeA}, nil, time.Minute); err != nil {
			t.Fatal(err)
		}
		got := claimAtOnce(t, replicas, id)
		if diff := cmp.Diff([]Refusal{Claimed, Resuming}, got); diff != "" {
			t.Fatalf("%s: claims mismatch (-want +got):\n%s", id, diff)
		}
		if err := replicas[0].Remove(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
}

// claimAtOnce has every replica claim run id at the same time and
// returns their answers, sorted.
func claimAtOnce(t *testing.T, replicas []*Runs, id string) []Refusal {
	t.Helper()
	ctx := testCtx(t)
	var wg sync.WaitGroup
	got := make([]Refusal, len(replicas))
	for j, rs := range replicas {
		wg.Go(func() {
			var err error
			if _, got[j], err = rs.Claim(ctx, id, scopeA, time.Minute); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	slices.Sort(got)
	return got
}

// TestPut_capIsClusterWide has three replicas store more runs at once than
// the cap: exactly the cap's worth are stored, and a removal frees a slot.
func TestPut_capIsClusterWide(t *testing.T) {
	s := startServer(t)
	const max = 16
	replicas := []*Runs{openRuns(t, s, "r1", max), openRuns(t, s, "r2", max), openRuns(t, s, "r3", max)}
	ctx := testCtx(t)
	var mu sync.Mutex
	var stored []string
	full := 0
	var wg sync.WaitGroup
	for i := range 3 * max {
		rs := replicas[i%len(replicas)]
		wg.Go(func() {
			id := fmt.Sprintf("run-%d", i)
			err := rs.Put(ctx, &Record{ID: id, Scope: scopeA}, nil, time.Minute)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, ErrFull):
				full++
			case err != nil:
				t.Error(err)
			default:
				stored = append(stored, id)
			}
		})
	}
	wg.Wait()
	if len(stored) != max || full != 2*max {
		t.Fatalf("stored %d and refused %d of %d runs, want %d and %d", len(stored), full, 3*max, max, 2*max)
	}
	if held, err := replicas[1].Held(ctx); err != nil || held != max {
		t.Fatalf("Held() = %d, %v; want %d", held, err, max)
	}
	if err := replicas[2].Remove(ctx, stored[0]); err != nil {
		t.Fatal(err)
	}
	if err := replicas[1].Put(ctx, &Record{ID: "run-late", Scope: scopeA}, nil, time.Minute); err != nil {
		t.Fatalf("a removal did not free its slot: %v", err)
	}
}

func TestParts_roundTrip(t *testing.T) {
	s := startServer(t)
	rs := openRuns(t, s, "r1", 64)
	other := openRuns(t, s, "r2", 64)
	ctx := testCtx(t)
	big := bytes.Repeat([]byte("snapshot"), 3<<20) // 24 MiB: many object chunks
	parts := map[string][]byte{"image": big, "ledger": []byte(`{"next":3}`), "empty": {}}
	if err := rs.Put(ctx, &Record{ID: "run-1", Scope: scopeA, Generation: 1}, parts, time.Minute); err != nil {
		t.Fatal(err)
	}
	r, got, err := other.Claim(ctx, "run-1", scopeA, time.Minute)
	if err != nil || got != Claimed {
		t.Fatalf("Claim = %v, %v", got, err)
	}
	read, err := other.ReadParts(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	// Sizes and sums: cmp.Diff over megabytes would take minutes.
	if diff := cmp.Diff(digests(parts), digests(read)); diff != "" {
		t.Errorf("parts mismatch (-want +got):\n%s", diff)
	}
	if r.Parts["image"].Object == "" || r.Parts["ledger"].Object != "" {
		t.Errorf("placement: image object %q, ledger object %q; want only the image outside the record", r.Parts["image"].Object, r.Parts["ledger"].Object)
	}

	// The next suspension replaces the image and drops the old object.
	next := map[string][]byte{"image": bytes.Repeat([]byte("later"), 1<<20)}
	r2, err := other.Resuspend(ctx, "run-1", 2, next, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Holder != "r2" || r2.Resumer != "" || r2.Generation != 2 {
		t.Errorf("after Resuspend: holder %q, resumer %q, generation %d", r2.Holder, r2.Resumer, r2.Generation)
	}
	if _, err := rs.ReadPart(ctx, r.Parts["image"]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("reading the replaced image: %v, want ErrCorrupt (missing)", err)
	}
	if err := rs.Remove(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := rs.ReadPart(ctx, r2.Parts["image"]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("reading a removed run's image: %v, want ErrCorrupt (missing)", err)
	}
	if held, _ := rs.Held(ctx); held != 0 {
		t.Errorf("Held() after Remove = %d", held)
	}
}

// digests maps each part to its size and sum.
func digests(parts map[string][]byte) map[string]string {
	out := map[string]string{}
	for name, data := range parts {
		out[name] = fmt.Sprintf("%d %s", len(data), sumOf(data))
	}
	return out
}

func TestResuspend_needsTheClaim(t *testing.T) {
	s := startServer(t)
	rs := openRuns(t, s, "r1", 64)
	other := openRuns(t, s, "r2", 64)
	ctx := testCtx(t)
	if err := rs.Put(ctx, &Record{ID: "run-1", Scope: scopeA}, nil, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Resuspend(ctx, "run-1", 2, nil, time.Minute); !errors.Is(err, errNotMine) {
		t.Errorf("Resuspend without a claim: %v, want errNotMine", err)
	}
	if _, got, _ := rs.Claim(ctx, "run-1", scopeA, time.Minute); got != Claimed {
		t.Fatal("claim refused")
	}
	if err := other.Release(ctx, "run-1"); !errors.Is(err, errNotMine) {
		t.Errorf("Release of another replica's claim: %v, want errNotMine", err)
	}
	if err := rs.Release(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	if _, got, _ := other.Claim(ctx, "run-1", scopeA, time.Minute); got != Claimed {
		t.Errorf("claim after Release: %v", got)
	}
}

func TestSweep(t *testing.T) {
	s := startServer(t)
	rs := openRuns(t, s, "r1", 64)
	ctx := testCtx(t)
	now := time.Now()
	rs.now = func() time.Time { return now }
	for _, id := range []string{"old", "resumed", "fresh"} {
		if err := rs.Put(ctx, &Record{ID: id, Scope: scopeA}, map[string][]byte{"image": make([]byte, MaxInline+1)}, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if _, got, _ := rs.Claim(ctx, "resumed", scopeA, 5*time.Minute); got != Claimed {
		t.Fatal("claim refused")
	}
	if _, err := rs.Modify(ctx, "fresh", func(r *Record) error { r.Expires = now.Add(time.Hour); return nil }); err != nil {
		t.Fatal(err)
	}
	// An orphan slot: a replica stopped after taking it.
	if _, err := rs.kv.Create(ctx, slotKey(63), []byte("never-stored")); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute)
	gone, live, err := rs.Sweep(ctx, time.Nanosecond)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"old"}, gone); diff != "" {
		t.Errorf("swept (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]uint64{"resumed": 0, "fresh": 0}, live); diff != "" {
		t.Errorf("live runs (-want +got):\n%s", diff)
	}
	if held, _ := rs.Held(ctx); held != 2 {
		t.Errorf("Held() after Sweep = %d, want 2 (resumed and fresh)", held)
	}
}

func TestRemoveWhere_session(t *testing.T) {
	s := startServer(t)
	rs := openRuns(t, s, "r1", 64)
	other := openRuns(t, s, "r2", 64)
	ctx := testCtx(t)
	scopeB := scopeA
	scopeB.SessionKey = "agent:main:two"
	for id, sc := range map[string]Scope{"a1": scopeA, "a2": scopeA, "b1": scopeB} {
		if err := rs.Put(ctx, &Record{ID: id, Scope: sc}, nil, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	gone, err := other.RemoveWhere(ctx, func(r *Record) bool { return r.Scope.SessionKey == scopeA.SessionKey })
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(gone)
	if diff := cmp.Diff([]string{"a1", "a2"}, gone); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	if r, _ := rs.Get(ctx, "b1"); r == nil {
		t.Error("the other session's run went too")
	}
}

func TestGet_refusesCorruptRecords(t *testing.T) {
	s := startServer(t)
	rs := openRuns(t, s, "r1", 64)
	ctx := testCtx(t)
	good := Part{Size: 2, Sum: sumOf([]byte("hi")), Inline: []byte("hi")}
	tests := []struct {
		name  string
		value string
	}{
		{"not json", `{`},
		{"another run's record", `{"id":"run-2"}`},
		{"slot past the cap", `{"id":"run-1","slot":64}`},
		{"negative slot", `{"id":"run-1","slot":-1}`},
		{"bad part name", `{"id":"run-1","parts":{"../x":` + mustJSON(good) + `}}`},
		{"inline size mismatch", `{"id":"run-1","parts":{"image":{"size":3,"sum":"` + good.Sum + `","inline":"aGk="}}}`},
		{"object of another run", `{"id":"run-1","parts":{"image":{"size":70000,"sum":"` + good.Sum + `","object":"run-2/` + good.Sum + `"}}}`},
		{"short sum", `{"id":"run-1","parts":{"image":{"size":2,"sum":"ab","inline":"aGk="}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := rs.kv.Put(ctx, runKey("run-1"), []byte(tc.value)); err != nil {
				t.Fatal(err)
			}
			if _, err := rs.Get(ctx, "run-1"); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Get = %v, want ErrCorrupt", err)
			}
			if _, got, err := rs.Claim(ctx, "run-1", scopeA, time.Minute); got != Unavailable || err == nil {
				t.Errorf("Claim = %v, %v; want Unavailable with an error", got, err)
			}
		})
	}
}

// TestCluster_threeServers runs the claim race and the cap on buckets
// replicated over three JetStream servers, each replica connected to a
// server of its own: a replicated stream reports a lost compare-and-set
// with another error code than a single server does.
func TestCluster_threeServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-server cluster")
	}
	servers := startCluster(t, 3)
	const max = 8
	var replicas []*Runs
	for i, s := range servers {
		replicas = append(replicas, openRunsR(t, s, fmt.Sprintf("r%d", i+1), max, 3))
	}
	ctx := testCtx(t)
	for i := range 20 {
		id := fmt.Sprintf("run-%d", i)
		if err := replicas[i%3].Put(ctx, &Record{ID: id, Scope: scopeA}, map[string][]byte{"image": make([]byte, 2*MaxInline)}, time.Minute); err != nil {
			t.Fatal(err)
		}
		got := claimAtOnce(t, replicas, id)
		if diff := cmp.Diff([]Refusal{Claimed, Resuming, Resuming}, got); diff != "" {
			t.Fatalf("%s: claims mismatch (-want +got):\n%s", id, diff)
		}
		if err := replicas[(i+1)%3].Remove(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored := 0
	for i := range 2 * max {
		wg.Go(func() {
			err := replicas[i%3].Put(ctx, &Record{ID: fmt.Sprintf("cap-%d", i), Scope: scopeA}, nil, time.Minute)
			if err != nil && !errors.Is(err, ErrFull) {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				stored++
			}
		})
	}
	wg.Wait()
	if stored != max {
		t.Errorf("stored %d runs across three servers, want the cap %d", stored, max)
	}
}

// TestNoPeersYet: a stream create refused for want of known peers is made
// again; other API errors are not.
func TestNoPeersYet(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{&jetstream.APIError{Code: 400, ErrorCode: errCodeNoPeers, Description: "no suitable peers for placement"}, true},
		{fmt.Errorf("cluster: %w", &jetstream.APIError{Code: 400, ErrorCode: errCodeNoPeers}), true},
		{&jetstream.APIError{Code: 400, ErrorCode: jetstream.JSErrCodeBadRequest}, false},
		{nil, false},
	} {
		if got := noPeersYet(tt.err); got != tt.want {
			t.Errorf("noPeersYet(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// TestKnownRecords: a replica claims and removes a run it stored in one
// round trip, from the record it knows; when another replica wrote the
// record since, the known revision fails its compare-and-set and the
// record is read again, so no refusal and no removal rests on a stale
// record.
func TestKnownRecords(t *testing.T) {
	s := startServer(t)
	a, b := openRuns(t, s, "r1", 64), openRuns(t, s, "r2", 64)
	ctx := testCtx(t)
	if err := a.Put(ctx, &Record{ID: "run-1", Scope: scopeA, Generation: 1}, nil, time.Minute); err != nil {
		t.Fatal(err)
	}
	// b claims and releases: a's known record is stale, yet it claims.
	if _, got, err := b.Claim(ctx, "run-1", scopeA, time.Minute); err != nil || got != Claimed {
		t.Fatalf("b.Claim = %v, %v", got, err)
	}
	if err := b.Release(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	if _, got, err := a.Claim(ctx, "run-1", scopeA, time.Minute); err != nil || got != Claimed {
		t.Fatalf("a.Claim over a stale known record = %v, %v, want Claimed", got, err)
	}
	// a's claim stands: b, whose known record shows no claim, is refused.
	if _, got, err := b.Claim(ctx, "run-1", scopeA, time.Minute); err != nil || got != Resuming {
		t.Fatalf("b.Claim over a stale known record = %v, %v, want Resuming", got, err)
	}
	// b's stale record does not keep it from removing the run.
	if err := b.Remove(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	if r, err := a.Get(ctx, "run-1"); err != nil || r != nil {
		t.Fatalf("after Remove: Get = %v, %v, want no run", r, err)
	}
	if n, err := a.Held(ctx); err != nil || n != 0 {
		t.Errorf("Held after Remove = %d, %v, want 0", n, err)
	}
	// A known record of a removed run claims nothing.
	if _, got, err := a.Claim(ctx, "run-1", scopeA, time.Minute); err != nil || got != Unavailable {
		t.Errorf("a.Claim of a removed run = %v, %v, want Unavailable", got, err)
	}
}
