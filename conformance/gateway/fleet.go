package gateway

// This file holds the gateway the suite talks to: one process, or the
// replicas of a clustered gateway (Options.Replicas) behind a front that
// sends each request to the next replica in turn, with the NATS server
// they share (SPEC.md Appendix G).

import (
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/codemodekit/kit/conformance/internal/loopback"
	"github.com/codemodekit/kit/conformance/internal/tail"
)

// A fleet is the running gateway: its processes and the URL the suite
// uses, the front's when there are several.
type fleet struct {
	procs []*process
	front *httptest.Server
	url   string
}

// failure wraps err with every process's stderr so far.
func (f *fleet) failure(err error) error {
	for _, p := range f.procs {
		err = p.failure(err)
	}
	return err
}

// stop ends the processes one after another (the last replica to stop
// takes the cluster's suspended runs with it), then the front.
func (f *fleet) stop(grace time.Duration) error {
	var errs []error
	for _, p := range f.procs {
		errs = append(errs, p.stop(grace))
	}
	if f.front != nil {
		f.front.Close()
	}
	return errors.Join(errs...)
}

// newFront serves the replicas at urls behind one URL, each request going
// to the next replica in turn. Streamed answers are passed on as they come.
func newFront(urls []string) (*httptest.Server, error) {
	targets := make([]*url.URL, len(urls))
	for i, u := range urls {
		var err error
		if targets[i], err = url.Parse(u); err != nil {
			return nil, err
		}
	}
	var next atomic.Uint64
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(targets[(next.Add(1)-1)%uint64(len(targets))])
		},
		FlushInterval: -1,
	}
	return httptest.NewServer(proxy), nil
}

// natsServer is the NATS JetStream server the replicas of a scenario
// share, started from Options.NATSServer on a loopback port and stopped
// by its PID.
type natsServer struct {
	p   *process
	url string
}

// natsReadyTimeout bounds the NATS server's start.
const natsReadyTimeout = 30 * time.Second

func startNATS(bin, dir string) (*natsServer, error) {
	if bin == "" {
		return nil, errors.New("gateway: replicas need a NATS server binary (Options.NATSServer)")
	}
	port, err := loopback.FreePort()
	if err != nil {
		return nil, err
	}
	store := filepath.Join(dir, "nats")
	if err := os.MkdirAll(store, 0o700); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", strconv.Itoa(port), "-js", "-sd", store)
	cmd.WaitDelay = 2 * time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{cmd: cmd, stderr: tail.New(stderrLimit), exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("gateway: start the NATS server %s: %w", bin, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(natsReadyTimeout)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return &natsServer{p: p, url: "nats://" + addr}, nil
		}
		select {
		case <-p.exited:
			return nil, p.failure(fmt.Errorf("the NATS server exited before it listened: %v", p.err))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.kill()
			return nil, p.failure(fmt.Errorf("the NATS server did not listen on %s within %s", addr, natsReadyTimeout))
		}
	}
}
