package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// testBinaryVersion is the version testBinary's build sets, as scripts/release.sh does.
const testBinaryVersion = "9.8.7-test"

var binOnce struct {
	sync.Once
	path, skip, err string
}

// testBinary builds ./cmd/nl2sqlbench once per test binary (with the version set by
// -ldflags -X) for the tests that need a real process: a build costs seconds of both
// cores, so they share it. The tests skip when there is no go command.
func testBinary(tb testing.TB) string {
	tb.Helper()
	binOnce.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			binOnce.skip = "skipping: no go command to build the binary"
			return
		}
		dir, err := os.MkdirTemp("", "nl2sqlbench-bin-")
		if err != nil {
			binOnce.err = err.Error()
			return
		}
		binDir = dir
		bin := filepath.Join(dir, "nl2sqlbench")
		build := exec.Command(goBin, "build", "-o", bin,
			"-ldflags", "-X github.com/nl2sqlbench/nl2sqlbench/internal/buildid.version="+testBinaryVersion, "./cmd/nl2sqlbench")
		build.Dir = testutil.RepoRoot(tb)
		if out, err := build.CombinedOutput(); err != nil {
			binOnce.err = "go build: " + err.Error() + "\n" + string(out)
			return
		}
		binOnce.path = bin
	})
	switch {
	case binOnce.skip != "":
		tb.Skip(binOnce.skip)
	case binOnce.err != "":
		tb.Fatal(binOnce.err)
	}
	return binOnce.path
}

// binDir holds testBinary's build; TestMain removes it.
var binDir string
