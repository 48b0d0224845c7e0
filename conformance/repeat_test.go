package conformance

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRepeated(t *testing.T) {
	pass := func(name string) Result { return Result{Feature: "f", Line: 1, Name: name, Status: StatusPassed} }
	fail := func(name, err string) Result {
		return Result{Feature: "f", Line: 1, Name: name, Status: StatusFailed, Error: err}
	}
	got := repeated([]Result{pass("a"), fail("b", "first"), pass("c")}, []Result{fail("a", "second"), fail("b", "again"), pass("c")}, true)
	got = repeated(got, []Result{pass("a"), pass("b"), pass("c")}, false)
	want := []Result{
		{Feature: "f", Line: 1, Name: "a", Status: StatusFailed, Error: "second", Runs: 3, Failures: 1},
		{Feature: "f", Line: 1, Name: "b", Status: StatusFailed, Error: "first", Runs: 3, Failures: 2},
		{Feature: "f", Line: 1, Name: "c", Status: StatusPassed, Runs: 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("repeated (-want +got):\n%s", diff)
	}
}
