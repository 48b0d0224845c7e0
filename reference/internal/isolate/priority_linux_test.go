package isolate

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestPool_workersYieldToTheHost checks that every thread of every worker
// runs at workerNice while the host stays at its own priority.
func TestPool_workersYieldToTheHost(t *testing.T) {
	p := testPool(t, Options{IdleWorkers: 2})
	half, rep := start(t, p, &recorder{}, `let s = 0; for (let i = 0; i < 1e5; i++) s += i; return s`, 10*time.Second)
	if rep.Fault != nil {
		t.Fatalf("leg: %v", rep.Fault)
	}
	defer half.Close()
	pids := p.PIDs()
	if len(pids) == 0 {
		t.Fatal("no worker")
	}
	host := threadNice(t, "/proc/self/stat")
	for _, pid := range pids {
		tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/stat")
		if err != nil || len(tasks) == 0 {
			t.Fatalf("worker %d: no threads (%v)", pid, err)
		}
		for _, task := range tasks {
			if got := threadNice(t, task); got != workerNice {
				t.Errorf("%s: nice %d, want %d (the host's: %d)", task, got, workerNice, host)
			}
		}
	}
	if host == workerNice {
		t.Errorf("the host runs at the workers' nice %d too", host)
	}
}

// threadNice reads the nice field of a /proc stat file (proc(5), field 19).
func threadNice(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
	n, err := strconv.Atoi(string(f[16]))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}
