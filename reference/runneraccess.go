package codemode

import (
	"github.com/codemodekit/kit/reference/internal/cell"
	"github.com/codemodekit/kit/reference/internal/runtimeaccess"
)

// The reference's gateway shares a runtime's runner with its other
// replicas; embedders have no use for it, so it is not exported.
func init() {
	runtimeaccess.Runner = func(rt any) *cell.Runner { return rt.(*Runtime).runner }
}
