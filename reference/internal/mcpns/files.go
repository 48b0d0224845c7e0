package mcpns

// A File is one virtual declaration file that API.list and API.read serve
// (SPEC.md section 14.5).
type File struct {
	Path        string
	Description string
	Content     string
	// Bytes is the UTF-8 length of Content.
	Bytes int
}

// Descriptions of the declaration files (CM-14.26).
const (
	indexFileDescription  = "Root MCP namespace declaration and server list."
	serverFileDescription = "MCP server declaration for "
)

// Files returns the MCP declaration files: mcp/index.d.ts, then
// mcp/<identifier>.d.ts for every server in server order (CM-14.26,
// CM-14.27). It returns nil when no server is visible.
func (m *Model) Files() []File {
	if len(m.Servers) == 0 {
		return nil
	}
	files := []File{newFile("mcp/index.d.ts", indexFileDescription, m.IndexFile())}
	for _, s := range m.Servers {
		files = append(files, newFile("mcp/"+s.Identifier+".d.ts", serverFileDescription+s.Name+".", renderServer(s, s.Entries)))
	}
	return files
}

func newFile(path, description, content string) File {
	return File{Path: path, Description: description, Content: content, Bytes: len(content)}
}
