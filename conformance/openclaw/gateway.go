package openclaw

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// readyTimeout bounds a gateway's start: spawn to GET /v1/models answering
// 200. OpenClaw takes about 10 s on two cores.
const readyTimeout = 120 * time.Second

// stopGrace is how long a gateway has to exit after SIGTERM before its
// process group is killed.
const stopGrace = 15 * time.Second

// A gateway is one running `openclaw gateway run`.
type gateway struct {
	key      string        // the configuration it runs: what a scenario must match to reuse it
	cold     string        // the part of key a reload cannot change (gatewayConfig.coldKey)
	runs     suspendedRuns // the code-mode runs it holds suspended
	declared declarations  // the fixture plugins it loads and the tool names each declares
	dir      string        // its root: config, state, home, tmp, workspace, logs
	env      []string      // the scenario environment it runs with
	url      string
	port     int
	token    string
	cmd      *exec.Cmd
	exited   chan struct{}
	err      error // cmd.Wait's, once exited is closed
	started  time.Duration
}

// startGateway runs the openclaw command of the install in dir with the
// configuration already written to dir/openclaw.json, and waits until it
// serves.
func startGateway(ctx context.Context, install, dir, key, token string, port int, env []string) (*gateway, error) {
	if err := LoopbackOnly(); err != nil {
		return nil, err
	}
	bin := filepath.Join(install, "app", "node_modules", ".bin")
	cmd := exec.Command(filepath.Join(bin, "openclaw"), "gateway", "run", "--verbose")
	cmd.Dir = filepath.Join(dir, "work")
	cmd.Env = append(gatewayEnv(bin, dir), env...)
	logf, err := os.Create(filepath.Join(dir, "logs", "gateway.out"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	g := &gateway{key: key, dir: dir, env: env, port: port, url: "http://127.0.0.1:" + strconv.Itoa(port), token: token, cmd: cmd, exited: make(chan struct{})}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("openclaw: start gateway: %w", err)
	}
	go func() {
		g.err = cmd.Wait()
		close(g.exited)
	}()
	deadline := time.NewTimer(readyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if g.ready(ctx) {
			g.started = time.Since(t0)
			return g, nil
		}
		select {
		case <-g.exited:
			return nil, g.failure(fmt.Errorf("openclaw gateway exited before it served: %v", g.err))
		case <-deadline.C:
			_ = g.stop()
			return nil, g.failure(fmt.Errorf("openclaw gateway did not serve within %s", readyTimeout))
		case <-ctx.Done():
			_ = g.stop()
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}

// shareCompileCache makes the Node compile cache of the gateway rooted at
// dir (OpenClaw keeps it under TMPDIR) the runner's shared one, so that
// every gateway after the first starts from compiled code: a cold start
// compiles OpenClaw's bundle again. The cache holds compiled code only,
// keyed by source, so it carries no state from one gateway to the next.
func shareCompileCache(dir, shared string) error {
	if err := os.MkdirAll(shared, 0o700); err != nil {
		return err
	}
	link := filepath.Join(dir, "tmp", "node-compile-cache")
	if _, err := os.Lstat(link); err == nil {
		return nil
	}
	return os.Symlink(shared, link)
}

// gatewayEnv is the environment of a gateway rooted at dir: the installed
// Node first on PATH, every OpenClaw home and state directory and TMPDIR
// inside dir, and every documented switch that keeps it offline.
func gatewayEnv(bin, dir string) []string {
	return []string{
		"PATH=" + bin + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + filepath.Join(dir, "home"),
		"OPENCLAW_HOME=" + filepath.Join(dir, "home"),
		"OPENCLAW_STATE_DIR=" + filepath.Join(dir, "state"),
		"OPENCLAW_CONFIG_PATH=" + filepath.Join(dir, "openclaw.json"),
		"TMPDIR=" + filepath.Join(dir, "tmp"),
		"OPENCLAW_DISABLE_BONJOUR=1",
		"OPENCLAW_NO_AUTO_UPDATE=1",
		"OPENCLAW_OFFLINE=1",
		"OPENCLAW_SKIP_CHANNELS=1",
		"NO_COLOR=1",
	}
}

// ready reports whether GET /v1/models answers 200.
func (g *gateway) ready(ctx context.Context) bool {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, g.url+"/v1/models", nil)
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer "+g.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// stop sends SIGTERM to the gateway's PID and waits for it to exit; after
// stopGrace it kills the gateway's process group (it and the MCP servers
// it spawned). It reports an error when it had to kill.
func (g *gateway) stop() error {
	select {
	case <-g.exited:
		return nil
	default:
	}
	_ = g.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-g.exited:
		return nil
	case <-time.After(stopGrace):
		_ = syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
		<-g.exited
		return g.failure(fmt.Errorf("openclaw gateway (pid %d) did not exit within %s of SIGTERM", g.cmd.Process.Pid, stopGrace))
	}
}

// failure wraps err with the end of the gateway's output.
func (g *gateway) failure(err error) error {
	b, _ := os.ReadFile(filepath.Join(g.dir, "logs", "gateway.out"))
	if len(b) > 8<<10 {
		b = append([]byte("[...]"), b[len(b)-8<<10:]...)
	}
	if s := strings.TrimSpace(string(b)); s != "" {
		return fmt.Errorf("%w\nopenclaw gateway output:\n%s", err, s)
	}
	return err
}

// alive reports whether the gateway still runs.
func (g *gateway) alive() error {
	select {
	case <-g.exited:
		return g.failure(errors.New("openclaw gateway exited"))
	default:
		return nil
	}
}
