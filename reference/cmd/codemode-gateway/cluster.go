package main

// This file holds the gateway's cluster mode (-cluster): its replicas keep
// suspended runs and session transcripts in NATS JetStream, so any replica
// answers any request (SPEC.md Appendix G).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/cluster"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/harness"
)

// clusterOptions are the -cluster flags; url "" is a gateway of one.
type clusterOptions struct {
	url            string
	name           string // this replica's name (bootGateway makes one when "")
	keyFile        string // the seal key every replica shares
	streamReplicas int    // JetStream servers holding each stream
}

// clusterJoinTimeout bounds a replica's joining: its streams made or
// found, its presence announced. Servers of a cluster electing their
// leaders on a loaded machine may take several attempts.
const clusterJoinTimeout = time.Minute

// member is a gateway's membership of its cluster.
type member struct {
	nc      *nats.Conn
	replica *cluster.Replica
	name    string
	subs    []*nats.Subscription
}

var replicaNamePattern = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// defaultReplicaName is the host name and process id, in the characters
// a replica name may have.
func defaultReplicaName() string {
	host, _ := os.Hostname()
	return replicaNamePattern.ReplaceAllString(fmt.Sprintf("%s-%d", host, os.Getpid()), "-")
}

// dialCluster connects to the cluster's NATS servers and opens its
// transcript stream.
func dialCluster(ctx context.Context, o clusterOptions) (*nats.Conn, codemode.TranscriptStore, error) {
	if o.keyFile == "" {
		return nil, nil, errors.New("-cluster needs -cluster-key: the seal key file every replica shares")
	}
	nc, err := nats.Connect(o.url, nats.Name("codemode-gateway "+o.name), nats.MaxReconnects(-1))
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: %w", err)
	}
	tr, err := cluster.OpenTranscripts(ctx, nc, o.streamReplicas)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return nc, tr, nil
}

// joinCluster makes the booted runtime a replica: its suspended runs go
// to the shared store, sealed with the cluster's key.
func joinCluster(ctx context.Context, o clusterOptions, nc *nats.Conn, sys *harness.System) (*member, error) {
	key, err := os.ReadFile(o.keyFile)
	if err != nil {
		return nil, fmt.Errorf("cluster: seal key: %w", err)
	}
	if len(key) < 16 {
		return nil, fmt.Errorf("cluster: the seal key in %s has %d bytes, fewer than 16", o.keyFile, len(key))
	}
	rn := sys.Runner()
	rp, err := cluster.Join(ctx, nc, cluster.Config{
		Replica: o.name, MaxRuns: cell.MaxSuspendedRuns, StreamReplicas: o.streamReplicas,
		MaxAge: time.Duration(config.SnapshotTTLSeconds.Range.Max) * time.Second,
	}, rn)
	if err != nil {
		return nil, err
	}
	rn.Share(rp, key)
	return &member{nc: nc, replica: rp, name: o.name}, nil
}

// turnSubject is where the replica running a turn answers for it: the
// other replicas forward the admin requests of turns they do not run
// (its trajectory, its abort).
func turnSubject(turnID, op string) string {
	sum := sha256.Sum256([]byte(turnID))
	return "codemode.turn." + hex.EncodeToString(sum[:16]) + "." + op
}

// A turnReply is an admin answer about a turn, as another replica gave it.
type turnReply struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// serveTurn answers the other replicas' admin requests for lt until the
// subscription is dropped; answer gives the status and body for an op.
func (m *member) serveTurn(lt *liveTurn, answer func(lt *liveTurn, op string) (int, any)) (*nats.Subscription, error) {
	return m.nc.Subscribe(turnSubject(lt.id, "*"), func(msg *nats.Msg) {
		op := msg.Subject[strings.LastIndexByte(msg.Subject, '.')+1:]
		status, v := answer(lt, op)
		body, _ := json.Marshal(v)
		reply, _ := json.Marshal(turnReply{Status: status, Body: body})
		_ = msg.Respond(reply)
	})
}

// askTurn forwards an admin request for a turn this replica does not
// run; found is false when no replica runs it.
func (m *member) askTurn(ctx context.Context, turnID, op string) (reply turnReply, found bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	msg, err := m.nc.RequestWithContext(ctx, turnSubject(turnID, op), nil)
	if errors.Is(err, nats.ErrNoResponders) {
		return turnReply{}, false, nil
	}
	if err != nil {
		return turnReply{}, false, err
	}
	err = json.Unmarshal(msg.Data, &reply)
	return reply, err == nil, err
}

// debugLogSubject is where every replica answers with its debug log.
const debugLogSubject = "codemode.debuglog"

// A debugLogReply is one replica's debug log.
type debugLogReply struct {
	Replica string `json:"replica"`
	Text    string `json:"text"`
}

// serveDebugLog answers the other replicas' requests for this one's debug
// log with text().
func (m *member) serveDebugLog(text func() string) error {
	sub, err := m.nc.Subscribe(debugLogSubject, func(msg *nats.Msg) {
		b, _ := json.Marshal(debugLogReply{Replica: m.name, Text: text()})
		_ = msg.Respond(b)
	})
	m.subs = append(m.subs, sub)
	return err
}

// debugLog is the debug log of the whole cluster: every present
// replica's, one after another in name order. A replica that does not
// answer within a few seconds is left out.
func (m *member) debugLog(ctx context.Context) (string, error) {
	members, err := m.replica.Members(ctx)
	if err != nil {
		return "", err
	}
	inbox := m.nc.NewRespInbox()
	sub, err := m.nc.SubscribeSync(inbox)
	if err != nil {
		return "", err
	}
	defer sub.Unsubscribe()
	if err := m.nc.PublishRequest(debugLogSubject, inbox, nil); err != nil {
		return "", err
	}
	logs := map[string]string{}
	deadline := time.Now().Add(3 * time.Second)
	for len(logs) < len(members) {
		msg, err := sub.NextMsg(time.Until(deadline))
		if err != nil {
			break
		}
		var r debugLogReply
		if json.Unmarshal(msg.Data, &r) == nil {
			logs[r.Replica] = r.Text
		}
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(logs)) {
		b.WriteString(logs[name])
	}
	return b.String(), nil
}

// leave ends the membership: the last replica to leave takes the stored
// runs with it.
func (m *member) leave() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, sub := range m.subs {
		_ = sub.Unsubscribe()
	}
	_ = m.replica.Leave(ctx)
	m.nc.Close()
}
