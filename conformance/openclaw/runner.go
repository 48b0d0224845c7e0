package openclaw

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/driver"
	"github.com/codemodekit/kit/conformance/internal/loopback"
	"github.com/codemodekit/kit/conformance/internal/modelturn"
	"github.com/codemodekit/kit/fakes/fakemodel"
)

// Options configure a Runner.
type Options struct {
	// Install is the install directory of scripts/openclaw-install.sh:
	// Install/app/node_modules/.bin/openclaw is the command.
	Install string
	// Plugin is the fixture plugin's directory (fixtures/openclaw/plugin).
	Plugin string
	// Root is where gateway roots (configuration, state, logs) are made;
	// "" is a new temporary directory, removed by Close.
	Root string
	// Keep keeps the gateway roots after Close, for inspection.
	Keep bool
	// Log receives a line per gateway start and stop; nil discards them.
	Log io.Writer
	// MaxGateways is how many gateways may run at once (each about 1 GB):
	// a scenario whose configuration one of them runs reuses it; when a new
	// one is needed, the least recently used is stopped. 0 means 3.
	MaxGateways int
	// MCPFixtures makes the resolver of a scenario's real MCP server
	// fixtures (codemodetest.RealMCPFixtures); nil reports their scenarios
	// not applicable.
	MCPFixtures func() driver.MCPFixtures
	// ToolNames are the tool names the fixture plugin declares on every
	// gateway, besides the running scenario's: a scenario whose tools are
	// all declared reuses the gateway (see KnownToolNames).
	ToolNames []string
	// Owners are the tool owners whose plugins every gateway loads,
	// besides the running scenario's (see KnownOwners and owners.go).
	Owners []string
	// OwnedNames are the tool names the suite gives each owner (see
	// KnownOwnedNames): an owner's plugin declares only those, besides
	// the running scenario's. Nil: every plugin declares ToolNames.
	OwnedNames map[string][]string
}

// A Runner runs scenarios against OpenClaw, one at a time.
type Runner struct {
	opts    Options
	release release
	bundled map[string]bool     // ids of the plugins the install bundles
	owners  []string            // plugin ids of Options.Owners and core (pluginFor), sorted
	owned   map[string][]string // Options.OwnedNames by plugin id
	root    string
	model   *fakemodel.Server
	front   *httptest.Server
	mcp     *mcpFront // the running scenario's fake MCP servers
	token   string
	tmpDir  bool

	mu       sync.Mutex
	hostURL  *url.URL         // the current scenario's tool host
	running  []*gateway       // most recently used last
	broken   map[string]error // configurations OpenClaw would not start with
	gateways int
	scenario int
	turns    int
	starts   []time.Duration
	reloads  []time.Duration
	closed   bool
}

// turnKey matches the key of a turn in a user message: OpenClaw prefixes
// the text with a timestamp envelope and repeats a session's earlier turns.
var turnKey = regexp.MustCompile(`conformance turn t[0-9]+`)

// NewRunner starts the fake model and the tool-host front. It starts no
// gateway: the first scenario does.
func NewRunner(o Options) (*Runner, error) {
	if _, err := os.Stat(filepath.Join(o.Install, "app", "node_modules", ".bin", "openclaw")); err != nil {
		return nil, fmt.Errorf("openclaw: no install in %s (scripts/openclaw-install.sh): %w", o.Install, err)
	}
	if _, err := os.Stat(filepath.Join(o.Plugin, "index.js")); err != nil {
		return nil, fmt.Errorf("openclaw: no fixture plugin in %s: %w", o.Plugin, err)
	}
	if err := LoopbackOnly(); err != nil {
		return nil, err
	}
	rel, err := releaseOf(o.Install)
	if err != nil {
		return nil, err
	}
	r := &Runner{opts: o, release: rel, bundled: bundledPlugins(o.Install), root: o.Root, broken: map[string]error{}}
	for _, owner := range append(slices.Clone(o.Owners), coreOwner) {
		r.owners = append(r.owners, pluginFor(owner, r.bundled))
	}
	slices.Sort(r.owners)
	r.owners = slices.Compact(r.owners)
	if o.OwnedNames != nil {
		r.owned = map[string][]string{}
		for owner, names := range o.OwnedNames {
			id := pluginFor(owner, r.bundled)
			r.owned[id] = append(r.owned[id], names...)
		}
	}
	if r.root == "" {
		dir, err := os.MkdirTemp("", "conform-openclaw-")
		if err != nil {
			return nil, err
		}
		r.root, r.tmpDir = dir, true
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	r.token = hex.EncodeToString(b)
	r.model = fakemodel.NewServer()
	r.model.SetFallback(modelturn.FinalAnswer)
	r.model.SetKeyFunc(keyOf)
	r.front = httptest.NewServer(http.HandlerFunc(r.proxy))
	r.mcp = newMCPFront()
	return r, nil
}

// keyOf keys OpenClaw's model requests by the latest turn key in a user
// message; other conversations keep the default key (the first user
// message) and get the fallback answer.
func keyOf(items []fakemodel.Item) string {
	first := ""
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.Type != "message" || it.Role != "user" {
			continue
		}
		if k := turnKey.FindString(it.Text); k != "" {
			return k
		}
		first = it.Text
	}
	return first
}

// proxy forwards the fixture plugin's tool-host requests to the current
// scenario's tool host.
func (r *Runner) proxy(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	u := r.hostURL
	r.mu.Unlock()
	if u == nil {
		http.Error(w, `{"error":{"code":"no_scenario","message":"no scenario is running"}}`, http.StatusServiceUnavailable)
		return
	}
	(&httputil.ReverseProxy{Rewrite: func(p *httputil.ProxyRequest) { p.SetURL(u) }}).ServeHTTP(w, req)
}

func (r *Runner) setHost(u *url.URL) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hostURL = u
}

// MakeTarget returns the suite's factory. Scenarios must run one at a
// time (conformance.Options.Concurrency 1).
func (r *Runner) MakeTarget() conformance.MakeTarget {
	return func() (conformance.Target, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.closed {
			return nil, errors.New("openclaw: runner closed")
		}
		r.scenario++
		return &target{r: r, id: r.scenario}, nil
	}
}

// nextTurn returns a new run-wide turn key.
func (r *Runner) nextTurn() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turns++
	return "conformance turn t" + strconv.Itoa(r.turns)
}

// gateway returns a running gateway for cfg: one that runs the same
// configuration and declares every tool of cfg, else a new one (the least
// recently used stopped when MaxGateways run). It writes the scenario
// file.
//
// For a scenario's first turn (first), a running gateway whose
// configuration differs from cfg only in hot sections may take cfg by
// OpenClaw's reload; a later turn whose configuration changed may not:
// its scenario's earlier turns may still hold runs on that gateway, and a
// run of the same session would queue behind them. A first turn reuses no
// gateway holding more suspended runs of earlier scenarios than
// maxLeftRuns, or any when whole (Setup.WholeProcess).
func (r *Runner) gateway(cfg gatewayConfig, first, whole bool) (*gateway, bool, error) {
	g, fresh, err := r.gatewayFor(cfg, first, whole)
	if err != nil {
		return nil, false, err
	}
	return g, fresh, writeScenario(g.dir, r.front.URL, cfg.tools)
}

func (r *Runner) gatewayFor(cfg gatewayConfig, first, whole bool) (*gateway, bool, error) {
	key := cfg.key()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, false, errors.New("openclaw: runner closed")
	}
	if err, ok := r.broken[key]; ok {
		return nil, false, err
	}
	left := maxLeftRuns
	if whole {
		left = 0
	}
	usable := func(g *gateway) bool {
		return g.alive() == nil && g.declared.covers(cfg.tools) && (!first || g.runs.count() <= left)
	}
	for i, g := range r.running {
		if g.key == key && usable(g) {
			r.running = append(append(r.running[:i:i], r.running[i+1:]...), g)
			return g, false, nil
		}
	}
	cold := cfg.coldKey()
	for i, g := range r.running {
		if !first || g.cold != cold || !usable(g) {
			continue
		}
		// The same gateway with other hot sections: OpenClaw reloads
		// them in about a second, where a start takes ten or more.
		t0 := time.Now()
		err := r.reload(g, cfg)
		if err == nil {
			g.key = key
			r.reloads = append(r.reloads, time.Since(t0))
			r.logf("openclaw: gateway (pid %d) reloaded its configuration after %s", g.cmd.Process.Pid, time.Since(t0).Round(time.Millisecond))
			r.running = append(append(r.running[:i:i], r.running[i+1:]...), g)
			return g, true, nil
		}
		r.logf("openclaw: %v; starting another gateway", firstLine(err))
		r.running = append(r.running[:i:i], r.running[i+1:]...)
		r.stop(g)
		break
	}
	max := r.opts.MaxGateways
	if max <= 0 {
		max = 3
	}
	for i := 0; i < len(r.running); {
		g := r.running[i]
		if g.key == key || g.alive() != nil || len(r.running) >= max || (first && g.runs.count() > maxLeftRuns) {
			r.running = append(r.running[:i], r.running[i+1:]...)
			r.stop(g)
			continue
		}
		i++
	}
	declared := r.declarationsFor(cfg)
	r.gateways++
	dir := filepath.Join(r.root, "gw"+strconv.Itoa(r.gateways))
	port, err := loopback.FreePort()
	if err != nil {
		return nil, false, err
	}
	if err := cfg.write(dir, r.opts.Plugin, r.token, port, declared); err != nil {
		return nil, false, err
	}
	if err := shareCompileCache(dir, filepath.Join(r.root, "node-compile-cache")); err != nil {
		return nil, false, err
	}
	// A start is not bound to the step that needed it: it takes 10 s or
	// more, and a gateway half started would be wasted.
	g, err := startGateway(context.Background(), r.opts.Install, dir, key, r.token, port, cfg.env)
	if err != nil {
		r.broken[key] = err
		r.logf("openclaw: gateway %d failed to start: %v", r.gateways, firstLine(err))
		return nil, false, err
	}
	g.declared, g.cold = declared, cold
	r.starts = append(r.starts, g.started)
	r.logf("openclaw: gateway %d (pid %d) serving %s after %s", r.gateways, g.cmd.Process.Pid, g.url, g.started.Round(time.Millisecond))
	r.running = append(r.running, g)
	return g, true, nil
}

// restart stops g by PID and starts a gateway from its root again.
func (r *Runner) restart(ctx context.Context, g *gateway) (*gateway, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("openclaw: runner closed")
	}
	r.running = slices.DeleteFunc(r.running, func(x *gateway) bool { return x == g })
	if err := g.stop(); err != nil {
		r.logf("openclaw: %v", firstLine(err))
	}
	r.logf("openclaw: gateway (pid %d) stopped for a restart", g.cmd.Process.Pid)
	n, err := startGateway(ctx, r.opts.Install, g.dir, g.key, r.token, g.port, g.env)
	if err != nil {
		return nil, fmt.Errorf("openclaw: restart: %w", err)
	}
	n.declared, n.cold = g.declared, g.cold
	r.starts = append(r.starts, n.started)
	r.logf("openclaw: gateway (pid %d) restarted, serving %s after %s", n.cmd.Process.Pid, n.url, n.started.Round(time.Millisecond))
	r.running = append(r.running, n)
	return n, nil
}

// stop stops a gateway by PID.
func (r *Runner) stop(g *gateway) {
	if err := g.stop(); err != nil {
		r.logf("openclaw: %v", firstLine(err))
	}
	r.logf("openclaw: gateway (pid %d) stopped", g.cmd.Process.Pid)
	if !r.opts.Keep && r.opts.Root == "" {
		_ = os.RemoveAll(g.dir)
	}
}

func (r *Runner) logf(format string, args ...any) {
	if r.opts.Log != nil {
		fmt.Fprintf(r.opts.Log, format+"\n", args...)
	}
}

func firstLine(err error) string {
	s := err.Error()
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// GatewayStarts returns how long each gateway took to serve, in order.
func (r *Runner) GatewayStarts() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.starts...)
}

// GatewayReloads returns how long each configuration reload of a running
// gateway took, in order.
func (r *Runner) GatewayReloads() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.reloads...)
}

// reload gives the running gateway g the configuration cfg (the same cold
// key), with the fixture plugins it already loads.
func (r *Runner) reload(g *gateway, cfg gatewayConfig) error {
	conf, err := cfg.render(g.dir, r.token, g.port, g.declared)
	if err != nil {
		return err
	}
	return g.reload(conf)
}

// Close stops the gateway and the servers, and removes the temporary root
// unless Keep is set.
func (r *Runner) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	for _, g := range r.running {
		r.stop(g)
	}
	r.running = nil
	r.mu.Unlock()
	r.model.Close()
	r.front.Close()
	r.mcp.close()
	if r.tmpDir && !r.opts.Keep {
		return os.RemoveAll(r.root)
	}
	return nil
}
