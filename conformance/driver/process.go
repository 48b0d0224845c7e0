package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codemodekit/kit/conformance/internal/tail"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/conformance/wire/protocol"
)

// Grace periods of a process's end. They bound every wait, so a process
// that hangs or keeps a pipe open never hangs the suite.
const (
	// drainGrace is how long the read loop may go on after the process
	// exited (its last lines are still in the pipe).
	drainGrace = time.Second
	// eofGrace is how long a process that closed its stdout has to exit.
	eofGrace = 2 * time.Second
	// pipeGrace bounds the copy of stderr after the process exited
	// (exec.Cmd.WaitDelay).
	pipeGrace = 2 * time.Second
)

// A proc is one process of the implementation and its conn.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	conn   *protocol.Conn
	stderr *tail.Buffer

	exited   chan struct{} // closed when the process has been waited for
	waitErr  error         // cmd.Wait's error, once exited is closed
	readDone chan struct{} // closed when the conn has ended
	// stopping is set when the suite ends the process on purpose.
	stopping atomic.Bool

	mu    sync.Mutex
	turns map[string][]wire.Spec // tools of every turn, by turn id
}

// spawn starts argv with env and dir and serves its stdout with h.
func spawn(argv []string, env []string, dir string, stderrLimit int, h func(*proc) protocol.Handler) (*proc, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = dir
	cmd.WaitDelay = pipeGrace
	setProcessGroup(cmd)
	p := &proc{cmd: cmd, stderr: tail.New(stderrLimit), exited: make(chan struct{}),
		readDone: make(chan struct{}), turns: map[string][]wire.Spec{}}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		_ = stdin.Close()
		return nil, err
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		_ = stdin.Close()
		_ = r.Close()
		_ = w.Close()
		return nil, err
	}
	_ = w.Close()
	p.stdin, p.stdout = stdin, r
	p.conn = protocol.NewConn(stdin, h(p))
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	go p.supervise()
	return p, nil
}

// supervise runs the read loop and ends the conn with the reason the
// process stopped answering.
func (p *proc) supervise() {
	defer close(p.readDone)
	defer p.stdout.Close()
	readErr := make(chan error, 1)
	go func() { readErr <- p.conn.Read(p.stdout) }()
	var err error
	select {
	case err = <-readErr:
	case <-p.exited:
		// A process that exited but whose stdout is held open by a child
		// would never reach EOF.
		t := time.NewTimer(drainGrace)
		select {
		case err = <-readErr:
		case <-t.C:
			_ = p.stdout.Close()
			err = <-readErr
		}
		t.Stop()
	}
	var merr *protocol.MessageError
	if errors.As(err, &merr) {
		p.conn.End(p.failure(FailureProtocol, merr))
		p.kill()
		return
	}
	t := time.NewTimer(eofGrace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		p.conn.End(p.failure(FailureExited, errors.New("the implementation closed its stdout but did not exit; killed")))
		p.kill()
		return
	}
	if p.stopping.Load() {
		p.conn.End(p.failure(FailureClosed, errors.New("the target was closed")))
		return
	}
	status := "exit status 0"
	if p.waitErr != nil {
		status = p.waitErr.Error()
	}
	p.conn.End(p.failure(FailureExited, fmt.Errorf("the implementation exited unexpectedly (%s)", status)))
}

// failure returns an *Error with the stderr seen so far.
func (p *proc) failure(code string, err error) *Error {
	return &Error{Code: code, Err: err, Stderr: p.stderr.String()}
}

// kill kills the process (and, where supported, its process group)
// unless it has already been waited for.
func (p *proc) kill() {
	select {
	case <-p.exited:
	default:
		killProcess(p.cmd)
	}
}

// stop ends the process on purpose: close (bounded by closeTimeout), then
// EOF on its stdin, then a kill after exitGrace. It waits for the
// process, its pipes and every host request it made. It reports an error
// when the process had to be killed or did not answer close.
func (p *proc) stop(closeTimeout, exitGrace time.Duration) error {
	p.stopping.Store(true)
	var errs []error
	if p.conn.Err() == nil {
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		if err := p.conn.Call(ctx, protocol.MethodClose, protocol.Empty{}, nil); err != nil {
			errs = append(errs, fmt.Errorf("close: %w", err))
		}
		cancel()
	}
	_ = p.stdin.Close()
	t := time.NewTimer(exitGrace)
	select {
	case <-p.exited:
	case <-t.C:
		errs = append(errs, fmt.Errorf("the implementation did not exit within %v of close; killed", exitGrace))
		p.kill()
		<-p.exited
	}
	t.Stop()
	<-p.readDone
	p.conn.Wait()
	return errors.Join(errs...)
}

// addTurn records the tools of a turn, for host/invoke.
func (p *proc) addTurn(id string, tools []wire.Spec) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.turns[id] = tools
}

// tool returns tool i of turn id.
func (p *proc) tool(id string, i int) (wire.Spec, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	tools, ok := p.turns[id]
	if !ok || i < 0 || i >= len(tools) {
		return wire.Spec{}, false
	}
	return tools[i], true
}

// hasTurn reports whether turn id was started on this process.
func (p *proc) hasTurn(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.turns[id]
	return ok
}
