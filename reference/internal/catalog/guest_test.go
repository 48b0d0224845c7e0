package catalog

import (
	"crypto/sha256"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGuest: the guest JSON holds the visible compact entries and the
// convenience names, as arrays even when empty, and its key is the JSON's
// sha256; equal catalogs give equal keys, different ones different keys.
func TestGuest(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{}}`)
	build := func(names ...string) *Catalog {
		tools := make([]Tool, len(names))
		for i, n := range names {
			tools[i] = Tool{Name: n, Kind: Core, Description: "d " + n, Parameters: params}
		}
		return Build(tools)
	}
	type guestJSON struct {
		Tools       []Compact     `json:"tools"`
		Convenience []Convenience `json:"convenience"`
	}
	tests := []struct {
		name  string
		cat   *Catalog
		tools []string // ids
		conv  []string // names
	}{
		{name: "empty", cat: Build(nil), tools: []string{}, conv: []string{}},
		{name: "two", cat: build("weather", "search"), tools: []string{"openclaw:core:search", "openclaw:core:weather"}, conv: []string{"weather"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.cat.Guest()
			if g.Key != sha256.Sum256(g.JSON) {
				t.Error("key is not the sha256 of the JSON")
			}
			var got guestJSON
			if err := json.Unmarshal(g.JSON, &got); err != nil {
				t.Fatal(err)
			}
			if got.Tools == nil || got.Convenience == nil {
				t.Errorf("null member in %s", g.JSON)
			}
			ids := []string{}
			for _, e := range got.Tools {
				ids = append(ids, e.ID)
			}
			names := []string{}
			for _, c := range got.Convenience {
				names = append(names, c.Name)
			}
			if diff := cmp.Diff(tt.tools, ids); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.conv, names); diff != "" {
				t.Errorf("convenience (-want +got):\n%s", diff)
			}
		})
	}
	if build("a", "b").Guest().Key != build("a", "b").Guest().Key {
		t.Error("equal catalogs have different keys")
	}
	if build("a", "b").Guest().Key == build("a", "c").Guest().Key {
		t.Error("different catalogs have the same key")
	}
}
