package main

// The gateway-level comparison: the same trivial exec
// turn through the reference gateway (reference/cmd/codemode-gateway) and
// through OpenClaw's gateway (`openclaw gateway run`, the published npm
// release), each driven by the conformance suite's wire targets
// (conformance/gateway, conformance/openclaw) with the same fake model
// (fakes/fakemodel). OpenClaw reaches for remote catalogs when it starts,
// so the measuring runs in a child process inside a loopback-only network
// namespace (`unshare -n`), as `conform --target openclaw` does.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/gateway"
	"github.com/codemodekit/kit/conformance/openclaw"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/faketools"
)

// openclawVersion is the OpenClaw release the gateway comparison runs.
const openclawVersion = "2026.8.1-beta.1"

// gatewayTurnTimeout bounds one turn on either side (a fresh OpenClaw
// gateway's first turn loads its provider plugin and builds its catalog).
const gatewayTurnTimeout = 3 * time.Minute

// gatewayCode is the cell of the gateway turn.
const gatewayCode = "return 1+2"

// gatewaySample is one measured turn of one side.
type gatewaySample struct {
	// Implementation is the client request's duration less the time the
	// suite, playing the model, held the model requests
	// (conformance.Timed).
	Implementation float64 `json:"implementationMs"`
	// Wall is StartTurn to End as the suite sees it: the gateway's time,
	// the fake model's and the suite's own (OpenClaw's target reads the
	// session transcript with a Node process inside it).
	Wall float64 `json:"wallMs"`
}

// gatewayRun is what the child process measures and prints.
type gatewayRun struct {
	OpenClaw string          `json:"openclaw"`
	Ref      []gatewaySample `json:"reference"`
	Claw     []gatewaySample `json:"openclawSamples"`
	// RefStart is the reference gateway's start (process spawn to
	// serving); ClawStart OpenClaw's (spawn to GET /v1/models answering).
	RefStart  float64 `json:"referenceStartMs"`
	ClawStart float64 `json:"openclawStartMs"`
}

// gatewayRows measures the gateway comparison in a loopback-only child
// and returns its report rows.
func gatewayRows(o options, root string, log io.Writer) ([]row, *gatewayRun, error) {
	dir, err := os.MkdirTemp("", "cmbench-gateway-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "codemode-gateway")
	build := exec.Command("go", "build", "-o", bin, "github.com/codemodekit/kit/reference/cmd/codemode-gateway")
	build.Dir = filepath.Join(root, "tools")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("building the reference gateway: %v\n%s", err, out)
	}
	install, err := openclaw.Install(root, openclawVersion, log)
	if err != nil {
		return nil, nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	cmd := openclaw.LoopbackCommand(self, "-child-gateway", strconv.Itoa(o.Gateway), "-warmup", strconv.Itoa(o.warmup),
		"-root", root, "-gateway-bin", bin, "-openclaw-install", install)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, log
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("gateway comparison (unshare -n %s -child-gateway): %w", filepath.Base(self), err)
	}
	var run gatewayRun
	if err := json.Unmarshal(out.Bytes(), &run); err != nil {
		return nil, nil, fmt.Errorf("gateway comparison: child output: %w", err)
	}
	return run.rows(), &run, nil
}

// rows are the report rows of a gateway comparison.
func (run *gatewayRun) rows() []row {
	title := fmt.Sprintf("trivial exec turn (`%s`) through the gateway", gatewayCode)
	metrics := []struct {
		key, label string
		get        func(gatewaySample) float64
	}{
		{"turn", "turn, gateway's own time", func(s gatewaySample) float64 { return s.Implementation }},
		{"wall", "turn as the suite sees it", func(s gatewaySample) float64 { return s.Wall }},
	}
	var rows []row
	for _, m := range metrics {
		rw := row{Workload: "gatewayturn", Title: title, Metric: m.key, Label: m.label, Unit: "ms", Gateway: true,
			Ref: summaryOf(run.Ref, m.get), Node: summaryOf(run.Claw, m.get)}
		if rw.Ref != nil && rw.Node != nil && rw.Node.Median != 0 {
			rw.Ratio = rw.Ref.Median / rw.Node.Median
		}
		rows = append(rows, rw)
	}
	rows = append(rows, row{Workload: "gatewaystart", Title: "gateway start (spawn to serving)", Metric: "start", Label: "start", Unit: "ms", Gateway: true,
		Ref: &summary{N: 1, Median: run.RefStart, P95: run.RefStart}, Node: &summary{N: 1, Median: run.ClawStart, P95: run.ClawStart},
		Ratio: run.RefStart / run.ClawStart})
	return rows
}

func summaryOf(samples []gatewaySample, get func(gatewaySample) float64) *summary {
	if len(samples) == 0 {
		return nil
	}
	v := make([]float64, len(samples))
	for i, s := range samples {
		v[i] = get(s)
	}
	s := summarize(v)
	return &s
}

// childGateway runs the gateway comparison (inside the loopback-only
// namespace) and prints a gatewayRun as JSON.
func childGateway(n, warmup int, root, bin, install string, stdout, log io.Writer) error {
	if err := openclaw.LoopbackOnly(); err != nil {
		return err
	}
	ctx := context.Background()
	run := gatewayRun{OpenClaw: openclawVersion}

	ref, err := gateway.MakeTarget(gateway.Options{Command: []string{bin, "-config", gateway.ConfigPlaceholder}})()
	if err != nil {
		return err
	}
	t0 := time.Now()
	if err := ref.Start(ctx, gatewaySetup()); err != nil {
		return fmt.Errorf("reference gateway: %w", err)
	}
	run.RefStart = ms(time.Since(t0))
	defer ref.Close()

	r, err := openclaw.NewRunner(openclaw.Options{Install: install, Plugin: filepath.Join(root, "fixtures", "openclaw", "plugin"), Log: log})
	if err != nil {
		return err
	}
	defer r.Close()
	claw, err := r.MakeTarget()()
	if err != nil {
		return err
	}
	if err := claw.Start(ctx, gatewaySetup()); err != nil {
		return fmt.Errorf("openclaw gateway: %w", err)
	}
	defer claw.Close()

	sides := []struct {
		name    string
		t       conformance.Target
		samples *[]gatewaySample
	}{{"reference", ref, &run.Ref}, {"openclaw", claw, &run.Claw}}
	// The first warm-up round starts OpenClaw's gateway (its first turn):
	// one more than -warmup.
	for i, st := range schedule(warmup+1, n) {
		side := sides[0]
		if st.Side == sideNode {
			side = sides[1]
		}
		settle()
		s, err := gatewayTurn(ctx, side.t, i)
		if err != nil {
			return fmt.Errorf("%s gateway: %w", side.name, err)
		}
		if !st.Warm {
			*side.samples = append(*side.samples, s)
		}
	}
	if starts := r.GatewayStarts(); len(starts) > 0 {
		run.ClawStart = ms(starts[0])
	}
	fmt.Fprintf(log, "cmbench: gateway turns: reference %d, openclaw %d\n", len(run.Ref), len(run.Claw))
	return json.NewEncoder(stdout).Encode(run)
}

// gatewaySetup is the setup both gateways run: code mode on, one core
// tool (code mode engages only over a catalog with a tool in it; the
// turn never calls it).
func gatewaySetup() *conformance.Setup {
	return &conformance.Setup{Config: json.RawMessage(`{"tools":{"codeMode":{"enabled":true}}}`), Host: faketools.NewHost(),
		Tools: []wire.Spec{{Name: "noop", Description: "Returns at once.", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}}}
}

// gatewayTurn runs one turn: the model calls exec with gatewayCode, then
// answers; the exec must complete with 3.
func gatewayTurn(ctx context.Context, t conformance.Target, i int) (gatewaySample, error) {
	ctx, cancel := context.WithTimeout(ctx, gatewayTurnTimeout)
	defer cancel()
	id := strconv.Itoa(i)
	t0 := time.Now()
	tu, err := t.StartTurn(ctx, conformance.TurnSpec{AgentID: "main", SessionID: "bench-" + id, SessionKey: "agent:main:bench-" + id})
	if err != nil {
		return gatewaySample{}, err
	}
	out, err := tu.Call(ctx, "call_bench_"+id, "exec", execArgs(gatewayCode, ""))
	if err != nil {
		return gatewaySample{}, err
	}
	if err := tu.End(ctx); err != nil {
		return gatewaySample{}, err
	}
	wall := time.Since(t0)
	var p payload
	if err := json.Unmarshal(out.Details, &p); err != nil || p.Status != "completed" || string(p.Value) != "3" {
		return gatewaySample{}, fmt.Errorf("exec answered %s (details %s), want completed with 3", out.Text, out.Details)
	}
	timed, ok := tu.(conformance.Timed)
	if !ok {
		return gatewaySample{}, errors.New("the target's turn does not report its timing (conformance.Timed)")
	}
	impl, ok := timed.Implementation()
	if !ok {
		return gatewaySample{}, errors.New("the turn's client request did not end")
	}
	return gatewaySample{Implementation: ms(impl), Wall: ms(wall)}, nil
}
