package cli

import (
	"context"
	"os"
	"os/signal"
	"testing"
)

// asMainEnv, set in a process's environment, makes this package's test binary run as
// the nl2sqlbench command (TestMain calls runAsMain before anything else). TestMain sets
// it for the processes this one starts, so testBinary is this test binary itself.
const asMainEnv = "NL2SQLBENCH_CLI_TEST_AS_MAIN"

// runAsMain is cmd/nl2sqlbench's main when asMainEnv is set: the same signals, the same
// Run, the same exit code.
func runAsMain() {
	if os.Getenv(asMainEnv) != "1" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), StopSignals()...)
	code := Run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// testBinary is a program that runs as nl2sqlbench, for the tests that need a real
// process (a shell script running it, as deploy/slurm does): this test binary, which
// TestMain turns into the command when asMainEnv is set. It used to be a go build of
// ./cmd/nl2sqlbench, whose link cost several seconds of both cores in every run of the
// suite; that -ldflags -X sets the version is buildid.TestVersionSetByLdflags.
func testBinary(tb testing.TB) string {
	tb.Helper()
	bin, err := os.Executable()
	if err != nil {
		tb.Skipf("skipping: cannot locate the test binary to run as the command: %v", err)
	}
	return bin
}
