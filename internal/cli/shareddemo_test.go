package cli

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
)

// The demo files and one finished run of every demo system over them, made once per
// test binary for the tests that only read them: a full demo run costs seconds of CPU
// (its timeout questions run until the timeout), and several tests need the same one.
// Tests get the files' paths (never to be written) and a fresh copy of the run.
var shared struct {
	filesOnce, runOnce sync.Once
	root               string // removed by TestMain
	files              *demo.Files
	run                string
	err                string
}

// sharedDemoFiles returns the demo files materialized once for the package's tests.
func sharedDemoFiles(tb testing.TB) *demo.Files {
	tb.Helper()
	shared.filesOnce.Do(func() {
		root, err := os.MkdirTemp("", "nl2sqlbench-shared-demo-")
		if err != nil {
			shared.err = err.Error()
			return
		}
		shared.root = root
		f, err := demo.Materialize(context.Background(), filepath.Join(root, "demo"))
		if err != nil {
			shared.err = err.Error()
			return
		}
		shared.files = f
	})
	if shared.files == nil {
		tb.Fatalf("shared demo files: %s", shared.err)
	}
	return shared.files
}

// sharedFullDemoRun returns a fresh copy of the unsharded run of demoArgsFiles' arguments
// (every demo system over the shared files), judged once for the package's tests.
func sharedFullDemoRun(tb testing.TB) string {
	tb.Helper()
	args, _, _ := demoArgsFiles(tb)
	shared.runOnce.Do(func() {
		dir := filepath.Join(shared.root, "full")
		code, _, stderr := run(append(append([]string{"eval"}, args...), "--json", "--out", dir)...)
		if code != exitOK {
			shared.err = "full demo run: " + stderr
			return
		}
		shared.run = dir
	})
	if shared.run == "" {
		tb.Fatalf("shared demo run: %s", shared.err)
	}
	dst := filepath.Join(tb.TempDir(), "full")
	copyTree(tb, shared.run, dst)
	return dst
}
