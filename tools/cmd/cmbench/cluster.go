package main

// The cluster comparison: the reference gateway as one process against
// three replicas of it sharing a NATS JetStream server (SPEC.md Appendix
// G), both driven by the conformance suite's wire target
// (conformance/gateway), alternating iteration by iteration. It measures
// what the shared run store costs a suspension and a resume, and the
// throughput of trivial turns on the same two cores.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/gateway"
)

// clusterReplicas is the size of the measured cluster.
const clusterReplicas = 3

// clusterCode suspends once and completes on resume.
const clusterCode = "await yield_control(); return 7"

// clusterMetrics are the measures of one suspend-and-resume round.
var clusterMetrics = []struct{ key, label string }{
	{"suspend", "suspension (`exec` → waiting)"},
	{"resume", "`wait` resume in the turn that suspended the run"},
	{"resumeOther", "`wait` resume in another turn of the agent run (in the cluster: another replica)"},
}

// clusterRows measures the cluster comparison and returns its rows: Ref
// holds the cluster's figures, Node the single gateway's.
func clusterRows(o options, root string, log io.Writer) ([]row, error) {
	dir, err := os.MkdirTemp("", "cmbench-cluster-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin, nats := filepath.Join(dir, "codemode-gateway"), filepath.Join(dir, "nats-server")
	for _, b := range []struct{ out, pkg, env string }{
		{bin, "./cmd/codemode-gateway", ""},
		{nats, "github.com/nats-io/nats-server/v2", "GOWORK=off"},
	} {
		cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
		cmd.Dir = filepath.Join(root, "reference")
		if b.env != "" {
			cmd.Env = append(os.Environ(), b.env)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building %s: %v\n%s", b.pkg, err, out)
		}
	}
	single, err := gateway.MakeTarget(gateway.Options{Command: []string{bin, "-config", gateway.ConfigPlaceholder}})()
	if err != nil {
		return nil, err
	}
	cluster, err := gateway.MakeTarget(gateway.Options{
		Command: []string{bin, "-config", gateway.ConfigPlaceholder, "-cluster", gateway.NATSPlaceholder,
			"-cluster-key", gateway.KeyPlaceholder, "-cluster-name", gateway.ReplicaPlaceholder},
		Replicas: clusterReplicas, NATSServer: nats,
	})()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	for _, t := range []conformance.Target{single, cluster} {
		if err := t.Start(ctx, gatewaySetup()); err != nil {
			return nil, fmt.Errorf("cluster comparison: %w", err)
		}
		defer t.Close()
	}
	side := func(t conformance.Target) runner {
		var seq int
		return func(*workload) (map[string]float64, error) {
			seq++
			return clusterRound(ctx, t, seq)
		}
	}
	w := &workload{Name: "clusterresume"}
	n := o.iterations
	fmt.Fprintf(log, "cmbench: cluster      %d rounds per side ...", n)
	t0 := time.Now()
	samples, err := alternate(w, o.warmup, n, side(cluster), side(single))
	if err != nil {
		return nil, fmt.Errorf("cluster comparison: %w", err)
	}
	fmt.Fprintf(log, " %.1fs\n", time.Since(t0).Seconds())
	var rows []row
	for _, m := range clusterMetrics {
		rw := row{Workload: "cluster", Title: "suspend and resume (`" + clusterCode + "`)", Metric: m.key, Label: m.label, Unit: "ms", Cluster: true,
			Ref: collect(samples[sideRef], m.key), Node: collect(samples[sideNode], m.key)}
		rows = append(rows, rw)
	}

	rounds := max(o.iterations/4, 2)
	fmt.Fprintf(log, "cmbench: cluster      throughput, %d rounds of %d turns per side ...", rounds, o.cells)
	t0 = time.Now()
	tw := &workload{Name: "clusterthroughput"}
	throughput := func(t conformance.Target) runner {
		var seq int
		return func(*workload) (map[string]float64, error) {
			seq++
			return turnThroughput(ctx, t, seq, o.cells, o.concurrency)
		}
	}
	samples, err = alternate(tw, 1, rounds, throughput(cluster), throughput(single))
	if err != nil {
		return nil, fmt.Errorf("cluster throughput: %w", err)
	}
	fmt.Fprintf(log, " %.1fs\n", time.Since(t0).Seconds())
	rows = append(rows, row{Workload: "cluster", Title: "trivial exec turns", Metric: "throughput", Label: "throughput", Unit: "turns/s",
		Higher: true, Cluster: true, Ref: collect(samples[sideRef], "throughput"), Node: collect(samples[sideNode], "throughput")})
	for i := range rows {
		if rw := &rows[i]; rw.Ref != nil && rw.Node != nil && rw.Node.Median > 0 {
			rw.Ratio = rw.Ref.Median / rw.Node.Median
		}
	}
	return rows, nil
}

// clusterRound suspends a run in one turn and resumes it there, then
// suspends another and resumes it from a second turn of the same agent
// run: on the cluster that turn is served by another replica, which
// forwards the wait to the holder.
func clusterRound(ctx context.Context, t conformance.Target, seq int) (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(ctx, gatewayTurnTimeout)
	defer cancel()
	id := "c" + strconv.Itoa(seq)
	spec := conformance.TurnSpec{AgentID: "main", SessionID: "bench-" + id, SessionKey: "agent:main:bench-" + id, RunID: "run-" + id}
	first, err := t.StartTurn(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer first.End(ctx)
	out := map[string]float64{}
	runID, d, err := timedCall(ctx, first, id+"_e1", "exec", execArgs(clusterCode, ""), "waiting")
	if err != nil {
		return nil, err
	}
	out["suspend"] = d
	if _, out["resume"], err = timedCall(ctx, first, id+"_w1", "wait", waitArgs(runID), "completed"); err != nil {
		return nil, err
	}
	if runID, _, err = timedCall(ctx, first, id+"_e2", "exec", execArgs(clusterCode, ""), "waiting"); err != nil {
		return nil, err
	}
	second, err := t.StartTurn(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer second.End(ctx)
	if _, out["resumeOther"], err = timedCall(ctx, second, id+"_w2", "wait", waitArgs(runID), "completed"); err != nil {
		return nil, err
	}
	return out, nil
}

func waitArgs(runID string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"runId": runID})
	return b
}

// timedCall makes one model tool call and checks the status of its
// payload; it returns the payload's run id and the gateway's time on the
// call in ms (conformance.Timed: the suite's transcript read is not
// counted, and is a JetStream read in the cluster).
func timedCall(ctx context.Context, tu conformance.Turn, id, name string, args json.RawMessage, status string) (string, float64, error) {
	res, err := tu.Call(ctx, "call_"+id, name, args)
	if err != nil {
		return "", 0, err
	}
	timed, ok := tu.(conformance.Timed)
	if !ok {
		return "", 0, errors.New("the target's turn does not report its timing (conformance.Timed)")
	}
	took, ok := timed.LatestCall()
	if !ok {
		return "", 0, errors.New("the turn reports no time for its call")
	}
	d := ms(took)
	var p struct {
		Status string `json:"status"`
		RunID  string `json:"runId"`
	}
	if err := json.Unmarshal(res.Details, &p); err != nil || p.Status != status {
		return "", 0, fmt.Errorf("%s answered %s, want %s", name, res.Text, status)
	}
	return p.RunID, d, nil
}

// turnThroughput runs cells trivial exec turns, concurrency at a time, and
// reports turns per second of wall time.
func turnThroughput(ctx context.Context, t conformance.Target, seq, cells, concurrency int) (map[string]float64, error) {
	sem := make(chan struct{}, max(concurrency, 1))
	errs := make([]error, cells)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := range cells {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			_, errs[i] = gatewayTurn(ctx, t, seq*100000+i)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return map[string]float64{"throughput": float64(cells) / time.Since(t0).Seconds()}, nil
}
