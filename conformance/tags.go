package conformance

import "strings"

// tagsMatch reports whether a scenario with tags is selected by a godog tag
// filter: alternatives separated by ",", each a conjunction of @tag and
// ~@tag terms joined by "&&" (godog's form, matched as godog matches it).
// The empty filter selects everything.
func tagsMatch(filter string, tags []string) bool {
	if filter == "" {
		return true
	}
	has := func(name string) bool {
		for _, t := range tags {
			if strings.ReplaceAll(t, "@", "") == name {
				return true
			}
		}
		return false
	}
	for _, alt := range strings.Split(filter, ",") {
		ok := len(alt) > 0
		for _, term := range strings.Split(alt, "&&") {
			term = strings.ReplaceAll(strings.TrimSpace(term), "@", "")
			if term == "" {
				ok = false
				continue
			}
			if term[0] == '~' {
				ok = ok && !has(term[1:])
			} else {
				ok = ok && has(term)
			}
		}
		if ok {
			return true
		}
	}
	return false
}
