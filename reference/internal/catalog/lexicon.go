package catalog

// The search lexicon of SPEC.md Appendix B. The lists are copied from the
// SPEC word for word and in the SPEC's order; TestLexicon_matchesSpec
// compares them with SPEC.md.

// Stopwords are the 59 stopwords of Appendix B.1: query and document words
// equal to one of them are dropped before stemming.
var Stopwords = []string{
	"a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "for", "from",
	"had", "has", "have", "here", "how", "i", "if", "in", "into", "is", "it", "its",
	"me", "my", "no", "not", "of", "on", "or", "our", "so", "that", "the", "their",
	"them", "then", "there", "these", "they", "this", "to", "up", "us", "was", "we",
	"were", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your",
}

// SWords are the s-words of Appendix B.2: words that end in "s" but are not
// plurals, which strip returns unchanged.
var SWords = []string{
	"news", "status", "alias", "canvas", "focus", "bonus", "virus", "atlas", "lens",
	"axis", "basis", "analysis", "gas", "bus", "plus",
}

// An Expansion is a query expansion group of Appendix B.4: when a query
// word, after trigger, equals a trigger word, after trigger, the stems of
// Terms join the query at ExpansionWeight.
type Expansion struct {
	Triggers []string
	Terms    []string
}

// ExpansionWeight is the weight of an expansion term that the query does
// not contain literally; literal query terms weigh 1.
const ExpansionWeight = 0.35

// Expansions are the expansion groups of Appendix B.4, applied in this order.
var Expansions = []Expansion{
	{Triggers: []string{"look", "lookup", "google", "research"}, Terms: []string{"search", "web", "find"}},
	{Triggers: []string{"current", "today", "latest", "now", "recent", "news", "price", "weather"}, Terms: []string{"search", "web"}},
	{Triggers: []string{"url", "link", "page", "article", "site", "website"}, Terms: []string{"fetch", "web", "browse"}},
	{Triggers: []string{"remember", "recall", "memory", "earlier", "previously", "discussed", "decided"}, Terms: []string{"memory", "recall", "history"}},
	{Triggers: []string{"remind", "reminder", "later", "tomorrow", "daily", "weekly", "recurring"}, Terms: []string{"schedule", "automations", "cron", "reminder"}},
	{Triggers: []string{"say", "tell", "reply", "respond", "answer"}, Terms: []string{"message", "send"}},
	{Triggers: []string{"picture", "photo", "meme", "screenshot"}, Terms: []string{"image"}},
	{Triggers: []string{"speak", "say", "voice"}, Terms: []string{"audio", "speech"}},
	{Triggers: []string{"run", "execute", "command", "shell", "terminal"}, Terms: []string{"exec", "process"}},
	{Triggers: []string{"directory", "folder", "path"}, Terms: []string{"file", "list"}},
}
