package conformance

import "testing"

func TestTagsMatch(t *testing.T) {
	tags := []string{"@core", "@CM-3.9", "@timing"}
	for _, tc := range []struct {
		filter string
		want   bool
	}{
		{"", true},
		{"@core", true},
		{"@mcp", false},
		{"~@mcp", true},
		{"~@core", false},
		{"@core && ~@wip", true},
		{"@core && ~@timing", false},
		{"@mcp, @CM-3.9", true},
		{"@mcp && ~@wip, @swarm", false},
		{"@core && @CM-3.9 && @timing", true},
		{"~@core && ~@typescript", false},
	} {
		if got := tagsMatch(tc.filter, tags); got != tc.want {
			t.Errorf("tagsMatch(%q, %q) = %v, want %v", tc.filter, tags, got, tc.want)
		}
	}
}
