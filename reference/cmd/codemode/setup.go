package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/codemodekit/kit/conformance/wire"
	codemode "github.com/codemodekit/kit/reference"
	"github.com/codemodekit/kit/reference/internal/harness"
)

// defaultConfig enables code mode with every default.
const defaultConfig = `{"tools":{"codeMode":true}}`

// defaultAgent is the agent id of the run without --agent.
const defaultAgent = "main"

// setupFlags are the flags both commands share.
type setupFlags struct {
	catalog string
	config  string
	agent   string
}

func (f *setupFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.catalog, "catalog", "", "tool catalog `FILE` (fixtures/catalogs/README.md format)")
	fs.StringVar(&f.config, "config", "", "OpenClaw-style config `FILE`")
	fs.StringVar(&f.agent, "agent", defaultAgent, "agent `ID` of the run")
}

// A setup is what the flags describe: the catalog's tools and the config.
type setup struct {
	specs     []wire.Spec
	config    json.RawMessage
	agent     string
	isolation codemode.Isolation
}

func (f *setupFlags) load() (setup, error) {
	if f.catalog == "" {
		return setup{}, usagef("--catalog is required")
	}
	if f.agent == "" {
		return setup{}, usagef("--agent must not be empty")
	}
	b, err := os.ReadFile(f.catalog)
	if err != nil {
		return setup{}, fmt.Errorf("read catalog: %w", err)
	}
	cat, err := wire.ParseCatalog(b)
	if err != nil {
		return setup{}, fmt.Errorf("%s: %w", f.catalog, err)
	}
	s := setup{specs: cat.Tools, config: json.RawMessage(defaultConfig), agent: f.agent}
	if f.config != "" {
		b, err := os.ReadFile(f.config)
		if err != nil {
			return setup{}, fmt.Errorf("read config: %w", err)
		}
		if !json.Valid(b) {
			return setup{}, fmt.Errorf("config %s is not valid JSON", f.config)
		}
		s.config = b
	}
	return s, nil
}

// A session is one runtime with one agent run of a setup. Close ends both.
type session struct {
	rt   *codemode.Runtime
	turn *codemode.Turn
	host *scriptedHost
}

// start creates the runtime and starts the agent run. Debug lines go to log.
func (s setup) start(ctx context.Context, log io.Writer) (*session, error) {
	rt := codemode.New(ctx, codemode.Options{Log: log, Isolation: s.isolation})
	host := newScriptedHost()
	tools := make([]codemode.Tool, len(s.specs))
	for i, spec := range s.specs {
		tools[i] = harness.Tool(i, spec, host)
	}
	turn, err := rt.StartTurn(ctx, codemode.TurnOptions{
		Config:     s.config,
		AgentID:    s.agent,
		SessionID:  "cli",
		SessionKey: "agent:" + s.agent + ":cli",
		RunID:      "cli",
		Tools:      tools,
	})
	if err != nil {
		rt.Close()
		return nil, fmt.Errorf("start agent run: %w", err)
	}
	return &session{rt: rt, turn: turn, host: host}, nil
}

// release lets every held tool answer, now and from then on.
func (s *session) release() { s.host.release() }

func (s *session) Close() {
	s.turn.End()
	s.rt.Close()
}
