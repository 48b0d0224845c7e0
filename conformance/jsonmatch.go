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
// members than want names; arrays always match element by element.
func matchJSON(want, got any, subset bool) error {
	var problems []string
	matchValue("$", want, got, subset, &problems)
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s\n(-want +got):\n%s", strings.Join(problems, "\n"), cmp.Diff(want, got))
}

func matchValue(path string, want, got any, subset bool, problems *[]string) {
	if s, ok := want.(string); ok {
		switch s {
		case markAny:
			return
		case markString:
			if _, ok := got.(string); !ok {
				*problems = append(*problems, fmt.Sprintf("%s: want a string, got %s", path, show(got)))
			}
			return
		case markNumber:
			if _, ok := got.(json.Number); !ok {
				*problems = append(*problems, fmt.Sprintf("%s: want a number, got %s", path, show(got)))
			}
			return
		case markArray:
			if _, ok := got.([]any); !ok {
				*problems = append(*problems, fmt.Sprintf("%s: want an array, got %s", path, show(got)))
			}
			return
		case markObject:
			if _, ok := got.(map[string]any); !ok {
				*problems = append(*problems, fmt.Sprintf("%s: want an object, got %s", path, show(got)))
			}
			return
		case markRunID:
			if g, ok := got.(string); !ok || !runIDRE.MatchString(g) {
				*problems = append(*problems, fmt.Sprintf("%s: want a run id cm_<uuid v4>, got %s", path, show(got)))
			}
			return
		}
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*problems = append(*problems, fmt.Sprintf("%s: want an object, got %s", path, show(got)))
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
					*problems = append(*problems, fmt.Sprintf("%s.%s: want absent, got %s", path, k, show(gv)))
				}
				continue
			}
			if !present {
				*problems = append(*problems, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			matchValue(path+"."+k, w[k], gv, subset, problems)
		}
		if !subset {
			for k := range g {
				if _, ok := w[k]; !ok {
					*problems = append(*problems, fmt.Sprintf("%s.%s: unexpected member %s", path, k, show(g[k])))
				}
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			*problems = append(*problems, fmt.Sprintf("%s: want an array, got %s", path, show(got)))
			return
		}
		if len(g) != len(w) {
			*problems = append(*problems, fmt.Sprintf("%s: want %d elements, got %d", path, len(w), len(g)))
			return
		}
		for i := range w {
			matchValue(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], subset, problems)
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || !sameNumber(w, g) {
			*problems = append(*problems, fmt.Sprintf("%s: want %s, got %s", path, w, show(got)))
		}
	default:
		if !cmp.Equal(want, got) {
			*problems = append(*problems, fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got)))
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
