// Package cpumeter reports a benchmark's process CPU time beside its wall
// time. The machines are shared and noisy: wall time includes waiting for
// a core, CPU time mostly does not. The benchmarks of the reference and its
// engine and cell packages share it.
package cpumeter

import (
	"syscall"
	"testing"
	"time"
)

// Process is this process's CPU time, user plus system, over all threads.
func Process() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A Meter reports the process CPU time spent while the benchmark timer
// runs, as cpu-ns/op. It counts every thread, so background work (GC, pool
// refills) that overlaps the timed part is in it.
type Meter struct {
	b       *testing.B
	total   time.Duration
	t0      time.Duration
	running bool
}

// New starts metering; the benchmark timer must be running.
func New(b *testing.B) *Meter { return &Meter{b: b, t0: Process(), running: true} }

// Stop stops the benchmark timer and the meter.
func (m *Meter) Stop() {
	if m.running {
		m.total += Process() - m.t0
		m.running = false
	}
	m.b.StopTimer()
}

// Start starts the benchmark timer and the meter.
func (m *Meter) Start() {
	m.b.StartTimer()
	m.running = true
	m.t0 = Process()
}

// Report reports cpu-ns/op.
func (m *Meter) Report() {
	if m.running {
		m.total += Process() - m.t0
		m.running = false
	}
	m.b.ReportMetric(float64(m.total.Nanoseconds())/float64(m.b.N), "cpu-ns/op")
}
