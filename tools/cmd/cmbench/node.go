package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// nodeRunner drives the Node harness (node/harness.mjs): one long-lived
// process, one JSON line per request and per answer. The Node figure is the
// harness's own timing ("ms" in the answer); the round trip Go measures
// around the request is kept as "rtt".
type nodeRunner struct {
	cmd                *exec.Cmd
	in                 io.WriteCloser
	out                *bufio.Reader
	seq                int
	Version            string
	loaded             map[int]bool // catalogs sent
	concurrency, cells int
}

type nodeAnswer struct {
	Status        string             `json:"status"`
	Value         json.RawMessage    `json:"value"`
	Error         string             `json:"error"`
	Ms            float64            `json:"ms"`
	VMms          float64            `json:"vmMs"`
	Legs          int                `json:"legs"`
	RunID         string             `json:"runId"`
	SnapshotBytes float64            `json:"snapshotBytes"`
	RSSDelta      float64            `json:"rssDelta"`
	CellsPerSec   float64            `json:"cellsPerSec"`
	Curve         map[string]float64 `json:"curve"`
	Parts         struct {
		Suspend float64 `json:"suspend"`
		Resume  float64 `json:"resume"`
	} `json:"parts"`
	Ready bool   `json:"ready"`
	Node  string `json:"node"`
}

// startNode starts the harness in dir with the quickjs-wasi package at pkg.
func startNode(nodeBin, dir, pkg string, concurrency, cells int) (*nodeRunner, error) {
	cmd := exec.Command(nodeBin, "--expose-gc", filepath.Join(dir, "harness.mjs"), pkg)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node harness: %w", err)
	}
	n := &nodeRunner{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), loaded: map[int]bool{}, concurrency: concurrency, cells: cells}
	var hello nodeAnswer
	if err := n.read(&hello); err != nil || !hello.Ready {
		n.close()
		return nil, fmt.Errorf("node harness did not start: %v", err)
	}
	n.Version = hello.Node
	return n, nil
}

func (n *nodeRunner) read(a *nodeAnswer) error {
	line, err := n.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("node harness: %w", err)
	}
	return json.Unmarshal(line, a)
}

// do sends one request and returns the answer and the round trip.
func (n *nodeRunner) do(req map[string]any) (nodeAnswer, time.Duration, error) {
	n.seq++
	req["seq"] = n.seq
	line, err := json.Marshal(req)
	if err != nil {
		return nodeAnswer{}, 0, err
	}
	t0 := time.Now()
	if _, err := n.in.Write(append(line, '\n')); err != nil {
		return nodeAnswer{}, 0, fmt.Errorf("node harness: %w", err)
	}
	var a nodeAnswer
	err = n.read(&a)
	d := time.Since(t0)
	if err == nil && a.Error != "" {
		err = fmt.Errorf("node harness: %s", a.Error)
	}
	return a, d, err
}

func (n *nodeRunner) close() {
	if n.in != nil {
		_, _ = n.in.Write([]byte(`{"op":"quit"}` + "\n"))
		_ = n.in.Close()
	}
	done := make(chan error, 1)
	go func() { done <- n.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = n.cmd.Process.Kill() // our own child, by its PID
		<-done
	}
}

func catalogKey(size int) string { return "c" + strconv.Itoa(size) }

func (n *nodeRunner) catalog(size int) error {
	if n.loaded[size] {
		return nil
	}
	if _, _, err := n.do(map[string]any{"op": "catalog", "key": catalogKey(size), "tools": nodeCatalog(size)}); err != nil {
		return err
	}
	n.loaded[size] = true
	return nil
}

func wantNode(a nodeAnswer, status, value string) error {
	if a.Status != status || (value != "" && string(a.Value) != value) {
		return fmt.Errorf("node: got %s %s, want %s %s", a.Status, a.Value, status, value)
	}
	return nil
}

func (n *nodeRunner) run(w *workload) (map[string]float64, error) {
	if err := n.catalog(w.Catalog); err != nil {
		return nil, err
	}
	key := catalogKey(w.Catalog)
	switch w.Kind {
	case kindExec, kindCompute:
		a, rtt, err := n.do(map[string]any{"op": "exec", "code": w.Code, "catalog": key})
		if err != nil {
			return nil, err
		}
		if err := wantNode(a, "completed", w.Want); err != nil {
			return nil, err
		}
		out := map[string]float64{"ms": a.Ms, "rtt": ms(rtt), "legs": float64(a.Legs)}
		if w.Kind == kindCompute {
			out["vm"] = a.VMms
			settle()
			v, _, err := n.do(map[string]any{"op": "v8", "code": w.Code})
			if err != nil {
				return nil, err
			}
			if err := wantNode(v, "completed", w.Want); err != nil {
				return nil, err
			}
			out["v8"] = v.Ms
		}
		return out, nil
	case kindYieldWait:
		a, rtt, err := n.do(map[string]any{"op": "yieldwait", "code": w.Code, "catalog": key})
		if err != nil {
			return nil, err
		}
		if err := wantNode(a, "completed", w.Want); err != nil {
			return nil, err
		}
		return map[string]float64{"suspend": a.Parts.Suspend, "resume": a.Parts.Resume, "rtt": ms(rtt)}, nil
	case kindMemory:
		a, _, err := n.do(map[string]any{"op": "suspended", "code": w.Code, "catalog": key, "runs": suspendedRuns, "checkpoints": checkpoints})
		if err != nil {
			return nil, err
		}
		if err := wantNode(a, "completed", strconv.Itoa(suspendedRuns)); err != nil {
			return nil, err
		}
		out := map[string]float64{"rss": a.RSSDelta / (1 << 20), "perRun": a.RSSDelta / suspendedRuns / 1024, "stored": a.SnapshotBytes / 1024}
		for k, v := range a.Curve {
			out["curve"+k] = v / (1 << 20)
		}
		return out, nil
	case kindThroughput:
		a, _, err := n.do(map[string]any{"op": "concurrent", "code": w.Code, "catalog": key, "cells": n.cells, "concurrency": n.concurrency})
		if err != nil {
			return nil, err
		}
		if err := wantNode(a, "completed", strconv.Itoa(n.cells)); err != nil {
			return nil, err
		}
		return map[string]float64{"cps": a.CellsPerSec}, nil
	}
	return nil, fmt.Errorf("unknown workload kind %d", w.Kind)
}
