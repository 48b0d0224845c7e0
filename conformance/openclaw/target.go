package openclaw

import (
	"context"
	"errors"
	"net/url"
	"slices"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/internal/modelturn"
	"github.com/codemodekit/kit/conformance/wire"
)

// target is one scenario: its tool host behind the runner's front, and
// the gateway that runs its configuration.
type target struct {
	r     *Runner
	id    int
	setup *conformance.Setup
	host  *wire.HTTPHost
	mcp   mcpServers
	gw    *gateway
}

func (t *target) Start(ctx context.Context, s *conformance.Setup) error {
	t.setup = s
	if err := t.r.release.notApplicable(s); err != nil {
		return err
	}
	if err := expressible(s); err != nil {
		return err
	}
	host, err := wire.NewHTTPHost(s.Host, nil)
	if err != nil {
		return err
	}
	t.host = host
	u, err := url.Parse(t.host.URL())
	if err != nil {
		return err
	}
	t.r.setHost(u)
	return nil
}

// expressible reports, as not applicable, a setup OpenClaw cannot be
// given.
func expressible(s *conformance.Setup) error {
	switch {
	case s.Runtime != "":
		return conformance.NotApplicable("openclaw: the runtime is bundled with OpenClaw; a quickjs-wasi binary that is %s cannot be set up", s.Runtime)
	case usesNamespaces(s):
		return conformance.NotApplicable("openclaw: internal namespace registrations are absent from Era B releases (SPEC.md Appendix A #17)")
	case s.SubAgentAnswer != "":
		return conformance.NotApplicable("openclaw target: Swarm sub-agents are not scripted")
	}
	return nil
}

// tools splits the setup's tools into those the implementation serves
// and the client tools a turn's request carries.
func (t *target) tools() (server, client []wire.Spec) {
	return modelturn.SplitClientTools(t.setup.Tools)
}

// prepare makes sure a gateway runs the setup's current configuration;
// fresh reports a gateway started for it.
func (t *target) prepare() (fresh bool, err error) {
	if err := t.r.release.notApplicable(t.setup); err != nil {
		return false, err
	}
	if err := expressible(t.setup); err != nil {
		return false, err
	}
	server, client := t.tools()
	t.host.SetSpecs(append(slices.Clone(server), client...))
	doc, err := t.mcpConfig()
	if err != nil {
		return false, err
	}
	setup := *t.setup
	setup.Config = doc
	cfg, err := buildConfig(&setup, t.r.release, t.r.bundled, t.r.model.URL(), server, client)
	if err != nil {
		return false, err
	}
	t.r.release.adapt(cfg.doc)
	g, fresh, err := t.r.gateway(cfg, t.gw == nil, t.setup.WholeProcess)
	if err != nil {
		return false, err
	}
	t.gw = g
	return fresh, nil
}

func (t *target) Close() error {
	t.closeMCP()
	if t.host != nil {
		t.r.setHost(nil)
		t.host.Close()
	}
	return nil
}

// Restart implements conformance.Restarter: the scenario's gateway is
// stopped by PID and started again from the same root, so OpenClaw keeps
// its configuration, state directory and session transcripts and loses
// what it held in memory. Scenarios run one at a time, so no other
// scenario uses the gateway.
func (t *target) Restart(ctx context.Context) error {
	if t.gw == nil {
		return errors.New("openclaw: restart before the scenario's first turn: no gateway runs")
	}
	g, err := t.r.restart(ctx, t.gw)
	if err != nil {
		return err
	}
	t.gw = g
	return nil
}

// usesNamespaces reports a setup with internal namespace registrations, or
// plugins whose registrations are cleared: no OpenClaw release has the
// registry (SPEC.md Appendix A #17).
func usesNamespaces(s *conformance.Setup) bool {
	return len(s.Namespaces) > 0 || len(s.RolledBack) > 0 || len(s.Disabled) > 0 || len(s.Uninstalled) > 0
}
