// Package testutil holds helpers shared by tests, and is imported by tests only: locating
// ../shared (the real benchmark data beside the repository) and skipping cleanly when it
// is absent; reading the official tools' reference verdict TSVs (ReadTSV); the BIRD
// mini-dev server deviations the engine and CLI conformance tests share; golden files
// (Golden); and a loopback Proxy that tests cut or freeze to lose a server.
package testutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// RepoRoot returns the repository's root directory.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("cannot locate testutil source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Shared returns the path of rel inside ../shared (beside the repository), or skips the
// test with a message naming what is missing. NL2SQLBENCH_SHARED overrides the location.
func Shared(tb testing.TB, rel string) string {
	tb.Helper()
	p, ok := SharedIfPresent(tb, rel)
	if !ok {
		tb.Skipf("skipping: %s not found (real benchmark data lives in ../shared beside the repository)", p)
	}
	return p
}

// SharedIfPresent returns the path of rel inside ../shared and whether it exists, for
// tests that use real data when they can and smaller data otherwise.
func SharedIfPresent(tb testing.TB, rel string) (string, bool) {
	tb.Helper()
	root := os.Getenv("NL2SQLBENCH_SHARED")
	if root == "" {
		root = filepath.Join(RepoRoot(tb), "..", "shared")
	}
	p := filepath.Join(root, rel)
	_, err := os.Stat(p)
	return p, err == nil
}
