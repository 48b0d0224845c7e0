package faults

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/isolate"
)

// sharedPool is the pool of worker processes that every runtime of the
// process with the default options uses.
func sharedPool(t *testing.T) *isolate.Pool {
	t.Helper()
	p, err := isolate.Shared(context.Background(), isolate.Options{})
	if err != nil {
		t.Fatalf("worker pool unavailable: %v", err)
	}
	return p
}

// sleepy is a core tool that answers after a few milliseconds.
func sleepy() codemode.Tool {
	return codemode.Tool{Name: "sleepy", Source: codemode.SourceCore, Description: "Sleeps a little.",
		Parameters: []byte(`{"type":"object","properties":{}}`),
		Execute: func(ctx context.Context, _ codemode.ToolCall) (codemode.ToolResult, error) {
			select {
			case <-time.After(time.Duration(3+rand.IntN(20)) * time.Millisecond):
			case <-ctx.Done():
			}
			return codemode.TextResult("slept"), nil
		}}
}

// The programs of TestFault_WorkersKilledAtRandom: each exercises another
// part of a leg (preparation, guest compute, bridge calls inline, a
// suspension and its resume, a snapshot of a large heap).
var killPrograms = []string{
	`let s = 0; for (let i = 0; i < 200000; i++) s += i; return s`,
	`const a = await tools.callValue("openclaw:core:sleepy", {}); const b = await tools.callValue("openclaw:core:sleepy", {}); text(a); return [a, b]`,
	`text("before"); const r = await yield_control("pause"); text("after"); return r.status`,
	`const big = Array.from({ length: 50000 }, (_, i) => ({ i, s: "x" + i })); await yield_control(); return big.length`,
	`const x: number = 40; return x + 2`,
	`await Promise.all([1, 2, 3].map(() => tools.callValue("openclaw:core:sleepy", {}))); return "all"`,
}

var errorCodes = map[string]bool{"invalid_input": true, "runtime_unavailable": true, "timeout": true,
	"output_limit_exceeded": true, "snapshot_limit_exceeded": true, "internal_error": true}

// TestFault_WorkersKilledAtRandom kills worker processes (SIGKILL, by PID,
// from outside) at random moments while cells run, suspend and resume on
// them. Every exec and wait still returns one payload: completed, waiting
// with a run id that a later wait accepts or refuses cleanly, or failed
// with one of the six codes; a run whose worker died is never lost
// silently. Afterwards nothing leaks: no run, leg, goroutine or worker
// process, and every killed worker has been reaped.
func TestFault_WorkersKilledAtRandom(t *testing.T) {
	leaks := startLeakCheck(t)
	pool := sharedPool(t)
	other := otherVMs(t)
	rt := codemode.New(context.Background(), codemode.Options{})
	turn, err := rt.StartTurn(context.Background(), codemode.TurnOptions{
		Config: []byte(`{"tools":{"codeMode":{"enabled":true,"timeoutMs":3000}}}`), AgentID: "main",
		SessionID: "s1", SessionKey: "agent:main:main", RunID: "r1", Tools: []codemode.Tool{sleepy()}})
	if err != nil {
		t.Fatal(err)
	}

	stop := make(chan struct{})
	var killed []int
	var killer sync.WaitGroup
	killer.Add(1)
	go func() {
		defer killer.Done()
		r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Duration(20+r.IntN(100)) * time.Millisecond):
			}
			pids := pool.PIDs()
			if len(pids) == 0 {
				continue
			}
			pid := pids[r.IntN(len(pids))]
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed = append(killed, pid)
			}
		}
	}()

	var outcomes sync.Map // "status/code" -> *atomic.Int64
	count := func(res map[string]any) {
		k := fmt.Sprint(res["status"], "/", res["code"])
		n, _ := outcomes.LoadOrStore(k, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
	}
	check := func(what string, res map[string]any) error {
		switch res["status"] {
		case "completed":
			return nil
		case "waiting":
			if id, _ := res["runId"].(string); !strings.HasPrefix(id, "cm_") {
				return fmt.Errorf("%s: waiting without a run id: %v", what, res)
			}
			return nil
		case "failed":
			code, _ := res["code"].(string)
			msg, _ := res["error"].(string)
			if !errorCodes[code] || msg == "" {
				return fmt.Errorf("%s: failed without a code and an error: %v", what, res)
			}
			return nil
		}
		return fmt.Errorf("%s: not a payload: %v", what, res)
	}

	const goroutines, iterations = 4, 12
	errs := make(chan error, goroutines*iterations*4)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range iterations {
				code := killPrograms[(g+i)%len(killPrograms)]
				args := map[string]any{"code": code}
				if strings.Contains(code, ": number") {
					args["language"] = "typescript"
				}
				res := call(t, turn, "exec", args)
				count(res)
				if err := check("exec", res); err != nil {
					errs <- err
					continue
				}
				for waits := 0; res["status"] == "waiting" && waits < 5; waits++ {
					res = call(t, turn, "wait", map[string]any{"runId": res["runId"]})
					count(res)
					if err := check("wait", res); err != nil {
						errs <- err
					}
				}
				if res["status"] == "waiting" {
					errs <- errors.New("a run was still waiting after five waits")
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	killer.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var summary []string
	outcomes.Range(func(k, v any) bool {
		summary = append(summary, fmt.Sprintf("%v: %d", k, v.(*atomic.Int64).Load()))
		return true
	})
	t.Logf("%d workers killed; outcomes: %s", len(killed), strings.Join(summary, ", "))
	if len(killed) == 0 {
		t.Error("no worker was killed: the test tested nothing")
	}
	if n, ok := outcomes.Load("completed/<nil>"); !ok || n.(*atomic.Int64).Load() == 0 {
		t.Error("no run completed: the pool did not recover from the kills")
	}

	// Nothing leaks: the runs and legs are gone, and so is every killed
	// process (reaped: no zombie left behind).
	turn.End()
	atRest(t, rt, other)
	closed(t, rt, other)
	for _, pid := range killed {
		settle(t, "reaping worker "+strconv.Itoa(pid), func() bool { return !processExists(pid) })
	}
	settle(t, "the pool's busy workers", func() bool { return pool.Stats().LiveVMs == 0 })
	if st := pool.Stats(); st.Workers > isolate.DefaultIdleWorkers+4 {
		t.Errorf("%d workers left after the workload, want at most the idle ones", st.Workers)
	}
	leaks.verify(t)
}

// processExists reports whether pid is a process, a zombie included.
func processExists(pid int) bool {
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		return true
	}
	return syscall.Kill(pid, 0) == nil
}
