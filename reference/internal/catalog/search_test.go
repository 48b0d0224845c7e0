package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestWords(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		// SPEC.md section 12.1 examples.
		{"get_weather", []string{"get_weather", "get", "weather"}},
		{"getHTTPResponse", []string{"gethttpresponse", "get", "http", "response"}},
		{"URLs", []string{"urls"}},
		// Splitting on /[^\p{L}\p{N}_]+/u.
		{"", nil},
		{" -- ", nil},
		{"Read a file.", []string{"read", "a", "file"}},
		{"naïve café", []string{"naïve", "café"}},
		{"東京タワー", []string{"東京タワー"}},
		{"a😀b\u0301c", []string{"a", "b", "c"}},
		// Parts with ECMAScript backtracking.
		{"URLsPage", []string{"urlspage", "urls", "page"}},
		{"ABCsx", []string{"abcsx", "ab", "csx"}},
		{"HTMLParser", []string{"htmlparser", "html", "parser"}},
		{"IDs_list", []string{"ids_list", "ids", "list"}},
		{"iOS", []string{"ios", "i", "os"}},
		{"v2beta10", []string{"v2beta10", "v", "2", "beta", "10"}},
		{"ǅungla", []string{"ǆungla"}},
		{"x²", []string{"x²", "x", "²"}},
		// Lower-casing as String.prototype.toLowerCase.
		{"İstanbul", []string{"i̇stanbul"}},
		{"ΟΔΟΣ", []string{"οδος"}},
		{"ΣΑΣ_x", []string{"σας_x", "σας", "x"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Words(tt.text), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Words(%q) mismatch (-want +got):\n%s", tt.text, diff)
		}
	}
}

func TestStem(t *testing.T) {
	tests := []struct {
		in, want string
		reason   string
	}{
		// SPEC.md chapter 12 note.
		{"reminders", "remind", "s, then er"},
		{"remind", "remind", ""},
		{"running", "run", "ing, then undouble nn"},
		{"run", "run", "length 3"},
		{"news", "news", "s-word"},
		// strip rules.
		{"runs", "run", ""},
		{"status", "status", "s-word"},
		{"process", "process", "ss is not a plural"},
		{"processes", "process", "es"},
		{"categories", "category", "ies"},
		{"ties", "tie", "ies would leave 1 character, es 2: s applies"},
		{"stopped", "stop", "undouble pp"},
		{"added", "add", "remaining length 3 is not undoubled"},
		{"calling", "call", "l stays doubled"},
		{"buzzing", "buzz", "z stays doubled"},
		{"seeing", "see", "remaining length 3"},
		{"quickly", "quick", "ly"},
		{"files", "fil", "es"},
		{"schedule", "schedul", "e"},
		{"automations", "automation", ""},
		{"weather", "weath", "er"},
		{"getter", "get", "er, then undouble tt"},
		{"ieee", "iee", "e"},
		{"aaaing", "aaa", "a is never undoubled"},
		{"get_weather", "get_weath", "the suffix applies to the whole word"},
		{"👍👍ing", "👍👍", "characters are UTF-16 code units"},
		{"décidé", "décidé", "é is not e"},
		{"rereading", "reread", "stops when nothing changes"},
		{"abcdeeee", "abcde", "three passes at most"},
	}
	for _, tt := range tests {
		if got := Stem(tt.in); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestVariantsAndTrigger(t *testing.T) {
	tests := []struct {
		w           string
		wantVariant []string
		wantTrigger string
	}{
		{"policies", []string{"policy", "polici"}, "policy"},
		{"cookies", []string{"cooky", "cooki"}, "cooky"},
		{"ties", []string{"tie"}, "ties"},
		{"files", []string{"fil"}, "file"},
		{"news", []string{"news"}, "news"},
		{"bonus", []string{"bonus"}, "bonu"},
		{"class", []string{"class"}, "class"},
		{"bus", []string{"bus"}, "bus"},
		{"weather", []string{"weath"}, "weather"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.wantVariant, variants(tt.w)); diff != "" {
			t.Errorf("variants(%q) mismatch (-want +got):\n%s", tt.w, diff)
		}
		if got := trigger(tt.w); got != tt.wantTrigger {
			t.Errorf("trigger(%q) = %q, want %q", tt.w, got, tt.wantTrigger)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Read a text file from the workspace.", []string{"read", "text", "fil", "workspac"}},
		{"list_categories", []string{"list_category", "list_categori", "list", "category", "categori"}},
		{"the and of", nil},
		{"Remind me: reminders, reminders", []string{"remind", "remind", "remind"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Tokens(tt.text), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Tokens(%q) mismatch (-want +got):\n%s", tt.text, diff)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		query string
		want  []queryTerm
	}{
		{
			query: "look up the weather",
			want: []queryTerm{
				{"look", 1}, {"weath", 1},
				{"search", ExpansionWeight}, {"web", ExpansionWeight}, {"find", ExpansionWeight},
			},
		},
		{
			query: "reminders",
			want: []queryTerm{
				{"remind", 1},
				{"schedul", ExpansionWeight}, {"automation", ExpansionWeight}, {"cron", ExpansionWeight},
			},
		},
		{
			query: "Web search news",
			want:  []queryTerm{{"web", 1}, {"search", 1}, {"news", 1}},
		},
		{
			query: "open the folders",
			want:  []queryTerm{{"open", 1}, {"fold", 1}, {"fil", ExpansionWeight}, {"list", ExpansionWeight}},
		},
		{
			query: "say it",
			want: []queryTerm{
				{"say", 1},
				{"messag", ExpansionWeight}, {"send", ExpansionWeight},
				{"audio", ExpansionWeight}, {"speech", ExpansionWeight},
			},
		},
		{query: "", want: nil},
		{query: "the of", want: nil},
	}
	for _, tt := range tests {
		got := queryTerms(tt.query)
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(queryTerm{}), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("queryTerms(%q) mismatch (-want +got):\n%s", tt.query, diff)
		}
	}
}

func TestParamText(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{
			name:   "schema order",
			schema: `{"description":"Root.","properties":{"zeta":{"type":"string","description":"Last letter."},"alpha":{"type":"number"}},"items":{"description":"Item."}}`,
			want:   "Root. zeta Last letter. alpha Item.",
		},
		{
			name:   "depth above 4 is empty",
			schema: `{"properties":{"a":{"properties":{"b":{"properties":{"c":{"properties":{"d":{"description":"four","properties":{"e":{"description":"five"}}}}}}}}}}}`,
			want:   "a b c d four e",
		},
		{name: "non-string description", schema: `{"description":7,"properties":{"a":true}}`, want: "a"},
		{name: "tuple items", schema: `{"items":[{"description":"x"}]}`, want: ""},
		{name: "not an object", schema: `[{"description":"x"}]`, want: ""},
		{name: "invalid", schema: `{`, want: ""},
		{name: "absent", schema: ``, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := schemaParamText(json.RawMessage(tt.schema)); got != tt.want {
				t.Errorf("schemaParamText(%s) = %q, want %q", tt.schema, got, tt.want)
			}
		})
	}
}

func TestJSLower(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ABC def", "abc def"},
		{"İ", "i\u0307"},
		{"ΣΑΣ ΣΑΣ", "σας σας"},
		{"Σ", "σ"},
		{"AΣ.", "aς."},
		{"AΣ.b", "aσ.b"},
		{"A'Σ", "a'ς"},
		{"ǅ", "ǆ"},
		{"\xed\xa0\x80A", "\xed\xa0\x80a"},
	}
	for _, tt := range tests {
		if got := jsLower(tt.in); got != tt.want {
			t.Errorf("jsLower(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJSTrim(t *testing.T) {
	tests := []struct{ in, want string }{
		{" \t\n\v\f\r x \u00a0\u2028\u2029\ufeff\u3000", "x"},
		{"\u0085x\u0085", "\u0085x\u0085"},
		{"\u200bx", "\u200bx"},
	}
	for _, tt := range tests {
		if got := jsTrim(tt.in); got != tt.want {
			t.Errorf("jsTrim(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJSLog(t *testing.T) {
	// Values of Math.log in V8 (fdlibm).
	tests := []struct{ in, want float64 }{
		{4.0 / 3, 0.28768207245178085},
		{2, 0.6931471805599453},
		{1, 0},
		{1 + 1.0/(1<<30), 9.313225741817976e-10},
		{1e308, 709.1962086421661},
		{5e-324, -744.4400719213812},
		{0, math.Inf(-1)},
	}
	for _, tt := range tests {
		if got := jsLog(tt.in); got != tt.want {
			t.Errorf("jsLog(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if got := jsLog(-1); !math.IsNaN(got) {
		t.Errorf("jsLog(-1) = %v, want NaN", got)
	}
}

// newTestCatalog returns the catalog the search tests share.
func newTestCatalog() *Catalog {
	core := func(name, description string) Tool { return Tool{Name: name, Description: description, Kind: Core} }
	read := core("read", "Read a text file from the workspace.")
	read.Label = "Read"
	read.Parameters = json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"Workspace-relative file path."},"offset":{"type":"integer"},"limit":{"type":"integer"}}}`)
	weather := core("weather", "Current weather and forecast for a city.")
	weather.Parameters = json.RawMessage(`{"type":"object","required":["city"],"properties":{"city":{"type":"string","description":"City name."}}}`)
	return Build([]Tool{
		core("cron", "Create reminders and recurring jobs."),
		core("exec", "Run a shell command."),
		core("github_issue", "Create a new issue."),
		read,
		core("sheet", "Edit a spreadsheet."),
		core("the", "Stopword-named tool."),
		weather,
		core("web_fetch", "Fetch a URL and return the page text."),
		core("web_search", "Search the web."),
		core("write", "Write content to the workspace."),
		{Name: "send_mail", Description: "Send mail.", Kind: Plugin, Owner: "aaa"},
		core("send_mail", "Send mail."),
		{Name: "create_issue", Description: "Create a GitHub issue.", Kind: MCP, Owner: "github"},
		{Name: "select_file", Description: "Ask the user to pick a file.", Kind: Client, Owner: "app",
			Parameters: json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string"}}}`)},
	})
}

func ids(entries []Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.ID)
	}
	return out
}

func TestCatalog_Search(t *testing.T) {
	c := newTestCatalog()
	tests := []struct {
		name   string
		query  string
		limit  int
		want   []string
		reason string
	}{
		// SPEC.md chapter 12 note.
		{name: "reminders", query: "reminders", limit: 10, want: []string{"openclaw:core:cron"}, reason: "reminders and remind share the stem remind"},
		{name: "remind", query: "remind", limit: 10, want: []string{"openclaw:core:cron"}},
		{name: "running", query: "running", limit: 10, want: []string{"openclaw:core:exec"}, reason: "running and run share the stem run"},
		{name: "run", query: "run", limit: 10, want: []string{"openclaw:core:exec"}},
		{name: "news is not new", query: "news", limit: 10, want: []string{"openclaw:core:web_search", "openclaw:core:web_fetch"}, reason: "only the search and web expansions match; \"Create a new issue\" does not"},
		{name: "read is not spreadsheet", query: "read", limit: 10, want: []string{"openclaw:core:read"}},
		{name: "look up the weather", query: "look up the weather", limit: 10, want: []string{"openclaw:core:weather", "openclaw:core:web_search", "openclaw:core:web_fetch"}, reason: "the literal match first, then the expansion matches by score"},
		// Ordering.
		{name: "MCP entries are never returned", query: "github create issue", limit: 10, want: []string{"openclaw:core:github_issue", "openclaw:core:cron"}},
		{name: "equal scores by id", query: "mail", limit: 10, want: []string{"openclaw:aaa:send_mail", "openclaw:core:send_mail"}, reason: "catalog order puts core first; id order puts aaa first"},
		{name: "expansions only", query: "reply later", limit: 10, want: []string{"openclaw:core:cron", "openclaw:aaa:send_mail", "openclaw:core:send_mail"}},
		{name: "client entries have no parameter text", query: "prompt", limit: 10, want: nil},
		{name: "parameter text", query: "offset", limit: 10, want: []string{"openclaw:core:read"}},
		// Exact matches.
		{name: "exact id", query: " openclaw:core:read ", limit: 3, want: []string{"openclaw:core:read", "openclaw:core:the", "openclaw:core:sheet"}},
		{name: "exact name, case-insensitive", query: "EXEC", limit: 10, want: []string{"openclaw:core:exec"}},
		{name: "unscored exact match", query: "the", limit: 10, want: []string{"openclaw:core:the"}, reason: "the is a stopword"},
		{name: "two exact matches", query: "send_mail", limit: 10, want: []string{"openclaw:aaa:send_mail", "openclaw:core:send_mail"}},
		{name: "MCP name is not an exact match", query: "create_issue", limit: 10, want: []string{"openclaw:core:github_issue", "openclaw:core:cron"}},
		// Limits.
		{name: "limit 1, one exact match", query: "exec", limit: 1, want: []string{"openclaw:core:exec"}},
		{name: "limit 1, two exact matches", query: "send_mail", limit: 1, want: []string{"openclaw:aaa:send_mail"}, reason: "ordinary ordering"},
		{name: "limit 1, no exact match", query: "web", limit: 1, want: []string{"openclaw:core:web_search"}},
		{name: "limit 2", query: "web", limit: 2, want: []string{"openclaw:core:web_search", "openclaw:core:web_fetch"}},
		{name: "limit 0", query: "web", limit: 0, want: nil},
		// No usable term.
		{name: "empty query", query: "", limit: 10, want: nil},
		{name: "separators only", query: " \t-- ", limit: 10, want: nil},
		{name: "stopwords only", query: "of and", limit: 10, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ids(c.Search(tt.query, tt.limit))
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Search(%q, %d) mismatch (-want +got):\n%s%s", tt.query, tt.limit, diff, tt.reason)
			}
		})
	}
}

func TestCatalog_Search_literalBeforeScore(t *testing.T) {
	core := func(name, description string) Tool { return Tool{Name: name, Description: description, Kind: Core} }
	c := Build([]Tool{
		core("say", "Generic tool."),
		core("shout", "Say things loudly, with many extra padding words in this description."),
		core("whisper", "Say things quietly, with many extra padding words in this description."),
		core("tts", "Audio speech synthesis."),
	})
	want := []string{"openclaw:core:say", "openclaw:core:shout", "openclaw:core:whisper", "openclaw:core:tts"}
	if diff := cmp.Diff(want, ids(c.Search("say", 10))); diff != "" {
		t.Errorf("Search(\"say\") mismatch (-want +got):\n%s", diff)
	}
	// The scores of ECMAScript for the same catalog: tts has the highest
	// score but no literal term; say is an exact match with a lower score.
	ix := c.searchIndex()
	got := map[string]float64{}
	for _, h := range ix.bm25(queryTerms("say")) {
		got[c.Entries[ix.docs[h.doc].entry].ID] = h.score
	}
	wantScores := map[string]float64{
		"openclaw:core:say":     0.5442050691023959,
		"openclaw:core:shout":   0.31799934760802645,
		"openclaw:core:whisper": 0.31799934760802645,
		"openclaw:core:tts":     0.9359122836356322,
	}
	if diff := cmp.Diff(wantScores, got); diff != "" {
		t.Errorf("bm25(\"say\") mismatch (-want +got):\n%s", diff)
	}
}

func TestCatalog_Search_scores(t *testing.T) {
	// BM25 sums computed by the ECMAScript formula of SPEC.md section 12.2.
	c := newTestCatalog()
	tests := []struct {
		query string
		want  map[string]float64
	}{
		{"look up the weather", map[string]float64{
			"openclaw:core:weather":    3.41130448375629,
			"openclaw:core:web_search": 2.1612946657852485,
			"openclaw:core:web_fetch":  0.7564734795783746,
		}},
		{"github create issue", map[string]float64{
			"openclaw:core:github_issue": 8.002866401865148,
			"openclaw:core:cron":         1.8552871052596502,
		}},
		{"select file", map[string]float64{
			"client:app:select_file": 5.4542237897205235,
			"openclaw:core:read":     2.0023098569972073,
		}},
	}
	ix := c.searchIndex()
	for _, tt := range tests {
		got := map[string]float64{}
		for _, h := range ix.bm25(queryTerms(tt.query)) {
			got[c.Entries[ix.docs[h.doc].entry].ID] = h.score
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("bm25(%q) mismatch (-want +got):\n%s", tt.query, diff)
		}
	}
}

func TestCatalog_Search_concurrent(t *testing.T) {
	// Concurrent searches share one index and its pooled accumulators; every
	// search must see clean accumulators.
	c := newTestCatalog()
	queries := []string{"look up the weather", "reply later", "mail", "news", "the", "select file"}
	want := make([][]string, len(queries))
	for i, q := range queries {
		want[i] = ids(newTestCatalog().Search(q, 10))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for g := range 8 {
		wg.Go(func() {
			for n := range 60 {
				i := (g + n) % len(queries)
				if diff := cmp.Diff(want[i], ids(c.Search(queries[i], 10))); diff != "" {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("Search(%q) mismatch (-want +got):\n%s", queries[i], diff))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	ix := c.ix
	c.Search("web", 3)
	if c.ix != ix {
		t.Error("Search rebuilt the index; want one index per catalog")
	}
}

func TestCatalog_Lookup(t *testing.T) {
	const recovery = " Use tools.search to find a tool, tools.describe to inspect it, then tools.call with the exact id or name."
	core := func(name, description string) Tool { return Tool{Name: name, Description: description, Kind: Core} }
	tests := []struct {
		name    string
		tools   []Tool
		ref     string
		wantID  string
		wantErr string
		reason  string
	}{
		{
			name:    "spec example",
			tools:   []Tool{core("write", "Write content to the workspace."), core("weather", "Current weather."), core("exec", "Run a shell command.")},
			ref:     "file_write",
			wantErr: "Unknown tool id: file_write. Did you mean: write?" + recovery,
			reason:  "write scores 40 + 40 + 12; the others 0",
		},
		{
			name:    "no suggestion",
			tools:   []Tool{core("write", "Write content.")},
			ref:     "zzz",
			wantErr: "Unknown tool id: zzz." + recovery,
		},
		{
			name:   "exact id",
			tools:  []Tool{core("write", "")},
			ref:    " openclaw:core:write ",
			wantID: "openclaw:core:write",
		},
		{
			name:   "unique name",
			tools:  []Tool{core("write", "")},
			ref:    "write",
			wantID: "openclaw:core:write",
		},
		{
			name:    "ambiguous name",
			tools:   []Tool{core("send", ""), {Name: "send", Kind: Plugin, Owner: "mail"}},
			ref:     "send",
			wantErr: "Ambiguous tool name: send; use an exact tool id.",
		},
		{
			name: "scores, values and order",
			tools: []Tool{
				core("send", "Send a message."),
				{Name: "send", Kind: Plugin, Owner: "mail", Description: "Send mail."},
				core("message_read", "Read messages."),
				core("notes", "A message board."),
				core("other", "Unrelated."),
			},
			ref:     "send_message",
			wantErr: "Unknown tool id: send_message. Did you mean: openclaw:core:send, openclaw:mail:send, message_read?" + recovery,
			reason:  "the two sends score 40+40+24 and 40+40+12 and go by id; message_read and notes score 12",
		},
		{
			name: "at most three, by score then value",
			tools: []Tool{
				core("alpha", "mail"), core("beta", "mail"), core("gamma", "mail"), core("delta", "mail"),
			},
			ref:     "mail",
			wantErr: "Unknown tool id: mail. Did you mean: alpha, beta, delta?" + recovery,
			reason:  "every entry scores 12 + 8",
		},
		{
			name: "label and description contain the needle",
			tools: []Tool{
				{Name: "x", Label: "Big Mail Tool", Kind: Core},
				{Name: "y", Description: "bigmail", Kind: Core},
			},
			ref:     "MAIL",
			wantErr: "Unknown tool id: MAIL. Did you mean: x, y?" + recovery,
			reason:  "x: token mail 12 + label 8; y: description contains mail, 8",
		},
		{
			name: "de-duplicated values",
			tools: []Tool{
				core("a", "x"),
				{Name: "a", Kind: Plugin, Owner: "p", Description: "x"},
				core("openclaw:core:a", "x"),
			},
			ref:     "openclaw:core",
			wantErr: "Unknown tool id: openclaw:core. Did you mean: openclaw:core:a, openclaw:p:a?" + recovery,
			reason:  "the core a and the tool named openclaw:core:a both suggest openclaw:core:a",
		},
		{
			name:    "MCP entries are not suggested",
			tools:   []Tool{{Name: "create_issue", Kind: MCP, Owner: "github", Description: "Create an issue."}},
			ref:     "create_issue",
			wantErr: "Unknown tool id: create_issue." + recovery,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Build(tt.tools).Lookup(tt.ref)
			if tt.wantErr != "" {
				var le *LookupError
				if !errors.As(err, &le) {
					t.Fatalf("Lookup(%q) error = %v, want a *LookupError", tt.ref, err)
				}
				if diff := cmp.Diff(tt.wantErr, le.Message); diff != "" {
					t.Errorf("Lookup(%q) message mismatch (-want +got):\n%s%s", tt.ref, diff, tt.reason)
				}
				return
			}
			if err != nil || e.ID != tt.wantID {
				t.Errorf("Lookup(%q) = %q, %v, want %q", tt.ref, e.ID, err, tt.wantID)
			}
		})
	}
}

// generatedCatalog returns a catalog of n core tools with generated names,
// descriptions and parameter schemas drawn from a fixed vocabulary.
func generatedCatalog(n int) *Catalog {
	verbs := []string{"get", "list", "create", "update", "delete", "search", "send", "read", "write", "fetch", "run", "schedule"}
	nouns := []string{"issue", "file", "message", "calendar", "event", "user", "report", "invoice", "image", "weather", "page", "reminder", "memory", "repository", "channel"}
	words := []string{"quickly", "from", "the", "workspace", "remote", "server", "with", "filters", "for", "current", "project", "history", "and", "records"}
	tools := make([]Tool, n)
	for i := range tools {
		v, o := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		desc := fmt.Sprintf("%s %s %s %s %s %s.", v, o, words[i%len(words)], words[(i*7)%len(words)], words[(i*3)%len(words)], nouns[(i*5)%len(nouns)])
		tools[i] = Tool{
			Name:        fmt.Sprintf("%s_%s_%d", v, o, i),
			Description: desc,
			Kind:        Core,
			Parameters: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"%sId":{"type":"string","description":"The %s id."},"limit":{"type":"integer"}},"required":["%sId"]}`,
				o, o, o)),
		}
	}
	return Build(tools)
}

func BenchmarkSearch(b *testing.B) {
	queries := []string{"look up the weather", "create issue", "send a message to the channel", "list_files_7", "remind me tomorrow"}
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			c := generatedCatalog(n)
			c.Search("warm up", 1) // builds the index once, outside the timing
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				c.Search(queries[i%len(queries)], 8)
				i++
			}
		})
	}
}

func BenchmarkBuildIndex(b *testing.B) {
	c := generatedCatalog(1000)
	b.ReportAllocs()
	for b.Loop() {
		buildIndex(c)
	}
}
