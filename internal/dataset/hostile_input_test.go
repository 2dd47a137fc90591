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

// TestTooManyGoldAlternatives (issue 45, round 54's attacks): one question listing
// 300,000 gold queries (3.6 MB) took 622 MB in eval, each gold run for every prediction.
// More than MaxGoldAlternatives is refused naming the line; exactly that many load.
func TestTooManyGoldAlternatives(t *testing.T) {
	dir := t.TempDir()
	line := func(n int) string {
		golds := strings.TrimSuffix(strings.Repeat(`"SELECT 2", `, n), ", ")
		return `{"question_id": "q", "db_id": "d", "question": "x", "gold": [` + golds + `]}` + "\n"
	}
	ok := filepath.Join(dir, "ok.jsonl")
	os.WriteFile(ok, []byte(line(MaxGoldAlternatives)), 0o644)
	if _, err := Load(t.Context(), "jsonl:"+ok, Options{NoHardness: true}); err != nil {
		t.Errorf("%d gold queries: %v", MaxGoldAlternatives, err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(line(1)+line(300000)), 0o644)
	_, err := Load(t.Context(), "jsonl:"+bad, Options{NoHardness: true})
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), bad+":2:") || !strings.Contains(err.Error(), "300000 gold queries") {
		t.Errorf("300,000 gold queries: %v; want ErrMalformed naming line 2 and the count", err)
	}
}
