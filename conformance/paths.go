package conformance

import (
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
)

// A rowFilter keeps, for each Scenario Outline selected through the line of
// one of its example rows ("file:outlineLine"), the names of the rows
// selected; an outline selected by its own line runs every row (nil set).
type rowFilter map[string]map[string]bool

var lineSuffix = regexp.MustCompile(`:\d+$`)

// featureFile strips a ":line" selection from a pickle's uri.
func featureFile(uri string) string { return lineSuffix.ReplaceAllString(uri, "") }

// selectRows checks the selected paths and turns the line of an example row,
// which godog cannot select, into its outline's line plus a row filter, so
// that the "file:line" a report prints always selects that one scenario.
func selectRows(index *FeatureIndex, fsys fs.FS, selected []string) ([]string, rowFilter, error) {
	if len(selected) == 0 {
		return []string{"."}, nil, nil
	}
	filter := rowFilter{}
	whole := map[string]bool{}
	var paths []string
	for _, p := range selected {
		file, line, hasLine := strings.Cut(p, ":")
		if _, err := fs.Stat(fsys, file); err != nil {
			return nil, nil, fmt.Errorf("conformance: path %q: no such feature file or directory", p)
		}
		if hasLine {
			if _, err := strconv.Atoi(line); err != nil {
				return nil, nil, fmt.Errorf("conformance: path %q: the line must be a number", p)
			}
		}
		row, isRow := index.rows[p]
		if !isRow {
			paths = append(paths, p)
			whole[p] = true
			continue
		}
		outline := fmt.Sprintf("%s:%d", file, row.outline)
		if filter[outline] == nil {
			filter[outline] = map[string]bool{}
			paths = append(paths, outline)
		}
		filter[outline][row.Name] = true
	}
	for outline := range filter {
		if whole[outline] {
			delete(filter, outline) // the outline itself is selected too
		}
	}
	return paths, filter, nil
}

// skips reports whether the pickle is a row the filter leaves out.
func (f rowFilter) skips(index *FeatureIndex, uri, name string) bool {
	if len(f) == 0 {
		return false
	}
	info, ok := index.bySource[featureFile(uri)+"\x00"+name]
	if !ok || info.outline == 0 {
		return false
	}
	rows, ok := f[fmt.Sprintf("%s:%d", info.Feature, info.outline)]
	return ok && !rows[name]
}
