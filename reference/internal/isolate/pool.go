package isolate

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// Defaults of Options.
const (
	// DefaultMaxWorkers bounds the worker processes of a pool: legs run at
	// once, each holding its worker until it ends (an exec that awaits a
	// slow tool holds it up to its deadline).
	DefaultMaxWorkers = 64
	// DefaultIdleWorkers is how many started workers a pool keeps ready.
	DefaultIdleWorkers = 2
	// DefaultGrace is how long past its deadline a leg may go before its
	// worker is killed. The interrupt handler stops a guest at its
	// deadline; the grace covers the one built-in call it cannot stop, and
	// the worker's answer.
	DefaultGrace = 500 * time.Millisecond
	// DefaultAddressSpace is the address space a worker may map (RLIMIT_AS):
	// the largest memoryLimitBytes, its snapshot, the Go runtime and the
	// compiled engine, several times over.
	DefaultAddressSpace = 16 << 30
	// helloTimeout bounds a worker's start: its engine compiles, or comes
	// from the compilation cache.
	helloTimeout = 2 * time.Minute
	// maxIdleWorkers bounds the started workers a pool keeps beyond its
	// busy ones; more are ended as their legs end.
	maxIdleWorkers = 4
	// retireMemoryBytes: a worker whose leg's VM grew past this is ended
	// after the leg, so that its Go heap does not keep the memory.
	retireMemoryBytes = 64 << 20
)

// Options configure a Pool. The zero value locates the pinned engine
// binary, checks its pinned digest and uses the defaults above.
type Options struct {
	// WasmPath, Digest, CacheDir and StrictPreemption are the engine's
	// (engine.Options), used in every worker.
	WasmPath         string
	Digest           string
	CacheDir         string
	StrictPreemption bool
	// MaxWorkers, IdleWorkers, Grace and AddressSpace override the
	// defaults when positive.
	MaxWorkers   int
	IdleWorkers  int
	Grace        time.Duration
	AddressSpace uint64
	// Executable is the program workers are started from; empty means the
	// running binary. Any binary that links this package serves as a
	// worker when the pool starts it; one built from another version is
	// refused at its hello (protocol version and engine digest).
	Executable string
}

// A Pool runs the guest halves of legs in worker processes: its own
// executable, started with the worker's environment (worker.go). It
// implements sandbox.Provider; it is safe for concurrent use.
type Pool struct {
	opts   Options
	exe    string
	digest [32]byte
	base   []byte // the image stored runs are deltas against, shared by every worker

	mu       sync.Mutex
	workers  map[*worker]struct{} // every started worker not ended
	idle     []*worker            // most recently used last
	live     int                  // started workers not ended
	busy     int                  // workers running a leg
	starting int                  // workers being started
	wake     chan struct{}
	closed   bool

	// Events, when set, receives a debug line per worker start and end.
	Events func(format string, args ...any)
}

// New starts a pool and its first worker. Every failure to obtain a
// worker whose engine can run code is an *engine.UnavailableError.
func New(ctx context.Context, opts Options) (*Pool, error) {
	if opts.MaxWorkers <= 0 {
		opts.MaxWorkers = DefaultMaxWorkers
	}
	if opts.IdleWorkers <= 0 {
		opts.IdleWorkers = DefaultIdleWorkers
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.AddressSpace == 0 {
		opts.AddressSpace = DefaultAddressSpace
	}
	// A worker has neither the host's environment nor its directory: the
	// binary and the compilation cache are found here ("" is the binary
	// embedded in the worker, the same executable).
	if opts.WasmPath == "" {
		opts.WasmPath = engine.LocateWasm()
	}
	if opts.WasmPath != "" {
		if abs, err := filepath.Abs(opts.WasmPath); err == nil {
			opts.WasmPath = abs
		}
	}
	opts.CacheDir = engine.CacheDir(opts.CacheDir)
	if opts.CacheDir != "off" {
		if abs, err := filepath.Abs(opts.CacheDir); err == nil {
			opts.CacheDir = abs
		}
	}
	exe, err := executable(opts.Executable)
	if err != nil {
		return nil, &engine.UnavailableError{Reason: "the worker executable is not available", Err: err}
	}
	p := &Pool{opts: opts, exe: exe, wake: make(chan struct{}), workers: map[*worker]struct{}{}}
	w, hello, err := p.spawn(ctx)
	if err != nil {
		return nil, &engine.UnavailableError{Reason: "a worker process did not start", Err: err}
	}
	if hello.Unavailable != "" {
		w.exit()
		return nil, &engine.UnavailableError{Reason: hello.Unavailable}
	}
	if len(hello.Digest) != 32 || len(hello.Base) == 0 {
		w.exit()
		return nil, &engine.UnavailableError{Reason: "a worker process answered without its engine"}
	}
	copy(p.digest[:], hello.Digest)
	p.base = hello.Base
	p.mu.Lock()
	p.live++
	p.workers[w] = struct{}{}
	p.idle = append(p.idle, w)
	p.mu.Unlock()
	p.refill()
	return p, nil
}

var (
	sharedMu sync.Mutex
	shared   = map[Options]*Pool{}
)

// Shared returns a process-wide Pool for opts, started on first use, as
// engine.Shared does for the compiled engine: workers keep no run state,
// so every runtime of a process can use the same ones. Shared pools are
// never closed. Failures are not cached.
func Shared(ctx context.Context, opts Options) (*Pool, error) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if p, ok := shared[opts]; ok {
		return p, nil
	}
	p, err := New(ctx, opts)
	if err != nil {
		return nil, err
	}
	shared[opts] = p
	return p, nil
}

// executable is the path a worker is started from: the given program, as
// an absolute path (a worker starts in /), or else the running binary
// itself, even if it was replaced on disk since it started.
func executable(given string) (string, error) {
	if given != "" {
		abs, err := filepath.Abs(given)
		if err != nil {
			return "", err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return "", err
		}
		if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return "", fmt.Errorf("%s is not an executable file", abs)
		}
		return abs, nil
	}
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// Digest implements sandbox.Provider.
func (p *Pool) Digest() [32]byte { return p.digest }

// Grace is how long past its deadline a leg may go before the watchdog
// kills its worker.
func (p *Pool) Grace() time.Duration { return p.opts.Grace }

// Stats implements sandbox.Provider: LiveVMs counts the legs in progress
// (each runs on a worker of its own), Workers the started workers.
func (p *Pool) Stats() sandbox.Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return sandbox.Stats{LiveVMs: p.busy, Workers: p.live, Warming: p.starting > 0}
}

// PIDs returns the process ids of the pool's workers, busy and idle: for
// the tools of operators, and for tests that kill workers.
func (p *Pool) PIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]int, 0, len(p.workers))
	for w := range p.workers {
		out = append(out, w.pid)
	}
	return out
}

// Close ends the idle workers; busy ones end with their legs. A closed
// pool starts no worker.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.live -= len(idle)
	for _, w := range idle {
		delete(p.workers, w)
	}
	close(p.wake)
	p.mu.Unlock()
	for _, w := range idle {
		w.exit()
	}
}

var errClosed = errors.New("isolate: the worker pool is closed")

// Begin implements sandbox.Provider: a leg on an idle worker, or on a new
// one, or, with MaxWorkers busy, on the first to free up before ctx ends.
func (p *Pool) Begin(ctx context.Context, h sandbox.Handler) (sandbox.Half, error) {
	w, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	w.setHandler(h)
	return &half{p: p, w: w, h: h, leg: w.legs + 1}, nil
}

func (p *Pool) acquire(ctx context.Context) (*worker, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, errClosed
		}
		if n := len(p.idle); n > 0 {
			w := p.idle[n-1]
			p.idle = p.idle[:n-1]
			p.busy++
			p.mu.Unlock()
			p.refill()
			if w.alive() {
				return w, nil
			}
			p.release(w, false)
			continue
		}
		if p.live+p.starting < p.opts.MaxWorkers {
			p.starting++
			p.mu.Unlock()
			w, hello, err := p.spawn(ctx)
			p.mu.Lock()
			p.starting--
			if err == nil && hello.Unavailable != "" {
				err = errors.New(hello.Unavailable)
			}
			if err != nil {
				p.mu.Unlock()
				if w != nil {
					w.exit()
				}
				return nil, fmt.Errorf("a worker process did not start: %w", err)
			}
			p.live++
			p.busy++
			p.workers[w] = struct{}{}
			p.mu.Unlock()
			return w, nil
		}
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// release takes a worker back after a leg: idle again when reuse and it is
// alive, else ended.
func (p *Pool) release(w *worker, reuse bool) {
	p.mu.Lock()
	p.busy--
	keep := reuse && !p.closed && w.alive() && len(p.idle) < maxIdleWorkers
	if keep {
		p.idle = append(p.idle, w)
	} else {
		p.live--
		delete(p.workers, w)
	}
	// Wake whoever waits for a worker: one is idle now, or room for a new
	// one was made.
	if !p.closed {
		close(p.wake)
		p.wake = make(chan struct{})
	}
	p.mu.Unlock()
	if !keep {
		w.exit()
	}
}

// refill starts workers in the background until IdleWorkers are idle.
func (p *Pool) refill() {
	p.mu.Lock()
	n := p.opts.IdleWorkers - len(p.idle) - p.starting
	if room := p.opts.MaxWorkers - p.live - p.starting; n > room {
		n = room
	}
	if p.closed || n <= 0 {
		p.mu.Unlock()
		return
	}
	p.starting += n
	p.mu.Unlock()
	for range n {
		go func() {
			w, hello, err := p.spawn(context.Background())
			p.mu.Lock()
			p.starting--
			ok := err == nil && hello.Unavailable == "" && !p.closed
			if ok {
				p.live++
				p.workers[w] = struct{}{}
				p.idle = append(p.idle, w)
				close(p.wake)
				p.wake = make(chan struct{})
			}
			p.mu.Unlock()
			if !ok && w != nil {
				w.exit()
			}
		}()
	}
}

func (p *Pool) event(format string, args ...any) {
	if p.Events != nil {
		p.Events(format, args...)
	}
}

// spawn starts a worker and reads its hello.
func (p *Pool) spawn(ctx context.Context) (*worker, helloMsg, error) {
	cmd := exec.Command(p.exe)
	// Nothing of the host's environment, descriptors or directory: the
	// worker learns everything it needs from init.
	cmd.Env = []string{workerEnv + "=" + strconv.Itoa(protocolVersion)}
	cmd.Dir = "/"
	cmd.SysProcAttr = workerProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, helloMsg{}, err
	}
	// Not StdoutPipe: Wait closes that as soon as the process exits, and
	// the reaper's Wait runs beside the reader, which must see every frame
	// the worker wrote before it ended, then the end.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, helloMsg{}, err
	}
	cmd.Stdout = stdoutW
	abortR, abortW, err := os.Pipe()
	if err != nil {
		stdin.Close()
		stdout.Close()
		stdoutW.Close()
		return nil, helloMsg{}, err
	}
	cmd.ExtraFiles = []*os.File{abortR} // the worker's descriptor 3 (abortFD)
	tail := &tailWriter{max: 4 << 10}
	cmd.Stderr = tail
	err = cmd.Start()
	stdoutW.Close()
	abortR.Close()
	if err != nil {
		stdout.Close()
		abortW.Close()
		return nil, helloMsg{}, err
	}
	w := &worker{pid: cmd.Process.Pid, cmd: cmd, stdin: stdin, stdout: stdout, abort: abortW, out: bufio.NewReaderSize(stdout, 64<<10),
		in: bufio.NewWriterSize(stdin, 64<<10), stderr: tail,
		exited: make(chan struct{}), catalogs: newCatalogMirror()}
	go w.reap(p)
	var e encoder
	initMsg{Version: protocolVersion, WasmPath: p.opts.WasmPath, Digest: p.opts.Digest, CacheDir: p.opts.CacheDir,
		StrictPreemption: p.opts.StrictPreemption, Base: p.base, AddressSpace: p.opts.AddressSpace}.encode(&e)
	if err := w.send(msgInit, &e); err != nil {
		err = w.exitError(err)
		w.discard()
		return nil, helloMsg{}, err
	}
	hello, err := w.readHello(ctx)
	if err != nil {
		w.discard()
		return nil, helloMsg{}, err
	}
	if hello.Version != protocolVersion {
		w.discard()
		return nil, helloMsg{}, fmt.Errorf("worker speaks protocol %d, want %d", hello.Version, protocolVersion)
	}
	if len(hello.Digest) == 32 && p.base != nil && hex.EncodeToString(hello.Digest) != hex.EncodeToString(p.digest[:]) {
		w.discard()
		return nil, helloMsg{}, errors.New("worker loaded another engine binary")
	}
	p.event("worker started pid=%d", w.pid)
	return w, hello, nil
}

// blockingPipe is os.Pipe without the runtime's poller: a leg's goroutine
// blocks in read(2) for its worker's answer, and the kernel wakes that
// thread the moment the answer is written. Through the poller the wake-up
// went through another thread and the scheduler first, tens of
// microseconds per answer on the reference machine (BenchmarkStep). The
// worker's death always ends the read: its end of the pipe closes.
func blockingPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}

// A worker is the host's side of one worker process. Its leg's goroutine
// writes the operations and reads their answers itself: no goroutine of
// the host stands between a worker and the leg it runs, and nothing but an
// answer or a bridge request ever comes from a worker (it speaks only
// while an operation runs).
type worker struct {
	pid    int
	cmd    *exec.Cmd
	stdin  io.Closer
	stdout io.Closer
	abort  *os.File // the abort pipe (worker.go, abortFD)
	out    *bufio.Reader
	stderr *tailWriter
	legs   uint64 // legs ended, as the worker counts them

	wmu sync.Mutex // guards in
	in  *bufio.Writer

	exited   chan struct{} // closed once the process is reaped
	exitErr  error         // how it ended, set before exited is closed
	killed   atomic.Bool   // the host killed it
	handler  atomic.Pointer[handlerRef]
	catalogs *catalogCache
}

type handlerRef struct{ h sandbox.Handler }

func (w *worker) setHandler(h sandbox.Handler) { w.handler.Store(&handlerRef{h}) }

func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return !w.killed.Load()
	}
}

// send writes one frame.
func (w *worker) send(typ byte, e *encoder) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if err := writeFrame(w.in, typ, e); err != nil {
		return err
	}
	return w.in.Flush()
}

// kill ends the process now (SIGKILL, by its PID).
func (w *worker) kill() {
	w.killed.Store(true)
	_ = w.cmd.Process.Kill()
}

// exit asks the worker to end, kills it if it does not soon, and closes
// the host's ends of its pipes once it has ended.
func (w *worker) exit() {
	if w.send(msgExit, nil) == nil {
		select {
		case <-w.exited:
		case <-time.After(2 * time.Second):
		}
	}
	w.discard()
}

// discard kills the worker, waits until it has ended and closes the host's
// ends of its pipes.
func (w *worker) discard() {
	w.kill()
	<-w.exited
	w.closeFiles()
}

// closeFiles closes the host's ends of a worker's pipes; the worker has
// ended, and nothing reads or writes them any more.
func (w *worker) closeFiles() {
	w.stdin.Close()
	w.stdout.Close()
	w.abort.Close()
}

// reap waits for the process to end and records how.
func (w *worker) reap(p *Pool) {
	err := w.cmd.Wait()
	if err == nil {
		err = errors.New("exit status 0")
	}
	w.exitErr = err
	close(w.exited)
	p.event("worker ended pid=%d status=%q", w.pid, err.Error())
	// An idle worker that ended (killed from outside, crashed) leaves the
	// pool now, and a new one takes its place.
	p.mu.Lock()
	found := false
	for i, iw := range p.idle {
		if iw == w {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			found = true
			break
		}
	}
	if found {
		p.live--
		delete(p.workers, w)
	}
	p.mu.Unlock()
	if found {
		w.closeFiles()
		p.refill()
	}
}

// exitError describes the end of a worker whose output ended with err.
func (w *worker) exitError(err error) error {
	select {
	case <-w.exited:
		return fmt.Errorf("the worker process ended (%v)", w.exitErr)
	case <-time.After(time.Second):
		return fmt.Errorf("the worker process stopped answering (%v)", err)
	}
}

func (w *worker) readHello(ctx context.Context) (helloMsg, error) {
	type result struct {
		m   helloMsg
		err error
	}
	ch := make(chan result, 1)
	go func() {
		typ, b, err := readFrame(w.out, func(byte) int { return 16 << 20 })
		if err != nil {
			ch <- result{err: w.exitError(err)}
			return
		}
		if typ != msgHello {
			ch <- result{err: fmt.Errorf("worker answered with frame type %d", typ)}
			return
		}
		var m helloMsg
		d := decoder{b: b}
		m.decode(&d)
		ch <- result{m, d.done()}
	}()
	t := time.NewTimer(helloTimeout)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.m, r.err
	case <-t.C:
		return helloMsg{}, errors.New("the worker process did not answer")
	case <-ctx.Done():
		return helloMsg{}, ctx.Err()
	}
}

// call sends an operation and reads the worker's frames until its answer,
// of type want and at most limit bytes: bridge requests and notes that come
// first go to the leg's handler at once, while the guest goes on. A frame
// over its bound, malformed or out of turn ends the worker: a worker that
// speaks out of turn is no longer trusted.
func (w *worker) call(typ byte, e *encoder, want byte, limit int) ([]byte, error) {
	if err := w.send(typ, e); err != nil {
		return nil, unsentError{w.exitError(err)}
	}
	frameLimit := func(typ byte) int {
		if typ == msgRequest || typ == msgNote {
			return maxRequestFrame
		}
		return limit
	}
	for {
		typ, b, err := readFrame(w.out, frameLimit)
		if err != nil {
			if errors.Is(err, errFrameTooLarge) {
				w.kill()
				return nil, errProtocol
			}
			return nil, w.exitError(err)
		}
		switch typ {
		case want:
			return b, nil
		case msgRequest, msgNote:
			d := decoder{b: b}
			a, c := d.string(), d.string()
			var args []byte
			if typ == msgRequest {
				args = d.bytes()
			}
			if d.done() != nil {
				w.kill()
				return nil, errProtocol
			}
			ref := w.handler.Load()
			if ref == nil || ref.h == nil {
				continue
			}
			if typ == msgRequest {
				ref.h.Request(a, c, args)
			} else {
				ref.h.Note(a, c)
			}
		default:
			w.kill()
			return nil, errProtocol
		}
	}
}

// errUnsent reports an operation the worker never received: it had ended.
var errUnsent = errors.New("isolate: the operation was not sent")

// unsentError is errUnsent with why: its message is why's alone.
type unsentError struct{ why error }

func (e unsentError) Error() string        { return e.why.Error() }
func (e unsentError) Is(target error) bool { return target == errUnsent }

// errProtocol reports a worker that answered out of turn or out of bounds.
var errProtocol = errors.New("the worker process broke the protocol")

// tailWriter keeps the last max bytes written: a worker's standard error,
// for the debug log when it ends badly.
type tailWriter struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
