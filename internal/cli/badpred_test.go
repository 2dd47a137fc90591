package cli

import (
	"time"

	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// hostileTimeout is TestEvalHostilePredictions' timeout, not testTimeout: parsing its
// megabyte-long line took over 500 ms when the two cores were shared with the rest of
// `go test ./...`, and time is not what it checks.
const hostileTimeout = 10 * time.Second

// TestEvalHostilePredictions: predictions that are not UTF-8, a megabyte long, several
// statements, destructive, or holding a NUL byte (which SQLite sees as empty SQL, and
// which crashed go-sqlite3) get clear verdicts, never a panic or a crash, and leave the
// databases byte-identical.
func TestEvalHostilePredictions(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	before := checksums(t, f.DBRoot)
	lines := make([]string, 51)
	for i := range lines {
		lines[i] = "SELECT 1"
	}
	lines[0] = "SELECT '\xff\xfe broken'"
	lines[1] = "SELECT '" + strings.Repeat("x", engine.MaxSQLBytes-16) + "'" // a huge value, within the SQL length cap
	lines[2] = "SELECT 1; DROP TABLE books"
	lines[3] = "DROP TABLE books"
	lines[4] = "ATTACH DATABASE 'evil.sqlite' AS evil"
	lines[5] = "PRAGMA query_only = 0"
	lines[6] = "\x00"
	lines[7] = "\x00SELECT 1"
	pred := filepath.Join(t.TempDir(), "hostile.txt")
	if err := os.WriteFile(pred, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if code, _, stderr := run("eval", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot, "--pred", "h="+pred,
		"--out", out, "--json", "--timeout", hostileTimeout.String(), "--max-rows", "10000"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs := readRecords(t, filepath.Join(out, "h", "records.jsonl"))
	want := []struct {
		verdict record.Verdict
		msg     string
	}{
		{record.Error, "not valid UTF-8"},
		{record.Incorrect, ""},
		{record.Error, "several statements"},
		{record.Error, "modify the database"},
		{record.Error, "modify the database"},
		{record.Error, "modify the database"},
		{record.Error, "NUL byte"},
		{record.Error, "NUL byte"},
	}
	for i, w := range want {
		r := recs[i]
		if w.msg == "NUL byte" && r.ErrorCategory != record.SyntaxError {
			t.Errorf("line %d: category %q, want syntax_error", i+1, r.ErrorCategory)
		}
		if r.Verdict != w.verdict || !strings.Contains(r.ErrorMessage, w.msg) {
			t.Errorf("line %d: %s %q, want %s containing %q", i+1, r.Verdict, r.ErrorMessage, w.verdict, w.msg)
		}
	}
	if len(recs[1].PredSQL) != len(lines[1]) {
		t.Errorf("the 1 MB prediction was cut to %d bytes", len(recs[1].PredSQL))
	}
	after := checksums(t, f.DBRoot)
	for p, sum := range before {
		if after[p] != sum {
			t.Errorf("%s changed", p)
		}
	}
	if len(after) != len(before) {
		t.Errorf("files appeared in the database directory: %d before, %d after", len(before), len(after))
	}
}

// TestEvalRefusesTooManyPredictions: a records file of more items than
// predict.ItemBound for the dataset is refused at the first one over it, naming the file
// and its line, before the rest is read or anything is judged.
func TestEvalRefusesTooManyPredictions(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	n := predict.MinItemBound + 1
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "{\"question_id\": %d, \"PREDICTED_SQL\": \"SELECT 1\"}\n", i)
	}
	pred := filepath.Join(t.TempDir(), "many.jsonl")
	if err := os.WriteFile(pred, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := run("eval", "--dataset", "jsonl:"+f.Questions, "--db-root", f.DBRoot, "--pred", "m="+pred, "--out", out)
	want := fmt.Sprintf("%s:%d: more than %d records", pred, n, predict.MinItemBound)
	if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "too many predictions") {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(out, "m", "records.jsonl")); err == nil {
		t.Errorf("records were written for a refused prediction file")
	}
}
