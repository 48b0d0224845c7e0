package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	codemode "github.com/codemodekit/kit/reference"
)

// TestGatewayDeps checks that the gateway does not link the suite.
func TestGatewayDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "github.com/codemodekit/kit/conformance" || strings.HasPrefix(pkg, "github.com/cucumber/") ||
			pkg == "github.com/codemodekit/kit/features" || pkg == "github.com/codemodekit/kit/conformance/driver" ||
			pkg == "github.com/codemodekit/kit/conformance/gateway" || pkg == "github.com/codemodekit/kit/fakes/fakemodel" {
			t.Errorf("codemode-gateway imports %s", pkg)
		}
	}
}

func requireRuntime(t testing.TB) {
	t.Helper()
	rt := codemode.New(context.Background(), codemode.Options{})
	defer rt.Close()
	if err := rt.Available(); err != nil {
		t.Fatalf("runtime unavailable: %v", err)
	}
}
