package isolate

import (
	"context"
	"testing"
	"time"

	"github.com/codemodekit/kit/reference/internal/prepare"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// lastRequest is a handler that keeps the id of the last bridge request.
type lastRequest struct{ id string }

func (l *lastRequest) Request(_, id string, _ []byte) { l.id = id }
func (l *lastRequest) Note(string, string)            {}

// BenchmarkStep measures one delivery of a bridge result and the guest's
// next request, the unit of inline resolution, on a worker (process) and
// on a sandbox in this process (in-process), side by side.
func BenchmarkStep(b *testing.B) {
	p, err := New(context.Background(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	sb, err := sandbox.New(context.Background(), sandbox.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	for _, side := range []struct {
		name string
		g    sandbox.Provider
	}{{"process", p}, {"in-process", sb}} {
		b.Run(side.name, func(b *testing.B) {
			h := &lastRequest{}
			leg, err := side.g.Begin(context.Background(), h)
			if err != nil {
				b.Fatal(err)
			}
			defer leg.Close()
			deadline := time.Now().Add(time.Hour)
			if pf, f := leg.Prepare(`for (;;) await tools.describe("echo")`, prepare.JavaScript, deadline); pf != nil || f != nil {
				b.Fatal(pf, f)
			}
			cfg := []byte(`{"maxOutputBytes":65536,"apiFiles":[],"namespaces":[]}`)
			rep := leg.Start(sandbox.Start{Deadline: deadline, Limits: testLimits, Catalog: testCatalog, Config: cfg, MaxPending: 16})
			b.ResetTimer()
			for range b.N {
				if rep.Fault != nil || h.id == "" {
					b.Fatalf("report %+v, request %q", rep, h.id)
				}
				rep = leg.Step([]sandbox.Settlement{{ID: h.id, OK: true, Payload: `{}`}})
			}
		})
	}
}
