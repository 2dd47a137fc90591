package collect

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// TestInputFIFORefused: a named pipe given as the pipeline config or a trace file is
// refused at once; before, os.ReadFile waited for a writer forever.
func TestInputFIFORefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tests := []struct {
		name string
		read func() error
	}{
		{"config", func() error { _, err := LoadConfig(fifo); return err }},
		{"trace", func() error { _, _, err := readSQL(fifo); return err }},
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
