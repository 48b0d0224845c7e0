package main

import (
	"strings"
	"testing"
)

func TestTagFilter(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tags     string
		profiles []string
		want     string
		err      string
	}{
		{name: "nothing", want: "~@wip"},
		{name: "tags", tags: "@core && ~@security", want: "@core && ~@security && ~@wip"},
		{name: "alternatives", tags: "@a, @b && @c", want: "@a && ~@wip, @b && @c && ~@wip"},
		{name: "one profile", profiles: []string{"core"}, want: "@core && ~@wip"},
		{name: "profiles", profiles: []string{"core", "mcp"}, want: "@core && ~@wip, @mcp && ~@wip"},
		{name: "tags and profiles", tags: "@x, @y", profiles: []string{"core", "mcp"},
			want: "@x && @core && ~@wip, @x && @mcp && ~@wip, @y && @core && ~@wip, @y && @mcp && ~@wip"},
		{name: "parentheses", tags: "(@a)", err: "no parentheses"},
		{name: "or", tags: "@a || @b", err: "no parentheses"},
		{name: "empty alternative", tags: "@a,", err: "empty alternative"},
		{name: "empty tag", tags: "@a && ", err: "empty tag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tagFilter(tc.tags, tc.profiles)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("tagFilter = %q, %v, want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("tagFilter = %q, %v, want %q", got, err, tc.want)
			}
		})
	}
}
