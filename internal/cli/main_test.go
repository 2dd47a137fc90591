package cli

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// testTimeout replaces the 30 s default per-query timeout in this package's tests: the
// demo data has questions that run until the timeout (their verdict is "timeout"), and
// each would otherwise hold a core for 30 s. Every default timeout (eval, audit,
// export-docs, a matrix cell, a pipeline's exec_timeout) reads engine.DefaultTimeout, so
// the verdicts are the same as at 30 s; TestDefaultTimeout checks what users get.
const testTimeout = time.Second

// realTimeout is the users' default, stated by the tests on real benchmark data (Spider,
// BIRD) and on long queries: their verdicts must not depend on a loaded machine.
const realTimeout = "30s"

// userTimeout is engine.DefaultTimeout as users get it, read before TestMain shortens it.
var userTimeout = engine.DefaultTimeout

func TestMain(m *testing.M) {
	engine.DefaultTimeout = testTimeout
	// The fake LLMs' keys, set once for the whole package: t.Setenv in the helpers that
	// start them would keep their tests from running in parallel.
	for _, k := range []string{"CLI_TEST_KEY", "CLI_JUDGE_KEY"} {
		if err := os.Setenv(k, collectKey); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	for _, dir := range []string{sealedRoot, binDir, shared.root} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// TestDefaultTimeout: users get 30 s, and every command's --timeout default is the one
// variable (here shortened to testTimeout), so the shortened tests judge as users do.
func TestDefaultTimeout(t *testing.T) {
	t.Parallel()
	if userTimeout != 30*time.Second {
		t.Errorf("engine.DefaultTimeout is %s; the documented default is 30s", userTimeout)
	}
	for _, cmd := range []string{"eval", "audit", "export-docs"} {
		_, stdout, stderr := run(cmd, "--help")
		if want := "(default " + testTimeout.String() + ")"; !strings.Contains(stdout+stderr, want) {
			t.Errorf("%s --help: the --timeout default is not engine.DefaultTimeout (no %q)", cmd, want)
		}
	}
}

// setenvOwn sets a variable that only the calling test reads, for as long as it runs.
// Unlike t.Setenv it allows t.Parallel: the name must be the test's own.
func setenvOwn(tb testing.TB, key, value string) {
	tb.Helper()
	if _, taken := os.LookupEnv(key); taken {
		tb.Fatalf("setenvOwn: %s is already set: the name is not this test's own", key)
	}
	if err := os.Setenv(key, value); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.Unsetenv(key) })
}
