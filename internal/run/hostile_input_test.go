package run

import (
	"context"
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// TestInputFIFORefused: a named pipe given where a file is read (a matrix plan, a
// --tables or --diff-json the manifest hashes) is refused at once; before, the open
// waited for a writer forever, and SIGTERM did not end it.
func TestInputFIFORefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tests := []struct {
		name string
		read func() error
	}{
		{"matrix plan", func() error { _, err := LoadMatrixPlan(fifo); return err }},
		{"manifest digest", func() error { _, err := digestFile(context.Background(), fifo); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- tt.read() }()
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
