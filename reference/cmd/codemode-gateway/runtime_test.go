package main

import (
	"context"
	"testing"

	codemode "github.com/codemodekit/kit/reference"
)

func requireRuntime(t testing.TB) {
	t.Helper()
	rt := codemode.New(context.Background(), codemode.Options{})
	defer rt.Close()
	if err := rt.Available(); err != nil {
		t.Fatalf("runtime unavailable: %v", err)
	}
}
