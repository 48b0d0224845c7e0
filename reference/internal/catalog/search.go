package catalog

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// Search ranking (SPEC.md chapter 12) and unknown-id suggestions (SPEC.md
// section 10.3). Text rules follow ECMAScript: lengths are UTF-16 code
// units, lower-casing is String.prototype.toLowerCase and trimming is
// String.prototype.trim.

var (
	stopwordSet = toSet(Stopwords)
	sWordSet    = toSet(SWords)
	// expansionGroups are the groups of Appendix B.4 with trigger applied to
	// every trigger word and stem to every added word.
	expansionGroups = func() []Expansion {
		out := make([]Expansion, len(Expansions))
		for i, e := range Expansions {
			for _, t := range e.Triggers {
				out[i].Triggers = appendUnique(out[i].Triggers, trigger(t))
			}
			for _, t := range e.Terms {
				out[i].Terms = append(out[i].Terms, Stem(t))
			}
		}
		return out
	}()
)

// toSet returns the set of words.
func toSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// isWordRune reports whether r is in [\p{L}\p{N}_].
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Words returns words(text) of SPEC.md section 12.1: text is split on
// /[^\p{L}\p{N}_]+/u; every piece is emitted lower-cased and, when it has at
// least two matches of /\p{Lu}+s?(?![\p{Ll}])|\p{Lu}?\p{Ll}+|\p{N}+/gu,
// followed by every match lower-cased.
func Words(text string) []string {
	var out []string
	var runes []rune
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) || r == utf8.RuneError && size == 1 {
			i += size
			continue
		}
		start := i
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) || r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		piece := text[start:i]
		out = append(out, jsLower(piece))
		runes = append(runes[:0], []rune(piece)...)
		n := len(out)
		for j := 0; j < len(runes); {
			if end := wordPartAt(runes, j); end > j {
				out = append(out, jsLower(string(runes[j:end])))
				j = end
			} else {
				j++
			}
		}
		if len(out)-n < 2 {
			out = out[:n]
		}
	}
	return out
}

// isLu and isLl report whether r is in \p{Lu} or \p{Ll} (general categories).
func isLu(r rune) bool { return unicode.IsUpper(r) }
func isLl(r rune) bool { return unicode.IsLower(r) }

// wordPartAt returns the end of the match of
// /\p{Lu}+s?(?![\p{Ll}])|\p{Lu}?\p{Ll}+|\p{N}+/u that starts at rs[i], with
// ECMAScript backtracking semantics, or i when none starts there.
func wordPartAt(rs []rune, i int) int {
	n := len(rs)
	ll := func(k int) bool { return k < n && isLl(rs[k]) }
	switch {
	case isLu(rs[i]):
		// \p{Lu}+ is greedy and backtracks one capital at a time; at each
		// length s? first tries to take an "s", then to take nothing.
		j := i
		for j < n && isLu(rs[j]) {
			j++
		}
		for e := j; e > i; e-- {
			if e < n && rs[e] == 's' && !ll(e+1) {
				return e + 1
			}
			if !ll(e) {
				return e
			}
		}
		// \p{Lu}?\p{Ll}+; without the capital it cannot match at a capital.
		if ll(i + 1) {
			k := i + 1
			for ll(k) {
				k++
			}
			return k
		}
	case isLl(rs[i]):
		k := i
		for ll(k) {
			k++
		}
		return k
	case unicode.IsNumber(rs[i]):
		k := i
		for k < n && unicode.IsNumber(rs[k]) {
			k++
		}
		return k
	}
	return i
}

// jsLower lower-cases s like ECMAScript String.prototype.toLowerCase: the
// Unicode default full case mapping, with U+0130 mapped to "i\u0307" and the
// final-sigma rule, never a locale.
func jsLower(s string) string {
	ascii, upper := true, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if c >= 'A' && c <= 'Z' {
			upper = true
		}
	}
	if ascii {
		if !upper {
			return s
		}
		b := []byte(s)
		for i, c := range b {
			if c >= 'A' && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// A WTF-8 lone surrogate (or a stray byte) is kept as it is.
			if _, ok := jsjson.LoneSurrogate(s[i:]); ok {
				size = 3
			}
			b.WriteString(s[i : i+size])
		case r == 0x130:
			b.WriteString("i\u0307")
		case r == 0x3A3:
			if finalSigma(s, i, i+size) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += size
	}
	return b.String()
}

// finalSigma reports whether the capital sigma at s[at:end] is in the
// Final_Sigma context of Unicode: preceded by a cased letter and zero or more
// case-ignorable characters, and not followed by zero or more case-ignorable
// characters and a cased letter.
func finalSigma(s string, at, end int) bool {
	before := false
	for i := at; i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		if isCased(r) {
			before = true
			break
		}
		if !isCaseIgnorable(r) {
			break
		}
	}
	if !before {
		return false
	}
	for i := end; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if isCased(r) {
			return false
		}
		if !isCaseIgnorable(r) {
			break
		}
	}
	return true
}

// isCased reports whether r has the Unicode property Cased.
func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// isCaseIgnorable reports whether r has the Unicode property Case_Ignorable:
// Mn, Me, Cf, Lm, Sk, or Word_Break MidLetter, MidNumLet or Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// isJSSpace reports whether r is removed by String.prototype.trim
// (WhiteSpace and LineTerminator).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x2028, 0x2029, 0xFEFF:
		return true
	}
	return r > 0xFF && unicode.Is(unicode.Zs, r)
}

// jsTrim trims s like ECMAScript String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// stemSuffixes are tried in this order by strip.
var stemSuffixes = []string{"ies", "ing", "ed", "ly", "es", "er", "s", "e"}

// strip is strip(t) of SPEC.md section 12.1.
func strip(t string) string {
	n := jsjson.UTF16Len(t)
	if n <= 3 || sWordSet[t] {
		return t
	}
	for _, suf := range stemSuffixes {
		if !strings.HasSuffix(t, suf) || n-len(suf) < 3 {
			continue
		}
		if suf == "s" && strings.HasSuffix(t, "ss") {
			continue
		}
		base := t[:len(t)-len(suf)]
		switch suf {
		case "ies":
			return base + "y"
		case "ing", "ed", "er":
			return undouble(base)
		}
		return base
	}
	return t
}

// undouble drops the last character of t when the last two characters are
// equal, the last is not one of l, s, f, z, a, e, i, o, u and t is longer
// than 3. Characters are UTF-16 code units, so a doubled character outside
// the BMP is never undoubled.
func undouble(t string) string {
	last, size := utf8.DecodeLastRuneInString(t)
	if last >= 0x10000 || strings.ContainsRune("lsfzaeiou", last) || jsjson.UTF16Len(t) <= 3 {
		return t
	}
	prev, _ := utf8.DecodeLastRuneInString(t[:len(t)-size])
	if prev != last || last == utf8.RuneError {
		return t
	}
	return t[:len(t)-size]
}

// Stem returns stem(t) of SPEC.md section 12.1: strip applied up to three
// times, stopping early when nothing changes.
func Stem(t string) string {
	for range 3 {
		next := strip(t)
		if next == t {
			break
		}
		t = next
	}
	return t
}

// variants is variants(w) of SPEC.md section 12.1.
func variants(w string) []string {
	if jsjson.UTF16Len(w) > 4 && strings.HasSuffix(w, "ies") {
		base := w[:len(w)-3]
		return []string{base + "y", Stem(base + "ie")}
	}
	if s := Stem(w); s != "" {
		return []string{s}
	}
	return nil
}

// trigger is trigger(w) of SPEC.md section 12.1.
func trigger(w string) string {
	if jsjson.UTF16Len(w) > 4 {
		if strings.HasSuffix(w, "ies") {
			return w[:len(w)-3] + "y"
		}
		if strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			return w[:len(w)-1]
		}
	}
	return w
}

// Tokens returns the document terms of text (SPEC.md section 12.1):
// variants(w) for every word w of Words(text) that is not a stopword, in
// order, repetitions included.
func Tokens(text string) []string {
	var out []string
	for _, w := range Words(text) {
		if !stopwordSet[w] {
			out = append(out, variants(w)...)
		}
	}
	return out
}

// paramText is paramText(schema, depth) of SPEC.md section 12.1.
func paramText(schema *jsjson.Value, depth int) string {
	if depth > 4 || schema.Kind != jsjson.Object {
		return ""
	}
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if d := schema.Get("description"); d != nil && d.Kind == jsjson.String {
		add(d.Str)
	}
	if props := schema.Get("properties"); props != nil && props.Kind == jsjson.Object {
		for i := range props.Obj {
			add(props.Obj[i].Key)
			add(paramText(&props.Obj[i].Value, depth+1))
		}
	}
	if items := schema.Get("items"); items != nil {
		add(paramText(items, depth+1))
	}
	return strings.Join(parts, " ")
}

// schemaParamText returns the parameter text of a raw parameter schema.
func schemaParamText(schema json.RawMessage) string {
	if isBlankJSON(schema) {
		return ""
	}
	v, err := jsjson.Parse(schema)
	if err != nil {
		return ""
	}
	return paramText(v, 0)
}

// documentText is the document text of e (SPEC.md section 12.1).
func documentText(e Entry) string {
	parts := []string{e.Name, e.ID, e.Label, e.Description}
	if e.Source == SourceOpenClaw {
		parts = append(parts, schemaParamText(e.Tool.Parameters))
	}
	parts = slices.DeleteFunc(parts, func(s string) bool { return s == "" })
	return strings.Join(parts, " ")
}

// A queryTerm is a query term with its weight: 1 for the caller's words,
// ExpansionWeight for expansion terms.
type queryTerm struct {
	term   string
	weight float64
}

// queryTerms returns the weighted query terms of q (SPEC.md section 12.1):
// the variants of its non-stopword words at weight 1 in first-occurrence
// order, then the stemmed added words of every expansion group whose
// normalised triggers meet the triggers of those words, in group order.
func queryTerms(q string) []queryTerm {
	var words []string
	for _, w := range Words(q) {
		if !stopwordSet[w] {
			words = append(words, w)
		}
	}
	var out []queryTerm
	at := map[string]int{}
	for _, w := range words {
		for _, t := range variants(w) {
			if _, ok := at[t]; !ok {
				at[t] = len(out)
				out = append(out, queryTerm{term: t, weight: 1})
			}
		}
	}
	triggers := map[string]bool{}
	for _, w := range words {
		triggers[trigger(w)] = true
	}
	for _, g := range expansionGroups {
		if !slices.ContainsFunc(g.Triggers, func(t string) bool { return triggers[t] }) {
			continue
		}
		for _, t := range g.Terms {
			if i, ok := at[t]; ok {
				out[i].weight = math.Max(out[i].weight, ExpansionWeight)
				continue
			}
			at[t] = len(out)
			out = append(out, queryTerm{term: t, weight: ExpansionWeight})
		}
	}
	return out
}

// index is the BM25 index of a catalog's non-MCP entries, built once.
type index struct {
	docs     []indexDoc
	postings map[string][]posting // term -> documents containing it, in order
	// exact maps a lower-cased name or id to the documents that have it, in
	// catalog order.
	exact   map[string][]int32
	scratch sync.Pool // *scratch
}

type indexDoc struct {
	entry int // index into Catalog.Entries
	// lengthNorm is 1.2 * (1 - 0.75 + 0.75 * len(D) / avgLen), the document
	// part of the BM25 denominator, rounded as ECMAScript computes it.
	lengthNorm float64
}

type posting struct {
	doc  int32
	freq int32
}

// scratch holds the per-query accumulators of bm25, indexed by document.
type scratch struct {
	score   []float64
	state   []uint8 // docTouched | docLiteral
	touched []int32
}

const (
	docTouched uint8 = 1 << iota
	docLiteral
)

func buildIndex(c *Catalog) *index {
	ix := &index{postings: map[string][]posting{}, exact: map[string][]int32{}}
	total := 0
	var lengths []int
	counts := map[string]int32{}
	var order []string
	for i, e := range c.Entries {
		if !c.searchable(e) {
			continue
		}
		d := int32(len(ix.docs))
		terms := Tokens(documentText(e))
		clear(counts)
		order = order[:0]
		for _, t := range terms {
			if counts[t] == 0 {
				order = append(order, t)
			}
			counts[t]++
		}
		for _, t := range order {
			ix.postings[t] = append(ix.postings[t], posting{doc: d, freq: counts[t]})
		}
		ix.docs = append(ix.docs, indexDoc{entry: i})
		lengths = append(lengths, len(terms))
		lowerName, lowerID := jsLower(e.Name), jsLower(e.ID)
		ix.exact[lowerName] = append(ix.exact[lowerName], d)
		if lowerID != lowerName {
			ix.exact[lowerID] = append(ix.exact[lowerID], d)
		}
		total += len(terms)
	}
	avgLen := 0.0
	if len(ix.docs) > 0 {
		avgLen = float64(total) / float64(len(ix.docs))
	}
	for d, n := range lengths {
		norm := 1.0 // len(D) / avgLen when avgLen is 0
		if avgLen > 0 {
			norm = float64(n) / avgLen
		}
		// The float64 conversions forbid fused multiply-adds.
		ix.docs[d].lengthNorm = float64(1.2 * (float64(1-0.75) + float64(0.75*norm)))
	}
	n := len(ix.docs)
	ix.scratch.New = func() any {
		return &scratch{score: make([]float64, n), state: make([]uint8, n)}
	}
	return ix
}

// searchIndex returns the catalog's index, building it on first use.
func (c *Catalog) searchIndex() *index {
	c.indexOnce.Do(func() { c.ix = buildIndex(c) })
	return c.ix
}

// jsLog is ECMAScript Math.log as V8 computes it: fdlibm's __ieee754_log.
// Go's math.Log is an assembly routine on amd64 whose results differ by one
// ulp for some inputs (math.Log(4.0/3) among them), which changes BM25 sums.
// The float64 conversions forbid fused multiply-adds.
func jsLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 // 3fe62e42 fee00000
		ln2Lo = 1.90821492927058770002e-10 // 3dea39ef 35793c76
		two54 = 1.80143985094819840000e+16 // 43500000 00000000
		lg1   = 6.666666666666735130e-01   // 3FE55555 55555593
		lg2   = 3.999999999940941908e-01   // 3FD99999 9997FA04
		lg3   = 2.857142874366239149e-01   // 3FD24924 94229359
		lg4   = 2.222219843214978396e-01   // 3FCC71C5 1D8E78AF
		lg5   = 1.818357216161805012e-01   // 3FC74664 96CB03DE
		lg6   = 1.531383769920937332e-01   // 3FC39A09 D078C69F
		lg7   = 1.479819860511658591e-01   // 3FC2F112 DF3E5244
	)
	bits := math.Float64bits(x)
	hx, lx := int32(bits>>32), uint32(bits)
	k := int32(0)
	if hx < 0x00100000 { // x < 2**-1022
		switch {
		case hx&0x7fffffff == 0 && lx == 0:
			return math.Inf(-1)
		case hx < 0:
			return math.NaN()
		}
		k -= 54
		x *= two54 // subnormal: scale up
		hx = int32(math.Float64bits(x) >> 32)
	}
	if hx >= 0x7ff00000 {
		return x + x
	}
	k += hx>>20 - 1023
	hx &= 0x000fffff
	i := (hx + 0x95f64) & 0x100000
	// Normalize x or x/2.
	x = math.Float64frombits(uint64(uint32(hx|(i^0x3ff00000)))<<32 | uint64(uint32(math.Float64bits(x))))
	k += i >> 20
	f := x - 1.0
	dk := float64(k)
	if 0x000fffff&(2+hx) < 3 { // |f| < 2**-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			return float64(dk*ln2Hi) + float64(dk*ln2Lo)
		}
		r := float64(f*f) * (0.5 - float64(0.33333333333333333*f))
		if k == 0 {
			return f - r
		}
		return float64(dk*ln2Hi) - ((r - float64(dk*ln2Lo)) - f)
	}
	s := f / (2.0 + f)
	z := s * s
	i = hx - 0x6147a
	w := z * z
	j := 0x6b851 - hx
	t1 := w * (lg2 + float64(w*(lg4+float64(w*lg6))))
	t2 := z * (lg1 + float64(w*(lg3+float64(w*(lg5+float64(w*lg7))))))
	i |= j
	r := t2 + t1
	if i > 0 {
		hfsq := float64(0.5*f) * f
		if k == 0 {
			return f - (hfsq - float64(s*(hfsq+r)))
		}
		return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(dk*ln2Lo))) - f)
	}
	if k == 0 {
		return f - float64(s*(f-r))
	}
	return float64(dk*ln2Hi) - ((float64(s*(f-r)) - float64(dk*ln2Lo)) - f)
}

// A hit is a scored document.
type hit struct {
	doc     int32
	score   float64
	literal bool // matchedLiteral
	exact   bool
}

// bm25 returns the documents with a positive BM25 score for the query terms
// (SPEC.md section 12.2), in no particular order. Each document sums the
// contributions of its terms in query-term order.
func (ix *index) bm25(terms []queryTerm) []hit {
	sc := ix.scratch.Get().(*scratch)
	defer ix.scratch.Put(sc)
	n := float64(len(ix.docs))
	for _, qt := range terms {
		list := ix.postings[qt.term]
		if len(list) == 0 {
			continue
		}
		df := float64(len(list))
		idf := jsLog(1 + (n-df+0.5)/(df+0.5))
		for _, p := range list {
			f := float64(p.freq)
			// (w * (idf * (f * 2.2))) / (f + 1.2 * (1 - 0.75 + 0.75 * norm)),
			// with every operation rounded (no fused multiply-add).
			s := qt.weight * float64(idf*float64(f*2.2)) / (f + ix.docs[p.doc].lengthNorm)
			if sc.state[p.doc] == 0 {
				sc.touched = append(sc.touched, p.doc)
				sc.state[p.doc] = docTouched
			}
			sc.score[p.doc] += s
			if qt.weight >= 1 {
				sc.state[p.doc] |= docLiteral
			}
		}
	}
	hits := make([]hit, 0, len(sc.touched))
	for _, d := range sc.touched {
		if sc.score[d] > 0 {
			hits = append(hits, hit{doc: d, score: sc.score[d], literal: sc.state[d]&docLiteral != 0})
		}
		sc.score[d], sc.state[d] = 0, 0
	}
	sc.touched = sc.touched[:0]
	return hits
}

// Search ranks the non-MCP entries for query and returns at most limit of
// them (SPEC.md chapter 12): exact matches that BM25 did not score first, in
// catalog order, then the entries with a positive score ordered by exact
// match, matched literal, score descending and id. With limit 1 and exactly
// one exact match, that entry alone is returned. A query without usable
// terms and without exact match returns nothing. The index is built on the
// first search and reused.
func (c *Catalog) Search(query string, limit int) []Entry {
	ix := c.searchIndex()
	if limit <= 0 {
		return nil
	}
	exactDocs := ix.exact[jsLower(jsTrim(query))]
	if limit == 1 && len(exactDocs) == 1 {
		return []Entry{c.Entries[ix.docs[exactDocs[0]].entry]}
	}
	hits := ix.bm25(queryTerms(query))
	var docs []int32
	for _, d := range exactDocs {
		scored := false
		for i := range hits {
			if hits[i].doc == d {
				hits[i].exact, scored = true, true
				break
			}
		}
		if !scored {
			docs = append(docs, d)
		}
	}
	less := func(a, b *hit) bool {
		if a.exact != b.exact {
			return a.exact
		}
		if a.literal != b.literal {
			return a.literal
		}
		if a.score != b.score {
			return a.score > b.score
		}
		return c.Entries[ix.docs[a.doc].entry].ID < c.Entries[ix.docs[b.doc].entry].ID
	}
	for _, h := range topHits(hits, limit-len(docs), less) {
		docs = append(docs, h.doc)
	}
	docs = docs[:min(len(docs), limit)]
	out := make([]Entry, len(docs))
	for i, d := range docs {
		out[i] = c.Entries[ix.docs[d].entry]
	}
	return out
}

// topHits returns the k first hits in the order of less, sorted.
func topHits(hits []hit, k int, less func(a, b *hit) bool) []hit {
	if k <= 0 {
		return nil
	}
	top := make([]hit, 0, min(k, len(hits)))
	for i := range hits {
		h := &hits[i]
		if len(top) == k && !less(h, &top[k-1]) {
			continue
		}
		// Insert h after every kept hit that precedes it.
		at, _ := slices.BinarySearchFunc(top, h, func(t hit, h *hit) int {
			if less(h, &t) {
				return 1
			}
			return -1
		})
		if len(top) == k {
			top = top[:k-1]
		}
		top = slices.Insert(top, at, *h)
	}
	return top
}

// lookupTokens is tokens(x) of SPEC.md section 10.3: the distinct non-empty
// parts of lower-cased x split on /[^a-z0-9]+/.
func lookupTokens(x string) map[string]bool {
	out := map[string]bool{}
	for _, t := range strings.FieldsFunc(jsLower(x), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		out[t] = true
	}
	return out
}

// suggestionScore is the score of SPEC.md section 10.3 for needle q and
// entry e.
func suggestionScore(q string, qTokens map[string]bool, e Entry) int {
	lq := jsLower(q)
	name, id := jsLower(e.Name), jsLower(e.ID)
	score := 0
	if name != "" && strings.Contains(lq, name) || strings.Contains(id, lq) {
		score += 40
	}
	if name != "" && qTokens[name] {
		score += 40
	}
	eTokens := lookupTokens(e.Name + " " + e.ID + " " + e.Label + " " + e.Description)
	for t := range qTokens {
		if eTokens[t] {
			score += 12
		}
	}
	if strings.Contains(jsLower(e.Label), lq) || strings.Contains(jsLower(e.Description), lq) {
		score += 8
	}
	return score
}

// maxSuggestions bounds the suggestions of an unknown-id error.
const maxSuggestions = 3

// suggestions returns the suggestions for an unknown needle (SPEC.md
// CM-10.18): non-MCP entries with a positive score, by score descending and
// then suggestion value in code point order, de-duplicated, at most 3. The
// value is the entry's name when no other non-MCP entry has that name, and
// its id otherwise.
func (c *Catalog) suggestions(needle string) []string {
	names := map[string]int{}
	for _, e := range c.Entries {
		if c.searchable(e) {
			names[e.Name]++
		}
	}
	type candidate struct {
		value string
		score int
	}
	qTokens := lookupTokens(needle)
	var cands []candidate
	for _, e := range c.Entries {
		if !c.searchable(e) {
			continue
		}
		s := suggestionScore(needle, qTokens, e)
		if s <= 0 {
			continue
		}
		value := e.Name
		if names[e.Name] > 1 {
			value = e.ID
		}
		cands = append(cands, candidate{value: value, score: s})
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return strings.Compare(a.value, b.value)
	})
	var out []string
	for _, cd := range cands {
		if len(out) == maxSuggestions {
			break
		}
		out = appendUnique(out, cd.value)
	}
	return out
}
