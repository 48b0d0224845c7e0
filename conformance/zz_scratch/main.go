package main

import (
	"fmt"
	"os"

	"github.com/codemodekit/kit/conformance"
)

func main() {
	spec, _ := os.ReadFile("../SPEC.md")
	rows, _ := conformance.ParseAppendixA(spec)
	ix, _ := conformance.DefaultIndex()
	b, _ := conformance.LoadBaseline(os.Args[1])
	for _, p := range b.Check(ix, rows) {
		s, _ := ix.Scenario(p.Scenario)
		fmt.Printf("%s:%d\t%s\t%v\n", s.Feature, s.Line, p.Kind, p.Rows)
	}
}
