package conformance

import (
	"embed"
	"errors"
	"io/fs"
)

// Baselines holds baselines/<target>.txt for every known target.
//
//go:embed baselines/*.txt
var Baselines embed.FS

// LoadBaseline returns the embedded baseline of target, empty when it has none.
func LoadBaseline(target string) (*Baseline, error) {
	b, err := Baselines.ReadFile("baselines/" + target + ".txt")
	if errors.Is(err, fs.ErrNotExist) {
		return &Baseline{Entries: map[string]string{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseBaseline(b)
}
