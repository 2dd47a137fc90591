package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// duckSuite writes a small Spider 2.0-lite suite whose local tasks live on a DuckDB
// file (built read-write here, the only place that does), and returns the suite and
// database root.
func duckSuite(t *testing.T, lib string) (suite, root string) {
	t.Helper()
	dir := t.TempDir()
	suite, root = filepath.Join(dir, "spider2-lite"), filepath.Join(dir, "databases")
	gold := filepath.Join(suite, "evaluation_suite", "gold")
	for _, d := range []string{filepath.Join(gold, "exec_result"), root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var tasks, evals strings.Builder
	for _, id := range []string{"local901", "local902", "local903", "local904"} {
		db := "shop"
		if id == "local904" {
			db = "nowhere"
		}
		tasks.WriteString(`{"instance_id": "` + id + `", "db": "` + db + `", "question": "Revenue per customer and day?"}` + "\n")
		evals.WriteString(`{"instance_id": "` + id + `", "condition_cols": [], "ignore_order": true}` + "\n")
		write(filepath.Join(gold, "exec_result", id+".csv"), "customer,day,total\nalice,2024-01-05,55.5\nbob,2024-02-10,12.0\n")
	}
	write(filepath.Join(suite, "spider2-lite.jsonl"), tasks.String())
	write(filepath.Join(gold, "spider2lite_eval.jsonl"), evals.String())
	err := engine.CreateDuckDB(lib, filepath.Join(root, "shop.duckdb"),
		"CREATE TABLE orders (customer VARCHAR, day DATE, amount DECIMAL(10, 2))",
		"INSERT INTO orders VALUES ('alice', '2024-01-05', 50.25), ('alice', '2024-01-05', 5.25), ('bob', '2024-02-10', 12.00)")
	if err != nil {
		t.Fatal(err)
	}
	return suite, root
}

// TestSpider2DuckDBEndToEnd: .sql answers of local tasks whose database is a DuckDB file
// run on DuckDB and are judged against the gold CSVs: right, wrong, timed out; a task
// without a database is skipped; without the library, the DuckDB tasks are skipped with
// a reason naming --duckdb-lib, never scored.
func TestSpider2DuckDBEndToEnd(t *testing.T) {
	lib := testutil.LibDuckDB(t)
	suite, root := duckSuite(t, lib)
	preds := t.TempDir()
	for id, q := range map[string]string{
		"local901": "```sql\nSELECT customer, day, SUM(amount) AS total FROM orders GROUP BY ALL ORDER BY customer\n```",
		"local902": "SELECT customer, day, SUM(amount) AS total FROM orders WHERE customer = 'alice' GROUP BY ALL",
		"local903": "SELECT COUNT(*) FROM range(100000) a, range(100000) b WHERE a.range + b.range = -1",
		"local904": "SELECT 1",
	} {
		if err := os.WriteFile(filepath.Join(preds, id+".sql"), []byte(q), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]record.Verdict{"local901": record.Correct, "local902": record.Incorrect, "local903": record.Error, "local904": record.Skipped}

	out := filepath.Join(t.TempDir(), "run")
	runCLI(t, "eval", "--dataset", "spider2:"+suite, "--db-root", root, "--pred", "duck="+preds, "--timeout", "1s", "--duckdb-lib", lib, "--out", out)
	recs := readRecords(t, filepath.Join(out, "duck", "records.jsonl"))
	for _, r := range recs {
		if r.Verdict != want[r.QuestionID] {
			t.Errorf("%s: %s (%s), want %s", r.QuestionID, r.Verdict, r.ErrorMessage, want[r.QuestionID])
		}
		if r.QuestionID == "local903" && r.ErrorCategory != record.Timeout {
			t.Errorf("local903: category %q, want timeout", r.ErrorCategory)
		}
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	man, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || !strings.Contains(string(man), "shop.duckdb") || !strings.Contains(string(man), `"duckdb": "v1.`) {
		t.Errorf("manifest does not name the DuckDB file and library: %v\n%s", err, man)
	}

	// No library: the DuckDB tasks are skipped, saying how to give one.
	t.Setenv(engine.LibDuckDBEnv, "")
	out2 := filepath.Join(t.TempDir(), "run")
	runCLI(t, "eval", "--dataset", "spider2:"+suite, "--db-root", root, "--pred", "duck="+preds, "--out", out2)
	for _, r := range readRecords(t, filepath.Join(out2, "duck", "records.jsonl")) {
		if r.Verdict != record.Skipped {
			t.Errorf("no library: %s is %s, want skipped", r.QuestionID, r.Verdict)
		}
		if r.QuestionID != "local904" && !strings.Contains(r.ErrorMessage, "--duckdb-lib") {
			t.Errorf("no library: %s skipped with %q, want it to name --duckdb-lib", r.QuestionID, r.ErrorMessage)
		}
	}
}
