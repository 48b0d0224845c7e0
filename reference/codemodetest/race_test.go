//go:build race

package codemodetest_test

// raceDetector reports a race-enabled build.
const raceDetector = true
