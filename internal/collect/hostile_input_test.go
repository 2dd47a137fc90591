package collect

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestInputFIFORefused: a named pipe given as the pipeline config or a trace file is
// refused at once, not waited on forever.
func TestInputFIFORefused(t *testing.T) {
	testutil.RefusesFIFO(t, map[string]func(string) error{
		"config": func(p string) error { _, err := LoadConfig(p); return err },
		"trace":  func(p string) error { _, _, err := readSQL(p); return err },
	})
}
