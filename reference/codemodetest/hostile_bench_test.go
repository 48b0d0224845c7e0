package codemodetest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"testing"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
	"github.com/codemodekit/kit/fixtures"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/harness"
)

// BenchmarkHostileCorpus runs every program of the hostile corpus
// (fixtures/hostile) once per iteration, as its scenario does (exec, then
// wait as often as its header says), and times every exec and wait call
// against the program's timeoutMs. It reports how far past timeoutMs the
// calls that ended at their deadline (code timeout) returned: the median
// and the largest overrun, and how many calls of the whole corpus took
// longer than timeoutMs plus one second (SECURITY.md). The guests run in
// worker processes, the default isolation.
//
//	go test -run '^$' -bench HostileCorpus -benchtime 1x ./reference/codemodetest
func BenchmarkHostileCorpus(b *testing.B) {
	programs, err := conformance.LoadHostilePrograms()
	if err != nil {
		b.Fatal(err)
	}
	var overruns []time.Duration // calls that ended at their deadline
	worst, late, calls := time.Duration(-1<<62), 0, 0
	b.ResetTimer()
	for range b.N {
		for _, p := range programs {
			timeout, durations, codes, err := runHostile(b, p)
			if err != nil {
				b.Fatalf("%s: %v", p.File, err)
			}
			for i, d := range durations {
				calls++
				over := d - timeout
				worst = max(worst, over)
				if over > time.Second {
					late++
					b.Logf("%s: call %d returned %v after timeoutMs", p.File, i+1, over)
				}
				if codes[i] == "timeout" {
					overruns = append(overruns, over)
				}
			}
		}
	}
	b.StopTimer()
	slices.Sort(overruns)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	if len(overruns) > 0 {
		b.ReportMetric(ms(overruns[len(overruns)/2]), "timeout-overrun-p50-ms")
		b.ReportMetric(ms(overruns[len(overruns)-1]), "timeout-overrun-max-ms")
	}
	b.ReportMetric(ms(worst), "overrun-max-ms")
	b.ReportMetric(float64(len(overruns)), "timeouts")
	b.ReportMetric(float64(calls), "calls")
	b.ReportMetric(float64(late), "calls-over-1s")
	b.ReportMetric(0, "ns/op")
}

// runHostile runs one hostile program in a runtime of its own and returns
// its timeoutMs, the duration of each call and each result's code.
func runHostile(b *testing.B, p conformance.HostileProgram) (time.Duration, []time.Duration, []string, error) {
	cat, err := fixtures.FS.ReadFile(path.Join("catalogs", p.Tools+".json"))
	if err != nil {
		return 0, nil, nil, err
	}
	specs, err := wire.ParseCatalog(cat)
	if err != nil {
		return 0, nil, nil, err
	}
	cm := map[string]any{"enabled": true}
	if len(p.Config) > 0 {
		if err := json.Unmarshal(p.Config, &cm); err != nil {
			return 0, nil, nil, err
		}
		cm["enabled"] = true
	}
	doc := map[string]any{"tools": map[string]any{"codeMode": cm}}
	if len(p.Deny) > 0 {
		doc["tools"].(map[string]any)["deny"] = p.Deny
	}
	config, err := json.Marshal(doc)
	if err != nil {
		return 0, nil, nil, err
	}
	timeout := 10 * time.Second
	if v, ok := cm["timeoutMs"].(float64); ok {
		timeout = time.Duration(v) * time.Millisecond
	}
	ctx := context.Background()
	host := faketools.NewHost()
	tools := make([]codemode.Tool, len(specs.Tools))
	var held []string
	for i, spec := range specs.Tools {
		tools[i] = harness.Tool(i, spec, host)
		if spec.Behavior != nil && spec.Behavior.Hold {
			held = append(held, spec.Name)
		}
	}
	rt := codemode.New(ctx, codemode.Options{})
	defer rt.Close()
	turn, err := rt.StartTurn(ctx, codemode.TurnOptions{Config: config, AgentID: "main", SessionID: "bench",
		SessionKey: "agent:main:bench", RunID: "bench", Tools: tools})
	if err != nil {
		return 0, nil, nil, err
	}
	defer turn.End()
	input, _ := json.Marshal(struct {
		Code     string `json:"code"`
		Language string `json:"language,omitempty"`
	}{p.Source, p.Language})
	name, args := "exec", json.RawMessage(input)
	var durations []time.Duration
	var codes []string
	for n := 0; ; n++ {
		start := time.Now()
		res, err := turn.Call(ctx, fmt.Sprintf("call_%d", n), name, args)
		durations = append(durations, time.Since(start))
		if err != nil {
			return 0, nil, nil, err
		}
		var payload struct {
			Status, Code, RunID string
		}
		if err := json.Unmarshal(res.Details, &payload); err != nil {
			return 0, nil, nil, err
		}
		codes = append(codes, payload.Code)
		if payload.Status != "waiting" || n >= p.Expect.Waits {
			return timeout, durations, codes, nil
		}
		for _, n := range held {
			host.Release(n)
		}
		name, args = "wait", json.RawMessage(`{"runId":"`+payload.RunID+`"}`)
	}
}
