package review

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

// TestReadHostileFile: a reviews file that is a FIFO (os.Open blocked until a writer
// came) or a device is refused at once.
func TestReadHostileFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "reviews.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		if _, err := Read(p); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("%s: err %v, want %v", p, err, safefile.ErrNotRegular)
		}
	}
}
