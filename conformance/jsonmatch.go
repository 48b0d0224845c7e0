package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Markers usable inside expected JSON (see STEPS.md).
const (
	markAny    = "<any>"
	markString = "<string>"
	markNumber = "<number>"
	markArray  = "<array>"
	markObject = "<object>"
	markRunID  = "<run-id>"
	markAbsent = "<absent>"
)

var runIDRE = regexp.MustCompile(`^cm_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// decodeJSON parses JSON keeping numbers exact.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

// matchJSON compares got against want. In subset mode objects may have more
// members than want names; arrays always match element by element. A
// failure is a *mismatchError whose first difference is the first in path
// order.
func matchJSON(want, got any, subset bool) error { return matchJSONAt("$", want, got, subset) }

// matchJSONAt is matchJSON for a value found at path (a JSON path such as
// "$.result.details") in what the target gave, so that a difference is
// reported at its full path.
func matchJSONAt(path string, want, got any, subset bool) error {
	var problems []problem
	matchValue(path, want, got, subset, &problems)
	if len(problems) == 0 {
		return nil
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.msg
	}
	return &mismatchError{first: problems[0].at, msg: strings.Join(msgs, "\n"), diff: cmp.Diff(want, got)}
}

// A problem is one difference matchValue found.
type problem struct {
	at  Mismatch
	msg string
}

func addProblem(problems *[]problem, path string, want, got any, format string, args ...any) {
	*problems = append(*problems, problem{at: Mismatch{Path: path, Want: kindOf(want), Got: kindOf(got)}, msg: path + ": " + fmt.Sprintf(format, args...)})
}

// markers are the type markers: the kind each stands for and how a
// failure message says it.
var markers = map[string]struct{ kind, says string }{
	markString: {"string", "a string"},
	markNumber: {"number", "a number"},
	markArray:  {"array", "an array"},
	markObject: {"object", "an object"},
	markRunID:  {"run id", "a run id cm_<uuid v4>"},
}

func matchValue(path string, want, got any, subset bool, problems *[]problem) {
	if s, ok := want.(string); ok && s == markAny {
		return
	}
	if s, ok := want.(string); ok && markers[s].kind != "" {
		var ok bool
		switch s {
		case markString:
			_, ok = got.(string)
		case markNumber:
			_, ok = got.(json.Number)
		case markArray:
			_, ok = got.([]any)
		case markObject:
			_, ok = got.(map[string]any)
		case markRunID:
			g, isString := got.(string)
			ok = isString && runIDRE.MatchString(g)
		}
		if !ok {
			*problems = append(*problems, problem{at: Mismatch{Path: path, Want: markers[s].kind, Got: kindOf(got)},
				msg: fmt.Sprintf("%s: want %s, got %s", path, markers[s].says, show(got))})
		}
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			addProblem(problems, path, w, got, "want an object, got %s", show(got))
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, present := g[k]
			if s, ok := w[k].(string); ok && s == markAbsent {
				if present {
					addProblem(problems, path+"."+k, presence(kindAbsent), presence(kindPresent), "want absent, got %s", show(gv))
				}
				continue
			}
			if !present {
				addProblem(problems, path+"."+k, presence(kindPresent), presence(kindMissing), "missing")
				continue
			}
			matchValue(path+"."+k, w[k], gv, subset, problems)
		}
		if !subset {
			extra := make([]string, 0)
			for k := range g {
				if _, ok := w[k]; !ok {
					extra = append(extra, k)
				}
			}
			sort.Strings(extra)
			for _, k := range extra {
				addProblem(problems, path+"."+k, presence(kindAbsent), presence(kindPresent), "unexpected member %s", show(g[k]))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			addProblem(problems, path, w, got, "want an array, got %s", show(got))
			return
		}
		if len(g) != len(w) {
			addProblem(problems, path+".length", json.Number(fmt.Sprint(len(w))), json.Number(fmt.Sprint(len(g))), "want %d elements, got %d", len(w), len(g))
			return
		}
		for i := range w {
			matchValue(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], subset, problems)
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || !sameNumber(w, g) {
			addProblem(problems, path, w, got, "want %s, got %s", w, show(got))
		}
	default:
		if !cmp.Equal(want, got) {
			addProblem(problems, path, want, got, "want %s, got %s", show(want), show(got))
		}
	}
}

// sameNumber compares JSON numbers by value, so 1 and 1.0 are equal.
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	fa, errA := a.Float64()
	fb, errB := b.Float64()
	return errA == nil && errB == nil && fa == fb
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 400 {
		return string(b[:400]) + "..."
	}
	return string(b)
}

// matchSequence checks that every element of want subset-matches some
// element of got, in the same relative order.
func matchSequence(want, got []any) error {
	i := 0
	for wi, w := range want {
		found := false
		for ; i < len(got); i++ {
			if matchJSON(w, got[i], true) == nil {
				found = true
				i++
				break
			}
		}
		if !found {
			return fmt.Errorf("element %d (%s) has no match in order; got %s", wi, show(w), show(got))
		}
	}
	return nil
}
