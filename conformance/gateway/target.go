package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/conformance/internal/modelturn"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// ConfigPlaceholder is replaced, in every argument of a gateway command,
// by the path of the configuration file the suite writes.
const ConfigPlaceholder = "{config}"

// stopGrace is how long a gateway has to exit after SIGTERM.
const stopGrace = 10 * time.Second

// Options configure the wire target.
type Options struct {
	// Command starts a gateway; ConfigPlaceholder in any argument is the
	// configuration file's path.
	Command []string
	// Dir is the gateway's working directory ("" is the suite's).
	Dir string
	// Env is added to every gateway's environment, after the suite's own
	// and before the scenario's.
	Env []string
	// API is the provider API the gateway is configured with:
	// "openai-responses" (the default) or "openai-completions".
	API string
	// NoStream asks the gateway for whole (not streamed) model answers.
	NoStream bool
	// Fixtures resolves real MCP server fixtures; nil leaves them to the
	// gateway, which then reports the scenario not applicable.
	Fixtures func() driver.MCPFixtures
	// Replicas, when more than 1, runs that many replicas of a clustered
	// gateway behind a front that sends each request to the next replica
	// in turn (SPEC.md Appendix G), all with Command, in which
	// NATSPlaceholder is the URL of the NATS JetStream server the suite
	// starts for the scenario from NATSServer, KeyPlaceholder a seal key
	// file the replicas share, and ReplicaPlaceholder the replica's name.
	Replicas   int
	NATSServer string
	// NATSServers is the number of NATS servers the replicas share: more
	// than 1 makes a JetStream cluster of them, replica k connecting to
	// server k (modulo their number). 0 is 1.
	NATSServers int
}

// Placeholders of a replica's command (Options.Replicas).
const (
	NATSPlaceholder    = "{nats}"
	KeyPlaceholder     = "{cluster-key}"
	ReplicaPlaceholder = "{replica}"
)

// fakeProviderKey is the API key of the fake model provider: the gateway
// sends it with every model request, so the suite can compare credentials
// (CM-1.3); OpenClaw's target uses the same.
const fakeProviderKey = "fake-local"

// MakeTarget returns a conformance.MakeTarget that runs every scenario
// through a fresh gateway process, driven over the wire.
func MakeTarget(o Options) conformance.MakeTarget {
	return func() (conformance.Target, error) {
		if len(o.Command) == 0 {
			return nil, errors.New("gateway: no command")
		}
		t := &target{opts: o, client: &http.Client{}}
		if o.Replicas > 1 {
			return &replicated{t}, nil
		}
		return t, nil
	}
}

// replicated is the target of several replicas: it implements
// conformance.Replicated.
type replicated struct{ *target }

// ReplicaOf implements conformance.Replicated.
func (r *replicated) ReplicaOf(t conformance.Turn) (string, error) {
	tu, ok := t.(*turn)
	if !ok || tu.replica == "" {
		return "", fmt.Errorf("gateway: %T is not a turn of these replicas", t)
	}
	return tu.replica, nil
}

// KillReplica implements conformance.Replicated.
func (r *replicated) KillReplica(ctx context.Context, name string) error {
	f, _, err := r.current()
	if err != nil {
		return err
	}
	return f.kill(name)
}

// target is one scenario's gateway and the doubles around it: the fake
// model it talks to, the tool host that runs its plugin and client tools,
// and the fake MCP servers.
type target struct {
	opts   Options
	client *http.Client

	setup    *conformance.Setup
	stateDir string
	cfgPath  string
	model    *fakemodel.Server
	host     *wire.HTTPHost
	mcp      *driver.MCPSetup

	nats *natsCluster // with Options.Replicas: the scenario's NATS servers

	cfgMu sync.Mutex // writeConfig's

	mu      sync.Mutex
	proc    *fleet
	gen     int // counts processes: a restart makes the next generation
	turnSeq int
	closed  bool
}

func (t *target) Start(ctx context.Context, s *conformance.Setup) error {
	t.setup = s
	dir, err := os.MkdirTemp("", "codemode-gateway-")
	if err != nil {
		return err
	}
	t.stateDir = dir
	t.cfgPath = filepath.Join(dir, "gateway.json")
	t.model = fakemodel.NewServer()
	if t.host, err = wire.NewHTTPHost(s.Host, nil); err != nil {
		return err
	}
	t.mcp = driver.NewMCPSetup(t.opts.Fixtures)
	if t.opts.Replicas > 1 {
		if t.nats, err = startNATS(t.opts.NATSServer, dir, max(t.opts.NATSServers, 1)); err != nil {
			return err
		}
	}
	return t.boot()
}

// boot writes the configuration and starts a gateway process for it.
func (t *target) boot() error {
	if err := t.writeConfig(); err != nil {
		return err
	}
	env := append(os.Environ(), t.opts.Env...)
	keys := make([]string, 0, len(t.setup.Env))
	for k := range t.setup.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		env = append(env, k+"="+t.setup.Env[k])
	}
	argv := make([]string, len(t.opts.Command))
	for i, a := range t.opts.Command {
		argv[i] = strings.ReplaceAll(a, ConfigPlaceholder, t.cfgPath)
	}
	p, err := t.spawnFleet(argv, env)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		_ = p.stop(stopGrace)
		return errors.New("gateway: target closed")
	}
	t.proc = p
	t.gen++
	return nil
}

// spawnFleet starts the gateway: one process, or the replicas and their
// front.
func (t *target) spawnFleet(argv, env []string) (*fleet, error) {
	if t.opts.Replicas <= 1 {
		p, err := spawn(argv, env, t.opts.Dir)
		if err != nil {
			return nil, err
		}
		return &fleet{procs: []*process{p}, url: p.url}, nil
	}
	keyFile := filepath.Join(t.stateDir, "seal.key")
	if err := os.WriteFile(keyFile, []byte("the seal key of this scenario's replicas"), 0o600); err != nil {
		return nil, err
	}
	f := &fleet{}
	for k := 1; k <= t.opts.Replicas; k++ {
		name := "replica-" + strconv.Itoa(k)
		r := strings.NewReplacer(NATSPlaceholder, t.nats.url(k), KeyPlaceholder, keyFile, ReplicaPlaceholder, name)
		args := make([]string, len(argv))
		for i, a := range argv {
			args[i] = r.Replace(a)
		}
		p, err := spawn(args, env, t.opts.Dir)
		if err != nil {
			_ = f.stop(stopGrace)
			return nil, err
		}
		f.procs, f.names, f.killed = append(f.procs, p), append(f.names, name), append(f.killed, false)
	}
	front, err := newFront(f)
	if err != nil {
		_ = f.stop(stopGrace)
		return nil, err
	}
	f.front, f.url = front, front.URL
	return f, nil
}

// writeConfig writes the gateway's configuration for the current setup:
// the scenario's document, its MCP servers, the fake model as provider,
// and the tools, namespaces and runtime the gateway runs. Tools are
// listed in the order the tool host knows them: the setup's non-client
// tools, then its client tools (which turns send in the request).
func (t *target) writeConfig() error {
	// Turns may start at once; each rewrites the file through one
	// temporary file.
	t.cfgMu.Lock()
	defer t.cfgMu.Unlock()
	if err := t.mcp.Start(t.setup); err != nil {
		return err
	}
	if srv := t.mcp.Unresolved(t.setup); len(srv) > 0 {
		return conformance.NotApplicable("real MCP server fixture %q: no fixture resolver", srv[0].Fixture)
	}
	cfg, err := t.mcp.Config(t.setup)
	if err != nil {
		return err
	}
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(cfg))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || doc == nil {
		doc = map[string]any{}
	}
	server, client := t.tools()
	t.host.SetSpecs(append(slices.Clone(server), client...))
	api := t.opts.API
	if api == "" {
		api = "openai-responses"
	}
	models := object(doc, "models")
	object(models, "providers")["fake"] = map[string]any{"baseUrl": t.model.URL(), "api": api, "apiKey": fakeProviderKey}
	doc["gateway"] = map[string]any{"bind": "127.0.0.1", "port": 0}
	namespaces := make([]map[string]any, len(t.setup.Namespaces))
	for i, ns := range t.setup.Namespaces {
		namespaces[i] = map[string]any{"pluginId": ns.PluginID, "registration": ns.Registration}
	}
	doc["codemodekit"] = map[string]any{
		"model": "fake/fake", "stream": !t.opts.NoStream, "toolHost": t.host.URL(), "tools": driver.WithoutBehavior(server),
		"namespaces": namespaces, "rolledBack": append([]string{}, t.setup.RolledBack...), "disabled": t.setup.Disabled, "uninstalled": t.setup.Uninstalled, "runtime": t.setup.Runtime,
	}
	if t.setup.SubAgentAnswer != "" {
		t.model.SetFallback(t.setup.SubAgentAnswer)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	tmp := t.cfgPath + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, t.cfgPath)
}

// object returns doc[key] as an object, making it if needed.
func object(doc map[string]any, key string) map[string]any {
	m, ok := doc[key].(map[string]any)
	if !ok {
		m = map[string]any{}
		doc[key] = m
	}
	return m
}

// tools splits the setup's tools into those the implementation serves
// and the client tools a turn's request carries.
func (t *target) tools() (server, client []wire.Spec) {
	return modelturn.SplitClientTools(t.setup.Tools)
}

// current returns the running gateway and its generation.
func (t *target) current() (*fleet, int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.proc == nil {
		return nil, 0, errors.New("gateway: not running")
	}
	return t.proc, t.gen, nil
}

// Restart implements conformance.Restarter: the gateway is stopped and a
// new process started for the current setup, with the same state
// directory.
func (t *target) Restart(ctx context.Context) error {
	p, _, err := t.current()
	if err != nil {
		return err
	}
	if err := p.stop(stopGrace); err != nil {
		return fmt.Errorf("restart: %w", err)
	}
	return t.boot()
}

// Close stops the gateway and everything around it, and removes the
// state directory. It reports an error when the gateway had to be killed.
func (t *target) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	p := t.proc
	t.mu.Unlock()
	var err error
	if p != nil {
		err = p.stop(stopGrace)
	}
	if t.model != nil {
		t.model.Close()
	}
	if t.host != nil {
		t.host.Close()
	}
	if t.mcp != nil {
		t.mcp.Close()
	}
	if t.nats != nil {
		err = errors.Join(err, t.nats.stop(stopGrace))
	}
	if t.stateDir != "" {
		_ = os.RemoveAll(t.stateDir)
	}
	return err
}

// get fetches path from the running gateway into v.
func (t *target) get(ctx context.Context, path string, v any) error {
	p, _, err := t.current()
	if err != nil {
		return err
	}
	return t.do(ctx, p, http.MethodGet, path, nil, v)
}

// do makes one admin request of p; an error status fails it with the
// gateway's message.
func (t *target) do(ctx context.Context, p *fleet, method, path string, body, v any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.url+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := t.client.Do(req)
	if err != nil {
		return p.failure(fmt.Errorf("gateway %s %s: %w", method, path, err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return p.failure(fmt.Errorf("gateway %s %s: %w", method, path, err))
	}
	if resp.StatusCode == http.StatusNotFound && strings.Contains(string(b), "404 page not found") {
		return conformance.NotApplicable("the gateway has no %s %s endpoint", method, path)
	}
	if resp.StatusCode != http.StatusOK {
		return p.failure(fmt.Errorf("gateway %s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(b)))
	}
	if v == nil {
		return nil
	}
	if s, ok := v.(*string); ok {
		*s = string(b)
		return nil
	}
	return json.Unmarshal(b, v)
}

// EndSession implements conformance.SessionEnder: POST /v1/sessions/end.
// A gateway without that endpoint makes the scenario not applicable.
func (t *target) EndSession(ctx context.Context, sessionKey string, how conformance.SessionEnd) error {
	p, _, err := t.current()
	if err != nil {
		return err
	}
	return t.do(ctx, p, http.MethodPost, "/v1/sessions/end", map[string]string{"sessionKey": sessionKey, "how": string(how)}, nil)
}

// Transcript implements conformance.Transcripter.
func (t *target) Transcript(ctx context.Context, sessionKey string) ([]json.RawMessage, error) {
	var res struct {
		Records []json.RawMessage `json:"records"`
	}
	if err := t.get(ctx, "/v1/transcript?sessionKey="+url.QueryEscape(sessionKey), &res); err != nil {
		return nil, err
	}
	return res.Records, nil
}

// Log implements conformance.LogReader: "" when the gateway cannot say.
func (t *target) Log() string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var s string
	if err := t.get(ctx, "/v1/debug/log", &s); err != nil {
		return ""
	}
	return s
}

// RegistrationErrors implements conformance.RegistrationReporter.
func (t *target) RegistrationErrors() []error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var res struct {
		Errors []*string `json:"errors"`
	}
	if err := t.get(ctx, "/v1/registrations", &res); err != nil {
		return []error{err}
	}
	out := make([]error, len(res.Errors))
	for i, msg := range res.Errors {
		if msg != nil {
			out[i] = errors.New(*msg)
		}
	}
	return out
}
