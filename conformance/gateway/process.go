package gateway

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/codemodekit/kit/conformance/internal/tail"
)

// stderrLimit is how much of a gateway's stderr a failure quotes.
const stderrLimit = 16 << 10

// readyTimeout bounds a gateway's start: the time to its "listening on" line.
const readyTimeout = 60 * time.Second

// A process is one running gateway.
type process struct {
	cmd    *exec.Cmd
	url    string // the base URL it serves, without a trailing slash
	stderr *tail.Buffer
	exited chan struct{}
	err    error // cmd.Wait's, once exited is closed
}

// spawn starts argv and waits for its "listening on URL" line on stdout.
func spawn(argv, env []string, dir string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("gateway: no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p, err := start(cmd)
	if err != nil {
		return nil, fmt.Errorf("gateway: start %q: %w", argv, err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "listening on "); ok {
				select {
				case ready <- strings.TrimRight(u, "/"):
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case p.url = <-ready:
		return p, nil
	case <-p.exited:
		return nil, p.failure(fmt.Errorf("gateway exited before it listened: %v", p.err))
	case <-time.After(readyTimeout):
		p.kill()
		return nil, p.failure(fmt.Errorf("gateway did not print \"listening on URL\" within %s", readyTimeout))
	}
}

// start starts cmd in a process group of its own, keeping the tail of its
// stderr, and closes the process's exited channel once it has exited.
func start(cmd *exec.Cmd) (*process, error) {
	cmd.WaitDelay = 2 * time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{cmd: cmd, stderr: tail.New(stderrLimit), exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// stop ends the gateway: SIGTERM, then a kill of its process group after
// grace. It reports an error when the gateway had to be killed.
func (p *process) stop(grace time.Duration) error {
	select {
	case <-p.exited:
		return nil
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return nil
	case <-time.After(grace):
		p.kill()
		<-p.exited
		return p.failure(fmt.Errorf("gateway did not exit within %s of SIGTERM", grace))
	}
}

func (p *process) kill() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	_ = p.cmd.Process.Kill()
}

// failure wraps err with the gateway's stderr so far.
func (p *process) failure(err error) error {
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		return fmt.Errorf("%w\ngateway stderr:\n%s", err, s)
	}
	return err
}
