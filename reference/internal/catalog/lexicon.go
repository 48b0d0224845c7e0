package catalog

// The search lexicon. SPEC.md Appendix B lists these words; the docs check
// compares the two.

// Stopwords are dropped from documents and queries.
var Stopwords = []string{
	"a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
	"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
	"can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further",
	"had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how",
	"i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "might", "more", "most", "must", "my",
	"no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own",
	"please", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them",
	"then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "us",
	"very", "via", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why",
	"will", "with", "would", "you", "your", "yours",
}

// SWords end in "s" but are not plurals; the stemmer leaves them alone.
var SWords = []string{
	"access", "address", "alias", "analysis", "atlas", "basis", "bias", "bonus", "bus", "canvas",
	"chaos", "class", "corpus", "crisis", "diagnosis", "gas", "glass", "kubernetes", "less", "lens",
	"mass", "news", "pass", "process", "progress", "radius", "series", "species", "status", "success",
	"thesis", "various", "virus", "yes",
}

// An Expansion adds related terms, at ExpansionWeight, to queries that
// contain any of its trigger words.
type Expansion struct {
	Triggers []string
	Terms    []string
}

// ExpansionWeight is the BM25 weight of an expansion term; literal query
// terms weigh 1.
const ExpansionWeight = 0.35

// Expansions are the fixed query expansion groups.
var Expansions = []Expansion{
	{Triggers: []string{"look", "lookup", "google", "research"}, Terms: []string{"search", "web", "find"}},
	{Triggers: []string{"current", "today", "latest", "news", "price", "weather"}, Terms: []string{"search", "web"}},
	{Triggers: []string{"file", "document", "contents"}, Terms: []string{"read", "write", "path"}},
	{Triggers: []string{"open", "show", "view", "load"}, Terms: []string{"read", "get"}},
	{Triggers: []string{"save", "store", "create", "put"}, Terms: []string{"write", "add"}},
	{Triggers: []string{"delete", "erase", "drop", "destroy"}, Terms: []string{"remove"}},
	{Triggers: []string{"modify", "change", "patch", "update"}, Terms: []string{"edit", "set"}},
	{Triggers: []string{"run", "command", "shell", "terminal", "bash"}, Terms: []string{"exec", "process"}},
	{Triggers: []string{"message", "chat", "notify", "tell"}, Terms: []string{"send"}},
	{Triggers: []string{"fetch", "download", "url", "http", "page"}, Terms: []string{"web", "get"}},
	{Triggers: []string{"list", "enumerate", "browse"}, Terms: []string{"search", "get"}},
	{Triggers: []string{"remember", "recall", "memory"}, Terms: []string{"note", "search"}},
}
