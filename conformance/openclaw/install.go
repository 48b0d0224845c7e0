package openclaw

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// InstallDir is where an install of version lives:
// $CODEMODEKIT_OPENCLAW_CACHE, else codemodekit/openclaw/<version> in the
// user's cache directory (scripts/openclaw-install.sh uses the same).
func InstallDir(version string) (string, error) {
	if dir := os.Getenv("CODEMODEKIT_OPENCLAW_CACHE"); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "codemodekit", "openclaw", version), nil
}

// Installed reports whether dir holds a complete install (the script
// writes dir/ok last).
func Installed(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "ok"))
	return err == nil
}

// Install returns the install directory of version, installing it first
// with scripts/openclaw-install.sh of the repository at root (npm registry
// only, the pinned lockfile of fixtures/openclaw/<version>) when it is not
// complete. The script's output goes to log.
func Install(root, version string, log io.Writer) (string, error) {
	dir, err := InstallDir(version)
	if err != nil {
		return "", err
	}
	if Installed(dir) {
		return dir, nil
	}
	cmd := exec.Command(filepath.Join(root, "scripts", "openclaw-install.sh"), version, dir)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("installing openclaw %s: %w", version, err)
	}
	return dir, nil
}
