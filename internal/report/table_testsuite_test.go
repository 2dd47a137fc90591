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
	if err := WriteTable(&tb, &run.Summary); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"TS-EX", "counterexample databases (seed=1 budget=200)", "alpha: EX yes, TS-EX no (counterexample database found): #1"} {
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
	for _, want := range []string{"counterexample database", "alpha/counterexamples/q1.sql", "&lt;b&gt;x&lt;/b&gt;", "count(id)", "prediction result on it"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	if strings.Contains(html, "<b>x</b>") {
		t.Error("the script's text is not escaped")
	}
}
