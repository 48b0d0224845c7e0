package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/codemodekit/kit/reference/internal/cluster/clustertest"
)

// startServer and startCluster are clustertest's.
var (
	startServer  = clustertest.Server
	startCluster = clustertest.Cluster
)

// openRuns connects a replica named replica to s.
func openRuns(t testing.TB, s *server.Server, replica string, maxRuns int) *Runs {
	t.Helper()
	return openRunsR(t, s, replica, maxRuns, 1)
}

// openRunsR connects a replica to s, with buckets held by streamReplicas
// servers.
func openRunsR(t testing.TB, s *server.Server, replica string, maxRuns, streamReplicas int) *Runs {
	t.Helper()
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rs, err := Open(ctx, nc, Config{Replica: replica, MaxRuns: maxRuns, MaxAge: time.Hour, StreamReplicas: streamReplicas})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
