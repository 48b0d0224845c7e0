package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codemodekit/kit/fakes/fakemodel"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/cluster/clustertest"
)

// startNATS runs a JetStream server in this process and returns its URL.
func startNATS(t *testing.T) string { return clustertest.Server(t).ClientURL() }

// sealKeyFile writes a seal key the replicas of a test share.
func sealKeyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "seal.key")
	if err := os.WriteFile(path, []byte("a seal key the replicas share"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startReplica boots one replica of a clustered gateway.
func startReplica(t *testing.T, natsURL, keyFile, name string) *testGateway {
	t.Helper()
	return startGatewayWith(t, gatewayOptions{api: apiResponses, stream: true, env: map[string]string{envDebugCodeMode: "1"}, runtime: runtimeOptions{
		isolation: codemode.InProcess, cluster: clusterOptions{url: natsURL, name: name, keyFile: keyFile}}})
}

// callOnce answers the turn's pending model request with one tool call
// and returns the payload the next request carries for it.
func (tg *testGateway) callOnce(t *testing.T, key, id, name string, args any) map[string]any {
	t.Helper()
	req, err := tg.model.Next(ctxT(t), key)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(args)
	if err := req.Respond(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: name, Arguments: raw}}}); err != nil {
		t.Fatal(err)
	}
	req, err = tg.model.Next(ctxT(t), key)
	if err != nil {
		t.Fatal(err)
	}
	out, ok := req.ToolOutput(id)
	if !ok {
		t.Fatalf("no output for %s", id)
	}
	var payload map[string]any
	if err := json.Unmarshal([]byte(out), &payload); err != nil {
		t.Fatalf("%s output is not JSON: %v\n%s", name, err, out)
	}
	if err := req.Respond(fakemodel.Reply{Text: "done"}); err != nil {
		t.Fatal(err)
	}
	return payload
}

// TestCluster_waitOnAnotherReplica: a run suspended by a turn on one
// replica is resumed by a later turn of the same agent run on another;
// once the first replica has left, by a third turn from the store.
func TestCluster_waitOnAnotherReplica(t *testing.T) {
	natsURL, keyFile := startNATS(t), sealKeyFile(t)
	a := startReplica(t, natsURL, keyFile, "a")
	b := startReplica(t, natsURL, keyFile, "b")

	code := map[string]string{"code": `await yield_control(); return "resumed"`}
	done := a.turnIn(t, "t1", "ar-1", "s1")
	first := a.callOnce(t, "t1", "call_1", "exec", code)
	<-done
	second := a.turnIn(t, "t2", "ar-1", "s1")
	again := a.callOnce(t, "t2", "call_2", "exec", code)
	<-second
	if first["status"] != "waiting" || again["status"] != "waiting" {
		t.Fatalf("execs = %v and %v, want waiting", first, again)
	}
	// The other replica's debug log has the lifecycle lines of both.
	resp, err := http.Get(b.srv.URL + "/v1/debug/log")
	if err != nil {
		t.Fatal(err)
	}
	log, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, id := range []any{first["runId"], again["runId"]} {
		if !strings.Contains(string(log), fmt.Sprintf("code mode suspended runId=%s", id)) {
			t.Errorf("the other replica's debug log has no suspension line of %s:\n%s", id, log)
		}
	}

	done = b.turnIn(t, "t3", "ar-1", "s1")
	got := b.callOnce(t, "t3", "call_3", "wait", map[string]any{"runId": first["runId"]})
	<-done
	if got["status"] != "completed" || got["value"] != "resumed" {
		t.Fatalf("wait on the other replica = %v, want completed", got)
	}

	a.g.Close()
	done = b.turnIn(t, "t4", "ar-1", "s1")
	got = b.callOnce(t, "t4", "call_4", "wait", map[string]any{"runId": again["runId"]})
	<-done
	if got["status"] != "completed" || got["value"] != "resumed" {
		t.Fatalf("wait after the holder left = %v, want completed", got)
	}

	var tr struct {
		Records []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"records"`
	}
	getJSON(t, b.srv.URL+"/v1/transcript?sessionKey=s1", &tr)
	execs := 0
	for _, r := range tr.Records {
		if r.Type == "tool_result" && r.Name == "exec" {
			execs++
		}
	}
	if execs != 2 {
		t.Errorf("the other replica's transcript has %d exec results, want the 2 the first replica wrote", execs)
	}
}

// TestCluster_turnAdminOnAnyReplica: the trajectory and the abort of a
// turn that one replica runs are answered through another; a turn no
// replica runs is unknown.
func TestCluster_turnAdminOnAnyReplica(t *testing.T) {
	natsURL, keyFile := startNATS(t), sealKeyFile(t)
	a := startReplica(t, natsURL, keyFile, "a")
	b := startReplica(t, natsURL, keyFile, "b")

	done := a.turnIn(t, "t1", "ar-1", "s1")
	a.callOnce(t, "t1", "call_1", "exec", map[string]string{"code": `return 1`})
	<-done
	var tr struct {
		Events []struct {
			ToolCallID string `json:"toolCallId"`
		} `json:"events"`
	}
	getJSON(t, b.srv.URL+"/v1/turns/t1/trajectory", &tr)
	if len(tr.Events) == 0 || tr.Events[0].ToolCallID != "call_1" {
		t.Fatalf("trajectory through the other replica = %+v, want the exec call", tr)
	}

	done = a.turnIn(t, "t2", "ar-2", "s1")
	if _, err := a.model.Next(ctxT(t), "t2"); err != nil {
		t.Fatal(err)
	}
	b.abort(t, "t2")
	if res := <-done; res["status"] != "cancelled" {
		t.Fatalf("the turn aborted through the other replica answered %v", res)
	}

	resp, err := http.Get(b.srv.URL + "/v1/turns/nobody/trajectory")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a turn no replica runs: status %d, want 404", resp.StatusCode)
	}
}
