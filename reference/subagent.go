package codemode

import "encoding/json"

// A SubAgentRequest is one Swarm sub-agent to run to its final answer
// (SPEC.md chapter 23): Options.SubAgents receives it.
type SubAgentRequest struct {
	Prompt  string
	Options json.RawMessage
	// Spawned is the details of the sessions_spawn call that started it.
	Spawned json.RawMessage
}
