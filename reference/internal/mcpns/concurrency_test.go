package mcpns

import (
	"encoding/json"
	"sync"
	"testing"
)

// TestModel_concurrentUse runs every read operation of one model from
// several goroutines; with -race it proves the model is read-only after
// Build.
func TestModel_concurrentUse(t *testing.T) {
	m := Build(append(githubServers(), docsServers()...))
	want := m.ServerFile("github")
	n := 16
	if testing.Short() {
		n = 4
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for range 20 {
				if m.ServerFile("github") != want {
					t.Error("ServerFile changed between calls")
				}
				_ = m.Files()
				_ = m.RootAPI()
				_, _ = m.ServerAPI("docs", "", true)
				_, _ = json.Marshal(m.Guest())
				_ = m.Prompt()
				e, err := m.Resolve("github.listIssues")
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := PrepareInput(e, []json.RawMessage{json.RawMessage(`{"state":"open"}`)}, 1); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}
