package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestTestSuiteRendering: a run with a counterexample shows TS-EX beside EX, lists the
// question in the terminal and Markdown sections, and the drill-down shows the script and
// both result tables (escaped).
func TestTestSuiteRendering(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	script := "CREATE TABLE items (id INTEGER);\nINSERT INTO items VALUES ('<b>x</b>');\n"
	cx := map[string]any{"path": "alpha/counterexamples/q1.sql", "rows": 1,
		"gold_result": map[string]any{"columns": []string{"count(*)"}, "rows": [][]any{{1}}},
		"pred_result": map[string]any{"columns": []string{"count(id)"}, "rows": [][]any{{0}}}}
	writeRun(t, dir, filepath.Join(root, "db"), sys{"alpha", []map[string]any{
		rec(0, "simple", "correct", "SELECT 1", "SELECT 1", "ts_ex", 1, "ts_dbs", 200),
		rec(1, "simple", "correct", "SELECT count(*) FROM items", "SELECT count(id) FROM items", "ts_ex", 0, "ts_dbs", 3, "etm", 0, "counterexample", cx),
		rec(2, "simple", "correct", "SELECT count(*) FROM items", "SELECT count(id) FROM items", "ts_ex", 1, "ts_dbs", 9, "counterexample",
			map[string]any{"path": "alpha/counterexamples/q2.sql", "rows": 1, "kind": "robustness", "assumes": []string{"NULL in items.id (never NULL in the data)"},
				"gold_result": map[string]any{"columns": []string{"c"}, "rows": [][]any{{1}}}, "pred_result": map[string]any{"columns": []string{"c"}, "rows": [][]any{{0}}}}),
		rec(3, "simple", "correct", "SELECT id FROM items ORDER BY id LIMIT 1", "SELECT min(id) FROM items", "ts_ex", 1, "ts_dbs", 5, "counterexample",
			map[string]any{"path": "alpha/counterexamples/q3.sql", "rows": 2, "kind": "realistic", "gold_suspect": "tie on id under the gold's LIMIT 1",
				"gold_suspect_audit": map[string]any{"check": "limit_tie", "confidence": "high", "evidence": "2 rows tie on id at the LIMIT"},
				"gold_result":        map[string]any{"columns": []string{"c"}, "rows": [][]any{{1}}}, "pred_result": map[string]any{"columns": []string{"c"}, "rows": [][]any{{1}, {1}}}}),
	}})
	if err := os.MkdirAll(filepath.Join(dir, "alpha", "counterexamples"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "alpha", "counterexamples", "q1.sql"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	run := loadFixture(t, dir)
	var recs []record.Record
	recs = append(recs, run.Systems[0].Records...)
	run.Summary.TestSuite = metrics.SummarizeTestSuite("seed=1 budget=200", []metrics.SystemRecords{{Name: "alpha", Records: recs}})

	var tb bytes.Buffer
	if err := WriteDetails(&tb, &run.Summary); err != nil {
		t.Fatal(err)
	}
	ts := run.Summary.TestSuite.Systems[0]
	if ts.Found != 1 || ts.Robust != 1 || ts.GoldSuspect != 1 {
		t.Errorf("found %d robust %d gold suspect %d; want 1 each", ts.Found, ts.Robust, ts.GoldSuspect)
	}
	for _, want := range []string{"TS-EX", "counterexample databases (seed=1 budget=200)", "alpha: EX yes, TS-EX no (realistic counterexample database found): #1",
		"alpha: robustness findings (correct on this data, breaks if the data departs from its profile): #2", "alpha: gold suspect (the difference is a tie under the gold's LIMIT): #3 (audit on the original data: limit_tie #3)"} {
		if !strings.Contains(tb.String(), want) {
			t.Errorf("terminal output lacks %q:\n%s", want, tb.String())
		}
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "### Counterexample databases") || !strings.Contains(md.String(), "#1") {
		t.Errorf("markdown lacks the section:\n%s", md.String())
	}
	html := renderHTML(t, run, HTMLOptions{NoExec: true})
	for _, want := range []string{"counterexample database", "alpha/counterexamples/q1.sql", "&lt;b&gt;x&lt;/b&gt;", "count(id)", "prediction result on it",
		"robustness finding", "breaks if: NULL in items.id (never NULL in the data)", "gold suspect: tie on id under the gold&#39;s LIMIT 1", "gold audit on the original data: limit_tie: 2 rows tie on id at the LIMIT"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	if strings.Contains(html, "<b>x</b>") {
		t.Error("the script's text is not escaped")
	}
}

// TestProofRendering: ts_proof counts per system, what "proven" promises, and the
// one note when no solver was found, in the terminal; the record's proof in the HTML.
func TestProofRendering(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	proof := func(reason string) map[string]any {
		return map[string]any{"bound": 3, "solver_ms": 40, "checked": 100, "reason": reason}
	}
	writeRun(t, dir, filepath.Join(root, "db"), sys{"alpha", []map[string]any{
		rec(0, "simple", "correct", "SELECT 1", "SELECT 1", "ts_ex", 1, "ts_dbs", 200, "ts_proof", "proven", "proof", proof("")),
		rec(1, "simple", "correct", "SELECT 2", "SELECT 2", "ts_ex", 1, "ts_dbs", 200, "ts_proof", "unknown", "proof", proof("no SMT solver (z3 not found on PATH)")),
	}})
	run := loadFixture(t, dir)
	run.Summary.TestSuite = metrics.SummarizeTestSuite("seed=1", []metrics.SystemRecords{{Name: "alpha", Records: run.Systems[0].Records}})
	ts := run.Summary.TestSuite.Systems[0]
	if ts.Proven != 1 || ts.ProofUnknown != 1 || ts.Refuted != 0 {
		t.Errorf("proven %d unknown %d refuted %d; want 1 1 0", ts.Proven, ts.ProofUnknown, ts.Refuted)
	}
	var tb bytes.Buffer
	if err := WriteDetails(&tb, &run.Summary); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bounded proofs (z3, at most 3 rows per table)", metrics.ProofPromise, "note: no SMT solver (z3) was found"} {
		if strings.Count(tb.String(), want) != 1 {
			t.Errorf("terminal output should say %q once:\n%s", want, tb.String())
		}
	}
	html := renderHTML(t, run, HTMLOptions{NoExec: true})
	if !strings.Contains(html, "bounded proof (eval --proof)") || !strings.Contains(html, "proven (at most 3 rows per table, solver 40 ms)") {
		t.Errorf("html lacks the record's proof")
	}
}
