package conformance

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// Exclusions holds, one file per SPEC chapter (exclusions/chNN.txt), the
// clauses no scenario can check, each with the reason:
// "CM-<chapter>.<n> :: <reason>" per line.
//
//go:embed exclusions/*.txt
var Exclusions embed.FS

// LoadExclusions returns every excluded clause id ("CM-8.2") with its
// reason.
func LoadExclusions() (map[string]string, error) {
	files, err := fs.Glob(Exclusions, "exclusions/*.txt")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, name := range files {
		b, err := Exclusions.ReadFile(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			id, reason, ok := strings.Cut(line, " :: ")
			if !ok || !strings.HasPrefix(id, "CM-") || strings.TrimSpace(reason) == "" {
				return nil, fmt.Errorf("%s:%d: want \"CM-x.y :: reason\"", name, n)
			}
			out[id] = strings.TrimSpace(reason)
		}
	}
	return out, nil
}
