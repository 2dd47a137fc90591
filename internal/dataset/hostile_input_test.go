package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// TestHugeDatasetValue: a question file whose one line holds a value over MaxValueBytes
// is refused by a scan of its bytes, naming the line, before any decoding (a 300 MB
// question took 963 MB RSS to be read).
func TestHugeDatasetValue(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("x", MaxValueBytes+1)
	for name, text := range map[string]string{
		"q.jsonl":  `{"question_id": "a", "db_id": "d", "question": "ok", "gold": "SELECT 1"}` + "\n" + `{"question_id": "b", "db_id": "d", "question": "` + huge + `", "gold": "SELECT 1"}` + "\n",
		"gold.sql": "SELECT 1\tdb\n" + huge + "\tdb\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readText(p)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), p+":2:") {
			t.Errorf("%s: err %v, want %v naming line 2", name, err, ErrMalformed)
		}
	}
}
