// Package repo finds the repository the tools run in.
package repo

import (
	"errors"
	"os"
	"path/filepath"
)

// Root returns the directory of the go.work file at or above the working
// directory: the repository's root.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.work above the working directory: run inside the repository")
		}
		dir = parent
	}
}
