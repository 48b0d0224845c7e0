package main

import (
	"fmt"
	"math"
	"sort"
)

// summary is what the report shows of one series of samples.
type summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// summarize returns the median (the mean of the two middle samples when n is
// even), the 95th percentile by nearest rank (the ceil(0.95 n)-th smallest
// sample) and the extremes. An empty series gives NaN everywhere.
func summarize(samples []float64) summary {
	if len(samples) == 0 {
		nan := math.NaN()
		return summary{Median: nan, P95: nan, Min: nan, Max: nan}
	}
	s := append([]float64(nil), samples...)
	sort.Float64s(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	rank := int(math.Ceil(0.95 * float64(n)))
	return summary{N: n, Median: med, P95: s[rank-1], Min: s[0], Max: s[n-1]}
}

// ratio is a ÷ b, NaN when either is missing or b is zero.
func ratio(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return math.NaN()
	}
	return a / b
}

// side names one runtime of a pair.
type side int

const (
	sideRef  side = iota // the reference, in process
	sideNode             // the Node harness
)

func (s side) String() string {
	if s == sideRef {
		return "reference"
	}
	return "node"
}

// step is one run of one side; warm steps are discarded.
type step struct {
	Side side
	Iter int
	Warm bool
}

// schedule alternates the two sides: warmup rounds first, then n measured
// rounds. Round i runs reference then Node when i is even and Node then
// reference when i is odd (ABBA), so neither side always runs first, right
// after the other side's background work.
func schedule(warmup, n int) []step {
	var out []step
	for r := 0; r < warmup+n; r++ {
		warm := r < warmup
		it := r - warmup
		if warm {
			it = r
		}
		a, b := sideRef, sideNode
		if r%2 == 1 {
			a, b = b, a
		}
		out = append(out, step{a, it, warm}, step{b, it, warm})
	}
	return out
}

// runner runs one iteration of a workload on one side.
type runner func(*workload) (map[string]float64, error)

// alternate runs w on both sides in schedule's order, with a pause to
// settle before each run, and returns the measured samples of each side.
// A nil other leaves the second side out (a workload it cannot run).
func alternate(w *workload, warmup, n int, ref, other runner) (map[side][]map[string]float64, error) {
	samples := map[side][]map[string]float64{}
	for _, st := range schedule(warmup, n) {
		run := ref
		if st.Side == sideNode {
			if other == nil {
				continue
			}
			run = other
		}
		settle()
		m, err := run(w)
		if err != nil {
			return nil, fmt.Errorf("%s side: %w", st.Side, err)
		}
		if !st.Warm {
			samples[st.Side] = append(samples[st.Side], m)
		}
	}
	return samples, nil
}
