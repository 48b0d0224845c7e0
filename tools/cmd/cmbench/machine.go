package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// machineInfo describes the machine the way BENCHMARKS.md reports it.
func machineInfo(nodeBin string) machine {
	m := machine{Cores: runtime.NumCPU(), Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if out, err := exec.Command("nproc").Output(); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil {
			m.Cores = n
		}
	}
	m.CPU = procField("/proc/cpuinfo", "model name")
	if kb := procField("/proc/meminfo", "MemTotal"); kb != "" {
		if n, err := strconv.ParseFloat(strings.Fields(kb)[0], 64); err == nil {
			m.Memory = strconv.FormatFloat(n/(1<<20), 'f', 1, 64) + " GiB"
		}
	}
	if raw, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = "Linux " + strings.TrimSpace(string(raw))
	}
	if raw, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(raw)); len(f) >= 3 {
			m.Load = strings.Join(f[:3], " ")
		}
	}
	if out, err := exec.Command(nodeBin, "--version").Output(); err == nil {
		m.Node = strings.TrimSpace(string(out))
	}
	return m
}

// procField returns the value of the first "key: value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// gitState returns HEAD, the tree hash of reference/ at HEAD and whether
// reference/ has uncommitted changes.
func gitState(root string) (commit, tree string, dirty bool) {
	commit = gitOut(root, "rev-parse", "HEAD")
	tree = gitOut(root, "rev-parse", "HEAD:reference")
	// node_modules is ignored, but a symlink to it (a worktree borrowing
	// the main tree's packages) is not matched by "node_modules/".
	dirty = gitOut(root, "status", "--porcelain", "--", "reference", filepath.Join("tools", "cmd", "cmbench"),
		":!reference/node_modules") != ""
	return commit, tree, dirty
}

func gitOut(root string, args ...string) string {
	out, err := exec.Command("git", append([]string{"-C", root}, args...)...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
