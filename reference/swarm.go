package codemode

// This file holds Swarm (SPEC.md chapter 23): its guest globals and
// agents.d.ts, and the sub-agents guest code spawns and waits for.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// spawnToolName is the catalog tool Swarm spawns sub-agents with.
const spawnToolName = "sessions_spawn"

// agentsFile is the agents.d.ts virtual file of Swarm runs (CM-23.10).
const agentsFile = `type AgentJsonSchema = Record<string, unknown>;

interface AgentRunOptions {
  label?: string;
  model?: string;
  thinking?: string;
  fastMode?: boolean | "auto";
  agentId?: string;
  schema?: AgentJsonSchema;
  phase?: string;
}

interface AgentsApi {
  run(prompt: string, options?: AgentRunOptions & { schema?: undefined }): Promise<string>;
  run<T>(prompt: string, options: AgentRunOptions & { schema: AgentJsonSchema }): Promise<T>;
}

/** Spawn collector agents concurrently. */
declare const agents: Readonly<AgentsApi>;
/** Publish a phase heading for this swarm. */
declare function phase(title: string): void;
/** Publish a progress note for this swarm. */
declare function log(message: string): void;

// Fan-out: const reports = await Promise.all(prompts.map((prompt) => agents.run(prompt)));
// Gate: while (!ready) { ready = await agents.run("Check readiness") === "ready"; }
// Cycle: for (let pass = 0; pass < 3; pass++) draft = await agents.run("Improve: " + draft);
// Schema: const fact = await agents.run<{ answer: string }>("Research", { schema: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } });
`

// agentsFileDescription describes agents.d.ts.
const agentsFileDescription = "Swarm collector globals and orchestration idioms."

// swarmOn reports whether Swarm is enabled for the turn (CM-23.1).
func (t *Turn) swarmOn() bool { return t.active && t.settings.Swarm }

// spawnEntry returns the sessions_spawn catalog entry, if any.
func (t *Turn) spawnEntry() (catalog.Entry, bool) {
	for _, e := range t.catalog.Entries {
		if e.Name == spawnToolName && e.Source == catalog.SourceOpenClaw {
			return e, true
		}
	}
	return catalog.Entry{}, false
}

func (t *Turn) guestSwarm() *guest.Swarm {
	if !t.swarmOn() {
		return nil
	}
	_, ok := t.spawnEntry()
	return &guest.Swarm{Spawn: ok}
}

type spawnArgs struct {
	Prompt  string          `json:"prompt"`
	Options json.RawMessage `json:"options"`
}

// spawnAgent runs a sessions_spawn nested call for agents.run.
func (t *Turn) spawnAgent(ctx context.Context, args json.RawMessage, n cell.Nested) (json.RawMessage, error) {
	var a spawnArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	e, ok := t.spawnEntry()
	if !ok {
		return nil, errors.New("agents.run requires the sessions_spawn tool.")
	}
	input := map[string]any{"task": a.Prompt}
	var opts map[string]any
	_ = json.Unmarshal(a.Options, &opts)
	for k, v := range opts {
		input[k] = v
	}
	in, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	res, err := t.nestedCall(ctx, e, in, n)
	if err != nil {
		return nil, err
	}
	details := res.Details
	if details == nil {
		details = json.RawMessage("null")
	}
	return json.Marshal(map[string]any{"prompt": a.Prompt, "options": a.Options, "spawned": details})
}

// waitAgent returns the sub-agent's final answer, parsed as JSON when
// agents.run was given a schema.
func (t *Turn) waitAgent(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
	var a struct {
		Spawned struct {
			Prompt  string          `json:"prompt"`
			Options json.RawMessage `json:"options"`
			Spawned json.RawMessage `json:"spawned"`
		} `json:"spawned"`
		Schema bool `json:"schema"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	run := t.rt.subAgents
	if run == nil {
		return nil, errors.New("agents.run has no sub-agent runner")
	}
	text, err := run(ctx, SubAgentRequest{Prompt: a.Spawned.Prompt, Options: a.Spawned.Options, Spawned: a.Spawned.Spawned})
	if err != nil {
		return nil, err
	}
	if a.Schema {
		var v json.RawMessage
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, fmt.Errorf("agents.run answer is not JSON: %v", err)
		}
		return v, nil
	}
	return json.Marshal(text)
}

// note adds a Swarm note to the trajectory.
func (t *Turn) note(kind, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.trajectory = append(t.trajectory, TrajectoryEvent{Type: "swarm_note", Name: kind, Text: text})
}
