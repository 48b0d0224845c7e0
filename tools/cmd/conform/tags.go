package main

import (
	"fmt"
	"strings"
)

// tagFilter builds the godog tag filter of a run: the user's expression
// (godog's form: disjuncts separated by ",", each a conjunction of tags and
// ~tags joined by "&&"; no parentheses, no "||"), restricted to any of the
// profiles when some are given, and never @wip. godog has no grouping, so
// the result is the cross product in disjunctive normal form.
func tagFilter(tags string, profiles []string) (string, error) {
	if strings.ContainsAny(tags, "()|!") {
		return "", fmt.Errorf("--tags %q: godog tag filters have no parentheses, || or !: write alternatives as \"@a && @b, @c\" and negation as ~@tag", tags)
	}
	disjuncts := []string{""}
	if strings.TrimSpace(tags) != "" {
		disjuncts = nil
		for _, d := range strings.Split(tags, ",") {
			d = strings.TrimSpace(d)
			if d == "" {
				return "", fmt.Errorf("--tags %q: empty alternative", tags)
			}
			for _, term := range strings.Split(d, "&&") {
				if t := strings.TrimSpace(term); t == "" || t == "~" || t == "@" || t == "~@" {
					return "", fmt.Errorf("--tags %q: empty tag in %q", tags, d)
				}
			}
			disjuncts = append(disjuncts, d)
		}
	}
	var out []string
	for _, d := range disjuncts {
		if len(profiles) == 0 {
			out = append(out, join(d, "~@wip"))
			continue
		}
		for _, p := range profiles {
			out = append(out, join(join(d, "@"+p), "~@wip"))
		}
	}
	return strings.Join(out, ", "), nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + " && " + b
}
