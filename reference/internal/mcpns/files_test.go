package mcpns

import (
	"testing"

	"github.com/codemodekit/kit/reference/internal/jsjson"
	"github.com/google/go-cmp/cmp"
)

func TestModel_Files(t *testing.T) {
	type fileView struct {
		Path, Description string
		Bytes             int
	}
	tests := []struct {
		name    string
		servers []Server
		want    []fileView
	}{
		{name: "no server", want: nil},
		{
			name:    "github",
			servers: githubServers(),
			want: []fileView{
				{"mcp/index.d.ts", "Root MCP namespace declaration and server list.", 267},
				{"mcp/github.d.ts", "MCP server declaration for github.", 1614},
			},
		},
		{
			name:    "server order and configured names",
			servers: docsServers(),
			want: []fileView{
				{"mcp/index.d.ts", "Root MCP namespace declaration and server list.", 0},
				{"mcp/chromeDevtools.d.ts", "MCP server declaration for chrome-devtools.", 0},
				{"mcp/constructor2.d.ts", "MCP server declaration for constructor.", 0},
				{"mcp/docs.d.ts", "MCP server declaration for docs.", 0},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Build(tt.servers)
			files := m.Files()
			var got []fileView
			for i, f := range files {
				if f.Bytes != len([]byte(f.Content)) {
					t.Errorf("%s: Bytes = %d, want %d", f.Path, f.Bytes, len(f.Content))
				}
				want := m.IndexFile()
				if i > 0 {
					want = m.ServerFile(m.Servers[i-1].Identifier)
				}
				if f.Content != want {
					t.Errorf("%s: content differs from the rendered declaration", f.Path)
				}
				v := fileView{f.Path, f.Description, f.Bytes}
				if tt.want[i].Bytes == 0 {
					v.Bytes = 0
				}
				got = append(got, v)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Files() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModel_Files_utf8Bytes(t *testing.T) {
	m := Build([]Server{{Name: "s", Owner: "s", Tools: []Tool{{Name: "t", Description: "héllo 😀"}}}})
	f := m.Files()[1]
	if f.Bytes != len(f.Content) || f.Bytes == jsjson.UTF16Len(f.Content) {
		t.Errorf("Bytes = %d, want the UTF-8 length %d (not the UTF-16 length %d)", f.Bytes, len(f.Content), jsjson.UTF16Len(f.Content))
	}
}
