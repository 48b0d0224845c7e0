package codemode_test

import (
	"testing"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/reference/codemodetest"
)

// TestConformance runs the whole suite against the reference, in process.
// Expected failures are listed in conformance/baselines/reference.txt.
func TestConformance(t *testing.T) {
	conformance.TestTarget(t, codemodetest.Name, codemodetest.NewTarget, "~@wip")
}
