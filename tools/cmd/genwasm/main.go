// Command genwasm writes reference/quickjswasm/quickjs.wasm from the npm
// package reference/package-lock.json pins: it fetches the tarball with
// npm pack (the user's npm configuration and cache apply), checks the
// lockfile's integrity hash over it, takes package/quickjs.wasm out, checks
// its sha256 against quickjswasm.SHA256 and the version against
// quickjswasm.Version, and only then writes the file.
//
// Usage:
//
//	genwasm [-check] [-root DIR]
//
// -check writes nothing and exits 1 when the embedded file differs from the
// package's. make wasm runs genwasm.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/codemodekit/kit/reference/quickjswasm"
	"github.com/codemodekit/kit/tools/internal/repo"
)

const pkg = "quickjs-wasi"

func main() {
	check := flag.Bool("check", false, "compare the embedded file with the package's instead of writing it")
	root := flag.String("root", "", "the repository (default: the one around the working directory)")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintf(os.Stderr, "genwasm: %v\n", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	if root == "" {
		r, err := repo.Root()
		if err != nil {
			return err
		}
		root = r
	}
	version, integrity, err := pinned(filepath.Join(root, "reference", "package-lock.json"))
	if err != nil {
		return err
	}
	if version != quickjswasm.Version {
		return fmt.Errorf("package-lock.json pins %s %s, quickjswasm.Version is %s: update Version and SHA256 with the lockfile", pkg, version, quickjswasm.Version)
	}
	tgz, err := npmPack(version)
	if err != nil {
		return err
	}
	if err := checkIntegrity(tgz, integrity); err != nil {
		return err
	}
	wasm, err := untar(tgz, "package/quickjs.wasm")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(wasm)
	if got := hex.EncodeToString(sum[:]); got != quickjswasm.SHA256 {
		return fmt.Errorf("%s@%s quickjs.wasm has sha256 %s, quickjswasm.SHA256 is %s", pkg, version, got, quickjswasm.SHA256)
	}
	out := filepath.Join(root, "reference", "quickjswasm", filepath.FromSlash(quickjswasm.Path))
	if check {
		have, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if !bytes.Equal(have, wasm) {
			return fmt.Errorf("%s differs from %s@%s's quickjs.wasm: run make wasm", out, pkg, version)
		}
		fmt.Printf("genwasm: %s is %s@%s's quickjs.wasm\n", out, pkg, version)
		return nil
	}
	if err := os.WriteFile(out, wasm, 0o644); err != nil {
		return err
	}
	fmt.Printf("genwasm: wrote %s (%s@%s, sha256 %s)\n", out, pkg, version, quickjswasm.SHA256)
	return nil
}

// pinned reads the version and integrity of the package from a lockfile.
func pinned(lockfile string) (version, integrity string, err error) {
	b, err := os.ReadFile(lockfile)
	if err != nil {
		return "", "", err
	}
	var l struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return "", "", fmt.Errorf("%s: %w", lockfile, err)
	}
	p, ok := l.Packages["node_modules/"+pkg]
	if !ok || p.Version == "" || p.Integrity == "" {
		return "", "", fmt.Errorf("%s pins no %s with an integrity hash", lockfile, pkg)
	}
	return p.Version, p.Integrity, nil
}

// npmPack fetches the package's tarball with npm pack.
func npmPack(version string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "genwasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", dir, pkg+"@"+version)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	name, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("npm pack %s@%s: %w", pkg, version, err)
	}
	return os.ReadFile(filepath.Join(dir, strings.TrimSpace(string(name))))
}

// checkIntegrity checks a Subresource Integrity value ("sha512-<base64>",
// npm's form) over b.
func checkIntegrity(b []byte, integrity string) error {
	algo, want, ok := strings.Cut(integrity, "-")
	if !ok || algo != "sha512" {
		return fmt.Errorf("integrity %q: want sha512-<base64>", integrity)
	}
	sum := sha512.Sum512(b)
	if got := base64.StdEncoding.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("the %s tarball has integrity sha512-%s, the lockfile pins %s", pkg, got, integrity)
	}
	return nil
}

// untar returns the file name of a gzipped tarball.
func untar(tgz []byte, name string) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("the %s tarball has no %s", pkg, name)
		}
		if err != nil {
			return nil, err
		}
		if h.Name == name {
			return io.ReadAll(io.LimitReader(tr, 64<<20))
		}
	}
}
