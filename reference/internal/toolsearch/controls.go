package toolsearch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/config"
)

// Controls answer the Tool Search controls of one run. They are safe for
// concurrent use: the catalog does not change.
type Controls struct {
	Settings config.ToolSearch
	Catalog  *catalog.Catalog
	// Count, when set, counts each search, describe and call (the
	// method names of guest.MethodSearch, MethodDescribe and MethodCall).
	Count func(method string)
}

func (c *Controls) count(method string) {
	if c.Count != nil {
		c.Count(method)
	}
}

// inputError is a request the control refuses; its message is the error
// the model reads.
type inputError string

func (e inputError) Error() string { return string(e) }

// params reads a control's arguments as an object; anything else has no
// members.
func params(args json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || m == nil {
		return map[string]json.RawMessage{}
	}
	return m
}

// isNull reports a member that is absent or JSON null (JavaScript's == null).
func isNull(raw json.RawMessage) bool {
	return raw == nil || string(bytes.TrimSpace(raw)) == "null"
}

func asString(raw json.RawMessage) (string, bool) {
	var s string
	if isNull(raw) || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// limit reads a search limit: absent is the default, a positive integer
// is clamped to maxSearchLimit, anything else is refused.
func (c *Controls) limit(raw json.RawMessage) (int, error) {
	if raw == nil {
		return c.Settings.SearchDefaultLimit, nil
	}
	var n float64
	if json.Unmarshal(raw, &n) != nil || n < 1 || n != math.Trunc(n) || math.IsInf(n, 0) {
		return 0, inputError("limit must be a positive integer.")
	}
	return int(min(n, float64(c.Settings.MaxSearchLimit))), nil
}

type search struct {
	query string
	limit int
}

// Batch request bounds.
const (
	maxBatchQueries    = 16
	maxBatchQueryChars = 512
	maxBatchResults    = 50
	maxBatchQueryBytes = 512
)

// readSearch reads tool_search's request: one query, or a batch.
func (c *Controls) readSearch(p map[string]json.RawMessage) (single *search, batch []search, err error) {
	_, hasQuery := p["query"]
	_, hasQueries := p["queries"]
	if hasQuery == hasQueries {
		return nil, nil, inputError("provide exactly one of query or queries.")
	}
	if hasQuery {
		q, ok := asString(p["query"])
		if !ok {
			return nil, nil, inputError("query must be a string.")
		}
		raw := p["limit"]
		if isNull(raw) {
			raw = params(p["options"])["limit"]
		}
		n, err := c.limit(raw)
		if err != nil {
			return nil, nil, err
		}
		return &search{q, n}, nil, nil
	}
	if p["limit"] != nil || p["options"] != nil {
		return nil, nil, inputError("set limit on each batch query, not on the batch request.")
	}
	var items []json.RawMessage
	if json.Unmarshal(p["queries"], &items) != nil || len(items) == 0 {
		return nil, nil, inputError("queries must be a non-empty array.")
	}
	if len(items) > maxBatchQueries {
		return nil, nil, inputError(fmt.Sprintf("queries may contain at most %d entries.", maxBatchQueries))
	}
	total := 0
	var queries []string
	for i, item := range items {
		var obj map[string]json.RawMessage
		if json.Unmarshal(item, &obj) != nil || obj == nil {
			return nil, nil, inputError(fmt.Sprintf("queries[%d] must be an object.", i))
		}
		q, ok := asString(obj["query"])
		q = strings.TrimFunc(q, isJSSpace)
		if !ok || q == "" {
			return nil, nil, inputError(fmt.Sprintf("queries[%d].query must be a non-empty string.", i))
		}
		if graphemes(q) > maxBatchQueryChars {
			return nil, nil, inputError(fmt.Sprintf("queries[%d].query must not exceed %d characters.", i, maxBatchQueryChars))
		}
		n, err := c.limit(obj["limit"])
		if err != nil {
			return nil, nil, inputError(fmt.Sprintf("queries[%d].%s", i, err))
		}
		batch = append(batch, search{q, n})
		total += n
		queries = append(queries, q)
	}
	if total > maxBatchResults {
		return nil, nil, inputError(fmt.Sprintf("batch queries resolve to %d results, but may request at most %d in total. An omitted limit counts as %d; set smaller per-query limits and retry.", total, maxBatchResults, c.Settings.SearchDefaultLimit))
	}
	if b, _ := json.Marshal(queries); len(b) > maxBatchQueryBytes {
		return nil, nil, inputError(fmt.Sprintf("serialized batch query text may use at most %d UTF-8 bytes.", maxBatchQueryBytes))
	}
	return nil, batch, nil
}

// graphemes approximates a string's grapheme count by its code points.
func graphemes(s string) int { return len([]rune(s)) }

// find runs one ranked search.
func (c *Controls) find(s search) []Entry {
	c.count("search")
	hits := c.Catalog.Search(s.query, s.limit)
	out := make([]Entry, len(hits))
	for i, e := range hits {
		out[i] = Compact(e)
	}
	return out
}

// Search answers tool_search.
func (c *Controls) Search(args json.RawMessage) Result {
	single, batch, err := c.readSearch(params(args))
	if err != nil {
		return failed(SearchName, err.Error())
	}
	if single != nil {
		return result(c.find(*single))
	}
	groups := make([]batchGroup, len(batch))
	for i, s := range batch {
		groups[i] = batchGroup{Query: s.query, Candidates: c.find(s)}
	}
	return result(boundBatch(groups))
}

// readID reads the id a control names: id, toolId or name.
func readID(p map[string]json.RawMessage) (string, error) {
	raw := p["id"]
	for _, k := range []string{"toolId", "name"} {
		if isNull(raw) {
			raw = p[k]
		}
	}
	s, ok := asString(raw)
	s = strings.TrimFunc(s, isJSSpace)
	if !ok || s == "" {
		return "", inputError("id must be a non-empty string.")
	}
	return s, nil
}

// lookup resolves id in the catalog, MCP entries included.
func (c *Controls) lookup(id string) (catalog.Entry, error) {
	return c.Catalog.LookupFor(id, catalog.ToolSearchRecovery)
}

// Describe answers tool_describe.
func (c *Controls) Describe(args json.RawMessage) Result {
	id, err := readID(params(args))
	if err != nil {
		return failed(DescribeName, err.Error())
	}
	c.count("describe")
	e, err := c.lookup(id)
	if err != nil {
		return failed(DescribeName, err.Error())
	}
	return result(Describe(e))
}

// A Call is the tool call a tool_call request names.
type Call struct {
	Entry catalog.Entry
	Input json.RawMessage
}

// ReadCall reads tool_call's request: the target and its input. A failed
// result reports a request the control refuses.
func (c *Controls) ReadCall(args json.RawMessage) (Call, *Result) {
	id, input, err := c.readCall(params(args))
	if err == nil {
		var e catalog.Entry
		if e, err = c.lookup(id); err == nil {
			c.count("call")
			return Call{Entry: e, Input: input}, nil
		}
	}
	r := failed(CallName, err.Error())
	return Call{}, &r
}

func (c *Controls) readCall(p map[string]json.RawMessage) (string, json.RawMessage, error) {
	dotted := map[string]json.RawMessage{}
	for k, v := range p {
		if strings.HasPrefix(k, "args.") && len(k) > 5 {
			dotted[k[5:]] = v
		}
	}
	nested := p["args"]
	if isNull(nested) {
		nested = p["input"]
	}
	if !isNull(nested) {
		id, err := readID(p)
		if err != nil {
			return "", nil, err
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(nested, &obj) != nil || obj == nil {
			return id, nested, nil
		}
		for k, v := range obj {
			dotted[k] = v
		}
		b, _ := json.Marshal(dotted)
		return id, b, nil
	}
	// The flattened form: a selector member that names an entry picks the
	// target; the other members are its input.
	selectorKeys := []string{"id", "toolId", "name"}
	var matching []string
	targets := map[string]bool{}
	for _, k := range selectorKeys {
		v, ok := asString(p[k])
		if !ok {
			continue
		}
		found := false
		for _, e := range c.Catalog.Entries {
			if e.ID == v || e.Name == v {
				targets[e.ID], found = true, true
			}
		}
		if found {
			matching = append(matching, k)
		}
	}
	if len(targets) > 1 {
		return "", nil, inputError("Ambiguous tool selectors: pass the target tool id and nest target arguments under args.")
	}
	wrapper := map[string]bool{"args": true, "input": true}
	for _, k := range matching {
		wrapper[k] = true
	}
	selector := ""
	if len(matching) > 0 {
		selector = matching[0]
	} else {
		for _, k := range selectorKeys {
			if !isNull(p[k]) {
				selector = k
				break
			}
		}
		if selector == "" {
			wrapper["id"] = true
		} else {
			wrapper[selector] = true
		}
	}
	var id string
	var err error
	if selector != "" {
		id, err = readID(map[string]json.RawMessage{selector: p[selector]})
	} else {
		id, err = readID(p)
	}
	if err != nil {
		return "", nil, err
	}
	for k, v := range p {
		if !wrapper[k] && !(strings.HasPrefix(k, "args.") && len(k) > 5) {
			dotted[k] = v
		}
	}
	b, _ := json.Marshal(dotted)
	return id, b, nil
}

// called is tool_call's result: the entry and the tool's result.
type called struct {
	Tool   Entry           `json:"tool"`
	Result json.RawMessage `json:"result"`
}

// Called is tool_call's result for a call that returned envelope, the
// {content, details?} object of the tool's result. When the result is
// flagged as an error (kind is its failure kind, FailureKind), the details
// say so with "status": kind after the result, and the tool message is
// flagged too; the text does not change.
func Called(e catalog.Entry, envelope json.RawMessage, kind string) Result {
	r := result(called{Tool: Compact(e), Result: envelope})
	if kind != "" {
		d := result(struct {
			called
			Status string `json:"status"`
		}{called{Tool: Compact(e), Result: envelope}, kind})
		r.Details = d.Details
		r.IsError = true
	}
	return r
}

// CallFailed is tool_call's result for a call that failed with msg.
func CallFailed(msg string) Result { return failed(CallName, msg) }
