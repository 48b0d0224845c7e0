package cell

// This file holds the Turn: what the cell knows of the agent run that exec
// and wait calls belong to, the guest configuration it builds from it, and
// the counters it reports in telemetry.

import (
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
	"github.com/codemodekit/kit/reference/internal/guest"
)

// A Turn is the agent run that exec and wait calls belong to, as the cell
// sees it: values the host resolves once, when code mode activates, and
// the Host it calls back. The cell only reads the values; a stored run
// keeps the Turn of the exec that started it. A Turn must not be copied
// after first use.
type Turn struct {
	Scope Scope
	// Settings are the run's tools.codeMode settings: the limits the cell
	// enforces, and the guest's maxOutputBytes.
	Settings config.Settings
	Catalog  *catalog.Catalog
	// ReplaySafe holds the catalog ids of the tools whose calls may be
	// replayed after a restart (openclaw-source tools marked replay-safe).
	ReplaySafe map[string]bool
	// VisibleTools are the model-visible tool names telemetry reports.
	VisibleTools []string
	// APIFiles, Namespaces (the MCP global) and Swarm are the guest
	// configuration every run of the turn shares; the cell adds
	// maxOutputBytes and the run's own namespace scopes (Host.Scopes).
	APIFiles   []guest.APIFile
	Namespaces []guest.Namespace
	Swarm      *guest.Swarm
	Host       Host
	// View, when set, is how the guest sees catalog entries instead of
	// code mode's tools API: a tool_search_code run (SPEC.md chapter 24).
	View *View

	counts [3]atomic.Int64 // search, describe, call

	// plain is the guest configuration of a run without namespace scopes
	// of its own, made once: every such run shares the bytes, which the
	// VM pool compares and nobody changes.
	plain struct {
		once sync.Once
		raw  []byte
		err  error
	}
}

// A View is how a run's guest sees the catalog when it is not code mode's
// tools API: the entries its search and call results carry, describe's
// result, the recovery sentence of an unknown id, and the guest catalog
// its VM installs.
type View struct {
	Compact  func(catalog.Entry) any
	Describe func(catalog.Entry) any
	Recovery string
	Guest    catalog.GuestCatalog
}

// compact is e as the guest's search and call results carry it.
func (t *Turn) compact(e catalog.Entry) any {
	if t.View != nil {
		return t.View.Compact(e)
	}
	return e.Compact()
}

// describe is tools.describe's result for e.
func (t *Turn) describe(e catalog.Entry) any {
	if t.View != nil {
		return t.View.Describe(e)
	}
	return e.Describe()
}

// lookup resolves a guest-supplied id.
func (t *Turn) lookup(id string) (catalog.Entry, error) {
	if t.View != nil {
		return t.Catalog.LookupFor(id, t.View.Recovery)
	}
	return t.Catalog.Lookup(id)
}

// guestCatalog is the catalog part of the guest's globals.
func (t *Turn) guestCatalog() catalog.GuestCatalog {
	if t.View != nil {
		return t.View.Guest
	}
	return t.Catalog.Guest()
}

// Counts returns the search, describe and call counters.
func (t *Turn) Counts() (search, describe, call int) {
	return int(t.counts[countSearch].Load()), int(t.counts[countDescribe].Load()), int(t.counts[countCall].Load())
}

// Counter indexes.
const (
	countSearch = iota
	countDescribe
	countCall
)

// Count bumps the search, describe or call counter of the turn's
// telemetry; any method but search and describe counts as a call.
func (t *Turn) Count(method string) {
	switch method {
	case guest.MethodSearch:
		t.counts[countSearch].Add(1)
	case guest.MethodDescribe:
		t.counts[countDescribe].Add(1)
	default:
		t.counts[countCall].Add(1)
	}
}

// telemetry is what every result of the turn reports (SPEC.md chapter 20).
func (t *Turn) telemetry() Telemetry {
	o, m, c := t.Catalog.Counts()
	return Telemetry{CatalogSize: len(t.Catalog.Entries), Sources: Sources{OpenClaw: o, MCP: m, Client: c},
		SearchCount: int(t.counts[countSearch].Load()), DescribeCount: int(t.counts[countDescribe].Load()),
		CallCount: int(t.counts[countCall].Load()), VisibleTools: t.VisibleTools}
}

// guestConfig is the JSON the controller's configure step installs for a
// run with the namespace scopes given (SPEC.md chapter 10): everything but
// ALL_TOOLS and the tools object, which come from the catalog's own JSON.
// A run without scopes of its own shares the turn's one copy.
func (t *Turn) guestConfig(scopes []guest.Namespace) ([]byte, error) {
	if len(scopes) > 0 {
		return t.encodeConfig(scopes)
	}
	p := &t.plain
	p.once.Do(func() { p.raw, p.err = t.encodeConfig(nil) })
	return p.raw, p.err
}

func (t *Turn) encodeConfig(scopes []guest.Namespace) ([]byte, error) {
	files := t.APIFiles
	if files == nil {
		files = []guest.APIFile{}
	}
	namespaces := make([]guest.Namespace, 0, len(t.Namespaces)+len(scopes))
	namespaces = append(append(namespaces, t.Namespaces...), scopes...)
	return json.Marshal(guest.Config{MaxOutputBytes: t.Settings.MaxOutputBytes, APIFiles: files,
		Namespaces: namespaces, Swarm: t.Swarm})
}
