package dataset

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// TestAlternativesHostileFile: an alternatives file that is a FIFO (os.Open blocked until
// a writer came) or a device is refused at once, naming the file.
func TestAlternativesHostileFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "alt.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		err := applyAlternatives(&Dataset{}, p)
		if !errors.Is(err, inputfile.ErrNotRegular) {
			t.Errorf("%s: err %v, want %v", p, err, inputfile.ErrNotRegular)
		}
	}
}
