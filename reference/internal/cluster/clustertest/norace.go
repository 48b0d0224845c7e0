//go:build !race

package clustertest

// raceEnabled is set when the race detector is on.
const raceEnabled = false
