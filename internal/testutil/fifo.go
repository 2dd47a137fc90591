package testutil

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// RefusesFIFO checks that each reader, given a named pipe where a file belongs, fails at
// once with safefile.ErrNotRegular instead of waiting for a writer forever. It skips
// where mkfifo is unavailable.
func RefusesFIFO(t *testing.T, readers map[string]func(path string) error) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, read := range readers {
		t.Run(name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- read(fifo) }()
			select {
			case err := <-done:
				if !errors.Is(err, safefile.ErrNotRegular) {
					t.Fatalf("err = %v, want ErrNotRegular", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still blocked on the FIFO after 10 s")
			}
		})
	}
}
