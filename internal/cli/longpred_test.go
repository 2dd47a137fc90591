package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// TestEvalOverlongPrediction: a prediction over sqlscan.MaxAnalysed bytes is executed and
// judged (EX) like any other, but not parsed: ESM and ETM count it as no match and no
// schema is extracted from it, as for a prediction that does not parse. Before the limit a
// 2 MB IN list took ~750 MB of memory to analyse. The padded prediction would match the
// gold structurally if it were parsed, so its 0s are the limit's doing; the control
// question (the gold itself) shows the structural metrics ran. A prediction over
// engine.MaxSQLBytes (the 2 MB IN list, which took 220-260 MB for SQLite to prepare) is
// not executed either: an error saying so (issue 45).
func TestEvalOverlongPrediction(t *testing.T) {
	t.Parallel()
	f := demoFiles(t)
	dir := t.TempDir()
	const gold = "SELECT title FROM books WHERE book_id = 1"
	inList := "SELECT title FROM books WHERE book_id IN (1" + strings.Repeat(",1", 1<<20) + ")"
	padded := "SELECT title FROM books WHERE book_id =" + strings.Repeat(" ", sqlscan.MaxAnalysed) + "1"
	preds := []string{inList, padded, gold}
	var qs strings.Builder
	for i := range preds {
		qs.WriteString(`{"question_id": "long-` + string(rune('a'+i)) + `", "db_id": "library", "question": "Which book has id 1?", "gold": "` + gold + `"}` + "\n")
	}
	questions, pred := filepath.Join(dir, "questions.jsonl"), filepath.Join(dir, "pred.txt")
	if err := os.WriteFile(questions, []byte(qs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pred, []byte(strings.Join(preds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	runCLI(t, "eval", "--timeout", realTimeout, "--max-rows", realMaxRows, "--dataset", "jsonl:"+questions, "--db-root", f.DBRoot, "--pred", "long="+pred, "--out", out, "--json")
	recs := readRecords(t, filepath.Join(out, "long", "records.jsonl"))
	if len(recs) != len(preds) {
		t.Fatalf("%d records, want %d", len(recs), len(preds))
	}
	tests := []struct {
		name     string
		match    int  // ESM and ETM
		analysed bool // a schema was extracted from the prediction
		tooLong  bool // over engine.MaxSQLBytes: an error, not executed
	}{
		{"2 MB IN list", 0, false, true},
		{"padded over the limit", 0, false, false},
		{"the gold itself", 1, true, false},
	}
	for i, tt := range tests {
		r := recs[i]
		if tt.tooLong {
			if r.Verdict != record.Error || !strings.Contains(r.ErrorMessage, "query text is too long") {
				t.Errorf("%s: verdict %s %q, want an error: the text is over the SQL length cap", tt.name, r.Verdict, r.ErrorMessage)
			}
		} else if r.Verdict != record.Correct {
			t.Errorf("%s: verdict %s %q, want correct: execution is not limited", tt.name, r.Verdict, r.ErrorMessage)
		}
		if r.ESM == nil || *r.ESM != tt.match || r.ETM == nil || *r.ETM != tt.match {
			t.Errorf("%s: esm %v etm %v, want both %d", tt.name, deref(r.ESM), deref(r.ETM), tt.match)
		}
		if got := r.PredSchema != nil; got != tt.analysed {
			t.Errorf("%s: pred_schema %v, want present = %v", tt.name, r.PredSchema, tt.analysed)
		}
	}
}

// deref shows a verdict pointer: nil as -1.
func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}
