package main

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name    string
		samples []float64
		want    summary
	}{
		{"one", []float64{4}, summary{N: 1, Median: 4, P95: 4, Min: 4, Max: 4}},
		{"odd count, unsorted", []float64{5, 1, 3}, summary{N: 3, Median: 3, P95: 5, Min: 1, Max: 5}},
		{"even count: mean of the middle two", []float64{4, 1, 3, 2}, summary{N: 4, Median: 2.5, P95: 4, Min: 1, Max: 4}},
		// ceil(0.95*20) = 19: the 19th smallest, not the largest.
		{"p95 by nearest rank", seq(1, 20), summary{N: 20, Median: 10.5, P95: 19, Min: 1, Max: 20}},
		// ceil(0.95*10) = 10: with ten samples p95 is the largest.
		{"p95 of ten", seq(1, 10), summary{N: 10, Median: 5.5, P95: 10, Min: 1, Max: 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, summarize(tc.samples)); diff != "" {
				t.Errorf("summarize(%v) mismatch (-want +got):\n%s", tc.samples, diff)
			}
		})
	}
}

func TestSummarizeEmptyIsNaN(t *testing.T) {
	got := summarize(nil)
	want := summary{Median: math.NaN(), P95: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if diff := cmp.Diff(want, got, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("summarize(nil) mismatch (-want +got):\n%s", diff)
	}
}

func TestSummarizeDoesNotReorderInput(t *testing.T) {
	in := []float64{3, 1, 2}
	summarize(in)
	if diff := cmp.Diff([]float64{3, 1, 2}, in); diff != "" {
		t.Errorf("input changed (-want +got):\n%s", diff)
	}
}

func TestRatio(t *testing.T) {
	tests := []struct {
		a, b, want float64
	}{
		{1, 4, 0.25},
		{10, 2, 5},
		{1, 0, math.NaN()},
		{math.NaN(), 1, math.NaN()},
		{1, math.NaN(), math.NaN()},
	}
	for _, tc := range tests {
		if got := ratio(tc.a, tc.b); !(got == tc.want || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("ratio(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestScheduleAlternates(t *testing.T) {
	R, N := sideRef, sideNode
	want := []step{
		{R, 0, true}, {N, 0, true}, // warm-up round 0: reference first
		{N, 1, true}, {R, 1, true}, // warm-up round 1: Node first
		{R, 0, false}, {N, 0, false},
		{N, 1, false}, {R, 1, false},
		{R, 2, false}, {N, 2, false},
	}
	if diff := cmp.Diff(want, schedule(2, 3)); diff != "" {
		t.Errorf("schedule(2, 3) mismatch (-want +got):\n%s", diff)
	}
}

func TestScheduleBalance(t *testing.T) {
	// Over an even number of rounds each side runs first equally often,
	// and every measured iteration runs once per side.
	for _, n := range []int{2, 4, 10} {
		first := map[side]int{}
		measured := map[side]map[int]int{sideRef: {}, sideNode: {}}
		s := schedule(1, n)
		for i := 0; i < len(s); i += 2 {
			if !s[i].Warm {
				first[s[i].Side]++
			}
		}
		for _, st := range s {
			if !st.Warm {
				measured[st.Side][st.Iter]++
			}
		}
		if first[sideRef] != first[sideNode] {
			t.Errorf("n=%d: reference first %d times, Node first %d times", n, first[sideRef], first[sideNode])
		}
		for _, sd := range []side{sideRef, sideNode} {
			if len(measured[sd]) != n {
				t.Errorf("n=%d: %s measured %d iterations, want %d", n, sd, len(measured[sd]), n)
			}
			for it, c := range measured[sd] {
				if c != 1 {
					t.Errorf("n=%d: %s iteration %d ran %d times", n, sd, it, c)
				}
			}
		}
	}
}

func seq(lo, hi int) []float64 {
	var out []float64
	for i := hi; i >= lo; i-- { // descending, so summarize must sort
		out = append(out, float64(i))
	}
	return out
}
