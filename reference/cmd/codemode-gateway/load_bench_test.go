package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codemodekit/kit/fakes/fakemodel"
)

// BenchmarkGatewayUnderLoad drives the gateway with concurrent turns, each
// one trivial exec, while two other turns run infinite loops and two hold
// large suspended runs (SECURITY.md). It reports the
// trivial turns' latency percentiles: the gateway stays responsive when
// some of its turns are hostile.
//
//	go test -run '^$' -bench GatewayUnderLoad -benchtime 100x ./cmd/codemode-gateway
//
// The quiet sub-benchmark is the same turns without the hostile ones, to
// compare side by side.
func BenchmarkGatewayUnderLoad(b *testing.B) {
	b.Run("quiet", func(b *testing.B) { benchmarkTurns(b, false) })
	b.Run("hostile", func(b *testing.B) { benchmarkTurns(b, true) })
}

// benchmarkTurns measures trivial turns, with the hostile turns running
// beside them or not (the side-by-side reference).
func benchmarkTurns(b *testing.B, withHostile bool) {
	tg := startGateway(b, apiResponses, true, nil)
	execReply := func(id, code string) fakemodel.Reply {
		args, _ := json.Marshal(map[string]string{"code": code})
		return fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: "exec", Arguments: args}}}
	}
	ctx := b.Context()

	// The hostile turns: two loops, two large suspended runs.
	var hostile []<-chan map[string]any
	for i := range 2 {
		if !withHostile {
			break
		}
		key := fmt.Sprintf("loop %d", i)
		hostile = append(hostile, tg.startTurn(b, key, key))
		req, err := tg.model.Next(ctx, key)
		if err != nil {
			b.Fatal(err)
		}
		if err := req.Respond(execReply("loop", "for (;;) {}")); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 2 {
		if !withHostile {
			break
		}
		key := fmt.Sprintf("big %d", i)
		hostile = append(hostile, tg.startTurn(b, key, key))
		req, err := tg.model.Next(ctx, key)
		if err != nil {
			b.Fatal(err)
		}
		code := `globalThis.big = Array.from({length: 60000}, (_, i) => "item " + i); await yield_control("hold"); return big.length;`
		if err := req.Respond(execReply("big", code)); err != nil {
			b.Fatal(err)
		}
		if req, err = tg.model.Next(ctx, key); err != nil {
			b.Fatal(err)
		}
		if out, _ := req.ToolOutput("big"); !strings.Contains(out, `"status": "waiting"`) {
			b.Fatalf("large run did not suspend: %.300s", out)
		}
		// The turn stays open, its run suspended, until the end.
	}

	const workers = 4
	var seq atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	var wg sync.WaitGroup
	work := make(chan struct{})
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				key := fmt.Sprintf("trivial %d", seq.Add(1))
				start := time.Now()
				done := tg.startTurn(b, key, key)
				req, err := tg.model.Next(ctx, key)
				if err != nil {
					b.Error(err)
					return
				}
				if err := req.Respond(execReply("c", "return 1 + 1")); err != nil {
					b.Error(err)
					return
				}
				if req, err = tg.model.Next(ctx, key); err != nil {
					b.Error(err)
					return
				}
				if out, _ := req.ToolOutput("c"); !strings.Contains(out, `"value": 2`) {
					b.Errorf("trivial exec: %.300s", out)
					return
				}
				if err := req.Respond(fakemodel.Reply{Text: "ok"}); err != nil {
					b.Error(err)
					return
				}
				if res := <-done; res["status"] != "completed" {
					b.Errorf("trivial turn: %v", res)
					return
				}
				d := time.Since(start)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	for range b.N {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
	if !withHostile {
		return
	}
	// The loops are still running: they end as aborted, not by a deadline.
	for i := range 2 {
		tg.abort(b, fmt.Sprintf("loop %d", i))
	}
	for _, c := range hostile[:2] {
		if res := <-c; res["status"] != "cancelled" {
			b.Fatalf("loop turn = %v, want cancelled", res)
		}
	}
}
