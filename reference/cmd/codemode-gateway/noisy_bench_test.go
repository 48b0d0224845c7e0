package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codemodekit/kit/fakes/fakemodel"
	codemode "github.com/codemodekit/kit/reference"
)

// The hostile guests of BenchmarkNoisyNeighbour.
const (
	// longBuiltin is one quadratic string search: about two seconds in
	// one built-in call, which never polls the interrupt handler.
	longBuiltin = `const h = "a".repeat(28000); return h.indexOf("a".repeat(14000) + "b")`
	// balloon fills most of a 256 MiB heap, then throws an error whose
	// message is 48 MiB: the value, the error and the memory all near the
	// limits.
	balloon = `const keep = []; for (let i = 0; i < 20; i++) keep.push("x".repeat(8 << 20) + i);
throw new Error("y".repeat(48 << 20))`
)

// BenchmarkNoisyNeighbour runs a stream of trivial turns through one
// gateway, alone (quiet) and beside two hostile guests that run again and
// again (noisy): one long built-in call that never polls the interrupt
// handler, and a memory balloon that ends with an error near 64 MiB. Both
// isolation modes, side by side in one run. It reports the trivial turns'
// latency (p50, p99, max), the longest garbage-collection pause of the
// host process (stop-the-world, runtime/metrics /sched/pauses/total/gc),
// the longest stall of a goroutine that wakes every millisecond, and how
// many trivial turns timed out (only guests in process can make them).
//
//	go test -run '^$' -bench NoisyNeighbour -benchtime 1000x ./cmd/codemode-gateway
//
// 1000 turns at least: with fewer, p99 is the maximum.
func BenchmarkNoisyNeighbour(b *testing.B) {
	for _, isolation := range []string{"process", "in-process"} {
		iso, err := codemode.ParseIsolation(isolation)
		if err != nil {
			b.Fatal(err)
		}
		for _, noisy := range []bool{false, true} {
			name := isolation + "/quiet"
			if noisy {
				name = isolation + "/noisy"
			}
			b.Run(name, func(b *testing.B) { benchmarkNeighbours(b, iso, noisy) })
		}
	}
}

func execReply(id, code string) fakemodel.Reply {
	args, _ := json.Marshal(map[string]string{"code": code})
	return fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: "exec", Arguments: args}}}
}

// runTurn plays one turn of one exec of code and returns the exec's tool
// output.
func (tg *testGateway) runTurn(ctx context.Context, b *testing.B, key, code string) (string, error) {
	done := tg.startTurn(b, key, key)
	req, err := tg.model.Next(ctx, key)
	if err != nil {
		return "", err
	}
	if err := req.Respond(execReply("c", code)); err != nil {
		return "", err
	}
	if req, err = tg.model.Next(ctx, key); err != nil {
		return "", err
	}
	out, _ := req.ToolOutput("c")
	if err := req.Respond(fakemodel.Reply{Text: "ok"}); err != nil {
		return "", err
	}
	if res := <-done; res["status"] != "completed" {
		return "", fmt.Errorf("turn %s: %v", key, res)
	}
	return out, nil
}

func benchmarkNeighbours(b *testing.B, iso codemode.Isolation, noisy bool) {
	tg := startGatewayWith(b, gatewayOptions{api: apiResponses, stream: true, runtime: runtimeOptions{isolation: iso},
		codeMode: map[string]any{"enabled": true, "timeoutMs": 1000, "memoryLimitBytes": 256 << 20}})
	ctx := b.Context()
	var seq atomic.Int64
	// Warm: one trivial turn, so that the workers (or the pool) exist.
	if _, err := tg.runTurn(ctx, b, "warm", "return 1"); err != nil {
		b.Fatal(err)
	}

	stop := make(chan struct{})
	var hostile sync.WaitGroup
	var hostileRuns atomic.Int64
	for _, code := range []string{longBuiltin, balloon} {
		if !noisy {
			break
		}
		hostile.Add(1)
		go func() {
			defer hostile.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				out, err := tg.runTurn(ctx, b, fmt.Sprintf("hostile %d", seq.Add(1)), code)
				if err != nil {
					b.Error(err)
					return
				}
				if !strings.Contains(out, `"status": "failed"`) {
					b.Errorf("a hostile guest did not fail: %.300s", out)
					return
				}
				hostileRuns.Add(1)
			}
		}()
	}
	if noisy {
		time.Sleep(500 * time.Millisecond) // the hostile guests are running
	}

	// The stall probe: a goroutine that sleeps a millisecond at a time and
	// records how late it wakes.
	var stallMax atomic.Int64
	probeDone := make(chan struct{})
	go func() {
		defer close(probeDone)
		for {
			select {
			case <-stop:
				return
			default:
			}
			t := time.Now()
			time.Sleep(time.Millisecond)
			if late := int64(time.Since(t) - time.Millisecond); late > stallMax.Load() {
				stallMax.Store(late)
			}
		}
	}()
	pauses := []metrics.Sample{{Name: "/sched/pauses/total/gc:seconds"}}
	metrics.Read(pauses)
	before := pauses[0].Value.Float64Histogram()
	beforeCounts := slices.Clone(before.Counts)

	lat := make([]time.Duration, 0, b.N)
	lost := 0 // trivial execs that did not complete
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		out, err := tg.runTurn(ctx, b, fmt.Sprintf("trivial %d", seq.Add(1)), "return 1 + 1")
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		if !strings.Contains(out, `"value": 2`) {
			// Guests in process may hold the host's collector past a
			// trivial exec's deadline: counted, not hidden. With workers
			// no guest can, and a lost exec fails the benchmark.
			if iso != codemode.InProcess || !strings.Contains(out, `"code": "timeout"`) {
				b.Fatalf("trivial exec: %.300s", out)
			}
			lost++
		}
	}
	b.StopTimer()
	metrics.Read(pauses)
	after := pauses[0].Value.Float64Histogram()
	close(stop)
	<-probeDone
	hostile.Wait()

	// The longest pause: the upper bound of the highest bucket that
	// counted a pause during the measurement.
	longest := 0.0
	for i := range after.Counts {
		if after.Counts[i] > beforeCounts[i] {
			longest = after.Buckets[i+1]
		}
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(longest*1000, "gc-pause-max-ms")
	b.ReportMetric(float64(stallMax.Load())/1e6, "stall-max-ms")
	b.ReportMetric(float64(hostileRuns.Load()), "hostile-runs")
	b.ReportMetric(float64(lost), "trivial-timeouts")
	b.ReportMetric(0, "ns/op")
}
