package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// gateHost is a cell.Host over one "echo" core tool whose calls wait
// until the gate opens, then return their input as details.
type gateHost struct {
	settings config.Settings
	cat      *catalog.Catalog
	gate     chan struct{}
	once     sync.Once
	// cancelled, when set, hears of every call cancelled before the gate
	// opened.
	cancelled chan struct{}
}

func newGateHost(timeoutMs int) *gateHost {
	s := config.Defaults()
	s.TimeoutMs = timeoutMs
	return &gateHost{settings: s, gate: make(chan struct{}), cat: catalog.Build([]catalog.Tool{{Name: "echo",
		Kind: catalog.Core, Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}})}
}

func (h *gateHost) open() { h.once.Do(func() { close(h.gate) }) }

func (h *gateHost) Call(ctx context.Context, e catalog.Entry, input json.RawMessage, n cell.Nested) (cell.ToolResult, error) {
	select {
	case <-h.gate:
	case <-ctx.Done():
		if h.cancelled != nil {
			h.cancelled <- struct{}{}
		}
		return cell.ToolResult{}, ctx.Err()
	}
	return cell.ToolResult{Content: json.RawMessage(`[]`), Details: input}, nil
}
func (h *gateHost) Namespace(context.Context, json.RawMessage, cell.Nested) (json.RawMessage, error) {
	return nil, nil
}
func (h *gateHost) SpawnAgent(context.Context, json.RawMessage, cell.Nested) (json.RawMessage, error) {
	return nil, nil
}
func (h *gateHost) WaitAgent(context.Context, json.RawMessage) (json.RawMessage, error) {
	return nil, nil
}
func (h *gateHost) Note(string, string)                      {}
func (h *gateHost) Aborted() bool                            { return false }
func (h *gateHost) Scoped() bool                             { return false }
func (h *gateHost) Scopes(string) ([]guest.Namespace, error) { return nil, nil }

func (h *gateHost) turn(sc cell.Scope) *cell.Turn {
	return &cell.Turn{Scope: sc, Settings: h.settings, Catalog: h.cat, Host: h}
}

var cellScopeA = cellScope(scopeA)

// replica is one gateway replica of a test: a cell runner sharing its
// runs through the cluster.
type replica struct {
	rn *cell.Runner
	rp *Replica
	nc *nats.Conn
}

// replicaSeq numbers the replicas of a test binary: names are unique on
// every server.
var replicaSeq atomic.Int64

// startReplicas makes n replicas on s, each with a sandbox of its own
// that makes its own base image, as replicas in processes of their own do.
func startReplicas(t testing.TB, s *server.Server, n int) []*replica {
	t.Helper()
	return startReplicasOn(t, []*server.Server{s}, n, 1)
}

// startReplicasOn makes n replicas, replica k connected to servers[k %
// len(servers)], with streams held by streamReplicas servers.
func startReplicasOn(t testing.TB, servers []*server.Server, n, streamReplicas int) []*replica {
	t.Helper()
	var out []*replica
	for k := range n {
		s := servers[k%len(servers)]
		sb, err := sandbox.New(context.Background(), sandbox.Options{})
		if err != nil {
			t.Fatalf("engine unavailable: %v", err)
		}
		rn := cell.NewRunner(sb, nil)
		nc, err := nats.Connect(s.ClientURL())
		if err != nil {
			t.Fatal(err)
		}
		ctx := testCtx(t)
		rp, err := Join(ctx, nc, Config{Replica: fmt.Sprintf("r%d", replicaSeq.Add(1)), MaxRuns: cell.MaxSuspendedRuns,
			MaxAge: time.Hour, StreamReplicas: streamReplicas}, rn)
		if err != nil {
			t.Fatal(err)
		}
		rn.Share(rp, []byte("test seal key"))
		r := &replica{rn: rn, rp: rp, nc: nc}
		t.Cleanup(func() {
			rn.Close()
			nc.Close()
		})
		out = append(out, r)
	}
	return out
}

// crash stops a replica as a killed process would: no goodbye, its
// presence lapses.
func (r *replica) crash(t *testing.T) {
	_ = r.rp.halt()
	r.nc.Close()
	r.rn.Close()
}

func execOn(r *replica, h *gateHost, code string) cell.Result {
	args, _ := json.Marshal(map[string]string{"code": code})
	return r.rn.Exec(context.Background(), h.turn(cellScopeA), "call_e", args)
}

func waitOn(r *replica, h *gateHost, id string) cell.Result {
	args, _ := json.Marshal(map[string]string{"runId": id})
	return r.rn.Wait(context.Background(), h.turn(cellScopeA), "call_w", args)
}

func mustWaiting(t *testing.T, res cell.Result) string {
	t.Helper()
	if res.Status != "waiting" {
		t.Fatalf("exec = %s %s %q, want waiting", res.Status, res.Code, res.Error)
	}
	return res.RunID
}

func wantCompleted(t *testing.T, res cell.Result, value string) {
	t.Helper()
	if res.Status != "completed" || string(res.Value) != value {
		t.Fatalf("wait = %s %s %q value %s, want completed with %s", res.Status, res.Code, res.Error, res.Value, value)
	}
}

// wantUnavailable checks that a wait found no run.
func wantUnavailable(t *testing.T, what string, res cell.Result) {
	t.Helper()
	if res.Status != "failed" || res.Error != cell.MsgRunUnavailable {
		t.Errorf("%s = %s %q, want failed %q", what, res.Status, res.Error, cell.MsgRunUnavailable)
	}
}

// TestReplicas_waitOnAnyReplica: a run suspended in one replica is resumed
// by a wait sent to another; the holder runs the leg (its host work is
// there), so the result is the same.
func TestReplicas_waitOnAnyReplica(t *testing.T) {
	s := startServer(t)
	rs := startReplicas(t, s, 2)
	h := newGateHost(10000)
	id := mustWaiting(t, execOn(rs[0], h, `text("a"); await yield_control("x"); return 42`))
	wantCompleted(t, waitOn(rs[1], h, id), "42")
	wantUnavailable(t, "a second wait", waitOn(rs[0], h, id))
}

// TestReplicas_pendingWorkOnTheHolder: host work that outlives the exec
// keeps running in the replica that started it, and a wait on another
// replica gets its result.
func TestReplicas_pendingWorkOnTheHolder(t *testing.T) {
	s := startServer(t)
	rs := startReplicas(t, s, 2)
	h := newGateHost(500)
	id := mustWaiting(t, execOn(rs[0], h, `const v = await tools.callValue("openclaw:core:echo", {n: 7}); return v.n`))
	h.open()
	wantCompleted(t, waitOn(rs[1], h, id), "7")
}

// TestReplicas_holderCrashes: the replica holding a suspended run is
// killed; a wait on another replica resumes the run from the store, and
// the host work the dead replica was running rejects in the guest.
func TestReplicas_holderCrashes(t *testing.T) {
	holderCrashes(t, startReplicas(t, startServer(t), 2))
}

// TestReplicas_holderJustKilled: the wait comes before the dead holder's
// presence lapses. Nobody answers on its subject, so the replica that got
// the wait restores the run at once instead of refusing it.
func TestReplicas_holderJustKilled(t *testing.T) {
	holderKilled(t, startReplicas(t, startServer(t), 2), 0)
}

func holderCrashes(t *testing.T, rs []*replica) { holderKilled(t, rs, Lapse) }

// TestReplicas_forwardedWaitLost: the holder is killed, but its subject
// still has a listener that swallows the forwarded wait, as a server of a
// cluster may for a moment after the holder's connection closed. The
// replica that got the wait takes the claim back after AcceptWait and
// restores the run.
func TestReplicas_forwardedWaitLost(t *testing.T) {
	s := startServer(t)
	rs := startReplicas(t, s, 2)
	h := newGateHost(10000)
	id := mustWaiting(t, execOn(rs[0], h, `await yield_control(); return "restored"`))
	holder := rs[0].rp.Replica()
	rs[0].crash(t)
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	swallowed := make(chan struct{}, 1)
	if _, err := nc.Subscribe(resumeSubject(holder), func(*nats.Msg) { swallowed <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	wantCompleted(t, waitOn(rs[1], h, id), `"restored"`)
	select {
	case <-swallowed:
	default:
		t.Error("the wait was not forwarded to the holder's subject first")
	}
}

// holderKilled kills rs[0] while it holds a yielded run and a run with
// pending host work, and waits on rs[1] after the pause.
func holderKilled(t *testing.T, rs []*replica, pause time.Duration) {
	h := newGateHost(500)
	yielded := mustWaiting(t, execOn(rs[0], h, `text("before"); await yield_control(); return "resumed elsewhere"`))
	pending := mustWaiting(t, execOn(rs[0], h, `try { await tools.callValue("openclaw:core:echo", {}); return "settled" } catch (e) { return e.message }`))
	rs[0].crash(t)
	time.Sleep(pause)
	h2 := newGateHost(10000)
	wantCompleted(t, waitOn(rs[1], h2, yielded), `"resumed elsewhere"`)
	wantCompleted(t, waitOn(rs[1], h2, pending), mustJSONString(cell.MsgHostWorkLost))
}

func mustJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestReplicas_sameWaitTwice sends the same wait to two replicas at once,
// a hundred times: exactly one resumes the run, and no run is lost. The
// other is refused: as already being resumed, or, when it comes second
// after the run completed, as unavailable.
func TestReplicas_sameWaitTwice(t *testing.T) {
	sameWaitTwice(t, startReplicas(t, startServer(t), 2))
}

// sameWaitTwice: in each of a hundred repetitions a run is suspended on
// one replica, and two others (or the holder) are sent its wait at once.
func sameWaitTwice(t *testing.T, rs []*replica) {
	h := newGateHost(10000)
	for i := range 100 {
		id := mustWaiting(t, execOn(rs[i%len(rs)], h, fmt.Sprintf(`await yield_control(); return %d`, i)))
		pair := []*replica{rs[(i+1)%len(rs)], rs[(i+2)%len(rs)]}
		var wg sync.WaitGroup
		got := make([]cell.Result, 2)
		for j := range pair {
			wg.Go(func() { got[j] = waitOn(pair[j], h, id) })
		}
		wg.Wait()
		completed, refused := 0, 0
		for _, res := range got {
			switch {
			case res.Status == "completed" && string(res.Value) == fmt.Sprint(i):
				completed++
			case res.Status == "failed" && (res.Error == cell.MsgRunResuming || res.Error == cell.MsgRunUnavailable):
				refused++
			default:
				t.Fatalf("repetition %d: wait = %s %s %q", i, res.Status, res.Code, res.Error)
			}
		}
		if completed != 1 || refused != 1 {
			t.Fatalf("repetition %d: %d completed and %d refused, want 1 and 1", i, completed, refused)
		}
	}
}

// TestReplicas_threeServers runs the race and the crash with three
// replicas, each connected to its own server of a three-server JetStream
// cluster, every stream held by all three.
func TestReplicas_threeServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a three-server cluster")
	}
	rs := startReplicasOn(t, startCluster(t, 3), 3, 3)
	sameWaitTwice(t, rs)
	holderCrashes(t, rs)
}

// TestReplicas_sessionEnd: the end of a session on one replica disposes of
// its runs held by another, whose host work is cancelled at once.
func TestReplicas_sessionEnd(t *testing.T) {
	s := startServer(t)
	rs := startReplicas(t, s, 2)
	h := newGateHost(500)
	pending := mustWaiting(t, execOn(rs[0], h, `return await tools.callValue("openclaw:core:echo", {})`))
	id := mustWaiting(t, execOn(rs[0], h, `await yield_control(); return 1`))
	h.cancelled = make(chan struct{}, 1)
	rs[1].rn.DropSession(cellScopeA.SessionKey)
	select {
	case <-h.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the holder's host work was not cancelled")
	}
	wantUnavailable(t, "the wait for the pending run", waitOn(rs[0], h, pending))
	wantUnavailable(t, "the wait for the yielded run", waitOn(rs[0], h, id))
}

// TestReplicas_lastOneOut: a replica leaving removes nothing while another
// runs; the last one leaving shuts the gateway down with its runs.
func TestReplicas_lastOneOut(t *testing.T) {
	s := startServer(t)
	rs := startReplicas(t, s, 2)
	h := newGateHost(10000)
	id := mustWaiting(t, execOn(rs[0], h, `await yield_control(); return 1`))
	ctx := testCtx(t)
	if err := rs[0].rp.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := rs[1].rp.Runs().Get(ctx, id); err != nil || r == nil {
		t.Fatalf("after the first replica left: Get = %v, %v; want the run", r, err)
	}
	if err := rs[1].rp.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := rs[1].rp.Runs().Get(ctx, id); err != nil || r != nil {
		t.Fatalf("after the last replica left: Get = %v, %v; want no run", r, err)
	}
}

// TestReplicas_misjudgedHolder: a replica that takes a live holder for
// gone resumes the run from the store and tells the holder, which drops
// its stale copy and the host work with it.
func TestReplicas_misjudgedHolder(t *testing.T) {
	s := startServer(t)
	rs := startReplicas(t, s, 2)
	rs[1].rn.Share(deadHolders{rs[1].rp}, []byte("test seal key"))
	h := newGateHost(10000)
	id := mustWaiting(t, execOn(rs[0], h, `await yield_control(); return 5`))
	if n := rs[0].rn.Suspended(); n != 1 {
		t.Fatalf("the holder holds %d runs, want 1", n)
	}
	wantCompleted(t, waitOn(rs[1], h, id), "5")
	deadline := time.Now().Add(5 * time.Second)
	for rs[0].rn.Suspended() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the holder kept its stale copy")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
