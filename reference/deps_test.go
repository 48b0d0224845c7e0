package codemode_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// runtimeDeps are the packages outside the standard library the runtime
// may link: its own, the contract's and those of the components it is made
// of. A pattern "p/..." matches p and every package below it; any other
// pattern matches itself only.
var runtimeDeps = []string{
	"github.com/codemodekit/kit/reference",
	"github.com/codemodekit/kit/reference/internal/...",
	"github.com/codemodekit/kit/reference/quickjswasm",
	"github.com/codemodekit/kit/conformance/wire/...",
	"github.com/tetratelabs/wazero/...",
	"github.com/evanw/esbuild/...",
	"github.com/klauspost/compress/...",
	"github.com/santhosh-tekuri/jsonschema/...",
	// mcp-go and what it links
	"github.com/mark3labs/mcp-go/...",
	"github.com/google/jsonschema-go/...",
	"github.com/google/uuid",
	"github.com/spf13/cast/...",
	"github.com/yosida95/uritemplate/...",
	"golang.org/x/sys/...",
	"golang.org/x/text/...",
}

// testOnlyStd are standard packages a shipped binary must not link.
var testOnlyStd = []string{"testing/...", "net/http/httptest"}

// shipped are the binaries the kit ships, each with the packages it may
// link beyond runtimeDeps and the standard library.
var shipped = []struct {
	pkg   string
	allow []string
}{
	{"github.com/codemodekit/kit/reference/cmd/codemode", []string{"github.com/codemodekit/kit/reference/cmd/codemode"}},
	// The gateway's cluster mode talks to NATS JetStream (SPEC.md
	// Appendix G): the client and what it links. The server is never
	// linked: tests run it, and a cluster runs its own.
	{"github.com/codemodekit/kit/reference/cmd/codemode-gateway", []string{"github.com/codemodekit/kit/reference/cmd/codemode-gateway",
		"github.com/nats-io/nats.go/...", "github.com/nats-io/nkeys", "github.com/nats-io/nuid", "golang.org/x/crypto/..."}},
}

// TestShippedBinaryDeps checks every package a shipped binary links
// against an allowlist: nothing new (a fake, a …test package, godog, a
// container library) links until someone decides it belongs here.
func TestShippedBinaryDeps(t *testing.T) {
	for _, b := range shipped {
		t.Run(b.pkg[strings.LastIndex(b.pkg, "/")+1:], func(t *testing.T) {
			deps := goListDeps(t, b.pkg)
			if got := disallowed(deps, b.allow); len(got) > 0 {
				t.Errorf("%s links packages outside its allowlist (deps_test.go):\n%s", b.pkg, strings.Join(got, "\n"))
			}
		})
	}
}

// TestShippedBinaryDeps_planted checks that the check fails on each kind of
// import it exists to refuse.
func TestShippedBinaryDeps_planted(t *testing.T) {
	b := shipped[0]
	deps := goListDeps(t, b.pkg)
	planted := []string{
		"github.com/codemodekit/kit/fakes/faketools",
		"github.com/codemodekit/kit/reference/codemodetest",
		"github.com/codemodekit/kit/conformance",
		"github.com/cucumber/godog",
		"github.com/testcontainers/testcontainers-go",
		"net/http/httptest",
		"testing",
	}
	got := disallowed(append(slices.Clone(deps), planted...), b.allow)
	slices.Sort(planted)
	if diff := cmp.Diff(planted, got); diff != "" {
		t.Errorf("disallowed(deps + planted) mismatch (-want +got):\n%s", diff)
	}
}

func goListDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
	}
	return strings.Fields(string(out))
}

// disallowed returns, sorted, the packages of deps that are neither in the
// standard library (test-only packages aside) nor matched by runtimeDeps
// or allow.
func disallowed(deps, allow []string) []string {
	var out []string
	for _, p := range deps {
		first, _, _ := strings.Cut(p, "/")
		std := !strings.Contains(first, ".")
		switch {
		case std && !matchAny(p, testOnlyStd):
		case !std && (matchAny(p, runtimeDeps) || matchAny(p, allow)):
		default:
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func matchAny(p string, patterns []string) bool {
	for _, pat := range patterns {
		if base, ok := strings.CutSuffix(pat, "/..."); ok {
			if p == base || strings.HasPrefix(p, base+"/") {
				return true
			}
		} else if p == pat {
			return true
		}
	}
	return false
}

// TestRuntimeModuleRequirements checks that the runtime's go.mod requires
// nothing of the suite or the container tier, so that `go get` of the
// runtime pulls neither: those live in the reference/codemodetest module.
func TestRuntimeModuleRequirements(t *testing.T) {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	banned := []string{"github.com/cucumber/", "github.com/testcontainers/", "github.com/docker/", "github.com/moby/",
		"github.com/codemodekit/kit/conformance ", "github.com/codemodekit/kit/features", "github.com/codemodekit/kit/reference/codemodetest"}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "require"))
		for _, p := range banned {
			if strings.HasPrefix(line+" ", p) {
				t.Errorf("go.mod names %q, which the runtime does not use", line)
			}
		}
	}
}
