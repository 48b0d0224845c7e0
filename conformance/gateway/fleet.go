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
	"time"

	"github.com/codemodekit/kit/conformance/internal/loopback"
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

// natsAttempts is how many times startNATS tries with fresh ports: a port
// chosen free may be taken by another process before its server binds it.
const natsAttempts = 3

// startNATS starts n NATS servers with JetStream, in one cluster when n
// is more than 1, and waits until every one is healthy.
func startNATS(bin, dir string, n int) (*natsCluster, error) {
	if bin == "" {
		return nil, errors.New("gateway: replicas need a NATS server binary (Options.NATSServer)")
	}
	var err error
	for attempt := 1; attempt <= natsAttempts; attempt++ {
		var c *natsCluster
		if c, err = startNATSOnce(bin, filepath.Join(dir, "nats-"+strconv.Itoa(attempt)), n); err == nil {
			return c, nil
		}
	}
	return nil, err
}

func startNATSOnce(bin, dir string, n int) (*natsCluster, error) {
	all, err := loopback.FreePorts(3 * n)
	if err != nil {
		return nil, err
	}
	ports := make([][3]int, n) // client, route, monitoring
	for i := range ports {
		copy(ports[i][:], all[3*i:])
	}
	var routes []string
	for _, p := range ports {
		routes = append(routes, "nats://127.0.0.1:"+strconv.Itoa(p[1]))
	}
	// A cluster name of its own: a route to a port reused by another
	// scenario's server is refused instead of joining the two.
	name := "codemode-" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(all[0])
	c := &natsCluster{}
	for i, p := range ports {
		server := "nats-" + strconv.Itoa(i+1)
		store := filepath.Join(dir, server)
		if err := os.MkdirAll(store, 0o700); err != nil {
			_ = c.stop(0)
			return nil, err
		}
		args := []string{"-a", "127.0.0.1", "-p", strconv.Itoa(p[0]), "-m", strconv.Itoa(p[2]), "-n", server, "-js", "-sd", store}
		if n > 1 {
			args = append(args, "--cluster_name", name, "--cluster", routes[i], "--routes", strings.Join(routes, ","))
		}
		proc, err := startProcess(bin, args)
		if err != nil {
			_ = c.stop(0)
			return nil, err
		}
		c.procs = append(c.procs, proc)
		c.urls = append(c.urls, "nats://127.0.0.1:"+strconv.Itoa(p[0]))
	}
	monitors := make([]int, n)
	for i, p := range ports {
		monitors[i] = p[2]
	}
	if err := c.awaitHealthy(monitors); err != nil {
		_ = c.stop(0)
		return nil, err
	}
	return c, nil
}

// startProcess starts one NATS server in a process group of its own.
func startProcess(bin string, args []string) (*process, error) {
	p, err := start(exec.Command(bin, args...))
	if err != nil {
		return nil, fmt.Errorf("gateway: start the NATS server %s: %w", bin, err)
	}
	return p, nil
}

// awaitHealthy polls every server's health endpoint until each has
// answered 200, and fails as soon as one exits.
func (c *natsCluster) awaitHealthy(monitors []int) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(natsReadyTimeout)
	healthy := make([]bool, len(monitors))
	last := make([]string, len(monitors))
	for {
		done := true
		for i, port := range monitors {
			p := c.procs[i]
			select {
			case <-p.exited:
				return p.failure(fmt.Errorf("NATS server %d exited before it was healthy: %v", i+1, p.err))
			default:
			}
			if healthy[i] {
				continue
			}
			resp, err := client.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/healthz")
			if err != nil {
				last[i], done = err.Error(), false
				continue
			}
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			healthy[i] = resp.StatusCode == http.StatusOK
			if !healthy[i] {
				last[i], done = strings.TrimSpace(string(b)), false
			}
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			i := slices.Index(healthy, false)
			return c.procs[i].failure(fmt.Errorf("NATS server %d was not healthy within %s: %s", i+1, natsReadyTimeout, last[i]))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
