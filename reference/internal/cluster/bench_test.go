package cluster

import (
	"context"
	"testing"

	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// deadHolders is a replica's view of the cluster in which every other
// replica is gone: its waits resume runs from the store.
type deadHolders struct{ cell.Shared }

func (deadHolders) Alive(string) bool { return false }

// BenchmarkSuspend is the cost of suspending a run (exec to waiting) in
// one process and in a clustered gateway, where the run also goes to the
// store.
func BenchmarkSuspend(b *testing.B) {
	s := startServer(b)
	h := newGateHost(10000)
	for _, bc := range []struct {
		name string
		rn   *cell.Runner
	}{
		{"in-memory", memoryRunner(b)},
		{"store", startReplicas(b, s, 1)[0].rn},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				res := execOn(&replica{rn: bc.rn}, h, `await yield_control(); return 1`)
				b.StopTimer()
				if res.Status != "waiting" {
					b.Fatalf("exec = %s %q", res.Status, res.Error)
				}
				bc.rn.Drop(cellScopeA.AgentRunID)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkResume is the cost of a wait that resumes a run and completes
// it: in one process; in a clustered gateway on the replica that holds
// the run; on another replica, which forwards it to the holder; and on a
// replica that finds the holder gone and restores the run from the store.
func BenchmarkResume(b *testing.B) {
	s := startServer(b)
	h := newGateHost(10000)
	shared := startReplicas(b, s, 2)
	mem := &replica{rn: memoryRunner(b)}
	rebuilt := startReplicas(b, s, 1)[0]
	rebuilt.rn.Share(deadHolders{rebuilt.rp}, []byte("test seal key"))
	for _, bc := range []struct {
		name       string
		exec, wait *replica
	}{
		{"in-memory", mem, mem},
		{"store-holder", shared[0], shared[0]},
		{"store-forwarded", shared[0], shared[1]},
		{"store-restored", shared[0], rebuilt},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				id := execOn(bc.exec, h, `await yield_control(); return 1`).RunID
				b.StartTimer()
				if res := waitOn(bc.wait, h, id); res.Status != "completed" {
					b.Fatalf("wait = %s %q", res.Status, res.Error)
				}
			}
		})
	}
}

func memoryRunner(b *testing.B) *cell.Runner {
	sb, err := sandbox.New(context.Background(), sandbox.Options{})
	if err != nil {
		b.Fatalf("engine unavailable: %v", err)
	}
	rn := cell.NewRunner(sb, nil)
	b.Cleanup(rn.Close)
	return rn
}
