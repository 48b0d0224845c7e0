package openclaw

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
)

// nameMember matches a "name" member of a JSON object.
var nameMember = regexp.MustCompile(`"name"\s*:\s*"([A-Za-z0-9_.\-]+)"`)

// KnownToolNames returns every "name" member in the .json and .feature
// files of fsyss (the tool catalogs and the features): the names the
// fixture plugin declares up front, so that scenarios with different
// tools share a gateway. Extra names cost nothing: the plugin's factory
// returns no tool for a name the running scenario lacks.
func KnownToolNames(fsyss ...fs.FS) ([]string, error) {
	return knownMembers(nameMember, fsyss...)
}

// knownMembers returns the sorted, distinct first submatches of re in the
// .json and .feature files of fsyss.
func knownMembers(re *regexp.Regexp, fsyss ...fs.FS) ([]string, error) {
	var out []string
	for _, fsys := range fsyss {
		err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".feature")) {
				return err
			}
			b, err := fs.ReadFile(fsys, path)
			if err != nil {
				return err
			}
			for _, m := range re.FindAllSubmatch(b, -1) {
				out = append(out, string(m[1]))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
