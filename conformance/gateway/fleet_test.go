package gateway

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFleet_replica: turns go to the replicas in turn, and never to a
// killed one.
func TestFleet_replica(t *testing.T) {
	f := &fleet{procs: make([]*process, 3), names: []string{"replica-1", "replica-2", "replica-3"}, killed: make([]bool, 3)}
	next := func(n int) []int {
		var out []int
		for range n {
			i, err := f.replica()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, i)
		}
		return out
	}
	if diff := cmp.Diff([]int{0, 1, 2, 0}, next(4)); diff != "" {
		t.Errorf("placement (-want +got):\n%s", diff)
	}
	f.killed[1] = true
	if diff := cmp.Diff([]int{2, 0, 2, 0}, next(4)); diff != "" {
		t.Errorf("placement with replica-2 killed (-want +got):\n%s", diff)
	}
	f.killed[0], f.killed[2] = true, true
	if _, err := f.replica(); err == nil {
		t.Error("a turn was placed with every replica killed")
	}
}
