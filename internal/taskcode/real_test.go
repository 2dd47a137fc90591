package taskcode

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestRealTestCases runs bat-interact's test cases through the sandbox against a fake
// database that answers every statement with one row, (1). The verdicts mean nothing;
// what counts is that every test case compiles (or fails to compile exactly as in the
// official evaluator) and calls only helpers and modules the sandbox provides: no
// ImportError, no NameError for a name the official environment has. By default every
// sixteenth test case runs (the package's tests stay at seconds);
// NL2SQLBENCH_TASKCODE_FULL=1 runs them all.
func TestRealTestCases(t *testing.T) {
	if testing.Short() {
		t.Skip("every real test case is slow for -short; go test ./... runs it")
	}
	p := findPython(t)
	ds, err := taskset.LoadLiveSQL(context.Background(), testutil.Shared(t, "data/evalbench/bat-interact"))
	if err != nil {
		t.Fatal(err)
	}
	type tc struct{ id, code string }
	var all []tc
	for _, task := range ds.Tasks {
		for i, c := range task.TestCases {
			all = append(all, tc{fmt.Sprintf("%s#%d", task.ID, i+1), c})
		}
		if task.FollowUp != nil {
			for i, c := range task.FollowUp.TestCases {
				all = append(all, tc{fmt.Sprintf("%s/follow_up#%d", task.ID, i+1), c})
			}
		}
	}
	run := all
	if os.Getenv("NL2SQLBENCH_TASKCODE_FULL") == "" {
		run = nil
		for i := 0; i < len(all); i += 16 {
			run = append(run, all[i])
		}
	}
	db := &fakeDB{exec: func(string) (*taskdb.Result, error) {
		return rows([]string{"int4"}, []any{"1"}), nil
	}}
	var mu sync.Mutex
	counts := map[string]int{}
	var g errgroup.Group
	g.SetLimit(2)
	for _, c := range run {
		g.Go(func() error {
			o, err := p.Run(context.Background(), db, Case{Code: c.code, PredSQLs: []string{"SELECT 1"}, SolSQLs: []string{"SELECT 1"}, DBName: "db_blog"})
			if err != nil {
				return fmt.Errorf("%s: %w", c.id, err)
			}
			key := string(o.Status)
			if o.Status == TestError {
				key += " " + o.Class
			}
			mu.Lock()
			counts[key]++
			mu.Unlock()
			switch {
			case o.Compile:
				t.Logf("%s does not compile: %s %s", c.id, o.Class, o.Message)
			case strings.Contains(o.Class, "ImportError"), o.Class == "ModuleNotFoundError":
				t.Errorf("%s imports what the sandbox lacks: %s", c.id, o.Message)
			case o.Class == "NameError" && officialName(o.Message):
				t.Errorf("%s: %s, a name the official environment has", c.id, o.Message)
			case o.Status == Timeout, o.Status == Killed, o.Class == "SandboxError":
				t.Errorf("%s: %s %s %s\n%s", c.id, o.Status, o.Class, o.Message, o.Stderr)
			case o.Class == "NameError":
				t.Logf("%s: %s (as in the official evaluator)", c.id, o.Message)
			case o.Status == TestError && o.Class != "IndexError":
				t.Logf("%s: %s %s (the fake database's one row)", c.id, o.Class, firstLine(o.Message))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-28s %d\n", k, counts[k])
	}
	t.Logf("%d of %d test cases ran against the fake database:\n%s", len(run), len(all), b.String())
}

// officialName: the message names a global of the official run_test_case.
func officialName(msg string) bool {
	for _, n := range []string{"perform_query_on_postgresql_databases", "execute_queries", "ex_base",
		"performance_compare_by_qep", "check_sql_function_usage", "remove_distinct", "remove_comments",
		"remove_round", "preprocess_results", "pred_query_result", "conn", "pred_sqls", "sol_sqls", "db_name"} {
		if strings.Contains(msg, "'"+n+"'") {
			return true
		}
	}
	return false
}
