// Package runtimeaccess gives the reference's own commands a part of a
// codemode.Runtime that the runtime does not export: its cell runner,
// which the replicas of a clustered gateway share (SPEC.md Appendix G).
// Package codemode sets Runner when it is initialized.
package runtimeaccess

import "github.com/codemodekit/kit/reference/internal/cell"

// Runner returns the cell runner of rt, a *codemode.Runtime.
var Runner func(rt any) *cell.Runner
