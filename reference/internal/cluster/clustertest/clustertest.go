// Package clustertest runs NATS JetStream servers in a test's process, on
// loopback ports, for the tests of clustered gateways (SPEC.md Appendix G).
package clustertest

import (
	"fmt"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server runs a JetStream server in this process on a loopback port
// for the test's lifetime.
func Server(t testing.TB) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats server not ready")
	}
	t.Cleanup(func() {
		s.Shutdown()
		s.WaitForShutdown()
	})
	return s
}

// Cluster runs a JetStream cluster of n servers in this process, on
// loopback ports, and waits until it has a meta leader.
func Cluster(t testing.TB, n int) []*server.Server {
	t.Helper()
	ports := make([]int, n)
	for i := range ports {
		ports[i] = freePort(t)
	}
	var routes []*url.URL
	for _, p := range ports {
		routes = append(routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", p)})
	}
	servers := make([]*server.Server, n)
	for i := range servers {
		s, err := server.NewServer(&server.Options{
			ServerName: fmt.Sprintf("n%d", i+1), Host: "127.0.0.1", Port: -1, JetStream: true,
			StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
			Cluster: server.ClusterOpts{Name: "codemode", Host: "127.0.0.1", Port: ports[i]},
			Routes:  routes,
		})
		if err != nil {
			t.Fatal(err)
		}
		go s.Start()
		servers[i] = s
		t.Cleanup(func() {
			s.Shutdown()
			s.WaitForShutdown()
		})
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, s := range servers {
		if !s.ReadyForConnections(time.Until(deadline)) {
			t.Fatal("nats server not ready")
		}
	}
	// Ready when every server is current with a meta leader that knows
	// all n peers: before that, a replicated stream finds no placement.
	for time.Now().Before(deadline) {
		ready := true
		for _, s := range servers {
			ready = ready && s.JetStreamIsCurrent()
			if s.JetStreamIsLeader() {
				ready = ready && len(s.JetStreamClusterPeers()) == n
			}
		}
		leader := false
		for _, s := range servers {
			leader = leader || s.JetStreamIsLeader()
		}
		if ready && leader {
			return servers
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the cluster did not form")
	return nil
}

// freePort returns a loopback TCP port nobody listens on now.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
