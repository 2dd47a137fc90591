package cli

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// testTimeout replaces the 30 s default per-query timeout in this package's tests, and is
// the timeout the tests on demo data state: the demo has questions that run until the
// timeout (their verdict is "timeout"; one runs twice, for Spider's rewrite), each holding
// a core that long, and they were most of this package's CPU time. Every other demo query
// takes a few milliseconds (under 50 ms on a loaded 2-core machine), so half a second
// leaves every verdict as it is at 30 s. Every default timeout (eval, audit, export-docs,
// a matrix cell, a pipeline's exec_timeout) reads engine.DefaultTimeout;
// TestDefaultTimeout checks what users get.
const testTimeout = 500 * time.Millisecond

// testMaxRows replaces the 1,000,000-row default cap the same way: it is the demo's own
// (demo.go), and a demo candidate that returns a million rows is otherwise read whole by
// every test that judges it.
const testMaxRows = 10_000

// realTimeout and realMaxRows are the users' defaults, stated by the tests on real
// benchmark data (Spider, BIRD) and on long queries: their verdicts must not depend on a
// loaded machine or on a test's cap.
const (
	realTimeout = "30s"
	realMaxRows = "1000000"
)

// userTimeout and userMaxRows are the defaults as users get them, read before TestMain
// lowers them.
var userTimeout, userMaxRows = engine.DefaultTimeout, engine.DefaultMaxRows

func TestMain(m *testing.M) {
	runAsMain() // a child started by a test, as the command: exits
	if err := os.Setenv(asMainEnv, "1"); err != nil {
		panic(err)
	}
	flag.Parse()
	// Four parallel tests a core: many of this package's tests mostly wait (a PostgreSQL
	// task copy, a killed process, a shell script). Round 50, back to back inside go test
	// ./... on the quiet machine: two a core, cli 151.9 s and the whole command 288 s;
	// four, 109.9 s and 229 s. Tests whose subject is not time use generous timeouts
	// (hostileTimeout).
	testutil.ParallelUnlessSet()
	engine.DefaultTimeout, engine.DefaultMaxRows = testTimeout, testMaxRows
	// The demo's runaway queries each run until the timeout, in every demo the tests run.
	demo.Timeout = demoTimeout
	// The fake LLMs' keys, set once for the whole package: t.Setenv in the helpers that
	// start them would keep their tests from running in parallel.
	for _, k := range []string{"CLI_TEST_KEY", "CLI_JUDGE_KEY"} {
		if err := os.Setenv(k, collectKey); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	for _, dir := range []string{sealedRoot, shared.root} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// TestDefaultTimeout: users get 30 s and a million rows, and every command's --timeout
// and --max-rows defaults are the variables (here lowered), so the tests judge as users do.
func TestDefaultTimeout(t *testing.T) {
	t.Parallel()
	if userTimeout != 30*time.Second || userMaxRows != 1_000_000 {
		t.Errorf("engine.DefaultTimeout is %s, DefaultMaxRows %d; the documented defaults are 30s and 1000000", userTimeout, userMaxRows)
	}
	for _, cmd := range []string{"eval", "audit", "export-docs"} {
		_, stdout, stderr := run(cmd, "--help")
		if want := "(default " + testTimeout.String() + ")"; !strings.Contains(stdout+stderr, want) {
			t.Errorf("%s --help: the --timeout default is not engine.DefaultTimeout (no %q)", cmd, want)
		}
		if want := "(default 10000)"; cmd != "export-docs" && !strings.Contains(stdout+stderr, want) {
			t.Errorf("%s --help: the --max-rows default is not engine.DefaultMaxRows (no %q)", cmd, want)
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

// skipLongInShort skips an end-to-end test of several seconds under -short (the
// edit-compile-test loop: `go test -short ./...` stays within scripts/test-budget.txt's
// short budget); `go test ./...` runs it, and so does CI's `go test -race -short`, where
// these are the tests that exercise the commands' concurrency.
func skipLongInShort(tb testing.TB) {
	tb.Helper()
	if testing.Short() && !raceEnabled {
		tb.Skip("skipping a long end-to-end test in -short mode (go test ./... runs it)")
	}
}

// cmdline is args as Run takes them: after the program's name (nl2sqlbench in hints).
func cmdline(args ...string) []string { return append([]string{""}, args...) }
