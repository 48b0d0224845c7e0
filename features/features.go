// Package features holds the conformance suite's Gherkin features, one file
// per SPEC.md chapter. It is data; FS is its only symbol.
package features

import "embed"

// FS holds every .feature file at its root.
//
//go:embed *.feature
var FS embed.FS
