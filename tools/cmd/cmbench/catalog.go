package main

import (
	"fmt"
	"strings"
)

// genTool is one tool of a generated catalog.
type genTool struct {
	Name, Label, Description, Parameters string
}

var (
	genVerbs  = []string{"get", "list", "create", "update", "delete", "search", "export", "import", "sync", "archive", "render", "check"}
	genNouns  = []string{"invoice", "ticket", "calendar", "weather", "forecast", "repository", "message", "contact", "report", "playlist", "order", "sensor", "document", "flight", "budget"}
	genTopics = []string{"billing", "support", "travel", "climate", "engineering", "sales", "music", "logistics", "finance", "home automation"}
)

// genCatalog returns n deterministic tools. The names are unique; the
// search query of the search workloads matches the nouns weather and
// forecast and the word city, which four tools in five mention, so every
// catalog of ten or more tools has at least eight hits.
func genCatalog(n int) []genTool {
	out := make([]genTool, n)
	for i := range n {
		verb := genVerbs[i%len(genVerbs)]
		noun := genNouns[(i/len(genVerbs))%len(genNouns)]
		topic := genTopics[i%len(genTopics)]
		where := "Works for any city or region."
		if i%5 == 4 {
			where = "Works account-wide."
		}
		out[i] = genTool{
			Name:        fmt.Sprintf("%s_%s_%d", verb, noun, i),
			Label:       strings.ToUpper(verb[:1]) + verb[1:] + " " + noun,
			Description: fmt.Sprintf("%s %s records for the %s team. %s Returns at most 50 items per page.", strings.ToUpper(verb[:1])+verb[1:], noun, topic, where),
			Parameters:  `{"type":"object","properties":{"query":{"type":"string","description":"Free-text filter"},"limit":{"type":"integer","description":"Page size"}}}`,
		}
	}
	return out
}

// nodeCatalog is the same catalog as ALL_TOOLS-like compact entries for
// the Node harness (OpenClaw's compact entry: id, source, name, label,
// description, input hint), noop first as in the reference's turn.
func nodeCatalog(n int) []map[string]string {
	entry := func(name, label, desc string) map[string]string {
		return map[string]string{"id": "openclaw:core:" + name, "source": "openclaw", "sourceName": "core", "name": name,
			"label": label, "description": desc, "input": "{ query?: string; limit?: number }"}
	}
	out := []map[string]string{entry("noop", "noop", "Returns at once.")}
	for _, g := range genCatalog(n) {
		out = append(out, entry(g.Name, g.Label, g.Description))
	}
	return out
}
