// Package mutation applies source mutants and keeps their score: the
// mutants come from an existing mutation tool (gremlins, in its dry-run
// mode, which finds them), and this package applies one at a time as a
// build overlay, so that the conformance suite, not a package's unit
// tests, is the oracle that must notice it.
package mutation

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
)

// A Mutant is one change of one token: gremlins' mutation type at a
// position of a Go file.
type Mutant struct {
	Package string `json:"package"` // the directory, relative to the module root
	File    string `json:"file"`    // the file name within Package
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Type    string `json:"type"` // gremlins' name, e.g. CONDITIONALS_NEGATION
}

// ID names a mutant in reports and in the list of equivalent mutants.
func (m Mutant) ID() string {
	return fmt.Sprintf("%s/%s:%d:%d %s", m.Package, m.File, m.Line, m.Column, m.Type)
}

// replacements maps, per mutation type, a token to what the mutant
// writes instead: the operators of gremlins' default mutation types.
var replacements = map[string]map[token.Token]string{
	"ARITHMETIC_BASE":       {token.ADD: "-", token.SUB: "+", token.MUL: "/", token.QUO: "*", token.REM: "*"},
	"CONDITIONALS_BOUNDARY": {token.LSS: "<=", token.LEQ: "<", token.GTR: ">=", token.GEQ: ">"},
	"CONDITIONALS_NEGATION": {token.EQL: "!=", token.NEQ: "==", token.LSS: ">=", token.LEQ: ">", token.GTR: "<=", token.GEQ: "<"},
	"INCREMENT_DECREMENT":   {token.INC: "--", token.DEC: "++"},
	"INVERT_NEGATIVES":      {token.SUB: "+"},
	"INVERT_LOGICAL":        {token.LAND: "||", token.LOR: "&&"},
}

// Apply returns src with the mutant applied: the operator token that
// starts at the mutant's line and column replaced. It fails when no token
// of the mutant's type starts there.
func (m Mutant) Apply(src []byte) ([]byte, error) {
	repl, ok := replacements[m.Type]
	if !ok {
		return nil, fmt.Errorf("%s: mutation type %s is not supported", m.ID(), m.Type)
	}
	fset := token.NewFileSet()
	f := fset.AddFile(m.File, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, 0)
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			return nil, fmt.Errorf("%s: no %s operator at that position", m.ID(), m.Type)
		}
		p := fset.Position(pos)
		if p.Line != m.Line || p.Column != m.Column {
			continue
		}
		to, ok := repl[tok]
		if !ok {
			return nil, fmt.Errorf("%s: the token there is %s, which %s does not change", m.ID(), tok, m.Type)
		}
		off := p.Offset
		from := tok.String()
		if !bytes.HasPrefix(src[off:], []byte(from)) {
			return nil, fmt.Errorf("%s: source does not hold %q at that position", m.ID(), from)
		}
		out := make([]byte, 0, len(src)+1)
		out = append(out, src[:off]...)
		out = append(out, to...)
		return append(out, src[off+len(from):]...), nil
	}
}
