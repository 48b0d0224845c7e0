// Package clustertest runs NATS JetStream servers in a test's process, on
// loopback ports, for the tests of clustered gateways (SPEC.md Appendix G).
package clustertest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
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
// loopback ports, and waits until a stream held by all n can be made. It
// skips the test under the race detector, which slows the servers' Raft
// elections until leaders flap and requests wait past any deadline;
// scripts/test.sh runs the tests named *threeServers* without it.
func Cluster(t testing.TB, n int) []*server.Server {
	t.Helper()
	if raceEnabled {
		t.Skip("a JetStream cluster in one process under the race detector elects leaders too slowly; run without -race")
	}
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
		if ready && leader && placeable(servers[0].ClientURL(), n) {
			return servers
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the cluster did not form")
	return nil
}

// placeable reports whether a stream held by n servers can be made now: a
// cluster whose servers agree may still be electing its leader, and a
// stream made then waits until the caller's deadline.
func placeable(url string, n int) bool {
	nc, err := nats.Connect(url)
	if err != nil {
		return false
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "CLUSTERTEST_READY", Subjects: []string{"clustertest.ready"},
		Replicas: n, Storage: jetstream.MemoryStorage}); err != nil {
		return false
	}
	return js.DeleteStream(ctx, "CLUSTERTEST_READY") == nil
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
