package benchrun

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

func spider2Suite(tb testing.TB, suite string) string {
	tb.Helper()
	return testutil.Shared(tb, filepath.Join("data", "spider2", "spider2-"+suite))
}

// evalSpider2Run prepares and judges a Spider 2.0 run in memory.
func evalSpider2Run(tb testing.TB, cfg Config) (*Result, *notes) {
	tb.Helper()
	obs := &notes{}
	p, err := Prepare(context.Background(), cfg, obs)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := Eval(context.Background(), p, nil, newMemSink(len(p.Systems)), obs)
	if err != nil {
		tb.Fatal(err)
	}
	return res, obs
}

// TestSpider2ExampleSubmissions: the official example submissions score what the
// official evaluate.py prints: lite 1 of 6, snow 1 of 7 (Final), over 547 (Real).
func TestSpider2ExampleSubmissions(t *testing.T) {
	for _, c := range []struct {
		suite           string
		correct, judged int
		final, real     string
	}{
		{suite: "lite", correct: 1, judged: 6, final: "16.67", real: "0.18"},
		{suite: "snow", correct: 1, judged: 7, final: "14.29", real: "0.18"},
	} {
		t.Run(c.suite, func(t *testing.T) {
			dir := spider2Suite(t, c.suite)
			res, _ := evalSpider2Run(t, Config{DatasetSpec: "spider2:" + dir, Workers: 2,
				Preds: []string{"example=" + filepath.Join(dir, "evaluation_suite", "example_submission_folder_csv")}})
			st := res.Summary.Spider2[0]
			if st.Judged != c.judged || st.Official != c.correct || st.Strict != c.correct || st.Tasks != 547 || len(st.Disagreements) != 0 {
				t.Errorf("judged %d, official correct %d, tasks %d; want %d, %d, 547", st.Judged, st.Official, st.Tasks, c.judged, c.correct)
			}
			for id, want := range map[string]string{"ex_spider2": c.final, "ex_spider2_real": c.real} {
				_, v, ok := res.Summary.Metrics.Lookup("example", id)
				if !ok || v.Text != want {
					t.Errorf("%s: %+v, want %s", id, v, want)
				}
			}
		})
	}
}

// TestSpider2GoldAsPrediction: every task answered with its own first present gold
// variant is correct in both modes (nothing the official rules do may reject a gold
// table against itself). Every record carries both modes' verdicts. Two whole-suite
// runs (11 s of go test -short's benchrun): skipped under -short, the suites in parallel.
func TestSpider2GoldAsPrediction(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping two whole-suite runs in -short mode")
	}
	t.Parallel()
	for _, suite := range []string{"lite", "snow"} {
		t.Run(suite, func(t *testing.T) {
			t.Parallel()
			dir := spider2Suite(t, suite)
			res, _ := evalSpider2Run(t, Config{DatasetSpec: "spider2:" + dir, Workers: 2, Preds: []string{"gold=" + goldAsPredictions(t, dir)}})
			recs := res.Systems[0].Records
			judged := 0
			for i := range recs {
				r := &recs[i]
				if r.Verdict == record.Skipped {
					continue
				}
				judged++
				if r.Verdict != record.Correct || r.Spider2Official == nil || *r.Spider2Official != 1 || r.Spider2Strict == nil || *r.Spider2Strict != 1 {
					t.Errorf("%s: %s %s (official %v, strict %v)", r.QuestionID, r.Verdict, r.ErrorMessage, r.Spider2Official, r.Spider2Strict)
				}
			}
			if judged < 540 {
				t.Errorf("only %d tasks judged", judged)
			}
			t.Logf("%s: %d tasks judged, all correct in both modes, in %v", suite, judged, res.Elapsed)
		})
	}
}

// goldAsPredictions writes each task's first present gold variant as <id>.csv.
func goldAsPredictions(tb testing.TB, suiteDir string) string {
	tb.Helper()
	ds, err := dataset.Load(context.Background(), "spider2:"+suiteDir, dataset.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	out := tb.TempDir()
	for _, task := range ds.Spider2.Tasks {
		for _, g := range task.Gold {
			if g.Missing {
				continue
			}
			data, err := os.ReadFile(g.Path)
			if err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, task.ID+".csv"), data, 0o644); err != nil {
				tb.Fatal(err)
			}
			break
		}
	}
	return out
}

// TestSpider2SQLPredictions: .sql answers run on SQLite for local tasks (read back as
// pandas would), and are skipped, never wrong, where no engine or database exists.
func TestSpider2SQLPredictions(t *testing.T) {
	dir := spider2Suite(t, "lite")
	ds, err := dataset.Load(context.Background(), "spider2:"+dir, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var local, bq *dataset.Spider2Task
	var localDB string
	for i := range ds.Spider2.Tasks {
		task := &ds.Spider2.Tasks[i]
		if local == nil && task.Backend == dataset.BackendSQLite && task.Single && !task.Gold[0].Missing {
			local, localDB = task, ds.Questions[i].DBID
		}
		if bq == nil && task.Backend == dataset.BackendBigQuery {
			bq = task
		}
	}
	// A database holding the local task's gold table, so SELECT * reproduces it.
	root := t.TempDir()
	gold, err := os.ReadFile(local.Gold[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", filepath.Join(root, localDB+".sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	loadCSVTable(t, db, string(gold))
	db.Close()
	preds := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(preds, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(local.ID+".sql", "Here it is:\n```sql\nSELECT * FROM gold\n```\n")
	write(bq.ID+".sql", "SELECT 1")
	res, _ := evalSpider2Run(t, Config{DatasetSpec: "spider2:" + dir, DBRoot: root, Workers: 2, Timeout: 10e9, Preds: []string{"sql=" + preds}})
	for _, r := range res.Systems[0].Records {
		switch r.QuestionID {
		case local.ID:
			if r.Verdict != record.Correct || r.PredSQL != "SELECT * FROM gold" {
				t.Errorf("%s: %s %q (sql %q)", r.QuestionID, r.Verdict, r.ErrorMessage, r.PredSQL)
			}
		case bq.ID:
			if r.Verdict != record.Skipped || !strings.Contains(r.ErrorMessage, "bigquery") {
				t.Errorf("%s: %s %q, want skipped for BigQuery", r.QuestionID, r.Verdict, r.ErrorMessage)
			}
		}
	}
}

// loadCSVTable creates table gold from a CSV text with untyped columns, so SQLite keeps
// each value's own type (ints, reals, text), and NULL for empty fields.
func loadCSVTable(tb testing.TB, db *sql.DB, csv string) {
	tb.Helper()
	lines := strings.Split(strings.TrimRight(csv, "\n"), "\n")
	if strings.Contains(csv, `"`) {
		tb.Skip("gold CSV with quoted fields; this loader splits on commas")
	}
	head := strings.Split(lines[0], ",")
	cols := make([]string, len(head))
	for i, h := range head {
		cols[i] = `"` + strings.ReplaceAll(h, `"`, `""`) + `"`
	}
	if _, err := db.Exec("CREATE TABLE gold (" + strings.Join(cols, ", ") + ")"); err != nil {
		tb.Fatal(err)
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(head)), ",")
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		args := make([]any, len(head))
		for i := range args {
			if i < len(f) && f[i] != "" {
				args[i] = typed(f[i])
			}
		}
		if _, err := db.Exec("INSERT INTO gold VALUES ("+ph+")", args...); err != nil {
			tb.Fatal(err)
		}
	}
}

func typed(s string) any {
	var i int64
	var f float64
	if _, err := fmtSscan(s, &i); err == nil && !strings.ContainsAny(s, ".eE") {
		return i
	}
	if _, err := fmtSscan(s, &f); err == nil {
		return f
	}
	return s
}

func fmtSscan(s string, v any) (int, error) { return fmt.Sscan(s, v) }
