package run

import (
	"context"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestInputFIFORefused: a named pipe given where a file is read (a matrix plan, a
// --tables or --diff-json the manifest hashes) is refused at once, not waited on forever
// (SIGTERM did not end that wait).
func TestInputFIFORefused(t *testing.T) {
	testutil.RefusesFIFO(t, map[string]func(string) error{
		"matrix plan":     func(p string) error { _, err := LoadMatrixPlan(p); return err },
		"manifest digest": func(p string) error { _, err := digestFile(context.Background(), p); return err },
	})
}
