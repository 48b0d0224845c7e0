//go:build race

package isolate

// raceEnabled reports a race-enabled build.
const raceEnabled = true
