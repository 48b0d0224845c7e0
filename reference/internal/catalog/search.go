package catalog

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	stopwordSet = toSet(Stopwords)
	sWordSet    = toSet(SWords)
	expansionOf = func() map[string][]string {
		m := map[string][]string{}
		for _, e := range Expansions {
			for _, t := range e.Triggers {
				m[t] = append(m[t], e.Terms...)
			}
		}
		return m
	}()
)

func toSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// words splits text on every rune that is not a letter, a number or "_".
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_')
	})
}

// wordParts splits one word on underscores, camelCase humps, acronyms and
// digit runs: "getHTTPResponse_v2" -> get, http, response, v, 2.
func wordParts(word string) []string {
	var parts []string
	for _, piece := range strings.Split(word, "_") {
		rs := []rune(piece)
		for i := 0; i < len(rs); {
			r := rs[i]
			j := i + 1
			switch {
			case unicode.IsNumber(r):
				for j < len(rs) && unicode.IsNumber(rs[j]) {
					j++
				}
			case unicode.IsUpper(r):
				for j < len(rs) && unicode.IsUpper(rs[j]) {
					j++
				}
				if j-i > 1 {
					// An acronym run: stop before a capital that starts a
					// lower-case word ("HTTPResponse" -> HTTP, Response),
					// keeping a plural "s" ("URLs").
					if j < len(rs) && unicode.IsLower(rs[j]) {
						if rs[j] == 's' && (j+1 == len(rs) || !unicode.IsLower(rs[j+1])) {
							j++
						} else {
							j--
						}
					}
				} else {
					for j < len(rs) && unicode.IsLower(rs[j]) {
						j++
					}
				}
			case unicode.IsLower(r):
				for j < len(rs) && unicode.IsLower(rs[j]) {
					j++
				}
			default:
				for j < len(rs) && !unicode.IsUpper(rs[j]) && !unicode.IsLower(rs[j]) && !unicode.IsNumber(rs[j]) {
					j++
				}
			}
			parts = append(parts, string(rs[i:j]))
			i = j
		}
	}
	return parts
}

// Tokens returns the stemmed search tokens of text: every word lower-cased,
// plus its parts when it has at least two, without stopwords.
func Tokens(text string) []string {
	var out []string
	for _, w := range words(text) {
		out = appendTerm(out, strings.ToLower(w))
		if parts := wordParts(w); len(parts) >= 2 {
			for _, p := range parts {
				out = appendTerm(out, strings.ToLower(p))
			}
		}
	}
	return out
}

func appendTerm(out []string, w string) []string {
	if w == "" || stopwordSet[w] {
		return out
	}
	return append(out, stems(w)...)
}

// stems returns the stem of w; a word ending in "ies" yields both its "y"
// and its "ie" stems.
func stems(w string) []string {
	if strings.HasSuffix(w, "ies") && utf8.RuneCountInString(w)-3 >= 3 && !sWordSet[w] {
		base := w[:len(w)-3]
		a, b := Stem(base+"y"), Stem(base+"ie")
		if a == b {
			return []string{a}
		}
		return []string{a, b}
	}
	return []string{Stem(w)}
}

var stemSuffixes = []string{"ies", "ing", "ed", "ly", "es", "er", "s", "e"}

// Stem is the light stemmer: up to three passes, each stripping the first
// matching suffix of ies (to y), ing, ed, ly, es, er, s, e when at least
// three runes remain; a doubled final consonant left by ing, ed or er is
// undoubled unless it is l, s, f or z. Words in SWords are kept whole.
func Stem(w string) string {
	if sWordSet[w] {
		return w
	}
	for pass := 0; pass < 3; pass++ {
		changed := false
		for _, suf := range stemSuffixes {
			if !strings.HasSuffix(w, suf) || utf8.RuneCountInString(w)-len(suf) < 3 {
				continue
			}
			base := w[:len(w)-len(suf)]
			if suf == "ies" {
				base += "y"
			}
			if (suf == "ing" || suf == "ed" || suf == "er") && len(base) >= 2 {
				a, b := base[len(base)-2], base[len(base)-1]
				if a == b && isConsonant(b) && !strings.ContainsRune("lsfz", rune(b)) {
					base = base[:len(base)-1]
				}
			}
			w = base
			changed = true
			break
		}
		if !changed || sWordSet[w] {
			break
		}
	}
	return w
}

func isConsonant(b byte) bool {
	return b >= 'a' && b <= 'z' && !strings.ContainsRune("aeiou", rune(b))
}

// BM25 parameters.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// index is the BM25 index of a catalog's guest-visible entries, built once.
type index struct {
	docs   []doc
	df     map[string]int
	avgLen float64
}

type doc struct {
	entry int // index into Catalog.Entries
	tf    map[string]int
	len   int
}

func buildIndex(c *Catalog) *index {
	ix := &index{df: map[string]int{}}
	total := 0
	for i, e := range c.Entries {
		if e.Source == SourceMCP {
			continue
		}
		text := e.Name + " " + e.ID + " " + e.Label + " " + e.Description
		if e.Source == SourceOpenClaw {
			text += " " + paramText(e.Tool.Parameters)
		}
		toks := Tokens(text)
		d := doc{entry: i, tf: map[string]int{}, len: len(toks)}
		for _, t := range toks {
			if d.tf[t] == 0 {
				ix.df[t]++
			}
			d.tf[t]++
		}
		total += len(toks)
		ix.docs = append(ix.docs, d)
	}
	if len(ix.docs) > 0 {
		ix.avgLen = float64(total) / float64(len(ix.docs))
	}
	return ix
}

// paramText collects property names and descriptions of a schema, to depth 4,
// through items, anyOf, oneOf and allOf.
func paramText(schema json.RawMessage) string {
	var node any
	if err := json.Unmarshal(schema, &node); err != nil {
		return ""
	}
	var sb strings.Builder
	var walk func(n any, depth int)
	walk = func(n any, depth int) {
		m, ok := n.(map[string]any)
		if !ok || depth > 4 {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			keys := make([]string, 0, len(props))
			for k := range props {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				sb.WriteString(k)
				sb.WriteByte(' ')
				if pm, ok := props[k].(map[string]any); ok {
					if d, ok := pm["description"].(string); ok {
						sb.WriteString(d)
						sb.WriteByte(' ')
					}
				}
				walk(props[k], depth+1)
			}
		}
		walk(m["items"], depth+1)
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			if vs, ok := m[k].([]any); ok {
				for _, v := range vs {
					walk(v, depth+1)
				}
			}
		}
	}
	walk(node, 0)
	return sb.String()
}

type queryTerm struct {
	term   string
	weight float64
}

func queryTerms(q string) []queryTerm {
	seen := map[string]int{}
	var out []queryTerm
	add := func(t string, w float64) {
		if i, ok := seen[t]; ok {
			if w > out[i].weight {
				out[i].weight = w
			}
			return
		}
		seen[t] = len(out)
		out = append(out, queryTerm{t, w})
	}
	lits := Tokens(q)
	for _, t := range lits {
		add(t, 1)
	}
	for _, w := range words(q) {
		for _, exp := range expansionOf[strings.ToLower(w)] {
			for _, t := range stems(exp) {
				add(t, ExpansionWeight)
			}
		}
	}
	return out
}

type scored struct {
	entry   int
	score   float64
	literal bool
	exact   bool
}

// Search ranks the guest-visible (non-MCP) entries for query and returns at
// most limit of them (SPEC.md chapter 12).
func (c *Catalog) Search(query string, limit int) []Entry {
	c.indexOnce.Do(func() { c.ix = buildIndex(c) })
	ix := c.ix
	trimmed := strings.ToLower(strings.TrimSpace(query))
	isExact := func(e Entry) bool {
		return trimmed != "" && (strings.ToLower(e.Name) == trimmed || strings.ToLower(e.ID) == trimmed)
	}
	terms := queryTerms(query)
	var hits []scored
	inHits := map[int]bool{}
	n := float64(len(ix.docs))
	for _, d := range ix.docs {
		var s float64
		lit := false
		for _, qt := range terms {
			f := float64(d.tf[qt.term])
			if f == 0 {
				continue
			}
			df := float64(ix.df[qt.term])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			norm := 1.0
			if ix.avgLen > 0 {
				norm = 1 - bm25B + bm25B*float64(d.len)/ix.avgLen
			}
			s += qt.weight * idf * (f * (bm25K1 + 1)) / (f + bm25K1*norm)
			if qt.weight == 1 {
				lit = true
			}
		}
		if s > 0 {
			hits = append(hits, scored{entry: d.entry, score: s, literal: lit, exact: isExact(c.Entries[d.entry])})
			inHits[d.entry] = true
		}
	}
	// Exact matches BM25 did not rank (a tool named like a stopword) still
	// come first.
	for _, d := range ix.docs {
		if !inHits[d.entry] && isExact(c.Entries[d.entry]) {
			hits = append(hits, scored{entry: d.entry, exact: true})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.exact != b.exact {
			return a.exact
		}
		if a.literal != b.literal {
			return a.literal
		}
		if a.score != b.score {
			return a.score > b.score
		}
		return c.Entries[a.entry].ID < c.Entries[b.entry].ID
	})
	if limit == 1 {
		exact := 0
		for _, h := range hits {
			if h.exact {
				exact++
			}
		}
		if exact == 1 {
			return []Entry{c.Entries[hits[0].entry]}
		}
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Entry, len(hits))
	for i, h := range hits {
		out[i] = c.Entries[h.entry]
	}
	return out
}
