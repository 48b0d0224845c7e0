package conformance

import (
	"fmt"

	"github.com/cucumber/godog"
)

// register binds every step of STEPS.md to w, concern by concern: each
// steps_*.go file registers its own steps.
func (w *world) register(sc *godog.ScenarioContext) {
	w.registerSetup(sc)
	w.registerTurns(sc)
	w.registerCalls(sc)
	w.registerConcurrent(sc)
	w.registerReplicas(sc)
	w.registerVisibleTools(sc)
	w.registerResults(sc)
	w.registerHost(sc)
	w.registerTrajectory(sc)
	w.registerTranscript(sc)
	w.registerReplay(sc)
	w.registerModelRequest(sc)
	w.registerLog(sc)
	w.registerHostile(sc)
}

// parseDoc parses a JSON docstring keeping number texts as written, so a
// configuration value such as -0 or 1e-7 reaches the target unchanged.
func parseDoc(content string) (any, error) {
	v, err := decodeJSON([]byte(content))
	if err != nil {
		return nil, fmt.Errorf("docstring is not JSON: %w", err)
	}
	return v, nil
}
