package gateway

// This file holds the gateway the suite talks to: one process, or the
// replicas of a clustered gateway (Options.Replicas) behind a front that
// sends each request to the next replica in turn, with the NATS servers
// they share (SPEC.md Appendix G).

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	names []string // the replicas' names, when there are several
	front *httptest.Server
	url   string

	mu     sync.Mutex
	killed []bool // by process: killed by KillReplica
	placed int    // turns placed on replicas so far
}

// replica is the index of the replica to serve the next turn: the live
// replicas in turn.
func (f *fleet) replica() (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range f.procs {
		i := f.placed % len(f.procs)
		f.placed++
		if !f.killed[i] {
			return i, nil
		}
	}
	return 0, errors.New("gateway: every replica was killed")
}

// live reports whether process i was not killed.
func (f *fleet) live(i int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.killed[i]
}

// kill kills the replica named, by its PID, with no goodbye, and waits for
// it to exit. Requests stop going to it first.
func (f *fleet) kill(name string) error {
	i := slices.Index(f.names, name)
	if i < 0 {
		return fmt.Errorf("gateway: no replica %q", name)
	}
	f.mu.Lock()
	f.killed[i] = true
	f.mu.Unlock()
	p := f.procs[i]
	p.kill()
	<-p.exited
	return nil
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

// newFront serves the replicas of f behind one URL, each request going to
// the next live replica in turn. Streamed answers are passed on as they
// come.
func newFront(f *fleet) (*httptest.Server, error) {
	targets := make([]*url.URL, len(f.procs))
	for i, p := range f.procs {
		var err error
		if targets[i], err = url.Parse(p.url); err != nil {
			return nil, err
		}
	}
	var next atomic.Uint64
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			n := uint64(len(targets))
			i := (next.Add(1) - 1) % n
			for k := uint64(0); k < n && !f.live(int(i)); k++ {
				i = (i + 1) % n
			}
			r.SetURL(targets[i])
		},
		FlushInterval: -1,
	}
	return httptest.NewServer(proxy), nil
}

// natsCluster is the NATS JetStream server, or the cluster of servers,
// that the replicas of a scenario share: started from Options.NATSServer
// on loopback ports and stopped by their PIDs.
type natsCluster struct {
	procs []*process
	urls  []string // the client URL of each server
}

// url is the server replica k (from 1) connects to: each server serves
// its share of the replicas.
func (c *natsCluster) url(k int) string { return c.urls[(k-1)%len(c.urls)] }

func (c *natsCluster) stop(grace time.Duration) error {
	var errs []error
	for _, p := range c.procs {
		errs = append(errs, p.stop(grace))
	}
	return errors.Join(errs...)
}

// natsReadyTimeout bounds the NATS servers' start: until every one reports
// itself healthy, which a server of a cluster does once JetStream has a
// meta leader.
const natsReadyTimeout = 30 * time.Second

// startNATS starts n NATS servers with JetStream, in one cluster when n
// is more than 1, and waits until every one is healthy.
func startNATS(bin, dir string, n int) (*natsCluster, error) {
	if bin == "" {
		return nil, errors.New("gateway: replicas need a NATS server binary (Options.NATSServer)")
	}
	ports := make([][3]int, n) // client, route, monitoring
	for i := range ports {
		for j := range ports[i] {
			p, err := loopback.FreePort()
			if err != nil {
				return nil, err
			}
			ports[i][j] = p
		}
	}
	var routes []string
	for _, p := range ports {
		routes = append(routes, "nats://127.0.0.1:"+strconv.Itoa(p[1]))
	}
	c := &natsCluster{}
	for i, p := range ports {
		name := "nats-" + strconv.Itoa(i+1)
		store := filepath.Join(dir, name)
		if err := os.MkdirAll(store, 0o700); err != nil {
			_ = c.stop(0)
			return nil, err
		}
		args := []string{"-a", "127.0.0.1", "-p", strconv.Itoa(p[0]), "-m", strconv.Itoa(p[2]), "-n", name, "-js", "-sd", store}
		if n > 1 {
			args = append(args, "--cluster_name", "codemode", "--cluster", routes[i], "--routes", strings.Join(routes, ","))
		}
		proc, err := startProcess(bin, args)
		if err != nil {
			_ = c.stop(0)
			return nil, err
		}
		c.procs = append(c.procs, proc)
		c.urls = append(c.urls, "nats://127.0.0.1:"+strconv.Itoa(p[0]))
	}
	deadline := time.Now().Add(natsReadyTimeout)
	for i, p := range ports {
		if err := awaitHealthy(c.procs[i], p[2], deadline); err != nil {
			_ = c.stop(0)
			return nil, err
		}
	}
	return c, nil
}

// startProcess starts one NATS server in a process group of its own.
func startProcess(bin string, args []string) (*process, error) {
	cmd := exec.Command(bin, args...)
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
	return p, nil
}

// awaitHealthy polls a server's health endpoint until it answers 200.
func awaitHealthy(p *process, monitor int, deadline time.Time) error {
	u := "http://127.0.0.1:" + strconv.Itoa(monitor) + "/healthz"
	client := &http.Client{Timeout: time.Second}
	last := "no answer"
	for {
		resp, err := client.Get(u)
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = strings.TrimSpace(string(b))
		}
		select {
		case <-p.exited:
			return p.failure(fmt.Errorf("the NATS server exited before it was healthy: %v", p.err))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return p.failure(fmt.Errorf("the NATS server was not healthy within %s: %s", natsReadyTimeout, last))
		}
	}
}
