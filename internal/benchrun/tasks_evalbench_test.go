package benchrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestEvalBenchGoldEveryEngine judges EvalBench's 23 bat tasks with their golden SQL as
// the prediction on SQLite, PostgreSQL and MySQL copies, and pins each engine's verdicts
// (docs/tasks.md explains every gold that is not correct). Task 42's gold sets
// updated_at = NOW() and its eval_query reads it back: the gold's run and the
// prediction's differ by the clock, always on PostgreSQL (microseconds), and on SQLite
// and MySQL (seconds) when the two runs straddle a second, so there either verdict is
// accepted. Under EvalBench's ordered comparison (official mode) task 100 on MySQL is
// accepted either way too (ties). Before EvalBench's rules were followed (setup_sql run on the fresh copy,
// eval_query for DDL) 5 golds failed on SQLite and MySQL and 3 on PostgreSQL.
func TestEvalBenchGoldEveryEngine(t *testing.T) {
	t.Parallel()
	dir := testutil.Shared(t, "data/evalbench/bat")
	ds, err := taskset.LoadEvalBench(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	const clock = "42"
	cases := []struct {
		engine, env string
		want        map[string]string // task id: verdict when not correct
		unstable    []string          // tasks either verdict is accepted for (see below)
	}{
		{"sqlite", "", map[string]string{}, nil},
		{"postgres", "NL2SQLBENCH_PG_DSN", map[string]string{clock: "incorrect"}, nil},
		// Task 100's MySQL gold orders hours by their count with ties and no LIMIT: MySQL
		// returns tied rows in an order of its own, which EvalBench's ordered comparison
		// (ordered_records) sees, so the gold fails against itself now and then, as it
		// would in EvalBench.
		{"mysql", "NL2SQLBENCH_MYSQL_DSN", map[string]string{}, []string{"100"}},
	}
	for _, tc := range cases {
		t.Run(tc.engine, func(t *testing.T) {
			t.Parallel()
			cfg := Config{DatasetSpec: "evalbench:" + dir, Engine: tc.engine, Timeout: 30 * time.Second, MaxRows: 10_000, Workers: 2}
			if tc.env != "" {
				if testing.Short() {
					t.Skip("skipping in -short: 46 task databases on a server")
				}
				dsn := os.Getenv(tc.env)
				if dsn == "" {
					t.Skipf("skipping: %s not set (eval \"$(bash .ci/servers.sh)\" starts a server)", tc.env)
				}
				cfg.Server = pgServer{dsn}
			} else {
				cfg.TaskDBDir = t.TempDir()
			}
			// wrong: a DDL with another column type, a DDL that does nothing (255's
			// eval_query names a column with a trailing space: judged by it, this would
			// pass), a DML that changes nothing.
			wrongSQL := map[string]string{"43": "ALTER TABLE tbl_labels ADD COLUMN comments_description INTEGER",
				"255": "SELECT 1", "184": "SELECT 1"}
			var preds, wrong []map[string]any
			for _, task := range ds.Tasks {
				preds = append(preds, map[string]any{"instance_id": task.ID, "pred_sqls": task.Golden[tc.engine]})
				if q, ok := wrongSQL[task.ID]; ok {
					wrong = append(wrong, map[string]any{"instance_id": task.ID, "pred_sqls": []string{q}})
				}
			}
			predFile, wrongFile := filepath.Join(t.TempDir(), "preds.jsonl"), filepath.Join(t.TempDir(), "wrong.jsonl")
			writeLines(t, predFile, preds)
			writeLines(t, wrongFile, wrong)
			cfg.Preds = []string{"gold=" + predFile, "wrong=" + wrongFile}
			cfg.AllowMissing = true // wrong predicts only the tasks of wrongSQL
			ctx := context.Background()
			obs := &notes{}
			unlock := func() {}
			if tc.engine == "postgres" {
				unlock = makingPGCopies()
			}
			p, err := Prepare(ctx, cfg, obs)
			if err != nil {
				unlock()
				t.Fatal(err)
			}
			res, err := Eval(ctx, p, nil, newMemSink(len(cfg.Preds)), obs)
			unlock()
			if err != nil {
				t.Fatal(err)
			}
			if tc.engine == "mysql" { // no other test of this process makes MySQL copies
				m, err := taskdb.OpenMySQL(ctx, os.Getenv(tc.env))
				if err != nil {
					t.Fatal(err)
				}
				if left, err := m.Mine(ctx); err != nil || len(left) > 0 {
					t.Errorf("task databases left after the run: %v %v", left, err)
				}
				m.Close()
			}
			counts := map[record.Verdict]int{}
			got := map[string]string{}
			for _, r := range res.Systems[0].Records {
				counts[r.Verdict]++
				if r.Verdict != record.Correct {
					got[r.QuestionID] = string(r.Verdict)
					t.Logf("%s %s (%s): %s", r.QuestionID, r.Verdict, r.TaskCategory, r.ErrorMessage)
				}
			}
			if len(cfg.Preds) > 1 {
				judged := 0
				for _, r := range res.Systems[1].Records {
					if _, ok := wrongSQL[r.QuestionID]; ok {
						judged++
						if r.Verdict != record.Incorrect {
							t.Errorf("task %s, a wrong prediction: %s %q", r.QuestionID, r.Verdict, r.ErrorMessage)
						}
					}
				}
				if judged != len(wrongSQL) {
					t.Errorf("%d wrong predictions judged, want %d", judged, len(wrongSQL))
				}
			}
			var line []string
			for v, n := range counts {
				line = append(line, fmt.Sprintf("%s %d", v, n))
			}
			slices.Sort(line)
			t.Logf("%s: %s", tc.engine, strings.Join(line, ", "))
			if tc.want[clock] == "" {
				delete(got, clock) // the clock decides (see above)
			}
			for _, id := range tc.unstable {
				delete(got, id)
			}
			for id, v := range got {
				if tc.want[id] != v {
					t.Errorf("task %s: %s, want %q", id, v, tc.want[id])
				}
			}
			for id, v := range tc.want {
				if got[id] == "" {
					t.Errorf("task %s: correct, want %s", id, v)
				}
			}
		})
	}
}
